package store

import (
	"context"
	"encoding/binary"
	"fmt"
	"slices"

	bolt "go.etcd.io/bbolt"
)

// Snapshot is a cache of a game's folded state after event Seq, whose hash
// was Hash: what a caller may fold the rest of the log onto instead of the
// whole log. It is never part of a game's hash chain, an export or the
// checks, and nothing may trust it: a store hands one back only while event
// Seq of the log still has that hash, and its Data is the caller's to check.
type Snapshot struct {
	Seq  uint64
	Hash Hash
	Data []byte
}

// Snapshots is implemented by the stores that keep one snapshot per game
// beside the logs (both of this package's). It is not part of Store: a store
// without it only costs its callers whole folds.
type Snapshots interface {
	// PutSnapshot keeps data as game's snapshot after event seq, bound to
	// that event's hash, replacing the one kept before. ErrUnknownGame if
	// the game has no event seq.
	PutSnapshot(ctx context.Context, game string, seq uint64, data []byte) error
	// Snapshot returns the game's snapshot; ErrNotFound if there is none
	// or if event Seq of the log no longer has the hash it was taken at
	// (the log was rewritten).
	Snapshot(ctx context.Context, game string) (Snapshot, error)
}

var (
	_ Snapshots = (*Bolt)(nil)
	_ Snapshots = (*Memory)(nil)
)

// snapshots/<game>: format 1, seq (8 bytes), hash (32 bytes), data.
var bucketSnapshots = []byte("snapshots")

const snapshotFormat = 1

// PutSnapshot implements Snapshots.
func (s *Bolt) PutSnapshot(ctx context.Context, game string, seq uint64, data []byte) error {
	if err := s.enter(ctx); err != nil {
		return err
	}
	err := s.update(func(tx *bolt.Tx) error {
		ev := eventsBucket(tx, game)
		if ev == nil || seq == 0 {
			return fmt.Errorf("%w %q", ErrUnknownGame, game)
		}
		v := ev.Get(seqKey(seq))
		if v == nil {
			return fmt.Errorf("%w %q: no event %d", ErrUnknownGame, game, seq)
		}
		h, err := storedHash(v)
		if err != nil {
			return err
		}
		b, err := tx.CreateBucketIfNotExists(bucketSnapshots)
		if err != nil {
			return err
		}
		rec := make([]byte, 0, 1+8+32+len(data))
		rec = append(rec, snapshotFormat)
		rec = binary.BigEndian.AppendUint64(rec, seq)
		rec = append(rec, h[:]...)
		rec = append(rec, data...)
		return b.Put([]byte(game), rec)
	})
	return s.wrap(err)
}

// Snapshot implements Snapshots.
func (s *Bolt) Snapshot(ctx context.Context, game string) (Snapshot, error) {
	if err := s.enter(ctx); err != nil {
		return Snapshot{}, err
	}
	var out Snapshot
	err := s.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketSnapshots)
		ev := eventsBucket(tx, game)
		if b == nil || ev == nil {
			return ErrNotFound
		}
		rec := b.Get([]byte(game))
		if len(rec) < 1+8+32 || rec[0] != snapshotFormat {
			return ErrNotFound // none, or one this build does not read: a cache miss
		}
		out.Seq = binary.BigEndian.Uint64(rec[1:9])
		copy(out.Hash[:], rec[9:41])
		v := ev.Get(seqKey(out.Seq))
		if v == nil {
			return ErrNotFound
		}
		if h, err := storedHash(v); err != nil || h != out.Hash {
			return ErrNotFound
		}
		out.Data = cloneBytes(rec[41:])
		return nil
	})
	if err != nil {
		return Snapshot{}, s.wrap(err)
	}
	return out, nil
}

// PutSnapshot implements Snapshots.
func (m *Memory) PutSnapshot(ctx context.Context, game string, seq uint64, data []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.enter(ctx); err != nil {
		return err
	}
	log := m.games[game]
	if seq == 0 || seq > uint64(len(log)) {
		return fmt.Errorf("%w %q: no event %d", ErrUnknownGame, game, seq)
	}
	if m.snaps == nil {
		m.snaps = map[string]Snapshot{}
	}
	m.snaps[game] = Snapshot{Seq: seq, Hash: log[seq-1].Hash, Data: slices.Clone(data)}
	return nil
}

// Snapshot implements Snapshots.
func (m *Memory) Snapshot(ctx context.Context, game string) (Snapshot, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if err := m.enter(ctx); err != nil {
		return Snapshot{}, err
	}
	sn, ok := m.snaps[game]
	log := m.games[game]
	if !ok || sn.Seq > uint64(len(log)) || log[sn.Seq-1].Hash != sn.Hash {
		return Snapshot{}, ErrNotFound
	}
	sn.Data = slices.Clone(sn.Data)
	return sn, nil
}
