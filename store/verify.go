package store

import (
	"context"
	"fmt"
)

// Verify walks a game's whole log and checks that the sequence numbers run
// from 1 without gaps, that each event's Prev is the Hash of the one before,
// and that each Hash is ChainHash of its event. A break is reported as an
// ErrCorrupt error naming the game and the first bad event. Reads do not
// check hashes (replay would spend most of its time hashing), so this is the
// one place that does.
func Verify(ctx context.Context, s Store, game string) error {
	var prev Hash
	var want uint64 = 1
	err := s.Scan(ctx, game, 1, func(e Event) error {
		switch {
		case e.Seq != want:
			return fmt.Errorf("%w: game %q: event %d follows event %d", ErrCorrupt, game, e.Seq, want-1)
		case e.Prev != prev:
			return fmt.Errorf("%w: game %q: event %d has prev %s, but event %d has hash %s", ErrCorrupt, game, e.Seq, e.Prev, e.Seq-1, prev)
		}
		if h := ChainHash(prev, e.Seq, e.NewEvent); h != e.Hash {
			return fmt.Errorf("%w: game %q: event %d has hash %s, but its content hashes to %s", ErrCorrupt, game, e.Seq, e.Hash, h)
		}
		prev = e.Hash
		want++
		return nil
	})
	return err
}
