package postgres_test

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/umpire-pbem/umpire/store/postgres"
	"github.com/umpire-pbem/umpire/store/postgres/pgtest"
)

func exec(t *testing.T, u, sql string, args ...any) {
	t.Helper()
	conn, err := pgx.Connect(t.Context(), u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(t.Context())
	if _, err := conn.Exec(t.Context(), sql, args...); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

func TestOpenRefusesEmptySchema(t *testing.T) {
	u := pgtest.URL(t)
	_, err := postgres.Open(t.Context(), u, postgres.Options{})
	if !errors.Is(err, postgres.ErrSchema) || !strings.Contains(err.Error(), "umpire store migrate") {
		t.Fatalf("Open on an empty schema: %v; want ErrSchema saying to run `umpire store migrate`", err)
	}
	if v, err := postgres.SchemaVersion(t.Context(), u, postgres.Options{}); err != nil || v != 0 {
		t.Fatalf("SchemaVersion of an empty schema: %d, %v", v, err)
	}
}

func TestMigrateTwiceAndAtOnce(t *testing.T) {
	u := pgtest.URL(t)
	// Three migrators at once: each step is applied once.
	var wg sync.WaitGroup
	var mu sync.Mutex
	var all []string
	for range 3 {
		wg.Go(func() {
			applied, err := postgres.Migrate(t.Context(), u, postgres.Options{})
			if err != nil {
				t.Errorf("Migrate: %v", err)
			}
			mu.Lock()
			all = append(all, applied...)
			mu.Unlock()
		})
	}
	wg.Wait()
	var want []string
	for _, m := range postgres.Migrations() {
		want = append(want, fmt.Sprintf("%04d_%s", m.Version, m.Name))
	}
	if !slices.Equal(all, want) || want[0] != "0001_init" {
		t.Fatalf("three migrators applied %v together, want %v once", all, want)
	}
	if applied, err := postgres.Migrate(t.Context(), u, postgres.Options{}); err != nil || len(applied) != 0 {
		t.Fatalf("Migrate again: %v, %v; want nothing applied", applied, err)
	}
	s := openURL(t, u)
	if v, err := s.SchemaVersion(t.Context()); err != nil || v != postgres.Latest() {
		t.Fatalf("SchemaVersion: %d, %v; want %d", v, err, postgres.Latest())
	}
}

func TestSchemaFromTheFuture(t *testing.T) {
	u := migrated(t)
	exec(t, u, `INSERT INTO schema_migrations (version, name) VALUES ($1, 'future')`, postgres.Latest()+1)
	_, err := postgres.Open(t.Context(), u, postgres.Options{})
	if !errors.Is(err, postgres.ErrSchema) || !strings.Contains(err.Error(), "newer umpire") {
		t.Fatalf("Open on a newer schema: %v; want ErrSchema naming a newer umpire", err)
	}
	if _, err := postgres.Migrate(t.Context(), u, postgres.Options{}); !errors.Is(err, postgres.ErrSchema) {
		t.Fatalf("Migrate on a newer schema: %v; want ErrSchema", err)
	}
}

// The password comes from Options when the URL has none, and never shows
// in String or in an error.
func TestPasswordNeverShown(t *testing.T) {
	u, err := url.Parse(migrated(t))
	if err != nil {
		t.Fatal(err)
	}
	password, _ := u.User.Password()
	u.User = url.User(u.User.Username())
	s, err := postgres.Open(t.Context(), u.String(), postgres.Options{Password: password, MaxConns: 2})
	if err != nil {
		t.Fatalf("Open with the password in Options: %v", err)
	}
	defer s.Close()
	if strings.Contains(s.String(), password) || !strings.HasPrefix(s.String(), "postgres://"+u.User.Username()+"@") {
		t.Fatalf("String() = %q", s.String())
	}
	_, err = postgres.Open(t.Context(), u.String(), postgres.Options{Password: "wrong-" + password})
	if err == nil || strings.Contains(err.Error(), password) {
		t.Fatalf("Open with a wrong password: %v", err)
	}
	bad := "postgres://someone:" + password + "@127.0.0.1:notaport/db"
	_, err = postgres.Open(t.Context(), bad, postgres.Options{})
	if err == nil || strings.Contains(err.Error(), password) {
		t.Fatalf("Open with a bad URL: %v", err)
	}
}
