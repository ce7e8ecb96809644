package games

import (
	"context"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
)

// Away records that side's player is away until then (at most the game's
// deadline.away-max from now): no reminders meanwhile, and no deadline of
// the side falls before a day after the absence; deadlines that would are
// moved. marks are written with it.
func (s *Service) Away(ctx context.Context, id string, side adjudicator.Side, until time.Time, reason string, mail GMMail, marks ...string) (*game.Game, error) {
	now := s.now()
	return s.Act(ctx, id, func(g *game.Game) ([]game.Record, error) {
		return g.AwayRecords(now, until, side, reason, g.ClockSettings().AwayMax)
	}, mail, marks...)
}

// Back ends side's absence early (actor: the side's player or the referee).
func (s *Service) Back(ctx context.Context, id string, side adjudicator.Side, actor string, mail GMMail, marks ...string) (*game.Game, error) {
	now := s.now()
	return s.Act(ctx, id, func(g *game.Game) ([]game.Record, error) {
		rec, err := g.BackRecord(now, side, actor)
		return []game.Record{rec}, err
	}, mail, marks...)
}
