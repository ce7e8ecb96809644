package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/umpire-pbem/umpire/store"
)

// RewriteLog replaces a game's whole log by events, chained anew from the
// first, and sets secrets, in one transaction, with the contract of
// (*store.Bolt).RewriteLog: it exists for `umpire upgrade` alone, and the
// log must still end with the hash want, or nothing is written
// (*ConflictError). It holds the game's row lock, as every writer does.
func (s *Store) RewriteLog(ctx context.Context, game string, want store.Hash, events []store.NewEvent, secrets map[string][]byte) ([]store.Event, error) {
	if err := s.enter(ctx); err != nil {
		return nil, err
	}
	if game == "" || len(events) == 0 {
		return nil, fmt.Errorf("%w: a rewrite needs a game and its events", store.ErrInvalid)
	}
	b := store.Batch{Game: game, Events: events, Secrets: secrets}
	if err := store.CheckBatches([]store.Batch{b}); err != nil {
		return nil, err
	}
	var out []store.Event
	err := s.tx(ctx, func(tx pgx.Tx) error {
		var v int64
		var hb []byte
		err := tx.QueryRow(ctx, `SELECT version, head FROM games WHERE id = $1 FOR UPDATE`, key(game)).Scan(&v, &hb)
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("%w %q", store.ErrUnknownGame, game)
		}
		if err != nil {
			return err
		}
		h, err := toHash(hb)
		if err != nil {
			return fmt.Errorf("game %q head: %w", game, err)
		}
		if h != want {
			return &store.ConflictError{Game: game, Expected: uint64(v), Actual: uint64(v)}
		}
		out = store.ChainEvents(events, 0, store.Hash{})
		last := out[len(out)-1]
		w := &pgx.Batch{}
		w.Queue(`DELETE FROM events WHERE game = $1`, key(game))
		var ev eventRows
		ev.add(game, out)
		ev.queue(w)
		w.Queue(`UPDATE games SET version = $2, head = $3 WHERE id = $1`, key(game), int64(last.Seq), last.Hash[:])
		queueSecrets(w, []store.Batch{b})
		return tx.SendBatch(ctx, w).Close()
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
