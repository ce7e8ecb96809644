package games

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/store"
)

// SubmitRequest is one submission to record.
type SubmitRequest struct {
	Game       string
	Side       adjudicator.Side
	Src        []byte
	Via        string
	MessageID  string
	NeedSecret bool
	From       string            // the sender's address (mail): which player of the side speaks
	Marks      []string          // intake marks written with the events
	Meta       map[string][]byte // written with the events
	// Mail builds the messages the submission causes (acknowledgement,
	// results), queued in the same transaction as its events.
	Mail func(next *game.Game, out *game.Outcome) ([]store.Message, error)
	// Dice replaces the game's dice (what-if replays); such an outcome is
	// returned but never stored.
	Dice []int
}

// Submit validates a submission, adjudicates when it completes what is due,
// and appends everything in one transaction. A player's mistake comes back
// as an *adjudicator.OrderError or adjudicator.OrderErrors and nothing is
// written.
func (s *Service) Submit(ctx context.Context, req SubmitRequest) (*game.Outcome, error) {
	var out *game.Outcome
	_, err := s.write(ctx, req.Game, func(g *game.Game) (*game.Game, store.Batch, error) {
		in, err := s.input(ctx, req.Game, req.Side, req.Src, req.Via)
		if err != nil {
			return nil, store.Batch{}, err
		}
		in.MessageID = req.MessageID
		in.From = req.From
		if req.NeedSecret {
			in.CheckSecret = func(seat adjudicator.Side, secret string) (bool, error) {
				return s.checkSeat(ctx, req.Game, seat, secret)
			}
		}
		if req.Dice != nil {
			in.Dice = &dice.Script{Faces: req.Dice}
		}
		if out, err = g.Submit(in); err != nil {
			return nil, store.Batch{}, err
		}
		if req.Dice != nil {
			return g, store.Batch{}, nil // a what-if: nothing is written
		}
		b := store.Batch{Game: req.Game, Expected: g.Version, Marks: req.Marks, Meta: req.Meta}
		if err := addOutcome(&b, out, in.Time); err != nil {
			return nil, store.Batch{}, err
		}
		if req.Mail != nil {
			if b.Outbox, err = req.Mail(out.Next, out); err != nil {
				return nil, store.Batch{}, err
			}
		}
		return out.Next, b, nil
	})
	if errors.Is(err, store.ErrDuplicate) {
		return nil, adjudicator.Rejection(adjudicator.CodeDuplicate, "this submission was already recorded (%v)", err)
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

// addOutcome adds to b what a submission received at now decided: the
// deadlines of what came due (recorded in the same transaction, folded into
// out.Next and noted in out.Clock), its events, a new dice chain's secret
// and the openings of its sealed parts.
func addOutcome(b *store.Batch, out *game.Outcome, now time.Time) error {
	clock, notes, err := clockRecords(out.Next, game.Tick{Now: now})
	if err != nil {
		return fmt.Errorf("%w: the clock: %v", game.ErrInternal, err)
	}
	out.Records = append(out.Records, clock...)
	out.Clock = notes
	b.Events = append(b.Events, toNew(out.Records)...)
	if out.NewSecret != nil {
		if b.Secrets == nil {
			b.Secrets = map[string][]byte{}
		}
		b.Secrets[diceSecret(out.NewChain)] = out.NewSecret
	}
	keepOpenings(b, out.Records)
	return nil
}

// input is a submission to game id with everything the engine needs from
// the data file: the dice secrets, a fresh secret in case the chain runs
// out, randomness for salts, the openings of sealed parts.
func (s *Service) input(ctx context.Context, id string, side adjudicator.Side, src []byte, via string) (game.Input, error) {
	next, err := s.random(dice.SeedSize)
	if err != nil {
		return game.Input{}, err
	}
	return game.Input{Side: side, Src: src, Time: s.now(), Via: via,
		Secrets: func(gen int) ([]byte, error) { return s.Store.Secret(ctx, id, diceSecret(gen)) }, NextSecret: next,
		Rand: s.randReader(), Unseal: s.unsealer(ctx, id)}, nil
}
