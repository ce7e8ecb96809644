package postgres_test

import (
	"context"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/postgres"
	"github.com/umpire-pbem/umpire/store/storetest"
)

// The crash tests, on the workloads every store's crash tests share
// (storetest.AppendChild, AppendAllChild and their checks): this test
// binary runs again as a child that writes in a tight loop and prints
// each write that returned; the parent kills it with SIGKILL at a random
// point of a write and checks what the server kept. The children are
// selected by these variables, which hold the schema's URL (never
// printed).
const (
	crashEnv    = "UMPIRE_PG_CRASH_CHILD_URL"
	crashAllEnv = "UMPIRE_PG_CRASHALL_CHILD_URL"
)

// crashChild opens the store the variable names, or returns nil when the
// test runs as itself rather than as a child.
func crashChild(env string) store.Store {
	url := os.Getenv(env)
	if url == "" {
		return nil
	}
	s, err := postgres.Open(context.Background(), url, postgres.Options{MaxConns: 2})
	if err != nil {
		os.Stderr.WriteString("crash child: " + err.Error() + "\n")
		os.Exit(3)
	}
	return s
}

// TestCrashChild is the child of TestCrash; run normally, it does nothing.
func TestCrashChild(t *testing.T) {
	if s := crashChild(crashEnv); s != nil {
		storetest.AppendChild(s)
	}
}

// TestCrashAllChild is the child of TestCrashAll; run normally, it does
// nothing.
func TestCrashAllChild(t *testing.T) {
	if s := crashChild(crashAllEnv); s != nil {
		storetest.AppendAllChild(s)
	}
}

func TestCrash(t *testing.T) {
	crashRounds(t, "TestCrashChild", crashEnv, 5, 20, 7, storetest.CheckAfterAppend)
}

func TestCrashAll(t *testing.T) {
	crashRounds(t, "TestCrashAllChild", crashAllEnv, 6, 10, 3, storetest.CheckAfterAppendAll)
}

// crashRounds kills the child at a random point of a write, rounds times,
// after first, first+step, … more confirmed writes, and checks the store
// after each kill, once the server has ended the child's connections.
func crashRounds(t *testing.T, child, env string, rounds, first, step int, check func(*testing.T, store.Store, uint64) uint64) {
	base := migrated(t)
	dsn, name := childURL(t, base)
	var confirmed uint64
	for round := range rounds {
		want := first + step*round
		last, stderr := storetest.KillChildAfter(t, child, env, dsn, want, true)
		waitChildGone(t, base, name)
		if last < confirmed+uint64(want) {
			t.Fatalf("round %d: child confirmed up to %d, want at least %d; stderr:\n%s", round, last, confirmed+uint64(want), stderr)
		}
		confirmed = last
		s := openURL(t, base)
		check(t, s, confirmed)
		s.Close()
	}
}

// childURL is url with an application_name of its own, by which
// waitChildGone finds the child's connections.
func childURL(t *testing.T, raw string) (string, string) {
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	name := "umpire-crash-" + q.Get("search_path")
	q.Set("application_name", name)
	u.RawQuery = q.Encode()
	return u.String(), name
}

// waitChildGone waits until the server has ended every connection of the
// killed child: only then is its last transaction committed or rolled
// back for good, and what the parent reads final.
func waitChildGone(t *testing.T, raw, name string) {
	t.Helper()
	conn, err := pgx.Connect(t.Context(), raw)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(t.Context())
	deadline := time.Now().Add(time.Minute)
	for {
		var n int
		if err := conn.QueryRow(t.Context(), `SELECT count(*) FROM pg_stat_activity WHERE application_name = $1`, name).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the killed child's %d connections were still open after a minute", n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
