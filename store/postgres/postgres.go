package postgres

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/umpire-pbem/umpire/store"
)

// Options are what a connection URL does not carry.
type Options struct {
	Password string      // used when the URL has none (from a file or env var by the caller)
	TLS      *tls.Config // nil: what the URL's sslmode says
	MaxConns int32       // 0: pgxpool's default
}

// Store is a store.Store in a PostgreSQL database, which several Store
// values, in several processes, may share. It is safe for concurrent use.
type Store struct {
	pool   *pgxpool.Pool
	name   string // postgres://user@host:port/db, for messages
	closed atomic.Bool
}

var (
	_ store.Store     = (*Store)(nil)
	_ store.Snapshots = (*Store)(nil)
	_ store.Leases    = (*Store)(nil)
	_ store.DueFrom   = (*Store)(nil)
	_ store.Dumper    = (*Store)(nil)
	_ store.Loader    = (*Store)(nil)
)

// idleInTx is how long a connection may sit in a transaction doing nothing
// before the server ends it: a client that hung while holding a game's
// row lock gives the game back after this long.
const idleInTx = "60s"

// poolConfig parses url and applies o. Its errors never hold the password.
func poolConfig(raw string, o Options) (*pgxpool.Config, string, error) {
	cfg, err := pgxpool.ParseConfig(raw)
	if err != nil {
		msg := err.Error()
		if u, perr := url.Parse(raw); perr == nil {
			if p, ok := u.User.Password(); ok && p != "" {
				msg = strings.ReplaceAll(msg, p, "xxxxx")
			}
		} else {
			msg = "it is neither a postgres:// URL nor a key=value list"
		}
		return nil, "", fmt.Errorf("store: the PostgreSQL URL does not parse: %s", msg)
	}
	cc := cfg.ConnConfig
	if cc.Password == "" && o.Password != "" {
		cc.Password = o.Password
	}
	if o.TLS != nil {
		cc.TLSConfig = o.TLS
		cc.Fallbacks = nil // TLS was asked for: no fallback to plain text
	}
	if o.MaxConns > 0 {
		cfg.MaxConns = o.MaxConns
	}
	if _, ok := cc.RuntimeParams["idle_in_transaction_session_timeout"]; !ok {
		cc.RuntimeParams["idle_in_transaction_session_timeout"] = idleInTx
	}
	if _, ok := cc.RuntimeParams["application_name"]; !ok {
		cc.RuntimeParams["application_name"] = "umpire"
	}
	name := (&url.URL{
		Scheme: "postgres",
		User:   url.User(cc.User),
		Host:   cc.Host + ":" + strconv.Itoa(int(cc.Port)),
		Path:   "/" + cc.Database,
	}).String()
	return cfg, name, nil
}

// Open connects to the database at url and checks its schema: one behind
// this umpire's (or empty) fails with ErrSchema and says to run `umpire
// store migrate`; one ahead (written by a newer umpire) fails with
// ErrSchema too. Open never changes the schema.
func Open(ctx context.Context, url string, o Options) (*Store, error) {
	cfg, name, err := poolConfig(url, o)
	if err != nil {
		return nil, err
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", name, err)
	}
	if err := checkSchema(ctx, pool, name); err != nil {
		pool.Close()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	}
	return &Store{pool: pool, name: name}, nil
}

// String returns the database as postgres://user@host:port/db, without a
// password, for logs.
func (s *Store) String() string { return s.name }

// Close implements store.Store: it waits for the calls in progress and
// closes every connection. A second Close returns store.ErrClosed.
func (s *Store) Close() error {
	if s.closed.Swap(true) {
		return store.ErrClosed
	}
	s.pool.Close()
	return nil
}

// enter checks ctx and closed at the start of every method.
func (s *Store) enter(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if s.closed.Load() {
		return store.ErrClosed
	}
	return nil
}

// wrap turns a driver's error into the package's: ctx's error when ctx
// ended, ErrClosed after Close, the store's own errors as they are, and
// anything else with the database's name.
func (s *Store) wrap(ctx context.Context, err error) error {
	var ce *store.ConflictError
	var de *store.DuplicateError
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	case s.closed.Load():
		return store.ErrClosed
	case errors.As(err, &ce), errors.As(err, &de),
		errors.Is(err, store.ErrInvalid), errors.Is(err, store.ErrUnknownGame), errors.Is(err, store.ErrNotFound),
		errors.Is(err, store.ErrPruned), errors.Is(err, store.ErrCorrupt), errors.Is(err, store.ErrClosed):
		return err
	}
	return fmt.Errorf("store: %s: %w", s.name, err)
}

// retries is how often a transaction that the server aborted for a
// serialisation failure or a deadlock is run again before its error is
// returned.
const retries = 5

// transient reports whether err is a serialisation failure or a deadlock,
// after which the whole transaction may simply run again.
func transient(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "40001" || pe.Code == "40P01")
}

// tx runs fn in a read-committed transaction, again if the server aborted
// it for a serialisation failure or a deadlock. fn must not keep what it
// computed from one run for the next.
func (s *Store) tx(ctx context.Context, fn func(pgx.Tx) error) error {
	var err error
	for range retries {
		err = pgx.BeginFunc(ctx, s.pool, fn)
		if !transient(err) {
			break
		}
	}
	return s.wrap(ctx, err)
}

// key is a key or opaque string as a bytea parameter: never nil, which
// pgx would send as NULL.
func key(s string) []byte {
	if s == "" {
		return []byte{}
	}
	return []byte(s)
}

// value is a stored value as a bytea parameter: never nil.
func value(p []byte) []byte {
	if p == nil {
		return []byte{}
	}
	return p
}

// read is a bytea read back: nil when empty, as the other stores return it.
func read(p []byte) []byte {
	if len(p) == 0 {
		return nil
	}
	return p
}

// keys turns strings into bytea parameters.
func keys(ss []string) [][]byte {
	out := make([][]byte, len(ss))
	for i, s := range ss {
		out[i] = key(s)
	}
	return out
}
