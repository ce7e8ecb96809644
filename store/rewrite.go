package store

import (
	"context"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// RewriteLog replaces a game's whole log by events, chained anew from the
// first, and sets secrets, in one transaction. It is not part of Store:
// an event log is append-only, and this exists for one purpose, `umpire
// upgrade`, which rewrites logs of an older schema that held what must not
// be stored, after a backup of the file. The log must still end with the
// hash head, or nothing is written (ErrConflict).
func (s *Bolt) RewriteLog(ctx context.Context, game string, want Hash, events []NewEvent, secrets map[string][]byte) ([]Event, error) {
	if err := s.enter(ctx); err != nil {
		return nil, err
	}
	if game == "" || len(events) == 0 {
		return nil, fmt.Errorf("%w: a rewrite needs a game and its events", ErrInvalid)
	}
	if err := checkBatch(&Batch{Game: game, Events: events, Secrets: secrets}); err != nil {
		return nil, err
	}
	var out []Event
	err := s.update(func(tx *bolt.Tx) error {
		ev := eventsBucket(tx, game)
		if ev == nil {
			return ErrUnknownGame
		}
		version, h, err := head(ev)
		if err != nil {
			return err
		}
		if h != want {
			return &ConflictError{Game: game, Expected: version, Actual: version}
		}
		g := tx.Bucket(bucketGames).Bucket([]byte(game))
		if err := g.DeleteBucket(bucketEvents); err != nil {
			return err
		}
		if ev, err = g.CreateBucket(bucketEvents); err != nil {
			return err
		}
		ev.FillPercent = 1.0
		out = chainEvents(events, 0, Hash{})
		for i := range out {
			if err := ev.Put(seqKey(out[i].Seq), encodeEvent(&out[i])); err != nil {
				return err
			}
		}
		if len(secrets) > 0 {
			sb, err := tx.Bucket(bucketSecrets).CreateBucketIfNotExists([]byte(game))
			if err != nil {
				return err
			}
			for k, v := range secrets {
				if err := sb.Put([]byte(k), present(v)); err != nil {
					return err
				}
			}
		}
		return nil
	})
	return out, s.wrap(err)
}
