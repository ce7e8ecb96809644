package postgres

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/umpire-pbem/umpire/store"
)

// Append implements store.Store. It is AppendAll of one batch.
func (s *Store) Append(ctx context.Context, b store.Batch) ([]store.Event, error) {
	out, err := s.AppendAll(ctx, []store.Batch{b})
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// AppendAll implements store.Store: every batch in one transaction. It
// locks the rows of the games it names in sorted order (so that two calls
// naming the same games in other orders cannot deadlock), checks every
// batch with the rules of package store before writing anything, and then
// writes in one round trip. A creation or a mark or message ID that
// another transaction wrote at the same moment ends as the loser's
// *ConflictError or *DuplicateError.
func (s *Store) AppendAll(ctx context.Context, bs []store.Batch) ([][]store.Event, error) {
	if err := s.enter(ctx); err != nil {
		return nil, err
	}
	if err := store.CheckBatches(bs); err != nil {
		return nil, err
	}
	if len(bs) == 0 {
		return nil, nil
	}
	var out [][]store.Event
	err := s.tx(ctx, func(tx pgx.Tx) error {
		var err error
		out, err = appendTx(ctx, tx, bs)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// head is where a game's log ends.
type head struct {
	version uint64
	hash    store.Hash
}

// lockGames locks the rows of the games that exist among games (sorted)
// and returns their heads. Rows are locked in the order of the sort, as
// the ORDER BY hands them to the lock.
func lockGames(b *pgx.Batch, games []string, heads map[string]head) {
	if len(games) == 0 {
		return
	}
	b.Queue(`SELECT id, version, head FROM games WHERE id = ANY($1) ORDER BY id FOR UPDATE`, keys(games)).
		Query(func(rows pgx.Rows) error {
			for rows.Next() {
				var id, hash []byte
				var v int64
				if err := rows.Scan(&id, &v, &hash); err != nil {
					return err
				}
				h, err := toHash(hash)
				if err != nil {
					return fmt.Errorf("game %q head: %w", id, err)
				}
				heads[string(id)] = head{version: uint64(v), hash: h}
			}
			return rows.Err()
		})
}

// present queues a query for which of ks exist in table's column.
func present(b *pgx.Batch, table, column string, ks []string, into map[string]bool) {
	if len(ks) == 0 {
		return
	}
	b.Queue(`SELECT `+column+` FROM `+table+` WHERE `+column+` = ANY($1)`, keys(ks)).
		Query(func(rows pgx.Rows) error {
			for rows.Next() {
				var k []byte
				if err := rows.Scan(&k); err != nil {
					return err
				}
				into[string(k)] = true
			}
			return rows.Err()
		})
}

func appendTx(ctx context.Context, tx pgx.Tx, bs []store.Batch) ([][]store.Event, error) {
	var games, marks, ids []string
	for i := range bs {
		if bs[i].Game != "" {
			games = append(games, bs[i].Game)
		}
		marks = append(marks, bs[i].Marks...)
		for _, m := range bs[i].Outbox {
			ids = append(ids, m.ID)
		}
	}
	slices.Sort(games) // distinct: CheckBatches refused a game named twice

	// Round trip 1: lock the games, see which keys are taken, and draw
	// the queue number of this call's mail.
	heads := make(map[string]head, len(games))
	markStored, msgStored := map[string]bool{}, map[string]bool{}
	var order int64
	rt := &pgx.Batch{}
	lockGames(rt, games, heads)
	present(rt, "marks", "mark", marks, markStored)
	present(rt, "outbox", "id", ids, msgStored)
	if len(ids) > 0 {
		rt.Queue(`SELECT nextval('outbox_order')`).QueryRow(func(r pgx.Row) error { return r.Scan(&order) })
	}
	if err := tx.SendBatch(ctx, rt).Close(); err != nil {
		return nil, err
	}

	// The rules, in batch order, before anything is written.
	out := make([][]store.Event, len(bs))
	var call store.CallKeys
	for i := range bs {
		b := &bs[i]
		h, exists := heads[b.Game]
		if err := store.CheckVersion(b, exists, h.version); err != nil {
			return nil, err
		}
		if err := call.Check(b, func(k string) bool { return markStored[k] }, func(id string) bool { return msgStored[id] }); err != nil {
			return nil, err
		}
		if i < len(bs)-1 {
			call.Add(b)
		}
		out[i] = store.ChainEvents(b.Events, h.version, h.hash)
	}

	// Round trip 2, only when games are created: a game created by
	// another transaction since the lock is this call's conflict.
	if err := createGames(ctx, tx, bs, out, heads); err != nil {
		return nil, err
	}

	// Round trip 3: everything else.
	w := &pgx.Batch{}
	var ev eventRows
	var moved gameRows
	for i := range bs {
		if len(out[i]) == 0 {
			continue
		}
		ev.add(bs[i].Game, out[i])
		if _, ok := heads[bs[i].Game]; ok {
			last := out[i][len(out[i])-1]
			moved.add(bs[i].Game, last.Seq, last.Hash)
		}
	}
	moved.update(w)
	ev.queue(w)
	var dup error
	queueMarks(w, marks, &dup)
	n := 0
	var msgs []store.Message
	var ords []int
	for i := range bs {
		for _, m := range bs[i].Outbox {
			msgs = append(msgs, store.Queued(m))
			ords = append(ords, n)
			n++
		}
	}
	queueMessages(w, order, msgs, ords, &dup)
	queueSecrets(w, bs)
	meta := map[string][]byte{}
	for i := range bs {
		maps.Copy(meta, bs[i].Meta) // a later batch's value wins
	}
	queueMeta(w, meta)
	if err := tx.SendBatch(ctx, w).Close(); err != nil {
		return nil, err
	}
	return out, dup
}

// createGames inserts the rows of the games that bs create, in sorted
// order. One that another transaction created meanwhile fails the call
// with a *ConflictError naming the first such batch.
func createGames(ctx context.Context, tx pgx.Tx, bs []store.Batch, out [][]store.Event, heads map[string]head) error {
	var rows gameRows
	for i := range bs {
		if _, ok := heads[bs[i].Game]; !ok && len(out[i]) > 0 {
			last := out[i][len(out[i])-1]
			rows.add(bs[i].Game, last.Seq, last.Hash)
		}
	}
	if len(rows.id) == 0 {
		return nil
	}
	rows.sort()
	made := map[string]bool{}
	r, err := tx.Query(ctx, `INSERT INTO games (id, version, head)
		SELECT * FROM unnest($1::bytea[], $2::bigint[], $3::bytea[])
		ON CONFLICT (id) DO NOTHING RETURNING id`, rows.id, rows.version, rows.head)
	if err != nil {
		return err
	}
	for r.Next() {
		var id []byte
		if err := r.Scan(&id); err != nil {
			r.Close()
			return err
		}
		made[string(id)] = true
	}
	if err := r.Err(); err != nil {
		return err
	}
	if len(made) == len(rows.id) {
		return nil
	}
	for i := range bs {
		b := &bs[i]
		if _, ok := heads[b.Game]; ok || len(out[i]) == 0 || made[b.Game] {
			continue
		}
		var v int64
		if err := tx.QueryRow(ctx, `SELECT version FROM games WHERE id = $1`, key(b.Game)).Scan(&v); err != nil {
			return fmt.Errorf("game %q, created by another writer: %w", b.Game, err)
		}
		return &store.ConflictError{Game: b.Game, Expected: b.Expected, Actual: uint64(v)}
	}
	return errors.New("games insert returned rows it was not given")
}

// gameRows are new heads of games, as arrays for unnest.
type gameRows struct {
	id, head [][]byte
	version  []int64
}

func (g *gameRows) add(game string, version uint64, h store.Hash) {
	g.id = append(g.id, key(game))
	g.version = append(g.version, int64(version))
	g.head = append(g.head, h[:])
}

// sort orders the rows by game id, the order every writer locks in.
func (g *gameRows) sort() {
	idx := make([]int, len(g.id))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return strings.Compare(string(g.id[a]), string(g.id[b])) })
	var s gameRows
	for _, i := range idx {
		s.id, s.version, s.head = append(s.id, g.id[i]), append(s.version, g.version[i]), append(s.head, g.head[i])
	}
	*g = s
}

// update queues the move of existing games' heads (their rows are locked).
func (g *gameRows) update(b *pgx.Batch) {
	if len(g.id) == 0 {
		return
	}
	b.Queue(`UPDATE games AS g SET version = u.version, head = u.head
		FROM unnest($1::bytea[], $2::bigint[], $3::bytea[]) AS u(id, version, head)
		WHERE g.id = u.id`, g.id, g.version, g.head)
}

// eventRows are chained events, as arrays for unnest.
type eventRows struct {
	game, typ, actor, payload, prev, hash [][]byte
	seq, schema, at                       []int64
}

func (r *eventRows) add(game string, evs []store.Event) {
	g := key(game)
	for i := range evs {
		e := &evs[i]
		r.game = append(r.game, g)
		r.seq = append(r.seq, int64(e.Seq))
		r.typ = append(r.typ, key(e.Type))
		r.schema = append(r.schema, int64(e.Schema))
		r.at = append(r.at, e.Time.UnixNano())
		r.actor = append(r.actor, key(e.Actor))
		r.payload = append(r.payload, value(e.Payload))
		r.prev = append(r.prev, e.Prev[:])
		r.hash = append(r.hash, e.Hash[:])
	}
}

func (r *eventRows) queue(b *pgx.Batch) {
	if len(r.seq) == 0 {
		return
	}
	b.Queue(`INSERT INTO events (game, seq, type, schema_version, at_ns, actor, payload, prev, hash)
		SELECT * FROM unnest($1::bytea[], $2::bigint[], $3::bytea[], $4::bigint[], $5::bigint[], $6::bytea[], $7::bytea[], $8::bytea[], $9::bytea[])`,
		r.game, r.seq, r.typ, r.schema, r.at, r.actor, r.payload, r.prev, r.hash)
}

// queueMarks inserts marks in sorted order, so that two transactions
// writing the same marks cannot deadlock; one that another transaction
// wrote meanwhile sets *dup (if not set yet) to a *DuplicateError.
func queueMarks(b *pgx.Batch, marks []string, dup *error) {
	if len(marks) == 0 {
		return
	}
	sorted := slices.Sorted(slices.Values(marks))
	b.Queue(`INSERT INTO marks (mark) SELECT unnest($1::bytea[]) ON CONFLICT (mark) DO NOTHING RETURNING mark`, keys(sorted)).
		Query(func(rows pgx.Rows) error {
			got := map[string]bool{}
			for rows.Next() {
				var k []byte
				if err := rows.Scan(&k); err != nil {
					return err
				}
				got[string(k)] = true
			}
			if err := rows.Err(); err != nil {
				return err
			}
			for _, k := range marks {
				if !got[k] && *dup == nil {
					*dup = &store.DuplicateError{Kind: "mark", Key: k}
				}
			}
			return nil
		})
}

// queueSecrets sets the batches' secrets, in (game, name) order.
func queueSecrets(b *pgx.Batch, bs []store.Batch) {
	type sk struct{ game, name string }
	var all []sk
	vals := map[sk][]byte{}
	for i := range bs {
		for name, v := range bs[i].Secrets {
			k := sk{bs[i].Game, name}
			all = append(all, k)
			vals[k] = v
		}
	}
	if len(all) == 0 {
		return
	}
	slices.SortFunc(all, func(a, b sk) int {
		if c := strings.Compare(a.game, b.game); c != 0 {
			return c
		}
		return strings.Compare(a.name, b.name)
	})
	var games, names, values [][]byte
	for _, k := range all {
		games, names, values = append(games, key(k.game)), append(names, key(k.name)), append(values, value(vals[k]))
	}
	b.Queue(`INSERT INTO secrets (game, name, value) SELECT * FROM unnest($1::bytea[], $2::bytea[], $3::bytea[])
		ON CONFLICT (game, name) DO UPDATE SET value = excluded.value`, games, names, values)
}

// queueMeta sets meta values, in key order.
func queueMeta(b *pgx.Batch, meta map[string][]byte) {
	if len(meta) == 0 {
		return
	}
	var ks, vs [][]byte
	for _, k := range slices.Sorted(maps.Keys(meta)) {
		ks, vs = append(ks, key(k)), append(vs, value(meta[k]))
	}
	b.Queue(`INSERT INTO meta (key, value) SELECT * FROM unnest($1::bytea[], $2::bytea[])
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`, ks, vs)
}
