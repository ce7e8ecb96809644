package referee

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
	"github.com/umpire-pbem/umpire/mail/address"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
	"github.com/umpire-pbem/umpire/templates"
)

// Command is a referee command, mailed as YAML from the referee's address:
//
//	command: new
//	ruleset: race
//	scenario: sprint
//	players: {red: alice@example.org, blue: bob@example.org}
//
// The commands are new, show, resend, outbox, retry, and pause, resume and
// extend (gm.go).
type Command struct {
	Command     string              `yaml:"command"`
	Secret      string              `yaml:"secret"`
	Game        string              `yaml:"game"`         // show, resend
	ID          string              `yaml:"id"`           // new: the game id (default: drawn from the mail)
	Ruleset     string              `yaml:"ruleset"`      // new
	Scenario    string              `yaml:"scenario"`     // new
	Options     map[string]string   `yaml:"options"`      // new
	Players     map[string]teamSpec `yaml:"players"`      // new: side → address, or a list of them (a team, docs/teams.md)
	ChainLength int                 `yaml:"chain_length"` // new
	Side        string              `yaml:"side"`         // resend: one side only
	Message     string              `yaml:"message"`      // retry: one outbox message (default: every failed one)
	Reason      string              `yaml:"reason"`       // pause, resume, extend: why (told to every player)
	By          string              `yaml:"by"`           // extend: how long, e.g. 24h
	Until       string              `yaml:"until"`        // extend: until when, RFC 3339
	Result      string              `yaml:"result"`       // end: how the game ended
	Loser       string              `yaml:"loser"`        // end: the side that lost, if one did
	Address     string              `yaml:"address"`      // replace: the new player's address; observe, unobserve: the observer's
	Player      string              `yaml:"player"`       // replace, eject: the address of the team's player replaced (default: its captain)
	To          uint64              `yaml:"to"`           // rollback: the event to go back to
	Delay       *int                `yaml:"delay"`        // observe: turns late (default 0)
	Handicap    string              `yaml:"handicap"`     // new: pair or combined, the players' handicaps (handicaps.go)
	Module      string              `yaml:"module"`       // new: the module of a ruleset played from module data
}

// Commands lists every command umpire answers by mail, the referee's and
// the players', from MailCommands (help.go), for help texts.
var Commands = commandNames(MailCommands)

func (h *handling) command(ctx context.Context) error {
	d := h.d
	var c Command
	root, err := yamlx.Parse(h.m.Orders)
	if err == nil {
		err = yamlx.Decode(root, &c)
	}
	if err != nil {
		return h.refereeReply(ctx, "", Command{Command: "(unreadable)"}, false, "The command could not be read:\n"+renumber(err, h.m.LineOffset), nil)
	}
	if d.RefereeSecret != "" {
		want := sha256.Sum256([]byte(d.RefereeSecret))
		got := sha256.Sum256([]byte(strings.TrimSpace(c.Secret)))
		if subtle.ConstantTimeCompare(want[:], got[:]) != 1 {
			d.log().Warn("referee command with a wrong secret", "from", h.m.From, "command", c.Command)
			return h.refereeReply(ctx, "", c, false, "The secret is missing or wrong: add the line \"secret: ...\" with the referee secret of umpire.yaml.", nil)
		}
	}
	switch c.Command {
	case "new":
		return h.cmdNew(ctx, c, root)
	case "new-campaign", "new-tournament":
		return h.cmdNewSeries(ctx, c, root) // series.go
	case "show":
		return h.cmdShow(ctx, c)
	case "resend":
		return h.cmdResend(ctx, c)
	case "outbox":
		return h.cmdOutbox(ctx, c)
	case "retry":
		return h.cmdRetry(ctx, c)
	case "pause", "resume", "extend", "process", "end", "replace", "eject", "rollback":
		return h.cmdClock(ctx, c)
	case "observe", "unobserve":
		return h.cmdObserve(ctx, c) // observers.go
	case "handicaps":
		return h.cmdHandicaps(ctx, c) // handicaps.go
	}
	return h.refereeReply(ctx, "", c, false, fmt.Sprintf("There is no command %q. The commands are: %s.", c.Command, strings.Join(Commands, ", ")), nil)
}

func renumber(err error, offset int) string {
	var e *yamlx.Error
	if errors.As(err, &e) {
		if e.Line > 0 {
			e2 := *e
			e2.Line += offset
			return e2.Error()
		}
		return e.Error()
	}
	return err.Error()
}

// refereeReply answers a command; extra mails go in the same transaction.
func (h *handling) refereeReply(ctx context.Context, gameID string, c Command, ok bool, text string, extra []store.Message) error {
	data := templates.RefereeData{Game: templates.Game{ID: gameID}, Command: c.Command, OK: ok, Text: text}
	msg, err := h.d.reply(h.m, gameID, "referee", templates.Referee, data)
	if err != nil {
		return err
	}
	b := store.Batch{Marks: []string{h.mark}, Outbox: append(extra, msg)}
	if h.marked {
		b.Marks = nil // written with the action the command asked for
	}
	h.out.Folder = Processed
	h.out.Reason = "command-" + c.Command
	if !ok {
		b.Marks = append(b.Marks, h.rejMark)
		h.out.Folder = Rejected
		h.out.Reason += "-refused"
	}
	if _, err := h.d.Games.Store.Append(ctx, b); err != nil {
		return err
	}
	h.out.Game = gameID
	h.out.Replies = len(b.Outbox)
	return nil
}

// cmdNew creates a game. Its welcome mails and the referee's reply are
// written with the game.created event; the intake mark follows in a second
// transaction, so a crash between the two is recognised by the reply's
// Message-ID, which is derived from the command mail's. root is the
// command's YAML, to point at a bad address by its line in the mail.
func (h *handling) cmdNew(ctx context.Context, c Command, root *yaml.Node) error {
	d := h.d
	if !d.isReferee(h.m.From) {
		return h.refereeReply(ctx, "", c, false, "Only the referee of umpire.yaml may create games.", nil)
	}
	id := c.ID
	if id == "" && c.Ruleset != "" {
		sum := sha256.Sum256([]byte(h.id))
		id = c.Ruleset[:min(4, len(c.Ruleset))] + "-" + hex.EncodeToString(sum[:3])
	}
	replyID := ""
	if id != "" {
		probe, err := d.reply(h.m, id, "referee", templates.Referee, templates.RefereeData{})
		if err == nil {
			replyID = probe.ID
		}
		if done, err := h.createdBefore(ctx, id, replyID); err != nil || done {
			return err
		}
	}
	req := games.CreateRequest{ID: id, Ruleset: c.Ruleset, Scenario: c.Scenario, Options: c.Options, Referee: h.m.From, ChainLength: c.ChainLength, Module: c.Module}
	sides := make([]string, 0, len(c.Players))
	for s := range c.Players {
		sides = append(sides, s)
	}
	if g, ok := d.Games.Rules(c.Ruleset); ok {
		sides = orderSides(sides, g.Info().Sides)
	}
	for _, s := range sides {
		for _, spec := range c.Players[s] {
			p, err := games.ParsePlayer(adjudicator.Side(s), spec)
			if err != nil {
				return h.refereeReply(ctx, "", c, false, "The game was not created: players: "+err.Error(), nil)
			}
			req.Players = append(req.Players, p)
		}
	}
	var note string
	var hc *games.HandicapApplied // handicaps.go
	req.Mail = func(ng *game.Game, secrets map[adjudicator.Side]string) ([]store.Message, error) {
		cr := &ng.Created
		msgs, err := d.welcomeMailsWith(ng, secrets, hc.Text())
		if err != nil {
			return nil, err
		}
		text := fmt.Sprintf("Game %s created (%s, scenario %s).\nDice commitment: %s (chain of %d)\nPlayers:\n", cr.Game, cr.Ruleset, cr.Scenario, cr.Dice.Commitment, cr.Dice.ChainLength)
		for _, p := range cr.Players {
			text += fmt.Sprintf("  %s: %s", p.Side, p.Address)
			if len(p.Parts) > 0 {
				text += " (parts " + strings.Join(p.Parts, ", ") + ")"
			}
			text += "\n"
		}
		text += "Each player was mailed their secret; umpire keeps only its hash."
		if hc != nil {
			text += "\n" + hc.Text()
		}
		reply, err := d.reply(h.m, cr.Game, "referee", templates.Referee, templates.RefereeData{Game: templates.Game{ID: cr.Game, Ruleset: cr.Ruleset}, Command: "new", OK: true, Text: text + note})
		if err != nil {
			return nil, err
		}
		return append(msgs, reply), nil
	}
	if len(req.Players) == 0 {
		return h.refereeReply(ctx, "", c, false, "Give the players, e.g.\n  players:\n    red: alice@example.org\n    blue: bob@example.org", nil)
	}
	for _, p := range req.Players {
		// Before anything is prepared for the addresses (the local hub
		// opens mailboxes for them).
		if err := address.Check(p.Address); err != nil {
			at := yamlx.Value(yamlx.Value(root, "players"), string(p.Side))
			e := yamlx.Errorf(at, "bad-address", "players: %s: %v", p.Side, err)
			return h.refereeReply(ctx, "", c, false, "The game was not created:\n"+renumber(e, h.m.LineOffset), nil)
		}
	}
	if refused, err := h.newHandicap(ctx, &req, c, root, &hc); refused || err != nil { // handicaps.go
		return err
	}
	if d.PrepareAddresses != nil {
		// The local hub opens mailboxes before the welcome mails are
		// queued, so that they can be delivered.
		var addrs []string
		for _, p := range req.Players {
			addrs = append(addrs, p.Address)
		}
		n, err := d.PrepareAddresses(ctx, addrs)
		if err != nil {
			return h.refereeReply(ctx, "", c, false, "Could not prepare the players' mailboxes: "+err.Error(), nil)
		}
		if n != "" {
			note = "\n\n" + n
		}
	}
	req.Marks = []string{h.mark} // the game and the mark of the mail that asked for it: one transaction
	created, err := d.Games.Create(ctx, req)
	if err != nil {
		if isStoreFailure(err) {
			return err
		}
		return h.refereeReply(ctx, "", c, false, "The game was not created: "+hc.Refused(err).Error(), nil)
	}
	d.log().Info("game created by mail", "game", created.Game.ID, "referee", h.m.From)
	h.out.Folder, h.out.Reason, h.out.Game, h.out.Replies = Processed, "command-new", created.Game.ID, len(req.Players)+1
	return nil
}

// createdBefore recognises a game that this very command created before a
// crash: its reply is in the game's outbox. Then only the mark is missing.
func (h *handling) createdBefore(ctx context.Context, id, replyID string) (bool, error) {
	if replyID == "" {
		return false, nil
	}
	msgs, err := h.d.Games.Store.Messages(ctx, id)
	if err != nil {
		return false, err
	}
	for _, m := range msgs {
		if m.ID == replyID {
			if _, err := h.d.Games.Store.Append(ctx, store.Batch{Marks: []string{h.mark}}); err != nil {
				return false, err
			}
			h.out.Folder, h.out.Reason, h.out.Game = Processed, "command-new-recovered", id
			return true, nil
		}
	}
	return false, nil
}

func orderSides(given []string, order []adjudicator.Side) []string {
	rank := map[string]int{}
	for i, s := range order {
		rank[string(s)] = i + 1
	}
	sort.Slice(given, func(i, j int) bool {
		ri, rj := rank[given[i]], rank[given[j]]
		if ri == 0 {
			ri = 1 << 20
		}
		if rj == 0 {
			rj = 1 << 20
		}
		if ri != rj {
			return ri < rj
		}
		return given[i] < given[j]
	})
	return given
}

// isStoreFailure tells a store failure (retry later) from a referee's
// mistake (answer it).
func isStoreFailure(err error) bool {
	for _, e := range []error{store.ErrClosed, store.ErrCorrupt, store.ErrLocked, store.ErrReadOnly} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// welcomeMails builds each player's welcome mail, with their secret.
//
// idExtra tells a later welcome (a replacement player's) from the first.
func (d *Desk) welcomeMails(g *game.Game, secrets map[adjudicator.Side]string, idExtra ...string) ([]store.Message, error) {
	return d.welcomeMailsWith(g, secrets, "", idExtra...)
}

// welcomeMailsWith is welcomeMails with the handicap the game was given,
// and why, in every welcome ("" for none).
func (d *Desk) welcomeMailsWith(g *game.Game, secrets map[adjudicator.Side]string, handicap string, idExtra ...string) ([]store.Message, error) {
	c := &g.Created
	var sides []string
	for _, s := range g.Sides() {
		sides = append(sides, string(s))
	}
	var out []store.Message
	for _, p := range c.Players {
		if p.Address == "" {
			continue
		}
		secret, ok := secrets[p.SeatName()] // each player of a team has his own
		if !ok {
			continue // a welcome again for one player (a replacement): not this one
		}
		v := g.View(p.Side)
		data := templates.WelcomeData{Game: gameInfo(g), Side: string(p.Side), Secret: secret, Sides: sides,
			Commitment: c.Dice.Commitment, ChainLength: c.Dice.ChainLength, Map: viewText(v), Due: d.dueFor(g, p.Side),
			Skeleton: skeleton(g, p.Side, secret), Clock: clockRules(g), Setup: d.setupDue(g, p.Side, secret), Handicap: handicap, Series: seriesWelcome(g),
			Team: teamWelcome(g, p), Module: moduleWelcome(g)}
		// The board, with the zones of a setup due from this player shaded.
		msg, err := d.toPlayer(g, p.Address, "welcome", append([]string{who(g, p)}, idExtra...), templates.Welcome, data, d.picture(g, v, p.Side)...)
		if err != nil {
			return nil, err
		}
		out = append(out, msg)
	}
	return out, nil
}

// skeleton is the start of an orders mail for side; for a setup the
// ruleset helps with, the whole mail with only the hexes to fill in.
func skeleton(g *game.Game, side adjudicator.Side, secret string) string {
	var b bytes.Buffer
	fmt.Fprintf(&b, "game: %s\nside: %s\nsecret: %s\n", g.ID, side, secret)
	if r, ok := setupRequest(g, side); ok {
		if _, orders, ok := g.Rules.(adjudicator.SetupHelper).SetupHelp(g.State, r); ok {
			b.WriteString(orders)
			return b.String()
		}
	}
	due := false
	for _, r := range g.Due() {
		if r.Side == side {
			fmt.Fprintf(&b, "turn: %d\nphase: %s\n", r.Turn, r.Phase)
			due = true
			break
		}
	}
	if !due {
		// Nothing is due from this side yet: the mail that asks it says
		// which turn and phase to write here.
		b.WriteString("turn: TURN      # as the mail that asks you says\nphase: PHASE    # likewise\n")
	}
	b.WriteString("orders:\n  ...\n")
	return b.String()
}

// setupRequest is the setup due from side, when the ruleset can help
// with it (adjudicator.SetupHelper).
func setupRequest(g *game.Game, side adjudicator.Side) (adjudicator.Request, bool) {
	if _, ok := g.Rules.(adjudicator.SetupHelper); !ok {
		return adjudicator.Request{}, false
	}
	for _, r := range g.Due() {
		if r.Side == side && r.Kind == "setup" {
			if _, answered := g.Answered(r.ID); !answered {
				return r, true
			}
		}
	}
	return adjudicator.Request{}, false
}

// setupDue is setup-due.tmpl for side when a setup is due from it — its
// zones, units and the orders to fill in, signed with secret (or a
// placeholder for a mail that must not carry it) — and "" otherwise. The
// welcome and the results mails include it.
func (d *Desk) setupDue(g *game.Game, side adjudicator.Side, secret string) string {
	r, ok := setupRequest(g, side)
	if !ok {
		return ""
	}
	zones, _, ok := g.Rules.(adjudicator.SetupHelper).SetupHelp(g.State, r)
	if !ok {
		return ""
	}
	if secret == "" {
		secret = "YOUR-SECRET   # from the welcome mail"
	}
	data := templates.SetupData{Game: gameInfo(g), Side: string(side), Turn: r.Turn, Phase: r.Phase, Skeleton: skeleton(g, side, secret)}
	for _, z := range zones {
		data.Zones = append(data.Zones, templates.SetupZone{Name: z.Name, Title: z.Title, Hexes: z.Compact, Note: z.Note, Units: z.Units})
		for _, u := range z.Units {
			if !slices.Contains(data.Units, u) {
				data.Units = append(data.Units, u)
			}
		}
	}
	for i := range data.Zones {
		if len(data.Zones[i].Units) == len(data.Units) {
			data.Zones[i].Units = nil // every unit: said once, above
		}
	}
	text, err := d.Templates.Render(templates.SetupDue, data)
	if err != nil {
		d.log().Warn("no setup help in the mail", "game", g.ID, "side", side, "err", err)
		return ""
	}
	return text
}

// gameForReferee loads a game the sender referees.
func (h *handling) gameForReferee(ctx context.Context, c Command) (*game.Game, string) {
	if c.Game == "" {
		return nil, "Say which game: add a line \"game: ID\"."
	}
	g, err := h.d.Games.Load(ctx, c.Game)
	if err != nil {
		return nil, fmt.Sprintf("There is no game %q.", c.Game)
	}
	if !h.d.isReferee(h.m.From) && !sameAddress(g.Created.Referee, h.m.From) {
		return nil, fmt.Sprintf("You are not the referee of game %s.", c.Game)
	}
	return g, ""
}

func (h *handling) cmdShow(ctx context.Context, c Command) error {
	g, msg := h.gameForReferee(ctx, c)
	if g == nil {
		return h.refereeReply(ctx, "", c, false, msg, nil)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Game %s (%s %s, scenario %s): %d events, %d adjudications.\n\n", g.ID, g.Created.Ruleset, g.Created.RulesetVersion, g.Created.Scenario, g.Version, g.K)
	b.WriteString(viewText(g.View(adjudicator.Referee)))
	b.WriteString("\nPlayers:\n")
	for _, p := range g.Created.Players {
		fmt.Fprintf(&b, "  %s: %s\n", p.Side, p.Address)
	}
	b.WriteString("\nDue:\n")
	for _, r := range g.Due() {
		state := "waiting"
		if _, ok := g.Answered(r.ID); ok {
			state = "received"
		}
		fmt.Fprintf(&b, "  %s: %s (turn %d, phase %s) — %s\n", r.Side, r.Title, r.Turn, r.Phase, state)
	}
	if err := h.outboxProblems(ctx, &b, g.ID); err != nil {
		return err
	}
	return h.refereeReply(ctx, g.ID, c, true, b.String(), nil)
}

func (h *handling) outboxProblems(ctx context.Context, b *strings.Builder, gameID string) error {
	msgs, err := h.d.Games.Store.Messages(ctx, gameID)
	if err != nil {
		return err
	}
	n := 0
	for _, m := range msgs {
		if m.Status == store.Failed || (m.Status == store.Pending && m.Attempts > 0) {
			if n == 0 {
				b.WriteString("\nMail that could not be delivered:\n")
			}
			n++
			fmt.Fprintf(b, "  %s to %s: %s after %d attempts: %s\n", m.ID, strings.Join(m.To, ", "), m.Status, m.Attempts, m.LastError)
		}
	}
	if n == 0 {
		b.WriteString("\nEvery mail was delivered or is on its way.\n")
	}
	return nil
}

func (h *handling) cmdOutbox(ctx context.Context, c Command) error {
	if !h.d.isReferee(h.m.From) {
		return h.refereeReply(ctx, "", c, false, "Only the referee of umpire.yaml may list the whole outbox.", nil)
	}
	var b strings.Builder
	if err := h.outboxProblems(ctx, &b, ""); err != nil {
		return err
	}
	return h.refereeReply(ctx, "", c, true, strings.TrimSpace(b.String()), nil)
}

func (h *handling) cmdRetry(ctx context.Context, c Command) error {
	if !h.d.isReferee(h.m.From) {
		return h.refereeReply(ctx, "", c, false, "Only the referee of umpire.yaml may retry mail.", nil)
	}
	st := h.d.Games.Store
	msgs, err := st.Messages(ctx, "")
	if err != nil {
		return err
	}
	var ids []string
	for _, m := range msgs {
		if m.Status == store.Failed && (c.Message == "" || m.ID == c.Message) {
			ids = append(ids, m.ID)
		}
	}
	if len(ids) == 0 {
		return h.refereeReply(ctx, "", c, false, "No failed mail matches.", nil)
	}
	for _, id := range ids {
		if err := st.Retry(ctx, id, h.d.now(), "retry asked by the referee"); err != nil {
			return err
		}
	}
	return h.refereeReply(ctx, "", c, true, fmt.Sprintf("%d mail(s) will be sent again:\n  %s", len(ids), strings.Join(ids, "\n  ")), nil)
}

// cmdResend sends every player (or one side) the results of the last
// adjudication again, with the current state.
func (h *handling) cmdResend(ctx context.Context, c Command) error {
	d := h.d
	g, msg := h.gameForReferee(ctx, c)
	if g == nil {
		return h.refereeReply(ctx, "", c, false, msg, nil)
	}
	evs, err := d.Games.Store.Events(ctx, g.ID, 1)
	if err != nil {
		return err
	}
	var last *game.Adjudicated
	for i := len(evs) - 1; i >= 0 && last == nil; i-- {
		if evs[i].Type == game.TypeAdjudicated {
			var a game.Adjudicated
			if err := json.Unmarshal(evs[i].Payload, &a); err != nil {
				return fmt.Errorf("game %s event %d: %w", g.ID, evs[i].Seq, err)
			}
			last = &a
		}
	}
	if last == nil {
		return h.refereeReply(ctx, g.ID, c, false, "Nothing has been adjudicated yet: there are no results to send.", nil)
	}
	head := evs[len(evs)-1]
	res := game.Result{Adjudicated: *last}
	if last.Sealed != "" {
		// Each player gets again the lines and rolls of their own side.
		opening, err := d.Games.Unseal(ctx, g.ID, last.Sealed)
		if err != nil {
			return err
		}
		if res.Full, res.AllRolls, err = game.Opened(*last, opening); err != nil {
			return fmt.Errorf("game %s: %w", g.ID, err)
		}
	}
	st, err := d.logStory(ctx, g, nil) // narrative.go
	if err != nil {
		return err
	}
	mails, err := d.resultsMails(ctx, g, []game.Result{res}, st, head.Hash.String(), head.Seq, "resend", h.id, nil)
	if err != nil {
		return buildErr(err)
	}
	var keep []store.Message
	var to []string
	for _, m := range mails {
		if c.Side != "" {
			p, _ := g.Player(adjudicator.Side(c.Side))
			if !sameAddress(p.Address, m.To[0]) {
				continue
			}
		}
		keep = append(keep, m)
		to = append(to, m.To[0])
	}
	if len(keep) == 0 {
		return h.refereeReply(ctx, g.ID, c, false, fmt.Sprintf("Game %s has no side %q with an address.", g.ID, c.Side), nil)
	}
	return h.refereeReply(ctx, g.ID, c, true, fmt.Sprintf("The results of adjudication %d were queued again for: %s.", last.K, strings.Join(to, ", ")), keep)
}
