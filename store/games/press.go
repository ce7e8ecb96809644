package games

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/store"
)

// PressRequest is one press message to record.
type PressRequest struct {
	Game    string
	Message game.Press
	Marks   []string // intake marks written with the event
	// Mail builds the mails the message causes (its delivery, the
	// sender's acknowledgement), given the game after and the event's
	// payload, queued in the same transaction.
	Mail func(g *game.Game, sent game.PressSent) ([]store.Message, error)
}

// Press records a press message: a press.sent event, sealed when not every
// side may read it (its opening kept in the data file's private part), the
// marks and the mails, in one transaction. A player's mistake (press off,
// an unknown side, a text too long) is an *adjudicator.OrderError and
// nothing is written.
func (s *Service) Press(ctx context.Context, req PressRequest) (*game.Game, error) {
	defer s.lock(req.Game)()
	for attempt := 0; ; attempt++ {
		g, err := s.Load(ctx, req.Game)
		if err != nil {
			return nil, err
		}
		version := g.Version
		rec, err := g.PressRecord(s.now(), s.randReader(), req.Message)
		if err != nil {
			return nil, err
		}
		b := store.Batch{Game: req.Game, Expected: version, Events: toNew([]game.Record{rec}), Marks: req.Marks}
		keepOpenings(&b, []game.Record{rec})
		if req.Mail != nil {
			var sent game.PressSent
			if err := json.Unmarshal(rec.Payload, &sent); err != nil {
				return nil, err
			}
			if sent, err = game.OpenPress(sent, rec.Private); err != nil {
				return nil, err
			}
			if b.Outbox, err = req.Mail(g, sent); err != nil {
				return nil, err
			}
		}
		_, err = s.Store.Append(ctx, b)
		if errors.Is(err, store.ErrConflict) && attempt < 3 {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("game %s: recording press: %w", req.Game, err)
		}
		s.remember(g.Clone())
		return g, nil
	}
}
