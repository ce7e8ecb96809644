package referee

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
	"github.com/umpire-pbem/umpire/templates"
)

// The clock's mails: a reminder to a side that has not answered as its
// deadline comes near, and a notice to every player and the referee when
// a deadline passes. Deadlines themselves show in every list of what the
// game waits for (dueFor).

// Tick runs every game's clock once and queues the mails it causes. The
// daemon calls it on a timer; a game whose clock fails is logged and the
// others go on.
func (d *Desk) Tick(ctx context.Context) error {
	ids, err := d.Games.Store.Games(ctx)
	if err != nil {
		return err
	}
	last, err := d.Games.LastTick(ctx)
	if err != nil {
		return err
	}
	now := d.now()
	for _, id := range ids {
		if err := ctx.Err(); err != nil {
			return err
		}
		notes, err := d.Games.Tick(ctx, id, last, func(g *game.Game, notes []game.ClockNote, outs []*game.Outcome, recs []game.Record) ([]store.Message, error) {
			return d.clockMails(ctx, g, notes, outs, recs)
		})
		if err != nil {
			d.log().Error("the clock of a game failed", "game", id, "err", err)
			continue
		}
		for _, n := range notes {
			d.log().Info("clock", "game", id, "event", n.Kind, "request", n.Request.ID, "side", n.Request.Side, "due", n.Due.Format(time.RFC3339))
		}
	}
	return d.Games.MarkTick(ctx, now)
}

// clockMails builds the mails of the clock's events in g (already folded
// into g), and the results of the default answers it applied.
func (d *Desk) clockMails(ctx context.Context, g *game.Game, notes []game.ClockNote, outs []*game.Outcome, recs []game.Record) ([]store.Message, error) {
	var msgs []store.Message
	now := d.now()
	var moved []string // deadlines umpire moved, told in one notice
	var why, key string
	for _, n := range notes {
		r := n.Request
		switch n.Kind {
		case game.TypeDeadlineReminded:
			// Every player the request still waits for (team.go).
			for _, p := range g.Waiting(r) {
				if p.Address == "" {
					continue
				}
				data := templates.ClockData{Game: gameInfo(g), Request: d.dueOne(g, r, now, true), Waiting: d.dueFor(g, r.Side), Policy: g.ClockSettings().Policy()}
				id := []string{r.ID, n.Due.Format("20060102T1504"), now.Format("20060102T150405")}
				if w := who(g, p); w != string(r.Side) {
					id = append(id, w)
				}
				m, err := d.toPlayer(g, p.Address, "reminder", id, templates.Reminder, data)
				if err != nil {
					return nil, err
				}
				msgs = append(msgs, m)
			}
		case game.TypeDeadlineExtended:
			moved = append(moved, fmt.Sprintf("%s (%s) to %s", r.Side, r.Title, ByWhen(n.Due, now, games.Location(g))))
			why, key = n.Reason, key+"|"+r.ID
		case game.TypeDeadlinePassed:
			for _, p := range g.Created.Players {
				if p.Address == "" {
					continue
				}
				data := templates.ClockData{Game: gameInfo(g), Request: d.dueOne(g, r, now, p.Side == r.Side), Waiting: d.dueFor(g, p.Side), Policy: g.ClockSettings().Policy()}
				m, err := d.toPlayer(g, p.Address, "late", []string{r.ID, who(g, p)}, templates.Late, data)
				if err != nil {
					return nil, err
				}
				msgs = append(msgs, m)
			}
			if ref := d.gameReferee(g); ref != "" {
				data := templates.ClockData{Game: gameInfo(g), Request: d.dueOne(g, r, now, false), ToReferee: true, Waiting: d.dueFor(g, ""), Policy: g.ClockSettings().Policy()}
				m, err := d.toPlayer(g, ref, "late", []string{r.ID, "referee"}, templates.Late, data)
				if err != nil {
					return nil, err
				}
				msgs = append(msgs, m)
			}
		}
	}
	if len(outs) > 0 {
		var results []game.Result
		var said []adjudicator.Line
		for _, out := range outs {
			results = append(results, out.Results...)
			said = append(said, adjudicator.Line{Text: fmt.Sprintf("%s missed the deadline for %s: the rules' default answer was applied (no-move=default):\n%s",
				out.Accepted.Side, out.Accepted.Phase, strings.TrimRight(out.Accepted.Normalized, "\n"))})
			said = append(said, out.Notes...)
		}
		if len(results) > 0 {
			head, event, err := d.headAfter(ctx, g, recs)
			if err != nil {
				return nil, err
			}
			st, err := d.logStory(ctx, g, recs) // narrative.go
			if err != nil {
				return nil, err
			}
			// The game as stored is the game before recs: where units stood,
			// and every adjudication's moves for the picture.
			if before, err := d.Games.Load(ctx, g.ID); err == nil && before.Version+uint64(len(recs)) == g.Version {
				st.from = func(side adjudicator.Side) map[string]string { return unitsAt(before.View(side)) }
				st.before = before.View
				st.traces = tracerOf(before, recs)
				st.prior = before
			}
			more, err := d.resultsMails(ctx, g, results, st, head, event, "results", "no-move", nil, said...)
			if err != nil {
				return nil, err
			}
			msgs = append(msgs, more...)
			late, err := d.delayedObserverResults(ctx, g, recs) // observers.go
			if err != nil {
				return nil, err
			}
			msgs = append(msgs, late...)
		}
	}
	for _, n := range notes {
		if n.Kind == game.TypeDigest {
			m, err := d.digestMail(ctx, g)
			if err != nil {
				return nil, err
			}
			if m != nil {
				msgs = append(msgs, *m)
			}
		}
		if n.Kind == game.TypeEnded {
			more, err := d.noticeMails(g, "ended-"+n.Request.ID, "the game is over: "+n.Reason+".", "")
			if err != nil {
				return nil, err
			}
			msgs = append(msgs, more...)
		}
	}
	if len(moved) > 0 {
		more, err := d.noticeMails(g, "moved"+key+now.Format("20060102T1504"), "umpire moved the deadline of "+strings.Join(moved, "; and of ")+".", why+".")
		if err != nil {
			return nil, err
		}
		msgs = append(msgs, more...)
	}
	return msgs, nil
}

// gameReferee is who referees g: its own referee, or the desk's.
func (d *Desk) gameReferee(g *game.Game) string {
	if g.Created.Referee != "" {
		return g.Created.Referee
	}
	return d.Referee
}

// dueFor lists what g waits for, marking side's own requests, each with
// its deadline.
func (d *Desk) dueFor(g *game.Game, side adjudicator.Side) []templates.Due {
	now := d.now()
	var out []templates.Due
	for _, r := range g.Due() {
		due := d.dueOne(g, r, now, side != "" && r.Side == side)
		_, due.Received = g.Answered(r.ID)
		out = append(out, due)
	}
	return out
}

// dueOne is one request for people, with its deadline.
func (d *Desk) dueOne(g *game.Game, r adjudicator.Request, now time.Time, mine bool) templates.Due {
	due := templates.Due{ID: r.ID, Side: string(r.Side), Title: r.Title, Kind: r.Kind, Turn: r.Turn, Phase: r.Phase, Prompt: r.Prompt, Choice: r.Choice, Mine: mine}
	if dl, ok := g.Deadlines[r.ID]; ok {
		due.By, due.Deadline = ByWhen(dl.Due, now, games.Location(g)), dl.Due.UTC()
	}
	return due
}

// ByWhen says when a deadline falls, in UTC and the game's zone, and how
// long is left: "Fri 28 Nov 18:00 UTC (19:00 in Europe/Paris) — in 2 days
// 4 hours", or "— 3 hours ago" once passed.
func ByWhen(due, now time.Time, loc *time.Location) string {
	var b strings.Builder
	b.WriteString(due.UTC().Format("Mon 2 Jan 15:04 MST"))
	if loc != nil && loc != time.UTC {
		local := due.In(loc)
		if local.Day() != due.UTC().Day() {
			fmt.Fprintf(&b, " (%s in %s)", local.Format("Mon 2 Jan 15:04"), loc)
		} else {
			fmt.Fprintf(&b, " (%s in %s)", local.Format("15:04"), loc)
		}
	}
	left := due.Sub(now)
	switch {
	case left > 0:
		fmt.Fprintf(&b, " — in %s", span(left))
	case left > -time.Minute:
		b.WriteString(" — now")
	default:
		fmt.Fprintf(&b, " — %s ago", span(-left))
	}
	return b.String()
}

// span is a duration for people, to the largest two units.
func span(d time.Duration) string {
	days := int(d / (24 * time.Hour))
	hours := int(d % (24 * time.Hour) / time.Hour)
	minutes := int(d % time.Hour / time.Minute)
	unit := func(n int, one string) string {
		if n == 1 {
			return "1 " + one
		}
		return fmt.Sprintf("%d %ss", n, one)
	}
	switch {
	case days > 0 && hours > 0:
		return unit(days, "day") + " " + unit(hours, "hour")
	case days > 0:
		return unit(days, "day")
	case hours > 0 && minutes > 0:
		return unit(hours, "hour") + " " + unit(minutes, "minute")
	case hours > 0:
		return unit(hours, "hour")
	default:
		return unit(max(minutes, 1), "minute")
	}
}

// clockRules says a game's deadline rules for people, one line each.
func clockRules(g *game.Game) []string {
	if len(g.Created.Clock) == 0 {
		return nil
	}
	cs := g.ClockSettings()
	var out []string
	for _, kind := range []string{"setup", "orders", "decision"} {
		if d, ok := cs.Deadlines[kind]; ok {
			out = append(out, fmt.Sprintf("%s: %s from when it comes due", kind, span(d)))
		}
	}
	if cs.At != "" {
		out = append(out, fmt.Sprintf("deadlines fall at %s, %s", cs.At, games.Location(g)))
	}
	if cs.Weekdays {
		out = append(out, "a deadline on a Saturday or Sunday moves to Monday")
	}
	if len(cs.Reminders) > 0 {
		var rs []string
		for _, r := range cs.Reminders {
			rs = append(rs, span(r))
		}
		out = append(out, "reminders "+strings.Join(rs, " and ")+" before, if your orders are not in")
	}
	return append(out, "late orders: "+cs.Policy())
}

// digestMail is the referee's digest of g's adjudications since the one
// before (referee.copies=digest): each in full, as the referee reads it.
func (d *Desk) digestMail(ctx context.Context, g *game.Game) (*store.Message, error) {
	ref := d.gameReferee(g)
	if ref == "" {
		return nil, nil
	}
	entries, evs, err := d.Games.Entries(ctx, g.ID)
	if err != nil {
		return nil, err
	}
	from := 1
	var adjs []templates.Adjudication
	for _, e := range entries {
		switch e.Type {
		case game.TypeDigest:
			var p game.DigestSent
			if json.Unmarshal(e.Payload, &p) == nil && p.To < g.DigestK {
				from = p.To + 1
			}
		case game.TypeAdjudicated:
			var a game.Adjudicated
			if err := json.Unmarshal(e.Payload, &a); err != nil {
				return nil, err
			}
			if a.K < from || a.K > g.DigestK {
				continue
			}
			res := game.Result{Adjudicated: a}
			if a.Sealed != "" {
				if opening, err := d.Games.Unseal(ctx, g.ID, a.Sealed); err == nil {
					res.Full, res.AllRolls, _ = game.Opened(a, opening)
				}
			}
			adjs = append(adjs, adjudicationFor(res, adjudicator.Referee))
		}
	}
	head := evs[len(evs)-1]
	m, err := d.refereeResults(g, adjs, head.Hash.String(), head.Seq, "digest", []string{strconv.Itoa(g.DigestK)}, d.pictures(g, story{}))
	return &m, err
}
