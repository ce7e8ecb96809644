package games

import (
	"context"
	"errors"
	"fmt"

	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/store"
)

// Rewriter is a store that can rewrite a game's log: bbolt's, for `umpire
// upgrade` alone.
type Rewriter interface {
	RewriteLog(ctx context.Context, game string, head store.Hash, events []store.NewEvent, secrets map[string][]byte) ([]store.Event, error)
}

// UpgradeResult says what Upgrade did to one game.
type UpgradeResult struct {
	Game      string
	Upgraded  bool   // false: already the current schema
	OldEvents int    // events before
	NewEvents int    // events after, log.upgraded included
	OldHead   string // the head hash players may have kept
	NewHead   string
}

// NeedsUpgrade reports whether a game's log is of an older schema.
func (s *Service) NeedsUpgrade(ctx context.Context, id string) (bool, error) {
	var first store.Event
	errFirst := errors.New("first event read")
	err := s.Store.Scan(ctx, id, 1, func(e store.Event) error { first = e; return errFirst })
	if err != nil && !errors.Is(err, errFirst) {
		return false, err
	}
	return first.Type == game.TypeCreated && first.Schema < game.Schema(game.TypeCreated), nil
}

// Upgrade rewrites game id's log from schema 1 to the current schema (see
// game.UpgradeV1), checking the old chain first and the new log after, and
// keeps each player's old secret hash as its check value outside the log.
func (s *Service) Upgrade(ctx context.Context, id string) (*UpgradeResult, error) {
	rw, ok := s.Store.(Rewriter)
	if !ok {
		return nil, errors.New("this store cannot rewrite logs")
	}
	defer s.lock(id)()
	_, evs, err := s.Entries(ctx, id)
	if err != nil {
		return nil, err
	}
	res := &UpgradeResult{Game: id, OldEvents: len(evs), OldHead: evs[len(evs)-1].Hash.String()}
	if err := CheckChain(evs); err != nil {
		return nil, fmt.Errorf("game %s: the old log does not check, so it is not rewritten: %w", id, err)
	}
	up, err := game.UpgradeV1(ToEntries(evs), s.source(ctx), s.randReader(), s.now(), res.OldHead)
	if err != nil {
		return nil, fmt.Errorf("game %s: %w", id, err)
	}
	if !up.Changed {
		res.NewEvents, res.NewHead = res.OldEvents, res.OldHead
		return res, nil
	}
	b := store.Batch{Secrets: map[string][]byte{}}
	for side, v := range up.Checks {
		b.Secrets[playerSecret(side)] = []byte(v)
	}
	keepOpenings(&b, up.Records)
	out, err := rw.RewriteLog(ctx, id, evs[len(evs)-1].Hash, toNew(up.Records), b.Secrets)
	if err != nil {
		return nil, fmt.Errorf("game %s: %w", id, err)
	}
	s.mu.Lock()
	delete(s.cache, id)
	s.mu.Unlock()
	res.Upgraded, res.NewEvents, res.NewHead = true, len(out), out[len(out)-1].Hash.String()
	return res, nil
}

// Outdated lists the games whose log is of an older schema.
func (s *Service) Outdated(ctx context.Context) ([]string, error) {
	ids, err := s.Store.Games(ctx)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, id := range ids {
		need, err := s.NeedsUpgrade(ctx, id)
		if err != nil {
			return nil, err
		}
		if need {
			out = append(out, id)
		}
	}
	return out, nil
}
