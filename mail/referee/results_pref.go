package referee

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/templates"
)

// When a player gets results (game.ResultsPref), by mail:
//
//	command: mail
//	game: raid-1
//	side: defender
//	secret: ...
//	results: due        # or: every (the default)
//
// A player who chose "due" gets a results mail only when something is due
// from them, when the game ends, or when their own orders made the results
// (the acknowledgement opens that mail). That mail tells every
// adjudication since the last one they surely read: the one before the
// last orders they (or the clock, for them) sent, and those their own
// mail made. The players are told nothing of it; the sender is answered.

// askResultsPref records a side's choice of when to get results.
func (h *handling) askResultsPref(ctx context.Context, a *asker) error {
	d := h.d
	side := a.side
	if side == "" {
		return h.refuse(ctx, a.asked(d), "no-side", adjudicator.Errorf(a.root, adjudicator.CodeMissingField, "say whose mail: add a line \"side: ...\""))
	}
	when := strings.TrimSpace(a.c.Results)
	if when == "" {
		return h.refuse(ctx, a.asked(d), "bad-command", adjudicator.Errorf(a.root, adjudicator.CodeMissingField,
			"say when you want results: add a line \"results: due\" (only when something is due from you) or \"results: every\" (after every adjudication)"))
	}
	actor := game.SideActor(side)
	if a.referee {
		actor = game.ActorReferee
	}
	what := fmt.Sprintf("%s now gets results after every adjudication.", side)
	if when == game.ResultsDue {
		what = fmt.Sprintf("%s now gets results only when something is due from %s, when the game ends, and when its own orders made them; each such mail tells everything since the last.", side, side)
	}
	now := d.now()
	_, err := d.Games.Act(ctx, a.g.ID, func(g *game.Game) ([]game.Record, error) {
		rec, err := g.ResultsPrefRecord(now, side, when, actor)
		return []game.Record{rec}, err
	}, func(g *game.Game) ([]store.Message, error) {
		data := templates.NoticeData{Game: gameInfo(g), What: what, Waiting: d.dueFor(g, side)}
		msg, err := d.reply(h.m, g.ID, "ask-mail", templates.Notice, data)
		return []store.Message{msg}, err
	}, h.mark)
	if errors.Is(err, store.ErrDuplicate) {
		return err
	}
	if err != nil {
		at := yamlx.Value(a.root, "results")
		if at == nil {
			at = a.root
		}
		return h.refuse(ctx, a.asked(d), "not-done", adjudicator.Errorf(at, adjudicator.CodeBadValue, "%v", err))
	}
	h.out.Folder, h.out.Reason, h.out.Game, h.out.Replies = Processed, "ask-mail", a.g.ID, 1
	return nil
}

// quiet reports whether side, which gets results only when due, gets
// none now: nothing is due from it, the game goes on, and the results
// are not the answer to its own mail.
func (d *Desk) quiet(g *game.Game, side adjudicator.Side, sender bool) bool {
	if g.ResultsWhen(side) != game.ResultsDue || sender || g.View(side).Over {
		return false
	}
	for _, r := range g.Due() {
		if _, answered := g.Answered(r.ID); r.Side == side && !answered {
			return false
		}
	}
	return true
}

// lastTold is the number of the last adjudication side has surely read,
// for a side that gets results only when due: the adjudication before
// the last orders answered for it (it was due then, so it was told), or
// the last one its own mail made when that mail made adjudications (they
// opened its acknowledgement). It reads the stored log backwards, a
// stretch at a time.
func (d *Desk) lastTold(ctx context.Context, id string, side adjudicator.Side) (int, error) {
	top, err := d.Games.Store.Version(ctx, id)
	if err != nil {
		return 0, err
	}
	// side's last orders: not queued (those the engine used from orders
	// sent ahead), whoever sent them.
	var last *store.Event
	after, err := d.tail(ctx, id, top, func(e store.Event) bool {
		if e.Type != game.TypeOrders {
			return false
		}
		var oa struct {
			Side   adjudicator.Side `json:"side"`
			Queued bool             `json:"queued"`
		}
		if json.Unmarshal(e.Payload, &oa) != nil || oa.Side != side || oa.Queued {
			return false
		}
		last = &e
		return true
	})
	if err != nil || last == nil {
		return 0, err // no orders yet: it has read nothing since its welcome
	}
	// The adjudications its own mail made: same submission, same time.
	if last.Actor != game.ActorEngine {
		told := -1
		for _, x := range after {
			if !x.Time.Equal(last.Time) {
				break
			}
			if k, ok := adjudicationK(x); ok {
				told = k
			}
		}
		if told >= 0 {
			return told, nil
		}
	}
	// Else the adjudication before these orders.
	told := 0
	if _, err := d.tail(ctx, id, last.Seq-1, func(e store.Event) bool {
		k, ok := adjudicationK(e)
		if ok {
			told = k
		}
		return ok
	}); err != nil {
		return 0, err
	}
	return told, nil
}

// adjudicationK is the number of a turn.adjudicated event; ok is false
// for any other event.
func adjudicationK(e store.Event) (int, bool) {
	if e.Type != game.TypeAdjudicated {
		return 0, false
	}
	var a struct {
		K int `json:"k"`
	}
	if json.Unmarshal(e.Payload, &a) != nil {
		return 0, false
	}
	return a.K, true
}

// earlier are the stored adjudications after number told and before the
// first of results, each as the readers may read it (sealed parts put
// back from the data file), and what each used.
func (d *Desk) earlier(ctx context.Context, g *game.Game, told int, first int) ([]game.Result, map[int][]game.OrdersAccepted, error) {
	if told+1 >= first {
		return nil, nil, nil
	}
	top, err := d.Games.Store.Version(ctx, g.ID)
	if err != nil {
		return nil, nil, err
	}
	// From the adjudication told on: what the later ones used was accepted
	// after it.
	evs, err := d.tail(ctx, g.ID, top, func(e store.Event) bool {
		k, ok := adjudicationK(e)
		return ok && k <= told
	})
	if err != nil {
		return nil, nil, err
	}
	w := newStoryWalker()
	var out []game.Result
	for _, e := range evs {
		w.event(e.Seq, e.Type, e.Payload)
		if e.Type != game.TypeAdjudicated {
			continue
		}
		var a game.Adjudicated
		if err := json.Unmarshal(e.Payload, &a); err != nil {
			return nil, nil, fmt.Errorf("game %s event %d: %w", g.ID, e.Seq, err)
		}
		if a.K <= told || a.K >= first {
			continue
		}
		res := game.Result{Adjudicated: a}
		if a.Sealed != "" {
			opening, err := d.Games.Unseal(ctx, g.ID, a.Sealed)
			switch {
			case errors.Is(err, game.ErrSealed):
				d.log().Warn("no opening for a sealed adjudication: its public part only", "game", g.ID, "k", a.K, "err", err)
			case err != nil:
				return nil, nil, err
			default:
				if res.Full, res.AllRolls, err = game.Opened(a, opening); err != nil {
					return nil, nil, fmt.Errorf("game %s adjudication %d: %w", g.ID, a.K, err)
				}
			}
		}
		out = append(out, res)
	}
	return out, w.played, nil
}
