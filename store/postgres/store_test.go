package postgres_test

import (
	"testing"

	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/postgres"
	"github.com/umpire-pbem/umpire/store/postgres/pgtest"
	"github.com/umpire-pbem/umpire/store/storetest"
)

// migrated returns the URL of a fresh schema, migrated.
func migrated(t testing.TB) string {
	t.Helper()
	url := pgtest.URL(t)
	if _, err := postgres.Migrate(t.Context(), url, postgres.Options{}); err != nil {
		t.Fatalf("Migrate: %v", err)
	}
	return url
}

// openURL opens a store on url, closed at the test's end.
func openURL(t testing.TB, url string) *postgres.Store {
	t.Helper()
	s, err := postgres.Open(t.Context(), url, postgres.Options{MaxConns: 4})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// open is Migrate and Open on a fresh schema.
func open(t testing.TB) *postgres.Store { return openURL(t, migrated(t)) }

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return open(t) })
}
