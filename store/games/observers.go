package games

import (
	"context"
	"fmt"

	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/mail/address"
)

// Observe makes addr an observer of game id: it gets every adjudication
// from now on as every side may read it, delay turns late (see
// adjudicator/game/observers.go). mail builds the notices, given the game
// after.
func (s *Service) Observe(ctx context.Context, id, addr string, delay int, mail GMMail) (*game.Game, error) {
	if err := address.Check(addr); err != nil {
		return nil, fmt.Errorf("address: %w", err)
	}
	now := s.now()
	return s.Act(ctx, id, func(g *game.Game) ([]game.Record, error) {
		rec, err := g.ObserveRecord(now, addr, delay)
		return []game.Record{rec}, err
	}, mail)
}

// Unobserve: see Observe.
func (s *Service) Unobserve(ctx context.Context, id, addr string, mail GMMail) (*game.Game, error) {
	now := s.now()
	return s.Act(ctx, id, func(g *game.Game) ([]game.Record, error) {
		rec, err := g.UnobserveRecord(now, addr)
		return []game.Record{rec}, err
	}, mail)
}

// DelayedResults says what each observer with a delay is owed once recs,
// folded into next, follow the events of game next.ID stored now (the
// records of a submission, before they are appended): see
// game.DelayedResults.
func (s *Service) DelayedResults(ctx context.Context, next *game.Game, recs []game.Record) (map[string][]game.Past, error) {
	if !hasDelayed(next) {
		return nil, nil
	}
	entries, _, err := s.Entries(ctx, next.ID)
	if err != nil {
		return nil, err
	}
	first := uint64(len(entries)) + 1
	if first+uint64(len(recs))-1 != next.Version {
		return nil, fmt.Errorf("game %s: %d events stored and %d to come do not make version %d", next.ID, len(entries), len(recs), next.Version)
	}
	for i, r := range recs {
		entries = append(entries, game.Entry{Seq: first + uint64(i), Record: r})
	}
	return game.DelayedResults(entries, s.source(ctx), first)
}

func hasDelayed(g *game.Game) bool {
	for _, o := range g.Observers {
		if o.Delay > 0 {
			return true
		}
	}
	return false
}
