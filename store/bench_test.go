package store_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/store"
)

// benchPayload is about the size of a submitted order set as JSON.
var benchPayload = []byte(`{"side":"invader","turn":12,"orders":[` +
	`{"unit":"A1","move":["B2","C3"]},{"unit":"A2","hold":true},{"unit":"F1","move":["D4"]},` +
	`{"unit":"F2","support":"F1"},{"unit":"A3","move":["E5","E6"]}],"note":"benchmark payload"}`)

func benchEvents(n int) []store.NewEvent {
	evs := make([]store.NewEvent, n)
	for i := range evs {
		evs[i] = store.NewEvent{Type: "orders.submitted", Schema: 1, Time: t0.Add(time.Duration(i) * time.Second), Actor: "side:invader", Payload: benchPayload}
	}
	return evs
}

func benchBolt(b *testing.B, opts ...store.Option) *store.Bolt {
	b.Helper()
	s, err := store.Open(filepath.Join(b.TempDir(), "bench.db"), opts...)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

func reportEvents(b *testing.B, events int64) {
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkAppendFsync: one event per Append, one writer, a sync per Append.
func BenchmarkAppendFsync(b *testing.B) {
	s := benchBolt(b)
	ctx := context.Background()
	ev := benchEvents(1)
	var v uint64
	for b.Loop() {
		if _, err := s.Append(ctx, store.Batch{Game: "g", Expected: v, Events: ev}); err != nil {
			b.Fatal(err)
		}
		v++
	}
	reportEvents(b, int64(v))
}

// BenchmarkAppendBatch: 100 events per Append, as when a turn resolves.
func BenchmarkAppendBatch(b *testing.B) {
	s := benchBolt(b)
	ctx := context.Background()
	evs := benchEvents(100)
	var v uint64
	for b.Loop() {
		if _, err := s.Append(ctx, store.Batch{Game: "g", Expected: v, Events: evs}); err != nil {
			b.Fatal(err)
		}
		v += 100
	}
	reportEvents(b, int64(v))
}

// BenchmarkAppendConcurrent: many goroutines, each appending single events to
// its own game, with and without bolt's DB.Batch.
func BenchmarkAppendConcurrent(b *testing.B) {
	for _, mode := range []struct {
		name string
		opts []store.Option
	}{
		{"Update", nil},
		{"Batched", []store.Option{store.WithBatching()}},
	} {
		for _, par := range []int{4, 32} { // goroutines per CPU
			b.Run(fmt.Sprintf("%s/par=%d", mode.name, par), func(b *testing.B) {
				s := benchBolt(b, mode.opts...)
				ctx := context.Background()
				ev := benchEvents(1)
				var games, total atomic.Int64
				b.SetParallelism(par)
				b.ResetTimer()
				b.RunParallel(func(pb *testing.PB) {
					game := fmt.Sprint("g", games.Add(1))
					var v uint64
					for pb.Next() {
						if _, err := s.Append(ctx, store.Batch{Game: game, Expected: v, Events: ev}); err != nil {
							b.Error(err)
							return
						}
						v++
					}
					total.Add(int64(v))
				})
				reportEvents(b, total.Load())
			})
		}
	}
}

// BenchmarkScan100k: replaying a 100k-event game.
func BenchmarkScan100k(b *testing.B) {
	const n = 100_000
	for _, kind := range []string{"Bolt", "Memory"} {
		b.Run(kind, func(b *testing.B) {
			var s store.Store
			if kind == "Bolt" {
				s = benchBolt(b)
			} else {
				s = store.NewMemory()
			}
			ctx := context.Background()
			evs := benchEvents(1000)
			for v := uint64(0); v < n; v += 1000 {
				if _, err := s.Append(ctx, store.Batch{Game: "g", Expected: v, Events: evs}); err != nil {
					b.Fatal(err)
				}
			}
			var seen int64
			for b.Loop() {
				err := s.Scan(ctx, "g", 1, func(e store.Event) error {
					seen++
					return nil
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			if seen != int64(b.N)*n {
				b.Fatalf("scanned %d events in %d runs, want %d each", seen, b.N, n)
			}
			reportEvents(b, seen)
		})
	}
}

// BenchmarkEvents100k: the same replay through Events, all at once.
func BenchmarkEvents100k(b *testing.B) {
	const n = 100_000
	s := benchBolt(b)
	ctx := context.Background()
	evs := benchEvents(1000)
	for v := uint64(0); v < n; v += 1000 {
		if _, err := s.Append(ctx, store.Batch{Game: "g", Expected: v, Events: evs}); err != nil {
			b.Fatal(err)
		}
	}
	var seen int64
	for b.Loop() {
		all, err := s.Events(ctx, "g", 1)
		if err != nil {
			b.Fatal(err)
		}
		seen += int64(len(all))
	}
	reportEvents(b, seen)
}
