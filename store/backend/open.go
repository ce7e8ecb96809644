package backend

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/umpire-pbem/umpire/store"
)

// ErrNoData is returned by Open of a bbolt spec without Create when the
// data file does not exist.
var ErrNoData = errors.New("no data file")

// Options adjust Open.
type Options struct {
	// Create makes the data directory and the bbolt file when missing;
	// otherwise a missing file is ErrNoData. A PostgreSQL database is
	// never created here (its schema is made by Migrate).
	Create bool
	// ReadOnly opens a bbolt file shared with other readers, for the
	// source of a copy; every write fails. It means nothing to PostgreSQL.
	ReadOnly bool
	// Bolt are the options of store.Open for a bbolt file.
	Bolt []store.Option
	// MaxConns bounds a PostgreSQL store's connection pool (0: the
	// driver's default).
	MaxConns int32
}

// Open checks s and opens its store. A PostgreSQL store must have the
// schema of this umpire (Migrate makes it; an older or newer one fails
// with an error that says so). The caller closes the store.
func Open(ctx context.Context, s Spec, o Options) (store.Store, error) {
	if s.Kind() == KindPostgres {
		return openPostgres(ctx, s, o)
	}
	if err := s.Check(); err != nil {
		return nil, err
	}
	path := s.Path()
	switch {
	case o.Create && !o.ReadOnly:
		if err := os.MkdirAll(s.Dir(), 0o700); err != nil {
			return nil, err
		}
	default:
		if _, err := os.Stat(path); err != nil {
			return nil, fmt.Errorf("%w at %s", ErrNoData, path)
		}
	}
	if o.ReadOnly {
		return store.OpenReadOnly(path, o.Bolt...)
	}
	return store.Open(path, o.Bolt...)
}

// AsBolt returns the bbolt store st is, for what only a bbolt file has
// (its check report, its path, a backup copy).
func AsBolt(st store.Store) (*store.Bolt, bool) {
	b, ok := st.(*store.Bolt)
	return b, ok
}

// Migrate brings a PostgreSQL store's schema to this umpire's and returns
// the migrations it applied (none when it was current). A bbolt file needs
// none: its layout is checked, and made if new, when it is opened.
func Migrate(ctx context.Context, s Spec) ([]string, error) {
	if s.Kind() != KindPostgres {
		if err := s.Check(); err != nil {
			return nil, err
		}
		return nil, nil
	}
	return migratePostgres(ctx, s)
}
