package games

import (
	"context"
	"errors"
	"fmt"
	"time"
	_ "time/tzdata" // the game's zone loads on machines without a zoneinfo database

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/mail/address"
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

// clockRecords are the clock events of g at t, folded into g.
func clockRecords(g *game.Game, t game.Tick) ([]game.Record, []game.ClockNote, error) {
	if len(g.Created.Clock) == 0 || g.Over() {
		return nil, nil, nil
	}
	return g.ClockRecords(g.ClockSettings(), Location(g), t)
}

// The clock's defaults: a run of the clock more than ClockStall after the
// one before means it stood still (umpire was down), and a deadline that
// fell meanwhile moves to ClockMargin from then.
const (
	DefaultClockStall  = 10 * time.Minute
	DefaultClockMargin = 12 * time.Hour
)

// metaLastTick is when the daemon's clock last ran over every game.
const metaLastTick = "clock/last-tick"

// LastTick is when the clock last ran over every game (zero if never).
func (s *Service) LastTick(ctx context.Context) (time.Time, error) {
	b, err := s.Store.Meta(ctx, metaLastTick)
	if errors.Is(err, store.ErrNotFound) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, err
	}
	t, err := time.Parse(time.RFC3339Nano, string(b))
	if err != nil {
		return time.Time{}, nil // an unreadable mark is as good as none
	}
	return t, nil
}

// MarkTick records that the clock ran over every game at now.
func (s *Service) MarkTick(ctx context.Context, now time.Time) error {
	_, err := s.Store.Append(ctx, store.Batch{Meta: map[string][]byte{metaLastTick: []byte(now.UTC().Format(time.RFC3339Nano))}})
	return err
}

func (s *Service) tick(now, last time.Time) game.Tick {
	t := game.Tick{Now: now, Last: last, Stall: s.ClockStall, Margin: s.ClockMargin}
	if t.Stall == 0 {
		t.Stall = DefaultClockStall
	}
	if t.Margin == 0 {
		t.Margin = DefaultClockMargin
	}
	return t
}

// TickMail builds the mails of one run of a game's clock: g is the game
// after it, notes what the clock did, outs the default answers it applied
// (each an outcome with its adjudications), recs every record appended.
type TickMail func(g *game.Game, notes []game.ClockNote, outs []*game.Outcome, recs []game.Record) ([]store.Message, error)

// Tick runs the game's clock at the service's now: deadlines for requests
// that have none, reminders, deadlines passed and the no-move policy
// (a grace, the rules' default answer, a forfeit). It appends what
// happened and the mails it causes in one transaction, and reports what it
// did (nothing, most of the time).
//
// last is when the clock ran before (LastTick), to tell a deadline that
// fell while umpire was down.
func (s *Service) Tick(ctx context.Context, id string, last time.Time, mail TickMail) ([]game.ClockNote, error) {
	return s.tickWith(ctx, id, last, nil, mail, nil)
}

// tickWith is Tick with records to append first (pre folds them into the
// game it is given), in the same transaction.
func (s *Service) tickWith(ctx context.Context, id string, last time.Time, pre func(g *game.Game, now time.Time) ([]game.Record, error), mail TickMail, marks []string) ([]game.ClockNote, error) {
	var notes []game.ClockNote
	_, err := s.write(ctx, id, func(g *game.Game) (*game.Game, store.Batch, error) {
		version := g.Version
		now := s.now()
		var recs []game.Record
		var err error
		if pre != nil {
			if recs, err = pre(g, now); err != nil {
				return nil, store.Batch{}, err
			}
		}
		var clock []game.Record
		clock, notes, err = clockRecords(g, s.tick(now, last))
		if err != nil {
			return nil, store.Batch{}, err
		}
		if recs = append(recs, clock...); len(recs) == 0 {
			return g, store.Batch{}, nil
		}
		// The rules' default answer for each deadline passed with
		// no-move=default, as if the side had sent it.
		var outs []*game.Outcome
		for _, n := range notes {
			if n.Kind != game.NoteDefault {
				continue
			}
			src, ok := g.DefaultAnswer(n.Request)
			if !ok {
				continue // no default for this request: the game waits
			}
			in, err := s.input(ctx, id, n.Request.Side, src, "no-move")
			if err != nil {
				return nil, store.Batch{}, err
			}
			in.Time = now
			out, err := g.Submit(in)
			if err != nil {
				s.logDefault(id, n.Request, err)
				continue
			}
			recs = append(recs, out.Records...)
			outs = append(outs, out)
			g = out.Next
		}
		if g.Over() && len(g.Unrevealed) > 0 {
			more, err := g.RevealAllRecords(now, s.unsealer(ctx, id))
			if err != nil {
				return nil, store.Batch{}, err
			}
			recs = append(recs, more...)
		}
		// What the default answers made due gets its deadline.
		more, _, err := clockRecords(g, game.Tick{Now: now})
		if err != nil {
			return nil, store.Batch{}, err
		}
		recs = append(recs, more...)
		b := store.Batch{Game: id, Expected: version, Events: toNew(recs), Marks: marks}
		keepOpenings(&b, recs)
		for _, out := range outs {
			if out.NewSecret != nil {
				if b.Secrets == nil {
					b.Secrets = map[string][]byte{}
				}
				b.Secrets[diceSecret(out.NewChain)] = out.NewSecret
			}
		}
		if mail != nil {
			if b.Outbox, err = mail(g, notes, outs, recs); err != nil {
				return nil, store.Batch{}, err
			}
		}
		return g, b, nil
	})
	if err != nil {
		return nil, err
	}
	return notes, nil
}

// write appends to game id's log what build makes of its current state
// (build folds its records into the game it is given, and returns the game
// after them and the batch; a batch without events writes nothing), and
// decides again on the fresh log when another writer got there first: the
// single writer of a game's clock and the referee's actions.
func (s *Service) write(ctx context.Context, id string, build func(g *game.Game) (*game.Game, store.Batch, error)) (*game.Game, error) {
	defer s.lock(id)()
	for attempt := 0; ; attempt++ {
		g, err := s.Load(ctx, id)
		if err != nil {
			return nil, err
		}
		wasOver := g.Created.Parent != nil && g.Over() // only a game of a series reports its end
		after, b, err := build(g)
		if err != nil {
			return nil, err
		}
		if len(b.Events) == 0 {
			return after, nil
		}
		// What the write causes in other games, in the same transaction
		// (series.go); after may move on (a series' automatic answers).
		l, err := s.follow(ctx, wasOver, &after, &b, 0)
		if err != nil {
			l.unlock()
			return nil, err
		}
		_, err = s.Store.AppendAll(ctx, append([]store.Batch{b}, l.batches...))
		if err == nil {
			l.remember(s)
		}
		l.unlock()
		if errors.Is(err, store.ErrConflict) && attempt < 3 {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("game %s: %w", id, err)
		}
		s.remember(after.Clone())
		s.keepSnapshot(ctx, after)
		return after, nil
	}
}

// logDefault is told when the rules' default answer is refused (a ruleset
// whose default does not fit): the game waits, as with no-move=wait.
func (s *Service) logDefault(id string, r adjudicator.Request, err error) {
	if s.OnDefaultRefused != nil {
		s.OnDefaultRefused(id, r, err)
	}
}

// GMMail builds the mails a referee's action causes, given the game after
// it.
type GMMail func(g *game.Game) ([]store.Message, error)

// Act appends what a referee's action on game id decides (act folds its
// records into the game it is given), with the mails it causes, in one
// transaction. An error from act (a game not paused, say) writes nothing.
//
// marks are intake marks written in the same transaction: the mail that
// asked for the action is handled once, whatever happens.
func (s *Service) Act(ctx context.Context, id string, act func(g *game.Game) ([]game.Record, error), mail GMMail, marks ...string) (*game.Game, error) {
	return s.write(ctx, id, func(g *game.Game) (*game.Game, store.Batch, error) {
		version := g.Version
		recs, err := act(g)
		if err != nil || len(recs) == 0 {
			return g, store.Batch{}, err
		}
		// What the action made due gets its deadline (resuming a game
		// whose requests came due while it stood paused).
		clock, _, err := clockRecords(g, game.Tick{Now: s.now()})
		if err != nil {
			return nil, store.Batch{}, err
		}
		recs = append(recs, clock...)
		b := store.Batch{Game: id, Expected: version, Events: toNew(recs), Marks: marks}
		if mail != nil {
			if b.Outbox, err = mail(g); err != nil {
				return nil, store.Batch{}, err
			}
		}
		return g, b, nil
	})
}

// Pause stops game id's clock: no reminder, no deadline passes, until
// Resume, which moves every deadline by the time the game stood paused.
func (s *Service) Pause(ctx context.Context, id, reason string, mail GMMail, marks ...string) (*game.Game, error) {
	now := s.now()
	return s.Act(ctx, id, func(g *game.Game) ([]game.Record, error) {
		rec, err := g.PauseRecord(now, reason)
		return []game.Record{rec}, err
	}, mail, marks...)
}

// Resume: see Pause.
func (s *Service) Resume(ctx context.Context, id, reason string, mail GMMail, marks ...string) (*game.Game, error) {
	now := s.now()
	return s.Act(ctx, id, func(g *game.Game) ([]game.Record, error) { return g.ResumeRecords(now, reason) }, mail, marks...)
}

// Extend moves the deadline of what side (every side, when "") owes to
// game id: by a duration, or to a time (when until is not zero).
func (s *Service) Extend(ctx context.Context, id string, side adjudicator.Side, by time.Duration, until time.Time, reason string, mail GMMail, marks ...string) (*game.Game, error) {
	now := s.now()
	if !until.IsZero() && !until.After(now) {
		return nil, fmt.Errorf("%s is past: give a time to come", until.UTC().Format(time.RFC3339))
	}
	return s.Act(ctx, id, func(g *game.Game) ([]game.Record, error) {
		var reqs []string
		for _, r := range g.Due() {
			if _, answered := g.Answered(r.ID); !answered && (side == "" || r.Side == side) {
				if _, has := g.Deadlines[r.ID]; has {
					reqs = append(reqs, r.ID)
				}
			}
		}
		if len(reqs) == 0 {
			who := "any side"
			if side != "" {
				who = string(side)
			}
			return nil, fmt.Errorf("game %s waits for nothing from %s with a deadline", id, who)
		}
		return g.ExtendRecords(now, game.ActorReferee, reason, reqs, func(old time.Time) time.Time {
			if !until.IsZero() {
				return until
			}
			return old.Add(by)
		})
	}, mail, marks...)
}

// End ends game id with result, as the referee says; loser may be "".
// Everything sealed is revealed: the game is over.
func (s *Service) End(ctx context.Context, id, result string, loser adjudicator.Side, mail GMMail, marks ...string) (*game.Game, error) {
	now := s.now()
	return s.Act(ctx, id, func(g *game.Game) ([]game.Record, error) {
		rec, err := g.EndRecord(now, result, loser)
		if err != nil {
			return nil, err
		}
		more, err := g.RevealAllRecords(now, s.unsealer(ctx, id))
		return append([]game.Record{rec}, more...), err
	}, mail, marks...)
}

// Replace gives side of game id to the player at address ("" ejects the
// player: nobody plays the side until it is given again). The new player
// gets a new secret, returned in plain text once; the old one is dead.
func (s *Service) Replace(ctx context.Context, id string, side adjudicator.Side, addr, reason string, mail func(g *game.Game, secret string) ([]store.Message, error), marks ...string) (*game.Game, string, error) {
	return s.ReplaceMember(ctx, id, side, "", addr, reason, mail, marks...)
}

// ReplaceMember gives the place of the player of side at address old (""
// for the side's captain, its only player in most games) to the player at
// address addr, as Replace: the rest of the side's team stays.
func (s *Service) ReplaceMember(ctx context.Context, id string, side adjudicator.Side, old, addr, reason string, mail func(g *game.Game, secret string) ([]store.Message, error), marks ...string) (*game.Game, string, error) {
	if addr != "" {
		if err := address.Check(addr); err != nil {
			return nil, "", err
		}
	}
	now := s.now()
	secret, verifier, err := s.drawPlayerSecret()
	if err != nil {
		return nil, "", err
	}
	g, err := s.write(ctx, id, func(g *game.Game) (*game.Game, store.Batch, error) {
		version := g.Version
		seat := g.Seat(side)
		if old != "" {
			p, _, ok := g.Member(side, old)
			if !ok {
				return nil, store.Batch{}, fmt.Errorf("%s does not play %s in game %s", old, side, id)
			}
			seat = p.SeatName()
		}
		rec, err := g.ReplaceMemberRecord(now, side, old, addr, reason)
		if err != nil {
			return nil, store.Batch{}, err
		}
		// The new player takes the seat of the one he replaces.
		b := store.Batch{Game: id, Expected: version, Events: toNew([]game.Record{rec}),
			Secrets: map[string][]byte{playerSecret(seat): verifier}, Marks: marks}
		if mail != nil {
			if b.Outbox, err = mail(g, secret); err != nil {
				return nil, store.Batch{}, err
			}
		}
		return g, b, nil
	})
	if err != nil {
		return nil, "", err
	}
	return g, secret, nil
}

// Process applies game id's no-move policy now to what side (every side,
// when "") owes, as if its deadline had passed: the referee's "process
// now". Requests without a deadline get one that passes now.
func (s *Service) Process(ctx context.Context, id string, side adjudicator.Side, mail TickMail, marks ...string) ([]game.ClockNote, error) {
	return s.tickWith(ctx, id, time.Time{}, func(g *game.Game, now time.Time) ([]game.Record, error) {
		if len(g.Created.Clock) == 0 {
			return nil, fmt.Errorf("game %s has no deadlines and no rule for late orders (game options deadline.* and no-move)", id)
		}
		var reqs []string
		for _, r := range g.Due() {
			if _, answered := g.Answered(r.ID); !answered && (side == "" || r.Side == side) {
				reqs = append(reqs, r.ID)
			}
		}
		if len(reqs) == 0 {
			return nil, fmt.Errorf("game %s waits for nothing from %s", id, map[bool]string{true: "any side", false: string(side)}[side == ""])
		}
		return g.DueNowRecords(now, reqs, "the referee processed the game now")
	}, mail, marks)
}
