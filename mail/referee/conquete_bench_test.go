package referee_test

// La Conquête at the desk: every mail of the short campaign (conquete's
// TestCampaignByMail, package conquetetest) from its setups to the start
// of its Battle, handled by the desk as the daemon does (read, secret
// checked, submitted and adjudicated, results mails with the map of
// regions composed, one fsynced bbolt commit), interleaved with the mails
// of Dragon Rage's Nurkott 2 (the reference of the other mail benchmarks'
// game) through the same desk, in the same loop. What the hub and the
// mail programs add is BenchmarkConqueteByMail's (mail/daemon).
//
//	go test -run '^$' -bench ConqueteDesk -benchtime 3x -count 5 ./mail/referee/

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir/conquete"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir/conquete/conquetetest"
	"github.com/umpire-pbem/umpire/adjudicator/rulesets"
	"github.com/umpire-pbem/umpire/mail/compose"
	"github.com/umpire-pbem/umpire/mail/referee"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
	"github.com/umpire-pbem/umpire/templates"
)

// deskMail is a mail as a player sends it (headers and body, CRLF).
func deskMail(from string, n int, body string) []byte {
	return []byte(fmt.Sprintf("From: %s\r\nTo: umpire@example.org\r\nSubject: orders\r\nMessage-ID: <cq-%d@example.org>\r\n\r\n%s",
		from, n, strings.ReplaceAll(body, "\n", "\r\n")))
}

// nextDeskMail is the mail campaign id waits for next (the campaign's,
// or the side's default), or done when a Battle's result is awaited or the
// campaign is over.
func nextDeskMail(b *testing.B, svc *games.Service, id string, c *conquetetest.Campaign) (conquetetest.Mail, bool) {
	g, err := svc.Load(context.Background(), id)
	if err != nil {
		b.Fatal(err)
	}
	s, err := c.Next(g)
	if err != nil {
		b.Fatal(err)
	}
	return s.Mail, s.Over || s.Battle != ""
}

// heapAlloc is the bytes and objects allocated so far by the process.
func heapAlloc() (uint64, uint64) {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.TotalAlloc, m.Mallocs
}

// BenchmarkConqueteDesk: one op is the campaign's mails from its setups to
// its Battle, then Nurkott 2's five mails, each handled by the same desk
// on a bbolt file. Metrics: cq-ms/mail and dr-ms/mail (the desk's time per
// mail), cq/dr (their ratio), setup-ms and turnN-ms (summed per op),
// cq-KB/mail, cq-allocs/mail, dr-KB/mail, dr-allocs/mail (what the
// process allocated while the desk handled a mail: the desk alone runs).
func BenchmarkConqueteDesk(b *testing.B) {
	raw, err := os.ReadFile("../../adjudicator/dragonrage/testdata/games/n2-raid.yaml")
	if err != nil {
		b.Fatal(err)
	}
	var n2 struct {
		Steps []struct {
			Side   string `yaml:"side"`
			Orders string `yaml:"orders"`
		} `yaml:"steps"`
	}
	if err := yaml.Unmarshal(raw, &n2); err != nil || len(n2.Steps) == 0 {
		b.Fatal("n2-raid.yaml:", err)
	}
	st, err := store.Open(filepath.Join(b.TempDir(), "umpire.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	svc := &games.Service{Store: st, Rules: rulesets.Lookup, Rand: &fixedRand{}, Now: func() time.Time { now = now.Add(time.Minute); return now }}
	d := &referee.Desk{Games: svc, Templates: templates.Default(), From: compose.Address{Name: "Umpire", Address: "umpire@example.org"}, Referee: "ref@example.org"}
	d.HookSeries()
	handle := func(raw []byte) (time.Duration, uint64, uint64) {
		b0, m0 := heapAlloc()
		t := time.Now()
		out, err := d.Handle(ctx, raw)
		el := time.Since(t)
		b1, m1 := heapAlloc()
		if err != nil || out.Folder != referee.Processed || !strings.HasPrefix(out.Reason, "accepted") {
			b.Fatalf("%+v %v\n%s", out, err, raw)
		}
		return el, b1 - b0, m1 - m0
	}
	var cqT, drT time.Duration
	var cqB, cqM, drB, drM uint64
	cqN, drN, seq, games_ := 0, 0, 0, 0
	turns := map[int]time.Duration{}
	type slowMail struct {
		label string
		el    time.Duration
	}
	var slow []slowMail
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		games_++
		cid, did := fmt.Sprintf("val-%d", games_), fmt.Sprintf("n2-%d", games_)
		var players []games.Player
		for _, side := range conquetetest.Sides {
			players = append(players, games.Player{Side: side, Address: conquetetest.Address(side)})
		}
		c, err := svc.Create(ctx, games.CreateRequest{ID: cid, Ruleset: conquete.Name, Scenario: conquete.ScenarioID,
			Options: conquetetest.Options(), Referee: "ref@example.org", Players: players})
		if err != nil {
			b.Fatal(err)
		}
		dr, err := svc.Create(ctx, games.CreateRequest{ID: did, Ruleset: "dragonrage", Scenario: "n2",
			Players: []games.Player{{Side: "defender", Address: "defender@example.org"}, {Side: "invader", Address: "invader@example.org"}}})
		if err != nil {
			b.Fatal(err)
		}
		camp := conquetetest.NewCampaign()
		for {
			cm, done := nextDeskMail(b, svc, cid, camp)
			if done {
				break
			}
			seq++
			raw := deskMail(conquetetest.Address(cm.Side), seq, cm.Body(cid, c.Secrets[cm.Side]))
			b.StartTimer()
			el, by, m := handle(raw)
			b.StopTimer()
			cqT, cqB, cqM, cqN = cqT+el, cqB+by, cqM+m, cqN+1
			turns[cm.Round()] += el
			slow = append(slow, slowMail{cm.Key, el})
		}
		for _, s := range n2.Steps {
			seq++
			raw := deskMail(s.Side+"@example.org", seq, fmt.Sprintf("game: %s\nside: %s\nsecret: %s\n%s", did, s.Side, dr.Secrets[adjudicator.Side(s.Side)], s.Orders))
			b.StartTimer()
			el, by, m := handle(raw)
			b.StopTimer()
			drT, drB, drM, drN = drT+el, drB+by, drM+m, drN+1
		}
	}
	if cqN == 0 {
		b.Fatal("no campaign mail")
	}
	cqPer, drPer := float64(cqT)/float64(cqN), float64(drT)/float64(drN)
	b.ReportMetric(cqPer/1e6, "cq-ms/mail")
	b.ReportMetric(drPer/1e6, "dr-ms/mail")
	b.ReportMetric(cqPer/drPer, "cq/dr")
	b.ReportMetric(float64(cqN)/float64(b.N), "cq-mails")
	for t, el := range turns {
		name := fmt.Sprintf("turn%d-ms", t)
		if t == 0 {
			name = "setup-ms"
		}
		b.ReportMetric(float64(el)/1e6/float64(b.N), name)
	}
	b.ReportMetric(float64(cqB)/1024/float64(cqN), "cq-KB/mail")
	b.ReportMetric(float64(cqM)/float64(cqN), "cq-allocs/mail")
	b.ReportMetric(float64(drB)/1024/float64(drN), "dr-KB/mail")
	b.ReportMetric(float64(drM)/float64(drN), "dr-allocs/mail")
	b.ReportMetric(0, "ns/op")
	slices.SortFunc(slow, func(x, y slowMail) int { return cmp.Compare(y.el, x.el) })
	for _, m := range slow[:min(5, len(slow))] {
		b.Logf("slow: %s %.0f ms", m.label, float64(m.el)/1e6)
	}
}
