package postgres

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/jackc/pgx/v5"

	"github.com/umpire-pbem/umpire/store"
)

// scanPage is how many events Scan reads per query: it holds no
// connection while it calls fn, so fn may use the store, even append.
const scanPage = 500

const eventCols = `seq, type, schema_version, at_ns, actor, payload, prev, hash`

func toHash(p []byte) (store.Hash, error) {
	var h store.Hash
	if len(p) != len(h) {
		return h, fmt.Errorf("%w: a hash of %d bytes", store.ErrCorrupt, len(p))
	}
	copy(h[:], p)
	return h, nil
}

// scanEvent reads one row of eventCols.
func scanEvent(row pgx.Row) (store.Event, error) {
	var e store.Event
	var seq, schema, at int64
	var typ, actor, payload, prev, hash []byte
	if err := row.Scan(&seq, &typ, &schema, &at, &actor, &payload, &prev, &hash); err != nil {
		return e, err
	}
	e.Seq, e.Type, e.Schema, e.Time, e.Actor, e.Payload = uint64(seq), string(typ), int(schema), store.EventTime(at), string(actor), read(payload)
	var err error
	if e.Prev, err = toHash(prev); err != nil {
		return e, fmt.Errorf("event %d prev: %w", seq, err)
	}
	if e.Hash, err = toHash(hash); err != nil {
		return e, fmt.Errorf("event %d: %w", seq, err)
	}
	return e, nil
}

// readEvents returns up to most (0: all) events of game with Seq >= from,
// in one statement, so from one snapshot; ErrUnknownGame if there is no
// such game.
func (s *Store) readEvents(ctx context.Context, game string, from uint64, most int) ([]store.Event, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+eventCols+` FROM events WHERE game = $1 AND seq >= $2 ORDER BY seq LIMIT $3`,
		key(game), int64(min(max(from, 1), math.MaxInt64)), limit(most))
	if err != nil {
		return nil, s.wrap(ctx, err)
	}
	var out []store.Event
	if most > 0 {
		out = make([]store.Event, 0, most)
	}
	d := newDecoder(rows)
	for rows.Next() {
		e, err := d.event(rows)
		if err != nil {
			rows.Close()
			return nil, s.wrap(ctx, fmt.Errorf("game %q: %w", game, err))
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap(ctx, err)
	}
	if len(out) == 0 {
		if _, err := s.Version(ctx, game); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Events implements store.Store.
func (s *Store) Events(ctx context.Context, game string, from uint64) ([]store.Event, error) {
	if err := s.enter(ctx); err != nil {
		return nil, err
	}
	return s.readEvents(ctx, game, from, 0)
}

// Scan implements store.Store. It reads scanPage events per query and
// calls fn between queries, holding no connection.
func (s *Store) Scan(ctx context.Context, game string, from uint64, fn func(store.Event) error) error {
	for {
		if err := s.enter(ctx); err != nil {
			return err
		}
		page, err := s.readEvents(ctx, game, from, scanPage)
		if err != nil {
			return err
		}
		for _, e := range page {
			if err := fn(e); err != nil {
				return err
			}
		}
		if len(page) < scanPage {
			return nil
		}
		from = page[len(page)-1].Seq + 1
	}
}

// Version implements store.Store.
func (s *Store) Version(ctx context.Context, game string) (uint64, error) {
	if err := s.enter(ctx); err != nil {
		return 0, err
	}
	var v int64
	err := s.pool.QueryRow(ctx, `SELECT version FROM games WHERE id = $1`, key(game)).Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, fmt.Errorf("%w %q", store.ErrUnknownGame, game)
	}
	if err != nil {
		return 0, s.wrap(ctx, err)
	}
	return uint64(v), nil
}

// column runs a query of one bytea column.
func (s *Store) column(ctx context.Context, sql string, args ...any) ([]string, error) {
	if err := s.enter(ctx); err != nil {
		return nil, err
	}
	rows, err := s.pool.Query(ctx, sql, args...)
	if err != nil {
		return nil, s.wrap(ctx, err)
	}
	var out []string
	for rows.Next() {
		var k []byte
		if err := rows.Scan(&k); err != nil {
			rows.Close()
			return nil, s.wrap(ctx, err)
		}
		out = append(out, string(k))
	}
	return out, s.wrap(ctx, rows.Err())
}

// Games implements store.Store: bytea orders as Go strings do.
func (s *Store) Games(ctx context.Context) ([]string, error) {
	return s.column(ctx, `SELECT id FROM games ORDER BY id`)
}

// MetaKeys implements store.Store, as a range of the key index.
func (s *Store) MetaKeys(ctx context.Context, prefix string) ([]string, error) {
	if end, ok := prefixEnd(prefix); ok {
		return s.column(ctx, `SELECT key FROM meta WHERE key >= $1 AND key < $2 ORDER BY key`, key(prefix), end)
	}
	return s.column(ctx, `SELECT key FROM meta WHERE key >= $1 ORDER BY key`, key(prefix))
}

// prefixEnd is the least key after every key that starts with prefix; ok
// is false when there is none (prefix is empty or all 0xff).
func prefixEnd(prefix string) ([]byte, bool) {
	end := []byte(prefix)
	for i := len(end) - 1; i >= 0; i-- {
		if end[i] < 0xff {
			end[i]++
			return end[:i+1], true
		}
	}
	return nil, false
}

// value1 reads one bytea; ErrNotFound (saying what) when there is none.
func (s *Store) value1(ctx context.Context, what string, sql string, args ...any) ([]byte, error) {
	if err := s.enter(ctx); err != nil {
		return nil, err
	}
	var v []byte
	err := s.pool.QueryRow(ctx, sql, args...).Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("%w: %s", store.ErrNotFound, what)
	}
	if err != nil {
		return nil, s.wrap(ctx, err)
	}
	return read(v), nil
}

// Secret implements store.Store.
func (s *Store) Secret(ctx context.Context, game, name string) ([]byte, error) {
	return s.value1(ctx, fmt.Sprintf("secret %q of game %q", name, game),
		`SELECT value FROM secrets WHERE game = $1 AND name = $2`, key(game), key(name))
}

// Meta implements store.Store.
func (s *Store) Meta(ctx context.Context, k string) ([]byte, error) {
	return s.value1(ctx, fmt.Sprintf("meta %q", k), `SELECT value FROM meta WHERE key = $1`, key(k))
}

// Marked implements store.Store.
func (s *Store) Marked(ctx context.Context, mark string) (bool, error) {
	if err := s.enter(ctx); err != nil {
		return false, err
	}
	var ok bool
	err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM marks WHERE mark = $1)`, key(mark)).Scan(&ok)
	return ok, s.wrap(ctx, err)
}
