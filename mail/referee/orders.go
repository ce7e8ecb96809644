package referee

import (
	"context"
	"errors"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
	"github.com/umpire-pbem/umpire/mail/extract"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
	"github.com/umpire-pbem/umpire/templates"
)

// route is as much of the envelope as is needed to find the game and side:
// read loosely, because the strict reading (and its errors) is the
// engine's.
type route struct {
	Game string
	Side string
}

func readRoute(root *yaml.Node) route {
	var r route
	if root == nil || root.Kind != yaml.MappingNode {
		return r
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if v.Kind != yaml.ScalarNode {
			continue
		}
		switch k.Value {
		case "game":
			r.Game = strings.TrimSpace(v.Value)
		case "side":
			r.Side = strings.TrimSpace(v.Value)
		}
	}
	return r
}

func hasCommand(orders []byte) bool {
	root, err := yamlx.Parse(orders)
	if err != nil || root.Kind != yaml.MappingNode {
		return false
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "command" {
			return true
		}
	}
	return false
}

// unreadable answers a mail whose orders could not be extracted — if it
// comes from someone the referee knows.
func (h *handling) unreadable(ctx context.Context, xerr error) error {
	if h.m == nil || h.m.From == "" {
		return h.reject(ctx, "unreadable-stranger", nil)
	}
	known, g, err := h.d.knownSender(ctx, h.m.From)
	if err != nil {
		return err
	}
	if !known {
		return h.reject(ctx, "stranger", nil)
	}
	problem := "Your mail could not be read."
	var xe *extract.Error
	if errors.As(xerr, &xe) {
		problem = xe.Msg
		h.d.log().Info("mail unreadable", "from", h.m.From, "code", xe.Code, "cause", xe.Err)
	}
	data := templates.RejectedData{Game: g, Problem: problem}
	if tg, side, ok := h.threadGame(ctx); ok {
		// The mail answers one of this player's games: stay in its thread
		// and say what that game waits for.
		data.Game, data.Side, data.Due = gameInfo(tg), string(side), h.d.dueFor(tg, side)
	}
	return h.rejectWith(ctx, "unreadable", data.ID, data)
}

// threadGame returns the first game named by the mail's thread (Subject,
// In-Reply-To, References) in which the sender plays, with the sender's
// side there ("" when several).
func (h *handling) threadGame(ctx context.Context) (*game.Game, adjudicator.Side, bool) {
	ids := h.m.ThreadGames()
	for _, id := range ids[:min(len(ids), 5)] { // a bound on what a mail makes us load
		g, err := h.d.Games.Load(ctx, id)
		if err != nil {
			continue
		}
		if mine := sidesOf(g, h.m.From); len(mine) > 0 {
			var side adjudicator.Side
			if len(mine) == 1 {
				side = mine[0]
			}
			return g, side, true
		}
	}
	return nil, "", false
}

// rejectWith records the mail as rejected with one reply built from data.
func (h *handling) rejectWith(ctx context.Context, reason, gameID string, data templates.RejectedData) error {
	msg, err := h.d.reply(h.m, gameID, "rejected", templates.Rejected, data)
	if err != nil {
		h.d.log().Error("cannot build the rejection; filing the mail without a reply", "message_id", h.id, "err", err)
		return h.reject(ctx, reason+"+unanswered", nil)
	}
	h.out.Game = gameID
	return h.reject(ctx, reason, []store.Message{msg})
}

// orders routes and records a player's orders.
func (h *handling) orders(ctx context.Context) error {
	d, m := h.d, h.m
	root, perr := yamlx.Parse(m.Orders)
	r := readRoute(root)
	if perr != nil || r.Game == "" {
		known, g, err := d.knownSender(ctx, m.From)
		if err != nil {
			return err
		}
		if !known {
			return h.reject(ctx, "stranger", nil)
		}
		tg, side, inThread := h.threadGame(ctx)
		if perr == nil {
			id := g.ID
			if inThread {
				id = tg.ID
			}
			perr = adjudicator.Errorf(root, adjudicator.CodeMissingField, "say which game these orders are for: add a line \"game: %s\"", orDefault(id, "GAME-ID"))
		}
		data := templates.RejectedData{}
		if inThread {
			// The mail answers one of this player's games: stay in its
			// thread and say what that game waits for.
			data = templates.RejectedData{Game: gameInfo(tg), Side: string(side), Due: d.dueFor(tg, side)}
		}
		return h.rejectWith(ctx, "bad-orders", data.ID, h.orderErrors(perr, data))
	}
	g, err := d.Games.Load(ctx, r.Game)
	if errors.Is(err, games.ErrUnknownGame) {
		known, _, kerr := d.knownSender(ctx, m.From)
		if kerr != nil {
			return kerr
		}
		if !known {
			return h.reject(ctx, "stranger", nil)
		}
		e := adjudicator.Errorf(yamlx.Key(root, "game"), adjudicator.CodeUnknownGame, "there is no game %q; check the \"game:\" line against your welcome mail", r.Game)
		return h.rejectWith(ctx, "unknown-game", "", h.orderErrors(e, templates.RejectedData{}))
	}
	if err != nil {
		return err
	}
	info := gameInfo(g)
	h.out.Game = g.ID
	mine := sidesOf(g, m.From)
	side := adjudicator.Side(r.Side)
	if side == "" && len(mine) == 1 {
		side = mine[0] // the sender plays one side: the envelope may omit it
	}
	_, ok := g.Player(side)
	if _, _, member := g.Member(side, m.From); !ok || !member {
		if len(mine) == 0 && d.mayReferee(g, m.From) {
			// The referee is never left in silence: orders for a side come
			// from its player; the referee has commands instead.
			e := adjudicator.Errorf(yamlx.Key(root, "side"), "referee-not-player",
				"you are the referee of game %s, not a player: orders for a side come from its player's address. To act for an absent player, mail \"command: process\" (the rules' default answer, if the game has one), \"command: extend\", or \"command: replace\" to give the side to someone else (\"command: help\" lists them)", g.ID)
			return h.rejectWith(ctx, "referee-orders", g.ID, h.orderErrors(e, templates.RejectedData{Game: info, Side: string(side)}))
		}
		if len(mine) == 0 {
			return h.reject(ctx, "stranger", nil) // not a player of this game: no reply
		}
		var e *adjudicator.OrderError
		switch {
		case side == "":
			e = adjudicator.Errorf(root, adjudicator.CodeMissingField, "say which side these orders are for: add a line \"side: %s\"", mine[0])
		case !ok:
			e = adjudicator.Errorf(yamlx.Key(root, "side"), adjudicator.CodeUnknownSide, "game %s has no side %q; you play %s", g.ID, side, joinSides(mine))
		default:
			e = adjudicator.Errorf(yamlx.Key(root, "side"), adjudicator.CodeUnknownSide, "you (%s) play %s in game %s, not %s", m.From, joinSides(mine), g.ID, side)
		}
		return h.rejectWith(ctx, "wrong-side", g.ID, h.orderErrors(e, templates.RejectedData{Game: info}))
	}
	h.out.Side = string(side)
	if done, err := h.refuseIfPaused(ctx, g, side); done || err != nil {
		return err // too many wrong secrets: refused unread (throttle.go)
	}
	before := g
	var queued int
	out, err := d.Games.Submit(ctx, games.SubmitRequest{
		Game: g.ID, Side: side, From: m.From, Src: m.Orders, Via: "mail", MessageID: h.id, NeedSecret: true,
		Marks: []string{h.mark},
		Mail: func(next *game.Game, out *game.Outcome) ([]store.Message, error) {
			msgs, err := d.acceptedMails(ctx, h, before, next, out)
			if err != nil {
				return nil, buildErr(err)
			}
			queued = len(msgs)
			return msgs, nil
		},
	})
	switch {
	case err == nil:
		h.out.Folder = Processed
		h.out.Reason = "accepted"
		if len(out.Results) > 0 {
			h.out.Reason = "accepted+adjudicated"
		}
		h.out.Replies = queued
		return nil
	case adjudicator.IsOrderError(err):
		if seen, serr := d.Games.Store.Marked(ctx, h.mark); serr != nil {
			return serr
		} else if seen {
			return store.ErrDuplicate // recorded meanwhile
		}
		data := h.orderErrors(err, templates.RejectedData{Game: info, Side: string(side)})
		data.Due = h.d.dueFor(before, side)
		if isWrongSecret(err, m.Orders) {
			return h.wrongSecret(ctx, g, side, data) // counted (throttle.go)
		}
		return h.rejectWith(ctx, "bad-orders", g.ID, data)
	case errors.Is(err, game.ErrInternal) || errors.Is(err, errBuild):
		d.log().Error("umpire failed on a player's orders; the player is told, the mail is filed as rejected", "game", g.ID, "side", side, "message_id", h.id,
			"err", newQuoter(m.Orders, 0).hide(err.Error())) // never a secret in the log
		data := templates.RejectedData{Game: info, Side: string(side),
			Problem: "The referee software failed while handling your orders (this is not your mistake). The referee has been told; please wait for word from them before sending again."}
		return h.rejectWith(ctx, "internal-error", g.ID, data)
	}
	return err
}

// orderErrors puts the errors of err into data, with their lines counted
// in the mail (or attachment) as the player sees it. It quotes only a few
// lines around each error, cut short, and never a secret (quote.go).
func (h *handling) orderErrors(err error, data templates.RejectedData) templates.RejectedData {
	var list adjudicator.OrderErrors
	var e *adjudicator.OrderError
	q := newQuoter(h.m.Orders, h.m.LineOffset)
	switch {
	case errors.As(err, &list):
	case errors.As(err, &e):
		list = adjudicator.OrderErrors{e}
	default:
		data.Problem = cut(q.hide(err.Error()), maxMsgRunes, maxMsgBytes)
		return data
	}
	data.Errors, data.More = q.errorLines(list)
	data.Where = "your mail"
	if name, ok := strings.CutPrefix(h.m.Source, extract.SourceAttachmentPrefix); ok {
		data.Where = "the attachment " + cut(name, 100, 200)
	}
	data.Notes = boundedNotes(h.m.Notes)
	return data
}

// sidesOf lists the sides addr plays in g.
func sidesOf(g *game.Game, addr string) []adjudicator.Side {
	var out []adjudicator.Side
	for _, p := range g.Created.Players {
		if sameAddress(p.Address, addr) {
			out = append(out, p.Side)
		}
	}
	return out
}

func joinSides(s []adjudicator.Side) string {
	parts := make([]string, len(s))
	for i, x := range s {
		parts[i] = string(x)
	}
	return strings.Join(parts, " and ")
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// knownSender reports whether addr is someone the referee answers: a
// player of any game, a game's referee, or the configured referee. It
// returns one of their games, if any, to name in a reply.
func (d *Desk) knownSender(ctx context.Context, addr string) (bool, templates.Game, error) {
	if addr == "" {
		return false, templates.Game{}, nil
	}
	ids, err := d.Games.Store.Games(ctx)
	if err != nil {
		return false, templates.Game{}, err
	}
	for _, id := range ids {
		g, err := d.Games.Load(ctx, id)
		if err != nil {
			d.log().Warn("cannot load a game while looking up a sender", "game", id, "err", err)
			continue
		}
		if len(sidesOf(g, addr)) > 0 || sameAddress(g.Created.Referee, addr) {
			return true, gameInfo(g), nil
		}
	}
	if d.isReferee(addr) {
		return true, templates.Game{}, nil
	}
	return false, templates.Game{}, nil
}

func gameInfo(g *game.Game) templates.Game {
	return templates.Game{ID: g.ID, Ruleset: g.Created.Ruleset, Scenario: g.Created.Scenario, Referee: g.Created.Referee}
}
