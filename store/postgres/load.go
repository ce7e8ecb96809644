package postgres

import (
	"context"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/umpire-pbem/umpire/store"
)

// Load implements store.Loader: items as they are, in one transaction.
// Every event must follow its game's last one (stored or loaded before it
// in items) with the hash store.ChainHash gives, or nothing is written
// (ErrCorrupt). Messages keep their status, attempts, times and Pruned
// flag; a mark or message ID already stored, or twice in items, is
// *DuplicateError.
func (s *Store) Load(ctx context.Context, items []store.Item) error {
	if err := s.enter(ctx); err != nil {
		return err
	}
	l, err := gather(items)
	if err != nil {
		return err
	}
	return s.tx(ctx, func(tx pgx.Tx) error { return l.write(ctx, tx) })
}

// loading is what one Load call writes, checked as far as it can be
// without the database.
type loading struct {
	games   []string                 // of events, in the order items name them
	events  map[string][]store.Event // per game, in items' order
	secrets map[string]map[string][]byte
	marks   []string
	msgs    []store.Message
	meta    map[string][]byte
}

func gather(items []store.Item) (*loading, error) {
	l := &loading{events: map[string][]store.Event{}, secrets: map[string]map[string][]byte{}, meta: map[string][]byte{}}
	for i, it := range items {
		if err := store.CheckItem(&it); err != nil {
			return nil, fmt.Errorf("load item %d: %w", i, err)
		}
		switch {
		case it.Event != nil:
			if _, ok := l.events[it.Game]; !ok {
				l.games = append(l.games, it.Game)
			}
			l.events[it.Game] = append(l.events[it.Game], store.LoadedEvent(it.Event))
		case it.Secret != nil:
			if l.secrets[it.Game] == nil {
				l.secrets[it.Game] = map[string][]byte{}
			}
			l.secrets[it.Game][it.Secret.Key] = it.Secret.Value
		case it.Mark != "":
			l.marks = append(l.marks, it.Mark)
		case it.Meta != nil:
			l.meta[it.Meta.Key] = it.Meta.Value
		case it.Message != nil:
			l.msgs = append(l.msgs, store.LoadedMessage(*it.Message))
		}
	}
	// Marks and message IDs repeated within the call, checked as Append
	// checks a batch's; those stored are checked in the transaction.
	var none store.CallKeys
	if err := none.Check(&store.Batch{Marks: l.marks, Outbox: l.msgs}, func(string) bool { return false }, func(string) bool { return false }); err != nil {
		return nil, err
	}
	return l, nil
}

// write is the transaction of a Load, in the lock order of AppendAll.
func (l *loading) write(ctx context.Context, tx pgx.Tx) error {
	games := slices.Sorted(slices.Values(l.games))
	heads := make(map[string]head, len(games))
	markStored, msgStored := map[string]bool{}, map[string]bool{}
	var ids []string
	for _, m := range l.msgs {
		ids = append(ids, m.ID)
	}
	var order int64
	rt := &pgx.Batch{}
	lockGames(rt, games, heads)
	present(rt, "marks", "mark", l.marks, markStored)
	present(rt, "outbox", "id", ids, msgStored)
	if len(ids) > 0 {
		rt.Queue(`SELECT nextval('outbox_order')`).QueryRow(func(r pgx.Row) error { return r.Scan(&order) })
	}
	if err := tx.SendBatch(ctx, rt).Close(); err != nil {
		return err
	}
	var none store.CallKeys
	if err := none.Check(&store.Batch{Marks: l.marks, Outbox: l.msgs}, func(k string) bool { return markStored[k] }, func(id string) bool { return msgStored[id] }); err != nil {
		return err
	}

	// Every event follows its game's head; the games that get their
	// first events here are created as an append creates them.
	bs := make([]store.Batch, len(l.games))
	out := make([][]store.Event, len(l.games))
	for i, g := range l.games {
		h := heads[g]
		for _, e := range l.events[g] {
			if err := store.CheckLoadEvent(g, &e, h.version, h.hash); err != nil {
				return fmt.Errorf("%w (the copy is damaged or out of order)", err)
			}
			h = head{version: e.Seq, hash: e.Hash}
		}
		bs[i] = store.Batch{Game: g, Expected: heads[g].version}
		out[i] = l.events[g]
	}
	if err := createGames(ctx, tx, bs, out, heads); err != nil {
		return err
	}

	w := &pgx.Batch{}
	var ev eventRows
	var moved gameRows
	for i, g := range l.games {
		ev.add(g, out[i])
		if _, ok := heads[g]; ok {
			last := out[i][len(out[i])-1]
			moved.add(g, last.Seq, last.Hash)
		}
	}
	moved.update(w)
	ev.queue(w)
	var dup error
	queueMarks(w, l.marks, &dup)
	ords := make([]int, len(l.msgs))
	for i := range ords {
		ords[i] = i
	}
	queueMessages(w, order, l.msgs, ords, &dup)
	var sec []store.Batch
	for g, kv := range l.secrets {
		sec = append(sec, store.Batch{Game: g, Secrets: kv})
	}
	queueSecrets(w, sec)
	queueMeta(w, l.meta)
	if err := tx.SendBatch(ctx, w).Close(); err != nil {
		return err
	}
	return dup
}
