package daemon_test

import (
	"context"
	"testing"

	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/postgres"
	"github.com/umpire-pbem/umpire/store/postgres/pgtest"
)

// BenchmarkEngineBurstStores is BenchmarkEngineBurst on each store, in one
// run so that the figures compare: the bbolt file, and PostgreSQL (the
// server UMPIRE_TEST_POSTGRES names, a fresh schema each time; skipped
// without it). On PostgreSQL the daemon works under its leases (it is the
// only holder), and the sender asks for its own address's mail only.
func BenchmarkEngineBurstStores(b *testing.B) {
	b.Run("bolt", func(b *testing.B) {
		for range b.N {
			runBench(b, 1000, 0, 0)
		}
	})
	b.Run("postgres", func(b *testing.B) {
		for range b.N {
			url := pgtest.URL(b)
			ctx := context.Background()
			if _, err := postgres.Migrate(ctx, url, postgres.Options{}); err != nil {
				b.Fatal(err)
			}
			st, err := postgres.Open(ctx, url, postgres.Options{})
			if err != nil {
				b.Fatal(err)
			}
			runBenchOn(b, st, b.TempDir(), 1000, 0, 0)
			st.Close()
		}
	})
}

// BenchmarkMailBurstStores is BenchmarkMailBurst — the real mail path, a
// scripted Dragon Rage game with pictures, through the local hub — on the
// bbolt file and on PostgreSQL (the server UMPIRE_TEST_POSTGRES names, a
// fresh schema; the daemon under its leases), in one run so that the
// rates compare.
func BenchmarkMailBurstStores(b *testing.B) {
	b.Run("bolt", func(b *testing.B) {
		w, st, stop := inProcess(b, nil, 0)
		defer stop()
		mailBurst(b, w, st)
	})
	b.Run("postgres", func(b *testing.B) {
		url := pgtest.URL(b)
		w, st, stop := inProcessOn(b, nil, 0, func(string) (store.Store, error) {
			ctx := context.Background()
			if _, err := postgres.Migrate(ctx, url, postgres.Options{}); err != nil {
				return nil, err
			}
			return postgres.Open(ctx, url, postgres.Options{})
		})
		defer stop()
		mailBurst(b, w, st)
	})
}
