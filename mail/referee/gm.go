package referee

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
	"github.com/umpire-pbem/umpire/templates"
)

// The referee's actions on a game's clock, by mail:
//
//	command: pause          command: resume        command: extend
//	game: race-1            game: race-1           game: race-1
//	reason: a holiday       reason: back           side: blue      # default: every side
//	                                               by: 24h         # or until: 2026-12-01T18:00:00Z
//	                                               reason: asked for it
//
// and also
//
//	command: process        command: end                command: replace    command: eject
//	game: race-1            game: race-1                game: race-1        game: race-1
//	side: blue  # optional  result: red wins on points  side: blue          side: blue
//	                        loser: blue  # optional     address: new@x.org  reason: vanished
//
// Each is an event in the game's log and a notice to every player and to
// the referee.

// cmdClock runs the referee's actions on a game: pause, resume, extend,
// process, end, replace and eject.
func (h *handling) cmdClock(ctx context.Context, c Command) error {
	d := h.d
	g, err := d.Games.Load(ctx, c.Game)
	if err != nil {
		return h.refereeReply(ctx, c.Game, c, false, err.Error(), nil)
	}
	if !d.mayReferee(g, h.m.From) {
		return h.refereeReply(ctx, c.Game, c, false, fmt.Sprintf("Only the referee of game %s may %s it.", g.ID, c.Command), nil)
	}
	reason := strings.TrimSpace(c.Reason)
	var what string
	mail := func(g *game.Game) ([]store.Message, error) { return d.noticeMails(g, c.Command+"-"+h.id, what, reason) }
	switch c.Command {
	case "pause":
		what = "the referee paused the game: no deadline runs until it is resumed, and then every deadline moves by the time the game stood paused."
		_, err = d.Games.Pause(ctx, g.ID, reason, mail, h.mark)
	case "resume":
		what = "the referee resumed the game: every deadline moved by the time the game stood paused."
		_, err = d.Games.Resume(ctx, g.ID, reason, mail, h.mark)
	case "extend":
		var by time.Duration
		var until time.Time
		switch {
		case c.By != "" && c.Until != "":
			err = fmt.Errorf("give by: or until:, not both")
		case c.By != "":
			by, err = time.ParseDuration(c.By)
			if err == nil && by <= 0 {
				err = fmt.Errorf("by: %q is not a time to add", c.By)
			}
		case c.Until != "":
			until, err = time.Parse(time.RFC3339, c.Until)
		default:
			err = fmt.Errorf("say how long: \"by: 24h\", or until when: \"until: 2026-12-01T18:00:00Z\"")
		}
		if err == nil {
			who := "every side"
			if c.Side != "" {
				who = c.Side
			}
			what = fmt.Sprintf("the referee moved the deadline of %s.", who)
			_, err = d.Games.Extend(ctx, g.ID, adjudicator.Side(c.Side), by, until, reason, mail, h.mark)
		}
	case "process":
		what = "the referee applied the game's rule for late orders now."
		_, err = d.Games.Process(ctx, g.ID, adjudicator.Side(c.Side), func(g *game.Game, notes []game.ClockNote, outs []*game.Outcome, recs []game.Record) ([]store.Message, error) {
			return d.clockMails(ctx, g, notes, outs, recs)
		}, h.mark)
	case "rollback":
		if c.To == 0 {
			err = fmt.Errorf("say to which event: \"to: N\" (the referee's 'command: show' or umpire log lists them)")
			break
		}
		var br *games.Branched
		br, err = d.Games.Branch(ctx, g.ID, c.To, strings.TrimSpace(c.ID), func(branch, parent *game.Game) ([]store.Message, error) {
			v := branch.View(adjudicator.Referee)
			what = fmt.Sprintf("the referee rolled the game back to event %d (turn %d, %s): it goes on as game %s, from there. Send your orders to game %s (its \"game:\" line) with the same secret; game %s is kept as it was, for the record. The dice of what happened up to there are the same; the dice from now on come from a fresh chain committed now.", c.To, v.Turn, v.Phase, branch.ID, branch.ID, parent.ID)
			return d.noticeMails(branch, "rollback-"+h.id, what, reason)
		}, h.mark)
		if err == nil {
			what = fmt.Sprintf("game %s goes on as %s from event %d; its new dice commitment is %s.", g.ID, br.Game.ID, c.To, br.Commitment)
		}
	case "end":
		result := strings.TrimSpace(c.Result)
		if result == "" {
			err = fmt.Errorf("say how the game ended: \"result: ...\"")
			break
		}
		what = "the referee ended the game: " + result + "."
		_, err = d.Games.End(ctx, g.ID, result, adjudicator.Side(c.Loser), mail, h.mark)
	case "replace", "eject":
		addr := strings.TrimSpace(c.Address)
		switch {
		case c.Side == "":
			err = fmt.Errorf("say which side: \"side: ...\"")
		case c.Command == "replace" && addr == "":
			err = fmt.Errorf("give the new player's address: \"address: ...\"")
		case c.Command == "eject":
			addr = ""
		}
		if err != nil {
			break
		}
		old := strings.TrimSpace(c.Player) // one player of a team (docs/teams.md)
		whose := "the player of " + c.Side
		if old != "" {
			whose = old + ", a player of " + c.Side
		}
		what = fmt.Sprintf("the referee ejected %s: nobody has his place until the referee gives it to someone.", whose)
		if addr != "" {
			what = fmt.Sprintf("%s now has the place of %s; the former player's secret no longer counts.", addr, whose)
			if old == "" && len(g.Team(adjudicator.Side(c.Side))) < 2 {
				what = fmt.Sprintf("%s is now played by %s; the former player's secret no longer counts.", c.Side, addr)
			}
		}
		_, _, err = d.Games.ReplaceMember(ctx, g.ID, adjudicator.Side(c.Side), old, addr, reason, func(ng *game.Game, secret string) ([]store.Message, error) {
			msgs, err := d.noticeMails(ng, c.Command+"-"+h.id, what, reason)
			if err != nil || addr == "" {
				return msgs, err
			}
			// The new player's welcome, with their secret.
			np, _, ok := ng.Member(adjudicator.Side(c.Side), addr)
			if !ok {
				return nil, fmt.Errorf("%s does not play %s after the replacement", addr, c.Side)
			}
			welcome, err := d.welcomeMails(ng, map[adjudicator.Side]string{np.SeatName(): secret}, h.id)
			for _, m := range welcome {
				if sameAddress(m.To[0], addr) {
					msgs = append(msgs, m)
				}
			}
			return msgs, err
		}, h.mark)
	}
	if err != nil {
		return h.refereeReply(ctx, g.ID, c, false, fmt.Sprintf("Not done: %v", err), nil)
	}
	// The action was written with this mail's intake mark: the reply goes
	// on its own (a crash before it loses only the reply; every notice went
	// with the action).
	h.marked = true
	return h.refereeReply(ctx, g.ID, c, true, fmt.Sprintf("Done: %s. Every player has been told.", strings.TrimSuffix(what, ".")), nil)
}

// mayReferee reports whether addr referees g.
func (d *Desk) mayReferee(g *game.Game, addr string) bool {
	return d.isReferee(addr) || (g.Created.Referee != "" && sameAddress(g.Created.Referee, addr))
}

// noticeMails tells every player and the referee of g what happened to
// its clock.
func (d *Desk) noticeMails(g *game.Game, key, what, reason string) ([]store.Message, error) {
	var msgs []store.Message
	send := func(to string, side adjudicator.Side, who string) error {
		data := templates.NoticeData{Game: gameInfo(g), What: what, Reason: reason, Waiting: d.dueFor(g, side)}
		m, err := d.toPlayer(g, to, "notice", []string{key, who}, templates.Notice, data)
		if err == nil {
			msgs = append(msgs, m)
		}
		return err
	}
	for _, p := range g.Created.Players {
		if p.Address != "" {
			if err := send(p.Address, p.Side, who(g, p)); err != nil {
				return nil, err
			}
		}
	}
	if ref := d.gameReferee(g); ref != "" {
		if err := send(ref, "", "referee"); err != nil {
			return nil, err
		}
	}
	return msgs, nil
}
