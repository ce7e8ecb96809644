package backend

import (
	"context"
	"errors"
	"fmt"

	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/postgres"
)

// ErrSchema is postgres.ErrSchema: the database's schema is not this
// umpire's (run `umpire store migrate`).
var ErrSchema = postgres.ErrSchema

func openPostgres(ctx context.Context, s Spec, o Options) (store.Store, error) {
	u, tc, err := s.resolve(true)
	if err != nil {
		return nil, err
	}
	st, err := postgres.Open(ctx, u, postgres.Options{Password: s.Password, TLS: tc, MaxConns: o.MaxConns})
	if errors.Is(err, postgres.ErrSchema) {
		return nil, fmt.Errorf("%w (umpire store migrate --store %s makes it current)", err, s)
	}
	return st, err
}

func migratePostgres(ctx context.Context, s Spec) ([]string, error) {
	u, tc, err := s.resolve(true)
	if err != nil {
		return nil, err
	}
	return postgres.Migrate(ctx, u, postgres.Options{Password: s.Password, TLS: tc})
}
