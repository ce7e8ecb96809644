package referee_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/testrules"
	"github.com/umpire-pbem/umpire/mail/compose"
	"github.com/umpire-pbem/umpire/mail/referee"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
	"github.com/umpire-pbem/umpire/templates"
)

// raceOrders answers r in a race, as a player would.
func raceOrders(r adjudicator.Request, g *game.Game) string {
	src := fmt.Sprintf("turn: %d\nphase: %s\norders:\n", r.Turn, r.Phase)
	switch r.Phase {
	case "bid":
		src += fmt.Sprintf("  bid: %d\n", min(1, g.State.(*testrules.State).Energy[string(r.Side)]))
	case "move":
		p := strings.ToUpper(string(r.Side[:1]))
		src += "  - advance: " + p + "1\n  - advance: " + p + "2\n"
	case "trap":
		for _, id := range g.State.(*testrules.State).Trapped {
			src += "  " + id + ": hold\n"
		}
	}
	return src
}

// longGame is a race played by mail's rules to at least n events in a
// bbolt file, created as a referee's "command: new" would (players with
// addresses and secrets), its history played in memory and appended in
// large batches, so that a benchmark can mail it one more order.
func longGame(b *testing.B, n int) (*store.Bolt, map[adjudicator.Side]string) {
	ctx := context.Background()
	st, err := store.Open(filepath.Join(b.TempDir(), "umpire.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	clock := time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC)
	svc := &games.Service{Store: st, Rules: lookup, Rand: &fixedRand{}, Now: func() time.Time { return clock }}
	c, err := svc.Create(ctx, games.CreateRequest{ID: "long", Ruleset: "race", Scenario: "sprint",
		Options: map[string]string{"track": "1000000000", "turns": "1000000"},
		Players: []games.Player{{Side: "red", Address: "red@example.org"}, {Side: "blue", Address: "blue@example.org"}}})
	if err != nil {
		b.Fatal(err)
	}
	g := c.Game
	var batch []store.NewEvent
	openings := map[string][]byte{} // what the store keeps of sealed records (store/games: "sealed/" + digest)
	kept := map[string][]byte{}
	flush := func() {
		if _, err := st.Append(ctx, store.Batch{Game: "long", Expected: g.Version - uint64(len(batch)), Events: batch, Secrets: kept}); err != nil {
			b.Fatal(err)
		}
		batch, kept = nil, map[string][]byte{}
	}
	unseal := func(c string) ([]byte, error) {
		for _, p := range openings {
			if game.Digest(p) == c {
				return p, nil
			}
		}
		return nil, game.ErrSealed
	}
	next := make([]byte, dice.SeedSize)
	chains := map[int][]byte{}
	for g.Version < uint64(n) || len(g.Pending) > 0 {
		var r adjudicator.Request
		for _, q := range g.Due() {
			if _, ok := g.Answered(q.ID); !ok {
				r = q
				break
			}
		}
		out, err := g.Submit(game.Input{Side: r.Side, Src: []byte(raceOrders(r, g)), Time: clock, Via: "bench",
			Secrets: func(gen int) ([]byte, error) {
				if sec, ok := chains[gen]; ok {
					return sec, nil
				}
				return st.Secret(ctx, "long", fmt.Sprintf("dice/%d", gen))
			}, NextSecret: next, Rand: &fixedRand{}, Unseal: unseal})
		if err != nil {
			b.Fatal(err)
		}
		if out.NewSecret != nil {
			// A new dice chain, as store/games keeps its secret ("dice/N").
			chains[out.NewChain] = out.NewSecret
			kept[fmt.Sprintf("dice/%d", out.NewChain)] = out.NewSecret
			next = make([]byte, dice.SeedSize)
			next[0] = byte(out.NewChain + 1)
		}
		for _, rec := range out.Records {
			if rec.Private != nil {
				key := "sealed/" + game.Digest(rec.Private)
				openings[key], kept[key] = rec.Private, rec.Private
			}
			batch = append(batch, store.NewEvent{Type: rec.Type, Schema: rec.Schema, Time: rec.Time, Actor: rec.Actor, Payload: rec.Payload})
		}
		g = out.Next
		if len(batch) >= 5000 {
			flush()
		}
	}
	if len(batch) > 0 {
		flush()
	}
	// As a daemon finds it after a restart: a snapshot of the game near
	// its end (the games service keeps one every 512 events).
	if _, err := (&games.Service{Store: st, Rules: lookup}).Load(ctx, "long"); err != nil {
		b.Fatal(err)
	}
	return st, c.Secrets
}

// BenchmarkMailOnLongGame: the desk handles one order mail (read, checked,
// adjudicated when it completes a phase, its replies composed, all
// committed with one fsync) on race games of about 1k, 10k and 100k
// events, in turn in each iteration; the metrics are each size's time and
// its ratio to the 1k game's. Cold: a new desk and service, nothing cached
// (the first mail after a restart); warm: the desk that handled the last.
func BenchmarkMailOnLongGame(b *testing.B) {
	sizes := []int{1000, 10000, 100000}
	names := []string{"1k", "10k", "100k"}
	type world struct {
		st      *store.Bolt
		secrets map[adjudicator.Side]string
		warm    *referee.Desk
	}
	now := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
	clock := func() time.Time { now = now.Add(time.Second); return now }
	desk := func(st store.Store) *referee.Desk {
		svc := &games.Service{Store: st, Rules: lookup, Now: clock}
		return &referee.Desk{Games: svc, Templates: templates.Default(), From: compose.Address{Name: "Umpire", Address: "umpire@example.org"}}
	}
	var worlds []*world
	for _, n := range sizes {
		st, secrets := longGame(b, n)
		worlds = append(worlds, &world{st: st, secrets: secrets, warm: desk(st)})
	}
	ctx := context.Background()
	seq := 0
	mailFor := func(w *world) []byte {
		g, err := w.warm.Games.Load(ctx, "long")
		if err != nil {
			b.Fatal(err)
		}
		for _, q := range g.Due() {
			if _, ok := g.Answered(q.ID); !ok {
				seq++
				body := fmt.Sprintf("game: long\nside: %s\nsecret: %s\n%s", q.Side, w.secrets[q.Side], raceOrders(q, g))
				return []byte(fmt.Sprintf("From: %s@example.org\r\nTo: umpire@example.org\r\nSubject: orders\r\nMessage-ID: <scale-%d@example.org>\r\n\r\n%s",
					q.Side, seq, strings.ReplaceAll(body, "\n", "\r\n")))
			}
		}
		b.Fatal("nothing due")
		return nil
	}
	for _, cold := range []bool{true, false} {
		name := "Warm"
		if cold {
			name = "Cold"
		}
		b.Run(name, func(b *testing.B) {
			total := make([]time.Duration, len(worlds))
			for b.Loop() {
				for i, w := range worlds {
					b.StopTimer()
					raw := mailFor(w)
					d := w.warm
					if cold {
						d = desk(w.st)
					}
					b.StartTimer()
					t := time.Now()
					out, err := d.Handle(ctx, raw)
					total[i] += time.Since(t)
					if err != nil || out.Folder != referee.Processed {
						b.Fatalf("%s: %+v %v", names[i], out, err)
					}
				}
			}
			for i, name := range names {
				b.ReportMetric(float64(total[i].Microseconds())/1000/float64(b.N), name+"-ms")
				if i > 0 {
					b.ReportMetric(float64(total[i])/float64(total[0]), name+"/1k")
				}
			}
		})
	}
}
