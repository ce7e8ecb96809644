package daemon_test

// La Conquête (Dragon Noir 3's campaign) on the real mail path: the
// campaign's strategic turns played by mail through the local hub, the
// daemon and its bbolt file, as BenchmarkMailRoundTrip plays Dragon Rage —
// each mail an SMTP submission by the player's mail program, its reply
// (with the map of regions) awaited in the sender's INBOX — against the
// same reference: the same text mailed to the other player instead, through
// the same hub and clients, in the same run. Dragon Rage's Nurkott 2 is
// played in the same loop, one game per iteration, for a second ratio.
//
//	go test -run '^$' -bench ConqueteByMail -benchtime 1x -count 5 ./mail/daemon/

import (
	"context"
	"fmt"
	"maps"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir/conquete"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir/conquete/conquetetest"
	"github.com/umpire-pbem/umpire/adjudicator/rulesets"
	"github.com/umpire-pbem/umpire/mail/daemon"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
)

// createCampaign writes a new campaign into st (conquetetest's, as
// conquete's TestCampaignByMail plays it: three turns), its players two of
// the world's users, without welcome mails. Its secrets and seeds are a
// fixed stream started at the campaign's number: the i-th campaign of a
// run plays the same game in every run. Its dice differ from
// one campaign to the next (they hang on the game's id), so a campaign may
// come to its Battle in turn 1 or 3: the "mails" metric says how many
// mails an op was.
func (w *realWorld) createCampaign(st store.Store) *realGame {
	i := w.games
	w.games++
	g := &realGame{id: fmt.Sprintf("val-bench-%d", i), user: map[string]string{
		string(conquete.Rebels): w.players[(2*i)%len(w.players)], string(conquete.Reptilians): w.players[(2*i+1)%len(w.players)]}}
	svc := &games.Service{Store: st, Rules: rulesets.Lookup, Rand: &conquetetest.Bytes{N: byte(i)}}
	c, err := svc.Create(context.Background(), games.CreateRequest{ID: g.id, Ruleset: conquete.Name, Scenario: conquete.ScenarioID,
		Options: conquetetest.Options(),
		Players: []games.Player{{Side: conquete.Rebels, Address: w.addr(g.user[string(conquete.Rebels)])},
			{Side: conquete.Reptilians, Address: w.addr(g.user[string(conquete.Reptilians)])}}})
	if err != nil {
		w.b.Fatal(err)
	}
	g.secrets = map[string]string{}
	for s, v := range c.Secrets {
		g.secrets[string(s)] = v
	}
	return g
}

// nextCampaignMail is the mail the campaign waits for next (c's, or the
// side's default); done when a Battle is due (its result awaited) or the
// campaign is over.
func (w *realWorld) nextCampaignMail(st store.Store, g *realGame, c *conquetetest.Campaign) (conquetetest.Mail, bool) {
	cg, err := (&games.Service{Store: st, Rules: rulesets.Lookup}).Load(context.Background(), g.id)
	if err != nil {
		w.b.Fatal(err)
	}
	s, err := c.Next(cg)
	if err != nil {
		w.b.Fatal(err)
	}
	return s.Mail, s.Over || s.Battle != ""
}

// BenchmarkConqueteByMail: a campaign of La Conquête played by mail from
// its setups to the start of its first Battle (the Rebels' R3 at La
// Croisée, turn 3): every mail of turns 1 to 3 — setups, reorganisation,
// movement passes, the stealthy troop's reveal, negotiations' Regions,
// the Battle's decisions — is an order through the hub and the daemon
// (intake, store, adjudication, results mails with the map of regions),
// timed from submission to its reply in the sender's INBOX; then the same
// text as a plain mail to the other player (the reference). Metrics,
// for the setups and per turn N: setup-ms and turnN-ms (the order round
// trips, summed), setup/plain and turnN/plain (over the same texts'
// plain round trips); all/plain for every mail;
// order-p50-ms, plain-p50-ms; desk-p50-ms (the daemon's own share of a
// campaign mail, as it logs); dr-p50-ms and order/dr: Dragon Rage's
// Nurkott 2 orders through the same path in the same iteration, the
// round-trip p50 of a campaign mail over a Dragon Rage one. B/op and
// allocs/op are the whole process's (hub, daemon, mail programs) over the
// timed mails, per campaign.
func BenchmarkConqueteByMail(b *testing.B) {
	desk := &deskTimes{}
	if os.Getenv("UMPIRE_TEST_LOG") != "" {
		desk = nil // the daemon's whole log on stderr (quietLog), no desk-p50-ms
	}
	w, st, stop := inProcess(b, desk, 0)
	defer stop()
	b.ReportAllocs()
	turnOrder, turnPlain := map[int]time.Duration{}, map[int]time.Duration{}
	var orders, plains, drOrders, drPlains []time.Duration
	var deskMS []time.Duration
	mails := 0
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		g := w.createCampaign(st)
		drs := w.createGames(st, 1)
		camp := conquetetest.NewCampaign()
		b.StartTimer()
		for {
			b.StopTimer()
			m, done := w.nextCampaignMail(st, g, camp)
			if done {
				break
			}
			body := m.Body(g.id, g.secrets[string(m.Side)])
			b.StartTimer()
			before := 0
			if desk != nil {
				desk.mu.Lock()
				before = len(desk.ms)
				desk.mu.Unlock()
			}
			o := w.roundTrip(func() (string, error) {
				u := g.user[string(m.Side)]
				id, err := w.submit(u, w.addr(daemon.HubDaemonUser), body)
				return replyKey(u, id), err
			})
			if desk != nil {
				desk.mu.Lock()
				deskMS = append(deskMS, desk.ms[before:]...)
				desk.mu.Unlock()
			}
			if o > 5*time.Second {
				b.Logf("slow: the %s mail of %s answered in %v", m.Key, g.id, o.Round(time.Millisecond))
			}
			p := w.roundTrip(func() (string, error) {
				to := g.other(string(m.Side))
				id, err := w.submit(g.user[string(m.Side)], w.addr(to), body)
				return mailKey(to, id), err
			})
			orders, plains = append(orders, o), append(plains, p)
			t := m.Round() // the setups: 0, before turn 1's first phase
			turnOrder[t] += o
			turnPlain[t] += p
			mails++
		}
		b.StartTimer()
		o, p := w.roundTrips(drs)
		drOrders, drPlains = append(drOrders, o...), append(drPlains, p...)
	}
	b.StopTimer()
	if mails == 0 {
		b.Fatal("no campaign mail was sent")
	}
	var sumO, sumP time.Duration
	for _, t := range slices.Sorted(maps.Keys(turnOrder)) {
		name := fmt.Sprintf("turn%d", t)
		if t == 0 {
			name = "setup"
		}
		b.ReportMetric(ms(turnOrder[t])/float64(b.N), name+"-ms")
		b.ReportMetric(float64(turnOrder[t])/float64(turnPlain[t]), name+"/plain")
		sumO, sumP = sumO+turnOrder[t], sumP+turnPlain[t]
	}
	b.ReportMetric(float64(sumO)/float64(sumP), "all/plain")
	b.ReportMetric(float64(mails)/float64(b.N), "mails")
	b.ReportMetric(ms(median(orders)), "order-p50-ms")
	b.ReportMetric(ms(median(plains)), "plain-p50-ms")
	b.ReportMetric(ms(slices.Max(orders)), "order-max-ms")
	if len(deskMS) > 0 {
		b.ReportMetric(ms(median(deskMS)), "desk-p50-ms")
	}
	b.ReportMetric(ms(median(drOrders)), "dr-p50-ms")
	b.ReportMetric(float64(median(orders))/float64(median(drOrders)), "order/dr")
	b.ReportMetric(float64(median(drOrders))/float64(median(drPlains)), "dr/plain")
}
