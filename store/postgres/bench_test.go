package postgres_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/store"
)

// Each benchmark runs the same work on bbolt (a file in a temp dir, a
// sync per commit) and on PostgreSQL (the test server, on loopback), as
// sub-benchmarks of one function, so that one run gives the ratio.

var benchPayload = []byte(`{"side":"invader","turn":12,"orders":[` +
	`{"unit":"A1","move":["B2","C3"]},{"unit":"A2","hold":true},{"unit":"F1","move":["D4"]},` +
	`{"unit":"F2","support":"F1"},{"unit":"A3","move":["E5","E6"]}],"note":"benchmark payload"}`)

func benchEvents(n int) []store.NewEvent {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	evs := make([]store.NewEvent, n)
	for i := range evs {
		evs[i] = store.NewEvent{Type: "orders.submitted", Schema: 1, Time: t0.Add(time.Duration(i) * time.Second), Actor: "side:invader", Payload: benchPayload}
	}
	return evs
}

// stores runs fn on each store.
func stores(b *testing.B, fn func(b *testing.B, s store.Store)) {
	b.Run("bolt", func(b *testing.B) {
		s, err := store.Open(filepath.Join(b.TempDir(), "bench.db"))
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		fn(b, s)
	})
	b.Run("postgres", func(b *testing.B) { fn(b, open(b)) })
}

// BenchmarkAppendOne: one event per Append, one writer.
func BenchmarkAppendOne(b *testing.B) {
	stores(b, func(b *testing.B, s store.Store) {
		ctx := context.Background()
		ev := benchEvents(1)
		var v uint64
		for b.Loop() {
			if _, err := s.Append(ctx, store.Batch{Game: "g", Expected: v, Events: ev}); err != nil {
				b.Fatal(err)
			}
			v++
		}
	})
}

// BenchmarkAppendTypical: what handling one mail writes: a few events,
// two mails out (a few KB each) and the intake mark.
func BenchmarkAppendTypical(b *testing.B) {
	stores(b, func(b *testing.B, s store.Store) {
		ctx := context.Background()
		evs := benchEvents(4)
		raw := make([]byte, 4096)
		var v uint64
		for b.Loop() {
			_, err := s.Append(ctx, store.Batch{Game: "g", Expected: v, Events: evs,
				Marks: []string{fmt.Sprint("imap:INBOX:1:", v)},
				Outbox: []store.Message{
					{ID: fmt.Sprint("a", v, "@umpire"), Game: "g", From: "u@x", To: []string{"p1@x"}, Raw: raw, Created: time.Now()},
					{ID: fmt.Sprint("b", v, "@umpire"), Game: "g", From: "u@x", To: []string{"p2@x"}, Raw: raw, Created: time.Now()},
				}})
			if err != nil {
				b.Fatal(err)
			}
			v += uint64(len(evs))
		}
	})
}

// BenchmarkLoad500: a 500-event game read whole, by Events and by Scan.
func BenchmarkLoad500(b *testing.B) {
	stores(b, func(b *testing.B, s store.Store) {
		ctx := context.Background()
		if _, err := s.Append(ctx, store.Batch{Game: "g", Events: benchEvents(500)}); err != nil {
			b.Fatal(err)
		}
		b.Run("Events", func(b *testing.B) {
			for b.Loop() {
				evs, err := s.Events(ctx, "g", 1)
				if err != nil || len(evs) != 500 {
					b.Fatal(len(evs), err)
				}
			}
		})
		b.Run("Scan", func(b *testing.B) {
			for b.Loop() {
				n := 0
				if err := s.Scan(ctx, "g", 1, func(store.Event) error { n++; return nil }); err != nil || n != 500 {
					b.Fatal(n, err)
				}
			}
		})
	})
}

// BenchmarkAppendParallel: many writers at once, each handling mail for a
// game of its own (what several daemons, or one daemon's workers, do):
// the throughput one server gives when commits can share a WAL flush.
// ns/op is the time per mail written across all writers; its inverse is
// the mails per second the store sustains on this machine.
func BenchmarkAppendParallel(b *testing.B) {
	stores(b, func(b *testing.B, s store.Store) {
		ctx := context.Background()
		evs := benchEvents(4)
		raw := make([]byte, 4096)
		var next atomic.Int64
		b.SetParallelism(8) // 8 writers per processor: waiting on a flush, not on the CPU
		b.RunParallel(func(pb *testing.PB) {
			game := fmt.Sprint("g", next.Add(1))
			var v uint64
			for pb.Next() {
				_, err := s.Append(ctx, store.Batch{Game: game, Expected: v, Events: evs,
					Marks:  []string{fmt.Sprint("imap:INBOX:", game, ":", v)},
					Outbox: []store.Message{{ID: fmt.Sprint(game, "-", v, "@umpire"), Game: game, From: "u@x", To: []string{"p@x"}, Raw: raw, Created: time.Now()}}})
				if err != nil {
					b.Error(err)
					return
				}
				v += uint64(len(evs))
			}
		})
	})
}
