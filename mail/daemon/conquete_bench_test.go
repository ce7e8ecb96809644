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
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir/conquete"
	"github.com/umpire-pbem/umpire/adjudicator/rulesets"
	"github.com/umpire-pbem/umpire/mail/daemon"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
)

// conqueteScript is what the players mail in the short campaign of
// conquete's TestCampaignByMail (turn/phase/side → orders, in order): the
// setups, the Reptilians' scouts made stealthy, moved unseen and revealed,
// the Rebels to the Moulin (a negotiation with the Hermit), their troop R3
// by the Conseil des Ents (another) to La Croisée, where the Sorcerer
// waits: a Battle. Everything else is the side's default answer.
func conqueteScript() map[string][]string {
	return map[string][]string{
		"1/setup/rebels": {`counters: [konrad, zacharie, laberne, gotmar, godiva, lucifer, jon, arlon, aldus, grast, thrugg, zed]
messenger: {ally: elfes}
troops:
  R1: [konrad, godiva, lucifer, grast]
  R2: [zacharie, thrugg, gotmar, aldus]
  R3: [laberne, jon, arlon, zed]`},
		"1/setup/reptilians": {`relations: {barbares: E, druides: N, elfes: A, ermite: N, gobelins: A, licornes: E, nains-gris: N}
troops:
  R1: [lord, chief-ysshal, rept-armoured-1, rept-armoured-2, rept-armoured-3, rept-armoured-4]
  R2: [chief-thessk, rept-warrior-4, rept-warrior-5, rept-warrior-6, rept-warrior-7, rept-warrior-8]
  R3: [rept-scout-1, rept-scout-2, rept-scout-3]
  R5: [raptor-1, raptor-2, raptor-3, raptor-4]
  R6: [sorcerer]
  R4: {at: le-pont, counters: [chief-sarrak, rept-warrior-1, rept-warrior-2, rept-warrior-3]}`},
		"1/reorganisation/reptilians": {`stealthy: [R3]`},
		"1/movement/rebels":           {"move: R1\npath: [le-moulin]", "move: R2\npath: [le-moulin]", "move: R3\npath: [le-moulin]"},
		"1/movement/reptilians":       {"move: R3\npath: [le-pont, carrefour-du-dragon]", "move: R6\npath: [le-pont, la-croisee]"},
		"1/reveal/reptilians":         {"reveal: [R3]"},
		"2/movement/rebels":           {"move: R3\npath: [conseil-des-ents]"},
		"3/movement/rebels":           {"move: R3\npath: [la-croisee]"},
	}
}

func indentOrders(s string) string {
	var b strings.Builder
	for l := range strings.SplitSeq(strings.TrimRight(s, "\n"), "\n") {
		b.WriteString("  " + l + "\n")
	}
	return b.String()
}

// sameBytes is a stream of bytes fixed by its start: the campaigns' secrets
// and dice seeds, the same at every run (the i-th campaign of a run plays
// the same game in every run; its dice also depend on its id).
type sameBytes struct{ n byte }

func (d *sameBytes) Read(p []byte) (int, error) {
	for i := range p {
		d.n = d.n*31 + 17
		p[i] = d.n
	}
	return len(p), nil
}

// campaignMail is one mail of a campaign: who sends it, its text, and the
// turn and phase it answers.
type campaignMail struct {
	side  adjudicator.Side
	turn  int
	phase string
	body  string
}

// createCampaign writes a new campaign into st (three turns), its players
// two of the world's users, without welcome mails. Its dice differ from
// one campaign to the next (they hang on the game's id), so a campaign may
// come to its Battle in turn 1 or 3: the "mails" metric says how many
// mails an op was.
func (w *realWorld) createCampaign(st store.Store) *realGame {
	i := w.games
	w.games++
	g := &realGame{id: fmt.Sprintf("val-bench-%d", i), user: map[string]string{
		string(conquete.Rebels): w.players[(2*i)%len(w.players)], string(conquete.Reptilians): w.players[(2*i+1)%len(w.players)]}}
	svc := &games.Service{Store: st, Rules: rulesets.Lookup, Rand: &sameBytes{n: byte(i)}}
	c, err := svc.Create(context.Background(), games.CreateRequest{ID: g.id, Ruleset: conquete.Name, Scenario: conquete.ScenarioID,
		Options: map[string]string{"length": "1-apres-midi"},
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

// nextCampaignMail is the mail the campaign waits for next, scripted or
// the side's default; done when a Battle is due (its result awaited) or
// the campaign is over.
func (w *realWorld) nextCampaignMail(st store.Store, g *realGame, script map[string][]string) (m campaignMail, done bool) {
	cg, err := (&games.Service{Store: st, Rules: rulesets.Lookup}).Load(context.Background(), g.id)
	if err != nil {
		w.b.Fatal(err)
	}
	if cg.Over() {
		return m, true
	}
	due := cg.Due()
	for _, r := range due {
		if r.Kind == adjudicator.KindResult {
			return m, true
		}
	}
	for _, r := range due {
		if _, answered := cg.Answered(r.ID); answered || r.Side == adjudicator.SeriesSide {
			continue
		}
		key := fmt.Sprintf("%d/%s/%s", r.Turn, r.Phase, r.Side)
		var orders string
		if q := script[key]; len(q) > 0 {
			script[key] = q[1:]
			orders = fmt.Sprintf("turn: %d\nphase: %s\norders:\n%s", r.Turn, r.Phase, indentOrders(q[0]))
		} else if b, ok := cg.DefaultAnswer(r); ok {
			orders = string(b)
		} else {
			w.b.Fatalf("%s: nothing to answer %s with", g.id, r.Title)
		}
		body := fmt.Sprintf("game: %s\nside: %s\nsecret: %s\n%s", g.id, r.Side, g.secrets[string(r.Side)], orders)
		return campaignMail{side: r.Side, turn: r.Turn, phase: r.Phase, body: body}, false
	}
	w.b.Fatalf("%s waits for %v and nobody can answer", g.id, due)
	return m, true
}

// roundTrip sends one mail and waits for its key (a reply, or the mail
// itself) in the INBOX it goes to: the time from submission to arrival.
func (w *realWorld) roundTrip(send func() (string, error)) time.Duration {
	start := time.Now()
	key, err := send()
	if err != nil {
		w.b.Fatal(err)
	}
	at, subj, err := w.seen.wait([]string{key})
	if err != nil {
		w.b.Fatal(err)
	}
	checkAccepted(w.b, subj)
	return at[0].Sub(start)
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
		script := conqueteScript()
		b.StartTimer()
		for {
			b.StopTimer()
			m, done := w.nextCampaignMail(st, g, script)
			if done {
				break
			}
			b.StartTimer()
			before := 0
			if desk != nil {
				desk.mu.Lock()
				before = len(desk.ms)
				desk.mu.Unlock()
			}
			o := w.roundTrip(func() (string, error) {
				u := g.user[string(m.side)]
				id, err := w.submit(u, w.addr(daemon.HubDaemonUser), m.body)
				return replyKey(u, id), err
			})
			if desk != nil {
				desk.mu.Lock()
				deskMS = append(deskMS, desk.ms[before:]...)
				desk.mu.Unlock()
			}
			if o > 5*time.Second {
				b.Logf("slow: %s's %d/%s mail of %s answered in %v", m.side, m.turn, m.phase, g.id, o.Round(time.Millisecond))
			}
			p := w.roundTrip(func() (string, error) {
				to := g.other(string(m.side))
				id, err := w.submit(g.user[string(m.side)], w.addr(to), m.body)
				return mailKey(to, id), err
			})
			orders, plains = append(orders, o), append(plains, p)
			t := m.turn
			if m.phase == "setup" {
				t = 0 // the setups, before turn 1's first phase
			}
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
