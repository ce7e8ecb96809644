package games_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/rulesets"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
)

// BenchmarkSeriesResult: what a series adds to the write that ends one of
// its games. Each iteration ends two Dragon Rage games by a concession in
// bbolt: a game on its own (the reference) and a game of a 64-player Swiss
// tournament, whose write also records the result in the tournament,
// adjudicates the standings and, for the last game of a round, pairs the
// next round and creates its 64 games, all in one transaction. Metrics:
// each write's time and their ratio (series/ref).
func BenchmarkSeriesResult(b *testing.B) {
	st, err := store.Open(filepath.Join(b.TempDir(), "umpire.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	now := time.Unix(2e9, 0)
	s := &games.Service{Store: st, Rules: rulesets.Lookup, Now: func() time.Time { now = now.Add(time.Second); return now }}
	var players []games.Player
	for i := 1; i <= 64; i++ {
		players = append(players, games.Player{Side: adjudicator.Side(fmt.Sprintf("p%d", i)), Address: fmt.Sprintf("p%d@example.org", i)})
	}
	cups := 0
	newCup := func() string {
		cups++
		id := fmt.Sprintf("cup%d", cups)
		if _, err := s.Create(ctx, games.CreateRequest{ID: id, Ruleset: "dragonrage-tournament", Players: players,
			Options: map[string]string{"format": "swiss", "rounds": "7", "scenario": "1"}}); err != nil {
			b.Fatal(err)
		}
		return id
	}
	cup := newCup()
	// next is a game of the tournament still to end.
	next := func() string {
		g, err := s.Load(ctx, cup)
		if err != nil {
			b.Fatal(err)
		}
		if g.Over() {
			cup = newCup()
			if g, err = s.Load(ctx, cup); err != nil {
				b.Fatal(err)
			}
		}
		for _, r := range g.Due() {
			if r.Kind == adjudicator.KindResult {
				return adjudicator.ChildID(cup, strings.TrimPrefix(r.ID, "result."))
			}
		}
		b.Fatal("the tournament waits for no game")
		return ""
	}
	alone := 0
	newAlone := func() string {
		alone++
		id := fmt.Sprintf("alone%d", alone)
		if _, err := s.Create(ctx, games.CreateRequest{ID: id, Ruleset: "dragonrage", Scenario: "e1",
			Players: []games.Player{{Side: "invader", Address: "p1@example.org"}, {Side: "defender", Address: "p2@example.org"}}}); err != nil {
			b.Fatal(err)
		}
		return id
	}
	end := func(id string) {
		g, err := s.Load(ctx, id)
		if err != nil {
			b.Fatal(err)
		}
		r := g.Due()[0]
		src := fmt.Sprintf("turn: %d\nphase: %s\norders:\n  concede: true\n", r.Turn, r.Phase)
		if _, err := s.Submit(ctx, games.SubmitRequest{Game: id, Side: r.Side, Src: []byte(src), Via: "bench"}); err != nil {
			b.Fatal(err)
		}
	}
	var tRef, tSub time.Duration
	for b.Loop() {
		b.StopTimer()
		ref, sub := newAlone(), next()
		// Both games loaded once, as the daemon has them cached.
		for _, id := range []string{ref, sub, cup} {
			if _, err := s.Load(ctx, id); err != nil {
				b.Fatal(err)
			}
		}
		b.StartTimer()
		t := time.Now()
		end(ref)
		tRef += time.Since(t)
		t = time.Now()
		end(sub)
		tSub += time.Since(t)
	}
	b.ReportMetric(float64(tRef.Microseconds())/1000/float64(b.N), "ref-ms")
	b.ReportMetric(float64(tSub.Microseconds())/1000/float64(b.N), "series-ms")
	b.ReportMetric(float64(tSub)/float64(tRef), "series/ref")
}
