package games_test

import (
	"context"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/testrules"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
)

var (
	bigOnce sync.Once
	bigLog  []game.Entry
)

// bigGame plays a race on a very long track until the log holds at least
// 100,000 events, in memory, and returns the log.
func bigGame(b *testing.B) []game.Entry {
	bigOnce.Do(func() {
		secret := make([]byte, dice.SeedSize)
		rec, _, err := game.Create(game.NewGame{ID: "big", Ruleset: testrules.Race, Scenario: "sprint",
			Options: map[string]string{"track": "1000000000", "turns": "1000000"},
			Players: []game.Player{{Side: "red"}, {Side: "blue"}}, Time: time.Unix(1e9, 0), Secret: secret})
		if err != nil {
			b.Fatal(err)
		}
		log := []game.Entry{{Seq: 1, Record: rec}}
		vault := game.Vault{}
		salts := rand.NewChaCha8([32]byte{1})
		g, err := game.Load(log, lookup)
		if err != nil {
			b.Fatal(err)
		}
		for len(log) < 100000 {
			for _, r := range g.Due() {
				if _, ok := g.Answered(r.ID); ok {
					continue
				}
				out, err := g.Submit(game.Input{Side: r.Side, Src: []byte(orders(r, g)), Time: time.Unix(1e9, 0),
					Secrets: func(int) ([]byte, error) { return secret, nil }, NextSecret: secret,
					Rand: salts, Unseal: vault.Unseal})
				if err != nil {
					b.Fatal(err)
				}
				vault.Keep(out.Records)
				for _, rec := range out.Records {
					log = append(log, game.Entry{Seq: uint64(len(log) + 1), Record: rec})
				}
				g = out.Next
				break
			}
		}
		bigLog = log
	})
	return bigLog
}

func rollsIn(entries []game.Entry) int {
	a := game.Verify(entries)
	return a.Dice
}

// BenchmarkFold100k folds a 100k-event log into a game (what loading a
// game costs when nothing is cached).
func BenchmarkFold100k(b *testing.B) {
	log := bigGame(b)
	b.ResetTimer()
	for b.Loop() {
		if _, err := game.Load(log, lookup); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(log))*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkLoad100kBolt reads a 100k-event game from a bbolt file and folds it.
func BenchmarkLoad100kBolt(b *testing.B) {
	log := bigGame(b)
	st, err := store.Open(b.TempDir() + "/umpire.db")
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	for i := 0; i < len(log); i += 5000 {
		batch := store.Batch{Game: "big", Expected: uint64(i)}
		for _, e := range log[i:min(i+5000, len(log))] {
			batch.Events = append(batch.Events, store.NewEvent{Type: e.Type, Schema: e.Schema, Time: e.Time, Actor: e.Actor, Payload: e.Payload})
		}
		if _, err := st.Append(ctx, batch); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		svc := &games.Service{Store: st, Rules: lookup}
		if _, err := svc.Load(ctx, "big"); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(log))*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkReplay100k decides every adjudication of a 100k-event game again
// and compares (umpire replay).
func BenchmarkReplay100k(b *testing.B) {
	log := bigGame(b)
	b.ResetTimer()
	for b.Loop() {
		if a := game.Replay(log, lookup); !a.OK() {
			b.Fatal(a.Problems)
		}
	}
	b.ReportMetric(float64(len(log))*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkVerify100k checks every seed and recomputes every die of a
// 100k-event game (umpire verify, without the hash chain).
func BenchmarkVerify100k(b *testing.B) {
	log := bigGame(b)
	n := rollsIn(log)
	b.ResetTimer()
	for b.Loop() {
		if a := game.Verify(log); !a.OK() {
			b.Fatal(a.Problems)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "dice/s")
	b.ReportMetric(float64(len(log))*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}
