package postgres

import (
	"context"
	"errors"
	"math"

	"github.com/umpire-pbem/umpire/store"
)

// dumpPage is how many marks, meta values or messages Dump reads per
// query; like Scan it holds no connection while it calls fn.
const dumpPage = 200

// Dump implements store.Dumper. It reads page by page, in many
// statements, so it is a consistent copy only of a store nobody writes
// meanwhile (`umpire store copy` runs with the daemons stopped). Secrets
// of a game that has none of its events yet are dumped too, after those
// of the games before it in lexical order.
func (s *Store) Dump(ctx context.Context, fn func(store.Item) error) error {
	games, err := s.column(ctx, `SELECT id FROM games UNION SELECT game FROM secrets ORDER BY 1`)
	if err != nil {
		return err
	}
	for _, g := range games {
		err := s.Scan(ctx, g, 1, func(e store.Event) error { return fn(store.Item{Game: g, Event: &e}) })
		if err != nil && !isUnknownGame(err) {
			return err
		}
		names, err := s.column(ctx, `SELECT name FROM secrets WHERE game = $1 ORDER BY name`, key(g))
		if err != nil {
			return err
		}
		for _, n := range names {
			v, err := s.Secret(ctx, g, n)
			if err != nil {
				return err
			}
			if err := fn(store.Item{Game: g, Secret: &store.KV{Key: n, Value: v}}); err != nil {
				return err
			}
		}
	}
	// Marks and meta in key order, a page at a time.
	after := []byte{}
	for {
		page, err := s.column(ctx, `SELECT mark FROM marks WHERE mark > $1 ORDER BY mark LIMIT $2`, after, dumpPage)
		if err != nil {
			return err
		}
		for _, m := range page {
			if err := fn(store.Item{Mark: m}); err != nil {
				return err
			}
		}
		if len(page) < dumpPage {
			break
		}
		after = key(page[len(page)-1])
	}
	metaKeys, err := s.MetaKeys(ctx, "")
	if err != nil {
		return err
	}
	for _, k := range metaKeys {
		v, err := s.Meta(ctx, k)
		if err != nil {
			return err
		}
		if err := fn(store.Item{Meta: &store.KV{Key: k, Value: v}}); err != nil {
			return err
		}
	}
	// The outbox in queue order.
	n, ord := int64(math.MinInt64), int32(math.MinInt32)
	for {
		if err := s.enter(ctx); err != nil {
			return err
		}
		rows, err := s.pool.Query(ctx, `SELECT n, ord, `+msgCols+` FROM outbox WHERE (n, ord) > ($1, $2) ORDER BY n, ord LIMIT $3`, n, ord, dumpPage)
		if err != nil {
			return s.wrap(ctx, err)
		}
		var page []store.Message
		for rows.Next() {
			var r rowPrefix
			m, err := scanMessage(r.wrap(rows))
			if err != nil {
				rows.Close()
				return s.wrap(ctx, err)
			}
			n, ord = r.n, r.ord
			page = append(page, m)
		}
		if err := rows.Err(); err != nil {
			return s.wrap(ctx, err)
		}
		for i := range page {
			if err := fn(store.Item{Message: &page[i]}); err != nil {
				return err
			}
		}
		if len(page) < dumpPage {
			return nil
		}
	}
}

func isUnknownGame(err error) bool { return errors.Is(err, store.ErrUnknownGame) }

// rowPrefix reads the queue position in front of msgCols.
type rowPrefix struct {
	n   int64
	ord int32
}

// scanner is what scanMessage reads from.
type scanner interface{ Scan(dest ...any) error }

type prefixed struct {
	p   *rowPrefix
	row scanner
}

func (r *rowPrefix) wrap(row scanner) prefixed { return prefixed{r, row} }

func (p prefixed) Scan(dest ...any) error {
	return p.row.Scan(append([]any{&p.p.n, &p.p.ord}, dest...)...)
}
