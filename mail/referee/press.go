package referee

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
	"github.com/umpire-pbem/umpire/templates"
)

// Press, by mail from a player:
//
//	command: press
//	game: race-1
//	side: red
//	secret: k3w6rbd2mqnhk5ia
//	to: blue                  # a side, or all
//	text: |
//	  Shall we share the road?
//
// The game's option press says who reads it (game.PressPolicies); under
// none it is refused. The secret is checked as for orders, and a wrong one
// counts toward the pause on guessing (throttle.go). umpire delivers the
// message from its own address with the start of a reply, sends the
// referee a copy of private and grey press, and acknowledges it to the
// sender, all in the transaction that records the press.sent event.

// pressCommand is a press mail.
type pressCommand struct {
	Command string `yaml:"command"`
	Game    string `yaml:"game"`
	Side    string `yaml:"side"`
	Secret  string `yaml:"secret"`
	To      string `yaml:"to"`
	Text    string `yaml:"text"`
}

// isPress reports whether orders are "command: press".
func isPress(orders []byte) bool {
	root, err := yamlx.Parse(orders)
	if err != nil || root.Kind != yaml.MappingNode {
		return false
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "command" {
			return strings.TrimSpace(root.Content[i+1].Value) == "press"
		}
	}
	return false
}

// press records and delivers a player's press message.
func (h *handling) press(ctx context.Context) error {
	d, m := h.d, h.m
	root, _ := yamlx.Parse(m.Orders) // isPress parsed it
	r := readRoute(root)
	g, err := d.Games.Load(ctx, r.Game)
	if r.Game == "" || errors.Is(err, games.ErrUnknownGame) {
		known, _, kerr := d.knownSender(ctx, m.From)
		if kerr != nil {
			return kerr
		}
		if !known {
			return h.reject(ctx, "stranger", nil)
		}
		e := adjudicator.Errorf(root, adjudicator.CodeMissingField, "say which game this press is for: add a line \"game: GAME-ID\"")
		if r.Game != "" {
			e = adjudicator.Errorf(yamlx.Key(root, "game"), adjudicator.CodeUnknownGame, "there is no game %q; check the \"game:\" line against your welcome mail", r.Game)
		}
		return h.rejectWith(ctx, "bad-press", "", h.orderErrors(e, templates.RejectedData{}))
	}
	if err != nil {
		return err
	}
	h.out.Game = g.ID
	mine := sidesOf(g, m.From)
	if len(mine) == 0 {
		return h.reject(ctx, "stranger", nil) // not a player (an observer, say): no reply
	}
	side := adjudicator.Side(r.Side)
	if side == "" && len(mine) == 1 {
		side = mine[0]
	}
	data := templates.RejectedData{Game: gameInfo(g), Side: string(side)}
	if !slices.Contains(mine, side) {
		e := adjudicator.Errorf(yamlx.Key(root, "side"), adjudicator.CodeUnknownSide, "you (%s) play %s in game %s: say which with \"side: %s\"", m.From, joinSides(mine), g.ID, mine[0])
		return h.rejectWith(ctx, "bad-press", g.ID, h.orderErrors(e, data))
	}
	h.out.Side = string(side)
	if done, err := h.refuseIfPaused(ctx, g, side); done || err != nil {
		return err // too many wrong secrets: refused unread (throttle.go)
	}
	var c pressCommand
	if err := yamlx.Decode(root, &c); err != nil {
		return h.rejectWith(ctx, "bad-press", g.ID, h.orderErrors(err, data))
	}
	ok := false
	if s := strings.TrimSpace(c.Secret); s != "" {
		if ok, err = d.Games.CheckMember(ctx, g.ID, side, m.From, s); err != nil {
			return err
		}
	}
	if !ok {
		at := yamlx.Key(root, "secret")
		if at == nil {
			at = root
		}
		e := adjudicator.Errorf(at, game.CodeBadSecret, "the secret for side %s is missing or wrong: copy the \"secret:\" line from the mail you received when the game was created", side)
		data = h.orderErrors(e, data)
		if isWrongSecret(e, m.Orders) {
			return h.wrongSecret(ctx, g, side, data) // counted (throttle.go)
		}
		return h.rejectWith(ctx, "bad-secret", g.ID, data)
	}
	msg := game.Press{From: side, To: strings.TrimSpace(c.To), Text: c.Text}
	if msg.To == "" {
		e := adjudicator.Errorf(root, adjudicator.CodeMissingField, "say to whom: add a line \"to: SIDE\", or \"to: all\" for every side")
		return h.rejectWith(ctx, "bad-press", g.ID, h.orderErrors(e, data))
	}
	var sent game.PressSent
	queued := 0
	_, err = d.Games.Press(ctx, games.PressRequest{Game: g.ID, Message: msg, Marks: []string{h.mark},
		Mail: func(g *game.Game, s game.PressSent) ([]store.Message, error) {
			msgs, err := d.pressMails(h, g, msg, s)
			if err != nil {
				return nil, buildErr(err)
			}
			sent, queued = s, len(msgs)
			return msgs, nil
		}})
	if adjudicator.IsOrderError(err) {
		return h.rejectWith(ctx, "bad-press", g.ID, h.orderErrors(placePress(err, root), data))
	}
	if err != nil {
		return err
	}
	d.log().Info("press", "game", g.ID, "side", side, "policy", sent.Policy, "sealed", sent.Sealed != "", "message_id", h.id)
	h.out.Folder, h.out.Reason, h.out.Replies = Processed, "press", queued
	return nil
}

// placePress points a press error at its line: "to:" or "text:".
func placePress(err error, root *yaml.Node) error {
	var e *adjudicator.OrderError
	if !errors.As(err, &e) || e.Line > 0 {
		return err
	}
	switch e.Code {
	case adjudicator.CodeUnknownSide:
		return adjudicator.Errorf(yamlx.Key(root, "to"), e.Code, "%s", e.Msg)
	case adjudicator.CodeMissingField, adjudicator.CodeTooLarge, adjudicator.CodeBadValue:
		if at := yamlx.Key(root, "text"); at != nil {
			return adjudicator.Errorf(at, e.Code, "%s", e.Msg)
		}
	}
	return err
}

// pressMails deliver message m, recorded as sent, to its readers, the
// referee's copy of private and grey press, and the sender's
// acknowledgement.
func (d *Desk) pressMails(h *handling, g *game.Game, m game.Press, sent game.PressSent) ([]store.Message, error) {
	policy := g.PressPolicy()
	sealed := g.PressSealed(m)
	from := string(m.From)
	if policy == game.PressGrey {
		from = ""
	}
	var msgs []store.Message
	var readers []string
	for _, s := range g.Readers(m) {
		for _, p := range g.Team(s) { // every player of the side reads it
			if p.Address == "" {
				continue
			}
			data := templates.PressData{Game: gameInfo(g), Side: string(s), From: from, To: m.To, Policy: policy, Text: m.Text, Sealed: sealed,
				Reply: pressSkeleton(g.ID, s, orDefault(from, "(a side, or all)"))}
			msg, err := d.toPlayer(g, p.Address, "press", []string{h.id, who(g, p)}, templates.Press, data)
			if err != nil {
				return nil, err
			}
			msgs = append(msgs, msg)
		}
		readers = append(readers, string(s))
	}
	ref := ""
	if policy == game.PressPrivate || policy == game.PressGrey {
		ref = d.gameReferee(g)
	}
	if ref != "" {
		data := templates.PressData{Game: gameInfo(g), ToReferee: true, From: string(m.From), To: m.To, Policy: policy, Text: m.Text, Sealed: sealed}
		msg, err := d.toPlayer(g, ref, "press", []string{h.id, "referee"}, templates.Press, data)
		if err != nil {
			return nil, err
		}
		msgs = append(msgs, msg)
	}
	ack := templates.PressSentData{Game: gameInfo(g), Side: string(m.From), To: m.To, Policy: policy, Readers: readers, Referee: ref != "", Sealed: sealed, Text: m.Text}
	msg, err := d.reply(h.m, g.ID, "press-sent", templates.PressSent, ack)
	if err != nil {
		return nil, err
	}
	return append(msgs, msg), nil
}

// pressSkeleton is the start of a press mail from side to "to".
func pressSkeleton(gameID string, side adjudicator.Side, to string) string {
	return fmt.Sprintf("command: press\ngame: %s\nside: %s\nsecret: (yours, from the welcome mail)\nto: %s\ntext: |\n  ...\n", gameID, side, to)
}
