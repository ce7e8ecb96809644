// Package pgtest gives tests a PostgreSQL database of their own: a fresh
// schema on the server that UMPIRE_TEST_POSTGRES names, dropped when the
// test ends. Without the variable the tests that need PostgreSQL skip,
// saying how to get one (.ci/postgres starts a private cluster on
// loopback; .ci/run does so and exports the variable).
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Env is the variable that names the test server's database URL.
const Env = "UMPIRE_TEST_POSTGRES"

// URL returns a connection URL for a new, empty schema that is the only
// entry of its search_path, so the tables a test creates are its own; the
// schema is dropped at the test's end. It skips the test when Env is not
// set, and fails it when the server cannot be reached.
func URL(t testing.TB) string {
	t.Helper()
	base := os.Getenv(Env)
	if base == "" {
		t.Skipf("%s is not set: no PostgreSQL server to test against (export %s=$(.ci/postgres start) to run these tests; .ci/run does)", Env, Env)
	}
	var b [6]byte
	rand.Read(b[:])
	schema := "t_" + hex.EncodeToString(b[:])
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatalf("%s=%s: %v", Env, redact(base), err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatalf("create schema %s: %v", schema, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		conn, err := pgx.Connect(ctx, base)
		if err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("%s: %v", Env, err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// redact hides the password of a URL for a message.
func redact(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(an unparsable URL)"
	}
	return u.Redacted()
}
