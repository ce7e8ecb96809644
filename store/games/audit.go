package games

import (
	"context"
	"fmt"

	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/store"
)

// Verify checks a stored game: the hash chain of its events, every revealed
// seed against the commitment, every public die recomputed, every revealed
// opening against its commitment, and what a player kept (known).
func (s *Service) Verify(ctx context.Context, id string, known Known) (*game.Audit, error) {
	_, evs, err := s.Entries(ctx, id)
	if err != nil {
		return nil, err
	}
	return verifyEvents(evs, known), nil
}

// verifyEvents is Verify's check of a game's stored events.
func verifyEvents(evs []store.Event, known Known) *game.Audit {
	a := game.Verify(ToEntries(evs))
	if err := CheckChain(evs); err != nil {
		a.Problems = append([]string{err.Error()}, a.Problems...)
	}
	a.Problems = append(a.Problems, checkKnown(evs, known)...)
	return a
}

// Replay decides every adjudication of a stored game again and compares.
func (s *Service) Replay(ctx context.Context, id string) (*game.Audit, error) {
	entries, _, err := s.Entries(ctx, id)
	if err != nil {
		return nil, err
	}
	return game.Replay(entries, s.source(ctx)), nil
}

// WhatIf decides adjudication k of game id again with faces first (the
// referee's what-if; nothing is recorded).
func (s *Service) WhatIf(ctx context.Context, id string, k int, faces []int) (*game.Result, error) {
	entries, _, err := s.Entries(ctx, id)
	if err != nil {
		return nil, err
	}
	return game.WhatIf(entries, s.source(ctx), k, faces)
}

// CheckChain checks that events run from 1 without gaps and that each is
// hash-chained to the one before.
func CheckChain(evs []store.Event) error {
	var prev store.Hash
	for i, e := range evs {
		if e.Seq != uint64(i+1) {
			return fmt.Errorf("event %d stands where event %d should be: the log has a gap or is out of order", e.Seq, i+1)
		}
		if e.Prev != prev {
			return fmt.Errorf("event %d does not chain onto event %d: the history was changed", e.Seq, e.Seq-1)
		}
		if h := store.ChainHash(prev, e.Seq, e.NewEvent); h != e.Hash {
			return fmt.Errorf("event %d hashes to %s but records %s: its content was changed", e.Seq, h, e.Hash)
		}
		prev = e.Hash
	}
	return nil
}
