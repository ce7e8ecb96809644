package daemon_test

import (
	"context"
	"testing"

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
