package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/umpire-pbem/umpire/store"
)

// PutSnapshot implements store.Snapshots: one statement, which binds the
// snapshot to the hash event seq has now and writes nothing if there is no
// such event.
func (s *Store) PutSnapshot(ctx context.Context, game string, seq uint64, data []byte) error {
	if err := s.enter(ctx); err != nil {
		return err
	}
	if seq == 0 || seq > 1<<63-1 {
		return fmt.Errorf("%w %q: no event %d", store.ErrUnknownGame, game, seq)
	}
	tag, err := s.pool.Exec(ctx, `INSERT INTO snapshots (game, seq, hash, data)
		SELECT game, seq, hash, $3 FROM events WHERE game = $1 AND seq = $2
		ON CONFLICT (game) DO UPDATE SET seq = excluded.seq, hash = excluded.hash, data = excluded.data`,
		key(game), int64(seq), value(data))
	if err != nil {
		return s.wrap(ctx, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("%w %q: no event %d", store.ErrUnknownGame, game, seq)
	}
	return nil
}

// Snapshot implements store.Snapshots: ErrNotFound unless event Seq of
// the log still has the snapshot's hash.
func (s *Store) Snapshot(ctx context.Context, game string) (store.Snapshot, error) {
	if err := s.enter(ctx); err != nil {
		return store.Snapshot{}, err
	}
	var seq int64
	var hash, data []byte
	err := s.pool.QueryRow(ctx, `SELECT s.seq, s.hash, s.data FROM snapshots s
		JOIN events e ON e.game = s.game AND e.seq = s.seq AND e.hash = s.hash
		WHERE s.game = $1`, key(game)).Scan(&seq, &hash, &data)
	if errors.Is(err, pgx.ErrNoRows) {
		return store.Snapshot{}, fmt.Errorf("%w: snapshot of game %q", store.ErrNotFound, game)
	}
	if err != nil {
		return store.Snapshot{}, s.wrap(ctx, err)
	}
	h, err := toHash(hash)
	if err != nil {
		return store.Snapshot{}, fmt.Errorf("snapshot of game %q: %w", game, err)
	}
	return store.Snapshot{Seq: uint64(seq), Hash: h, Data: read(data)}, nil
}
