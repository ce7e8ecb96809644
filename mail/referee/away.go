package referee

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
	"github.com/umpire-pbem/umpire/store"
)

// Absences by mail: a player (or the referee, naming the side)
//
//	command: away               command: back
//	game: race-1                game: race-1
//	side: red                   side: red
//	secret: ...                 secret: ...
//	until: 2026-12-05           # a date (the end of that day, UTC) or a time
//	reason: a week in the hills
//
// Every player and the referee are told, with the deadlines moved.

// parseUntil reads "2026-12-05" (the end of that day, UTC) or an RFC 3339
// time.
func parseUntil(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t.UTC(), nil
	}
	if t, err := time.Parse("2006-01-02", s); err == nil {
		return t.Add(24*time.Hour - time.Second).UTC(), nil
	}
	return time.Time{}, fmt.Errorf("until: %q is not a date (2026-12-05) or a time (2026-12-05T18:00:00Z)", s)
}

// askAway records an absence, or its end ("back").
func (h *handling) askAway(ctx context.Context, a *asker) error {
	d := h.d
	side := a.side
	if side == "" {
		return h.refuse(ctx, a.asked(d), "no-side", adjudicator.Errorf(a.root, adjudicator.CodeMissingField, "say whose absence: add a line \"side: ...\""))
	}
	actor := game.SideActor(side)
	if a.referee {
		actor = game.ActorReferee
	}
	var what string
	mail := func(g *game.Game) ([]store.Message, error) {
		return d.noticeMails(g, a.c.Command+"-"+h.id, what, strings.TrimSpace(a.c.Reason))
	}
	var err error
	switch a.c.Command {
	case "away":
		var until time.Time
		if until, err = parseUntil(a.c.Until); err != nil {
			at := yamlx.Value(a.root, "until")
			if at == nil {
				at = a.root
			}
			return h.refuse(ctx, a.asked(d), "bad-command", adjudicator.Errorf(at, adjudicator.CodeBadValue, "%v", err))
		}
		what = fmt.Sprintf("%s is away until %s: no reminders meanwhile, and no deadline of %s falls before a day after that (the deadlines below are moved).", side, until.Format("Mon 2 Jan 15:04 MST"), side)
		_, err = d.Games.Away(ctx, a.g.ID, side, until, strings.TrimSpace(a.c.Reason), mail, h.mark)
	case "back":
		what = fmt.Sprintf("%s is back: reminders and deadlines run as usual again.", side)
		_, err = d.Games.Back(ctx, a.g.ID, side, actor, mail, h.mark)
	}
	if errors.Is(err, store.ErrDuplicate) {
		return err // the same mail, recorded meanwhile
	}
	if err != nil {
		return h.refusef(ctx, a, "not-done", "%v", err)
	}
	// The notices to every player and the referee (the sender among them)
	// went with the absence and this mail's intake mark.
	h.out.Folder, h.out.Reason, h.out.Game = Processed, "ask-"+a.c.Command, a.g.ID
	return nil
}
