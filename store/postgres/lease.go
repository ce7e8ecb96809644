package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/umpire-pbem/umpire/store"
)

// take takes or renews a lease in one statement. The term runs on the
// server's clock. When another holder has a live lease, the outer SELECT
// reads it from the statement's snapshot.
const take = `WITH took AS (
	INSERT INTO leases (name, holder, expires) VALUES ($1, $2, now() + $3 * interval '1 microsecond')
	ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires = excluded.expires
		WHERE leases.holder = excluded.holder OR leases.expires < now()
	RETURNING holder)
SELECT EXISTS (SELECT 1 FROM took), (SELECT holder FROM leases WHERE name = $1)`

// Lease implements store.Leases.
func (s *Store) Lease(ctx context.Context, name, holder string, ttl time.Duration) (held bool, other string, err error) {
	if err := s.enter(ctx); err != nil {
		return false, "", err
	}
	if err := store.CheckKey(name); err != nil {
		return false, "", fmt.Errorf("%w: lease name %q %v", store.ErrInvalid, name, err)
	}
	if err := store.CheckKey(holder); err != nil {
		return false, "", fmt.Errorf("%w: lease holder %q %v", store.ErrInvalid, holder, err)
	}
	if ttl <= 0 {
		return false, "", fmt.Errorf("%w: lease %q for %v: a term must be positive", store.ErrInvalid, name, ttl)
	}
	for range retries {
		var took bool
		var by []byte
		if err := s.pool.QueryRow(ctx, take, key(name), key(holder), ttl.Microseconds()).Scan(&took, &by); err != nil {
			if transient(err) {
				continue
			}
			return false, "", s.wrap(ctx, err)
		}
		if took {
			return true, "", nil
		}
		if by != nil {
			return false, string(by), nil
		}
		// Another holder's lease appeared after this statement's snapshot
		// (it waited on its insert): ask again, now that it is visible.
	}
	return false, "", fmt.Errorf("store: %s: lease %q: no answer after %d tries while other holders raced for it", s.name, name, retries)
}

// Release implements store.Leases: it deletes the lease only if holder has
// it.
func (s *Store) Release(ctx context.Context, name, holder string) error {
	if err := s.enter(ctx); err != nil {
		return err
	}
	_, err := s.pool.Exec(ctx, `DELETE FROM leases WHERE name = $1 AND holder = $2`, key(name), key(holder))
	return s.wrap(ctx, err)
}
