package games

import (
	"context"
	"errors"
	"fmt"
	"time"
	_ "time/tzdata" // the game's zone loads on machines without a zoneinfo database

	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/store"
)

// Location is the time zone a game's deadlines are read in.
func Location(g *game.Game) *time.Location {
	loc, err := loadZone(g.Created.Clock["deadline.zone"])
	if err != nil {
		return time.UTC // checked when the game was created
	}
	return loc
}

func loadZone(name string) (*time.Location, error) {
	if name == "" || name == "UTC" {
		return time.UTC, nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, fmt.Errorf("option deadline.zone=%q: not a time zone umpire knows (give an IANA name such as Europe/Paris)", name)
	}
	return loc, nil
}

// clockRecords are the clock events of g at now, folded into g.
func clockRecords(g *game.Game, now time.Time) ([]game.Record, []game.ClockNote, error) {
	if len(g.Created.Clock) == 0 || g.Over() {
		return nil, nil, nil
	}
	return g.ClockRecords(g.ClockSettings(), Location(g), now)
}

// TickMail builds the mails the clock's events cause.
type TickMail func(g *game.Game, notes []game.ClockNote) ([]store.Message, error)

// Tick runs the game's clock at the service's now: deadlines for requests
// that have none, reminders, deadlines passed. It appends what happened
// and the mails it causes in one transaction, and reports what it did
// (nothing, most of the time).
func (s *Service) Tick(ctx context.Context, id string, mail TickMail) ([]game.ClockNote, error) {
	defer s.lock(id)()
	for attempt := 0; ; attempt++ {
		g, err := s.Load(ctx, id)
		if err != nil {
			return nil, err
		}
		version := g.Version
		recs, notes, err := clockRecords(g, s.now())
		if err != nil || len(recs) == 0 {
			return nil, err
		}
		b := store.Batch{Game: id, Expected: version, Events: toNew(recs)}
		if mail != nil {
			if b.Outbox, err = mail(g, notes); err != nil {
				return nil, err
			}
		}
		_, err = s.Store.Append(ctx, b)
		if errors.Is(err, store.ErrConflict) && attempt < 3 {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("game %s: recording the clock: %w", id, err)
		}
		s.remember(g.Clone())
		return notes, nil
	}
}
