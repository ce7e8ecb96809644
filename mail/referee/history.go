package referee

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
	"github.com/umpire-pbem/umpire/mail/compose"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
	"github.com/umpire-pbem/umpire/templates"
)

// History by mail. Players and the referee ask umpire about a game with a
// YAML command — help, status, history, results, map, export (MailCommands
// in help.go) — and get the answer as the asker may read it: a player only
// as their own side (the lines, rolls and board their side may see), the
// referee everything, or any side's view.
//
// A player sends from the side's registered address and gives "side:" and
// the side's "secret:". A wrong secret counts towards the guessing
// throttle exactly as in an order mail, and while guessing is paused for
// the address or the side the command is refused unread (throttle.go).
// The referee (of umpire.yaml, or the game's own) adds the referee secret
// when one is configured. "help" needs no secret. Strangers get no reply.
// Every answer, refusal included, is queued with the intake mark in one
// store batch; nothing here changes a game.

// askCommand is a command that asks about a game.
type askCommand struct {
	Command string `yaml:"command"`
	Game    string `yaml:"game"`
	Side    string `yaml:"side"`    // a player's own side (the referee's: as)
	Secret  string `yaml:"secret"`  // the side's secret, or the referee secret
	K       int    `yaml:"k"`       // results: the adjudication
	Turn    int    `yaml:"turn"`    // map: the end of this turn (0: now)
	As      string `yaml:"as"`      // the referee: this side's view; a player: their own side only
	Until   string `yaml:"until"`   // away: until when
	Reason  string `yaml:"reason"`  // away: why, told to every player
	Results string `yaml:"results"` // mail: every or due
}

// asker is who asks, once authenticated.
type asker struct {
	g       *game.Game
	c       askCommand
	root    *yaml.Node
	referee bool             // the referee may read everything
	side    adjudicator.Side // whose view the answer gives: the player's side; for the referee "" (all) or the side asked "as:"
}

// viewer is whose view the answer gives.
func (a *asker) viewer() adjudicator.Side { return a.side }

func (a *asker) asked(d *Desk) templates.Asked {
	return templates.Asked{Game: d.pauseGame(a.g), Command: a.c.Command, As: string(a.side)}
}

// commandName is the value of a mail's "command:" key, "" if none.
func commandName(root *yaml.Node) string {
	if root == nil || root.Kind != yaml.MappingNode {
		return ""
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "command" && root.Content[i+1].Kind == yaml.ScalarNode {
			return strings.TrimSpace(root.Content[i+1].Value)
		}
	}
	return ""
}

// isAsk reports whether orders are a command that history.go answers.
func isAsk(orders []byte) bool {
	root, err := yamlx.Parse(orders)
	return err == nil && isAskName(commandName(root))
}

// ask answers a command that asks about a game, or any command from
// someone who may not use the referee's.
func (h *handling) ask(ctx context.Context) error {
	d, m := h.d, h.m
	root, err := yamlx.Parse(m.Orders)
	if err != nil {
		return err // hasCommand parsed it: cannot happen
	}
	name := commandName(root)
	known, _, err := d.knownSender(ctx, m.From)
	if err != nil {
		return err
	}
	if !known {
		return h.reject(ctx, "stranger", nil)
	}
	if !isAskName(name) {
		a := templates.Asked{Command: name}
		at := yamlx.Value(root, "command")
		var players []string
		for _, c := range MailCommands {
			if isAskName(c.Name) {
				players = append(players, c.Name)
			}
		}
		if _, ok := mailCommand(name); ok {
			return h.refuse(ctx, a, "not-referee", adjudicator.Errorf(at, "not-referee", "only the referee may use %q; you may use %s (\"command: help\" explains each)", name, strings.Join(players, ", ")))
		}
		return h.refuse(ctx, a, "unknown-command", adjudicator.Errorf(at, "unknown-command", "there is no command %q; the commands are %s (\"command: help\" explains each)", name, strings.Join(commandNames(MailCommands), ", ")))
	}
	if name == "help" {
		return h.askHelp(ctx)
	}
	r := readRoute(root)
	if r.Game == "" {
		return h.refuse(ctx, templates.Asked{Command: name}, "no-game",
			adjudicator.Errorf(root, adjudicator.CodeMissingField, "say which game you ask about: add a line \"game: GAME-ID\""))
	}
	g, err := d.Games.Load(ctx, r.Game)
	if errors.Is(err, games.ErrUnknownGame) {
		return h.refuse(ctx, templates.Asked{Command: name}, "unknown-game",
			adjudicator.Errorf(yamlx.Key(root, "game"), adjudicator.CodeUnknownGame, "there is no game %q; check the \"game:\" line against your welcome mail", r.Game))
	}
	if err != nil {
		return err
	}
	h.out.Game = g.ID
	a, done, err := h.authorise(ctx, g, root, r)
	if done || err != nil {
		return err
	}
	switch name {
	case "status":
		return h.askStatus(ctx, a)
	case "history":
		return h.askHistory(ctx, a)
	case "results":
		return h.askResults(ctx, a)
	case "map":
		return h.askMap(ctx, a) // board.go
	case "export":
		return h.askExport(ctx, a) // board.go
	case "away", "back":
		return h.askAway(ctx, a) // away.go
	case "mail":
		return h.askResultsPref(ctx, a) // results_pref.go
	}
	return fmt.Errorf("referee: command %q is in MailCommands but has no handler", name)
}

// authorise finds who asks about g: the referee, or the player of a side
// with that side's secret. done says the mail was answered (refused, or
// filed without a reply).
func (h *handling) authorise(ctx context.Context, g *game.Game, root *yaml.Node, r route) (*asker, bool, error) {
	d, m := h.d, h.m
	name := commandName(root)
	base := templates.Asked{Game: d.pauseGame(g), Command: name}
	mine := sidesOf(g, m.From)
	side := adjudicator.Side(r.Side)
	// The referee asks as the referee unless they name a side they play.
	if d.mayReferee(g, m.From) && (side == "" || !slices.Contains(mine, side)) {
		a := &asker{g: g, root: root, referee: true}
		if err := yamlx.Decode(root, &a.c); err != nil {
			return nil, true, h.refuse(ctx, base, "bad-command", err)
		}
		if !d.refereeSecretOK(a.c.Secret) {
			d.log().Warn("referee command with a wrong secret", "from", m.From, "command", name)
			at := yamlx.Key(root, "secret")
			if at == nil {
				at = root
			}
			return nil, true, h.refuse(ctx, base, "bad-referee-secret",
				adjudicator.Errorf(at, codeBadSecret, "the referee secret is missing or wrong: add the line \"secret: ...\" with the referee secret of umpire.yaml"))
		}
		key, as := "as", a.c.As
		if as == "" {
			key, as = "side", a.c.Side
		}
		if as != "" {
			if _, ok := g.Player(adjudicator.Side(as)); !ok {
				return nil, true, h.refuse(ctx, base, "wrong-side",
					adjudicator.Errorf(yamlx.Key(root, key), adjudicator.CodeUnknownSide, "game %s has no side %q; its sides are %s", g.ID, as, joinSides(g.Sides())))
			}
			a.side = adjudicator.Side(as)
		}
		return a, false, nil
	}
	if len(mine) == 0 {
		return nil, true, h.reject(ctx, "stranger", nil) // not a player of this game: no reply
	}
	if side == "" && len(mine) == 1 {
		side = mine[0] // the sender plays one side: it may be left out
	}
	base.As = string(side)
	_, ok := g.Player(side)
	if _, _, member := g.Member(side, m.From); !ok || !member {
		var e *adjudicator.OrderError
		switch {
		case side == "":
			e = adjudicator.Errorf(root, adjudicator.CodeMissingField, "say which side you ask as: add a line \"side: %s\"", mine[0])
		case !ok:
			e = adjudicator.Errorf(yamlx.Key(root, "side"), adjudicator.CodeUnknownSide, "game %s has no side %q; you play %s", g.ID, side, joinSides(mine))
		default:
			e = adjudicator.Errorf(yamlx.Key(root, "side"), adjudicator.CodeUnknownSide, "you (%s) play %s in game %s, not %s: you may ask only as your own side", m.From, joinSides(mine), g.ID, side)
		}
		base.As = ""
		return nil, true, h.refuse(ctx, base, "wrong-side", e)
	}
	h.out.Side = string(side)
	if done, err := h.refuseIfPaused(ctx, g, side); done || err != nil {
		return nil, true, err // too many wrong secrets: refused unread (throttle.go)
	}
	a := &asker{g: g, root: root, side: side}
	if err := yamlx.Decode(root, &a.c); err != nil {
		return nil, true, h.refuse(ctx, base, "bad-command", err)
	}
	if a.c.As != "" && a.c.As != string(side) {
		return nil, true, h.refuse(ctx, base, "wrong-side", adjudicator.Errorf(yamlx.Key(root, "as"), adjudicator.CodeUnknownSide,
			"you play %s: you may see game %s only as %s, not as %s (leave out \"as:\")", side, g.ID, side, a.c.As))
	}
	at := yamlx.Key(root, "secret")
	if strings.TrimSpace(a.c.Secret) == "" {
		// No secret is a mistake, not a guess: not counted.
		return nil, true, h.refuse(ctx, base, "no-secret", adjudicator.Errorf(root, codeBadSecret,
			"give your secret: add the \"secret:\" line from the mail you received when game %s was created", g.ID))
	}
	ok, err := d.Games.CheckMember(ctx, g.ID, side, m.From, a.c.Secret)
	if err != nil {
		return nil, true, err
	}
	if !ok {
		e := adjudicator.Errorf(at, codeBadSecret,
			"the secret for side %s is missing or wrong: copy the \"secret:\" line from the mail you received when the game was created", side)
		data := h.orderErrors(e, templates.RejectedData{Game: base.Game, Side: string(side)})
		return nil, true, h.wrongSecret(ctx, g, side, data) // counted (throttle.go)
	}
	return a, false, nil
}

// answer queues the reply built from tmpl and data (and atts) with the
// intake mark, in one batch: the command was answered.
func (h *handling) answer(ctx context.Context, gameID, command, tmpl string, data any, atts ...compose.Attachment) error {
	msg, err := h.d.reply(h.m, gameID, "ask-"+command, tmpl, data, atts...)
	if err != nil {
		return buildErr(err)
	}
	if _, err := h.d.Games.Store.Append(ctx, store.Batch{Marks: []string{h.mark}, Outbox: []store.Message{msg}}); err != nil {
		return err
	}
	h.out.Folder, h.out.Reason, h.out.Game, h.out.Replies = Processed, "ask-"+command, gameID, 1
	return nil
}

// answerRefused queues a reply built from tmpl and data that says the
// command was not done, and files the mail as rejected.
func (h *handling) answerRefused(ctx context.Context, gameID, command, reason, tmpl string, data any) error {
	msg, err := h.d.reply(h.m, gameID, "ask-"+command, tmpl, data)
	if err != nil {
		return buildErr(err)
	}
	h.out.Game = gameID
	return h.reject(ctx, "ask-"+reason, []store.Message{msg})
}

// refuse answers a command that cannot be answered, saying why: err, with
// its line in the mail when it has one (never quoting a secret).
func (h *handling) refuse(ctx context.Context, a templates.Asked, reason string, err error) error {
	rd := h.orderErrors(err, templates.RejectedData{})
	data := templates.AskRefusedData{Asked: a, Where: rd.Where, Problem: rd.Problem, Errors: rd.Errors, More: rd.More}
	h.out.Game = a.ID
	msg, berr := h.d.reply(h.m, a.ID, "ask-refused", templates.AskRefused, data)
	if berr != nil {
		h.d.log().Error("cannot build the refusal of a command; filing the mail without a reply", "message_id", h.id, "err", berr)
		return h.reject(ctx, "ask-"+reason+"+unanswered", nil)
	}
	return h.reject(ctx, "ask-"+reason, []store.Message{msg})
}

// refusef refuses with a problem that has no place in the mail.
func (h *handling) refusef(ctx context.Context, a *asker, reason, format string, args ...any) error {
	return h.refuse(ctx, a.asked(h.d), reason, fmt.Errorf(format, args...))
}

// askStatus answers "command: status".
func (h *handling) askStatus(ctx context.Context, a *asker) error {
	d, g := h.d, a.g
	v := g.View(a.viewer())
	data := templates.StatusData{Asked: a.asked(d), Turn: v.Turn, Phase: v.Phase, K: g.K, Over: v.Over, Result: v.Result,
		Due: d.dueFor(g, a.side), Score: scoreLine(g, v)}
	now := d.now()
	if g.Paused() {
		data.Deadlines = append(data.Deadlines, fmt.Sprintf("the game is paused since %s: %s", g.PausedAt.Format("Mon 2 Jan 15:04 MST"), orDefault(g.PauseReason, "no reason given")))
	}
	for _, side := range g.Sides() {
		if until, away := g.Away(side, now); away {
			data.Deadlines = append(data.Deadlines, fmt.Sprintf("%s is away until %s", side, until.Format("Mon 2 Jan 15:04 MST")))
		}
	}
	data.Deadlines = append(data.Deadlines, clockRules(g)...)
	return h.answer(ctx, g.ID, "status", templates.AskStatus, data)
}

// scoreLine is a view's score, sides in the ruleset's order.
func scoreLine(g *game.Game, v adjudicator.View) string {
	var parts []string
	for _, s := range g.Sides() {
		if n, ok := v.Score[s]; ok {
			parts = append(parts, fmt.Sprintf("%s %d", s, n))
		}
	}
	return strings.Join(parts, ", ")
}

// adjudication is one turn.adjudicated event of a game's log.
type adjudication struct {
	seq   uint64
	hash  string
	time  string
	title string // the requests it answered: "turn 1, bid"
	a     game.Adjudicated
}

// adjudications reads every adjudication of g's log, in order, with what
// each answered (from the orders.accepted events of its requests).
func (h *handling) adjudications(ctx context.Context, g *game.Game) ([]adjudication, error) {
	evs, err := h.d.Games.Store.Events(ctx, g.ID, 1)
	if err != nil {
		return nil, err
	}
	type turnPhase struct {
		turn  int
		phase string
	}
	asked := map[string]turnPhase{}
	var out []adjudication
	for _, e := range evs {
		switch e.Type {
		case game.TypeOrders:
			var oa game.OrdersAccepted
			if err := json.Unmarshal(e.Payload, &oa); err != nil {
				return nil, fmt.Errorf("game %s event %d: %w", g.ID, e.Seq, err)
			}
			asked[oa.Request] = turnPhase{oa.Turn, oa.Phase}
		case game.TypeAdjudicated:
			var a game.Adjudicated
			if err := json.Unmarshal(e.Payload, &a); err != nil {
				return nil, fmt.Errorf("game %s event %d: %w", g.ID, e.Seq, err)
			}
			var titles []string
			for _, r := range a.Requests {
				t := r
				if tp, ok := asked[r]; ok {
					t = fmt.Sprintf("turn %d, %s", tp.turn, tp.phase)
				}
				if !slices.Contains(titles, t) {
					titles = append(titles, t)
				}
			}
			out = append(out, adjudication{seq: e.Seq, hash: e.Hash.String(), time: e.Time.UTC().Format("2006-01-02 15:04 UTC"),
				title: strings.Join(titles, "; "), a: a})
		}
	}
	return out, nil
}

// result is an adjudication with its sealed part put back from the data
// file, so that each reader gets what their side may read (ReportFor,
// RollsFor): the referee everything, a player the public lines and those
// for their side. An opening the data file lacks (a game restored without
// it) leaves the public part alone, and is logged.
func (h *handling) result(ctx context.Context, g *game.Game, a game.Adjudicated) (game.Result, error) {
	res := game.Result{Adjudicated: a}
	if a.Sealed == "" {
		return res, nil
	}
	opening, err := h.d.Games.Unseal(ctx, g.ID, a.Sealed)
	if errors.Is(err, game.ErrSealed) {
		h.d.log().Warn("no opening for a sealed adjudication: its public part only", "game", g.ID, "k", a.K, "err", err)
		return res, nil
	}
	if err != nil {
		return res, err
	}
	if res.Full, res.AllRolls, err = game.Opened(a, opening); err != nil {
		return res, fmt.Errorf("game %s adjudication %d: %w", g.ID, a.K, err)
	}
	return res, nil
}

// askHistory answers "command: history".
func (h *handling) askHistory(ctx context.Context, a *asker) error {
	adjs, err := h.adjudications(ctx, a.g)
	if err != nil {
		return err
	}
	data := templates.HistoryData{Asked: a.asked(h.d)}
	for _, x := range adjs {
		res, err := h.result(ctx, a.g, x.a)
		if err != nil {
			return err
		}
		e := templates.HistoryEntry{K: x.a.K, Time: x.time, Title: x.title}
		if lines := res.ReportFor(a.viewer()); len(lines) > 0 {
			e.First = lines[0].Text
		}
		data.Entries = append(data.Entries, e)
	}
	return h.answer(ctx, a.g.ID, "history", templates.AskHistory, data)
}

// askResults answers "command: results" with "k: N".
func (h *handling) askResults(ctx context.Context, a *asker) error {
	g := a.g
	if g.K == 0 {
		return h.refusef(ctx, a, "no-results", "Nothing has been adjudicated in game %s yet.", g.ID)
	}
	if a.c.K < 1 || a.c.K > g.K {
		at := yamlx.Value(a.root, "k")
		if at == nil {
			at = a.root
		}
		return h.refuse(ctx, a.asked(h.d), "no-such-adjudication", adjudicator.Errorf(at, "out-of-range",
			"say which adjudication, from 1 to %d: e.g. \"k: %d\" for the last (\"command: history\" lists them)", g.K, g.K))
	}
	adjs, err := h.adjudications(ctx, g)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(adjs, func(x adjudication) bool { return x.a.K == a.c.K })
	if i < 0 {
		return fmt.Errorf("game %s: adjudication %d is not in the log", g.ID, a.c.K)
	}
	x := adjs[i]
	res, err := h.result(ctx, g, x.a)
	if err != nil {
		return err
	}
	data := templates.AdjudicationData{Asked: a.asked(h.d), Adjudication: adjudicationFor(res, a.viewer()),
		Title: x.title, Time: x.time, Event: x.seq, Hash: x.hash, Last: g.K}
	for _, c := range g.Chains {
		if c.Chain == x.a.Chain {
			data.Commitment = c.Commitment
		}
	}
	return h.answer(ctx, g.ID, "results", templates.AskResults, data)
}
