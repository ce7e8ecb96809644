package store_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/umpire-pbem/umpire/store"
)

// BenchmarkOpen100k: what the check on open costs, on a file holding one
// game of 100k events (about 33 MB), at each level. The file is in the
// page cache, as it is for a daemon restarting or a command run twice.
func BenchmarkOpen100k(b *testing.B) {
	const n = 100_000
	path := filepath.Join(b.TempDir(), "umpire.db")
	s, err := store.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	evs := benchEvents(1000)
	for v := uint64(0); v < n; v += 1000 {
		if _, err := s.Append(ctx, store.Batch{Game: "g", Expected: v, Events: evs}); err != nil {
			b.Fatal(err)
		}
	}
	s.Close()
	for _, lv := range []struct {
		name  string
		level store.CheckLevel
	}{{"None", store.CheckNone}, {"Pages", store.CheckPages}, {"All", store.CheckAll}} {
		b.Run(lv.name, func(b *testing.B) {
			for b.Loop() {
				s, err := store.OpenReadOnly(path, store.WithCheck(lv.level))
				if err != nil {
					b.Fatal(err)
				}
				s.Close()
			}
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/open")
		})
	}
}
