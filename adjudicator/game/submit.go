package game

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

// Envelope is the part of every orders text that the engine reads before
// the ruleset: which game, side, turn and phase the orders are for.
type Envelope struct {
	Game    string    `yaml:"game"`
	Side    string    `yaml:"side"`
	Secret  string    `yaml:"secret"`
	Turn    *int      `yaml:"turn"`
	Phase   string    `yaml:"phase"`
	Replace bool      `yaml:"replace"`
	Orders  yaml.Node `yaml:"orders"`
	// Then gives orders ahead for later requests of the same side, used
	// automatically when each comes due.
	Then []Then `yaml:"then"`
}

// Then is one entry of "then:": the orders for a later phase.
type Then struct {
	Turn   *int      `yaml:"turn"` // default: the turn of the orders above
	Phase  string    `yaml:"phase"`
	Orders yaml.Node `yaml:"orders"`
}

// decide resolves the pending answers with roller on a copy of the state:
// the adjudication as the rules make it now.
func (g *Game) decide(roller adjudicator.Roller) (*adjudicator.Resolution, error) {
	subs, err := g.Submissions()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInternal, err)
	}
	r := adjudicator.NewResolution(g.Rules, g.Rules.Clone(g.State), roller)
	if err := g.Rules.Decide(r, subs); err != nil {
		return nil, err
	}
	return r, r.Err()
}

// readEnvelope parses an orders text and its envelope strictly, returning
// the root node too, for the positions of errors.
func readEnvelope(src []byte) (*yaml.Node, Envelope, error) {
	var env Envelope
	root, err := yamlx.Parse(src)
	if err == nil {
		err = yamlx.Decode(root, &env)
	}
	return root, env, err
}

// Input is one submission as received.
type Input struct {
	Side      adjudicator.Side // the side the sender speaks for ("" to take it from the envelope)
	Src       []byte           // the YAML exactly as received
	Time      time.Time        // when it was received
	Via       string           // "cli", "mail", "script"
	MessageID string           // the mail's Message-ID, if any
	// CheckSecret, when set, is asked whether the envelope's "secret:" is
	// that of the player who plays the side (mail). It is given his seat
	// (Game.Seat: the side he was named for, the side itself unless the
	// players swapped sides), under which his check value is kept. The
	// secret itself is never stored: it is removed from the text before
	// anything else is done with it.
	CheckSecret func(seat adjudicator.Side, secret string) (bool, error)
	// From is the sender's address when it is known (mail): which of the
	// side's players speaks (team.go). "" speaks for the whole side (the
	// command line, the clock's default answer, a script).
	From        string
	Dice        adjudicator.Roller
	Secrets     SeedFor   // the dice secrets, for chain games
	NextSecret  []byte    // a fresh secret, used if the dice chain runs out now
	ChainLength int       // length of such a new chain; 0 for the game's own
	Rand        io.Reader // randomness for the salts of sealed parts
	Unseal      Unseal    // the openings of earlier sealed parts
}

// Result is one adjudication. Adjudicated is its public record; Full and
// AllRolls are every line and roll with its audience (ReportFor and
// RollsFor give what one viewer may read).
type Result struct {
	Adjudicated
	Full       []adjudicator.Line
	AllRolls   []*adjudicator.Roll
	RuleEvents []adjudicator.Event
}

// Outcome is what a successful submission produced.
type Outcome struct {
	Records   []Record
	Accepted  OrdersAccepted
	Results   []Result  // the adjudications made (none while others are due)
	NewSecret []byte    // store this secret as dice chain NewChain's
	NewChain  int       // generation of NewSecret
	Next      *Game     // the game after the records, once they are stored
	Envelope  *Envelope // as read
	Orders    adjudicator.Orders
	Queued    []Queued // the later phases this text gives orders for
	// Notes say what happened to orders sent ahead: used when their phase
	// came due, or dropped (and why), each with who may read it.
	Notes []adjudicator.Line
	// Clock is what the clock recorded with the submission (the deadlines
	// of what came due), when the caller ran it.
	Clock []ClockNote
}

// ErrInternal marks failures that are umpire's fault, not the player's.
var ErrInternal = errors.New("internal error")

// Submit validates one submission and returns what to append. It never
// changes g: apply Outcome.Next once the records are stored. A player's
// mistake is an *adjudicator.OrderError or adjudicator.OrderErrors.
func (g *Game) Submit(in Input) (*Outcome, error) {
	if g.Over() {
		return nil, adjudicator.Rejection(adjudicator.CodeGameOver, "game %s is over: %s", g.ID, g.View(adjudicator.Referee).Result)
	}
	root, env, err := readEnvelope(in.Src)
	if err != nil {
		return nil, err
	}
	if env.Game != "" && env.Game != g.ID {
		return nil, adjudicator.Errorf(yamlx.Key(root, "game"), adjudicator.CodeUnknownGame,
			"these orders are for game %q, but they were sent to game %q", env.Game, g.ID)
	}
	side := in.Side
	if env.Side != "" {
		if side != "" && adjudicator.Side(env.Side) != side {
			return nil, adjudicator.Errorf(yamlx.Key(root, "side"), adjudicator.CodeUnknownSide,
				"the orders say side %q, but they were submitted for side %q", env.Side, side)
		}
		side = adjudicator.Side(env.Side)
	}
	if side == "" {
		return nil, adjudicator.Errorf(root, adjudicator.CodeMissingField, "say which side these orders are for: add a line \"side: %s\"", g.Sides()[0])
	}
	if side == adjudicator.SeriesSide {
		if in.Via != adjudicator.ViaSeries && in.Via != adjudicator.ViaScript {
			return nil, adjudicator.Errorf(yamlx.Key(root, "side"), adjudicator.CodeUnknownSide,
				"side %q is umpire's own: a child game's result is recorded by umpire when the child ends, and a series starts by itself; it cannot be sent by mail or typed", side)
		}
	} else if _, ok := g.Player(side); !ok {
		return nil, adjudicator.Errorf(yamlx.Key(root, "side"), adjudicator.CodeUnknownSide,
			"game %s has no side %q; its sides are %s", g.ID, side, joinSides(g.Sides()))
	}
	seat := g.Seat(side)
	if in.From != "" && side != adjudicator.SeriesSide {
		p, _, ok := g.Member(side, in.From)
		if !ok {
			return nil, adjudicator.Errorf(yamlx.Key(root, "side"), adjudicator.CodeUnknownSide,
				"%s is not a player of %s in game %s", in.From, side, g.ID)
		}
		seat = p.seat()
	}
	if in.CheckSecret != nil {
		if err := checkSecret(in, side, seat, env.Secret, root); err != nil {
			return nil, err
		}
	}
	text, removed := RemoveSecret(in.Src, root)
	digest := Digest(text)
	req, err := g.requestFor(side, env, root)
	if err != nil {
		// The same orders sent again after they were used (a resend, a
		// mail program's retry) are answered as such, not as a mistake.
		if ref, ok := g.AcceptedBefore(digest); ok && ref.Side == side {
			return nil, adjudicator.Rejection(adjudicator.CodeDuplicate,
				"these orders were already accepted on %s (turn %d, %s; event %d) and used; nothing was changed",
				ref.Time.UTC().Format("Mon 2 Jan 15:04 MST"), ref.Turn, ref.Phase, ref.Seq)
		}
		return nil, err
	}
	ta, err := g.teamCheck(in, side, req)
	if err != nil {
		return nil, err
	}
	if prev, ok := g.answeredBy(req.ID, ta.parts); ok {
		prevDigest := prev.Digest
		if prevDigest == "" && prev.Sealed != "" {
			oa, err := g.openPending(in, nil, prev)
			if err != nil {
				return nil, err
			}
			prevDigest = oa.Digest
		}
		if prevDigest == digest {
			return nil, adjudicator.Rejection(adjudicator.CodeDuplicate,
				"these orders for %s were already received (event %d); nothing was changed", req.Title, prev.Seq)
		}
		if !env.Replace {
			return nil, adjudicator.Rejection(adjudicator.CodeAlreadySent,
				"other orders for %s were already received (event %d); to replace them before the adjudication, add \"replace: true\"", req.Title, prev.Seq)
		}
	}
	if env.Orders.Kind == 0 {
		return nil, adjudicator.Errorf(root, adjudicator.CodeMissingField, "there is no \"orders:\" section: put your orders under a line \"orders:\"")
	}
	orders, err := g.Rules.ParseOrders(g.State, req, &env.Orders)
	if err != nil {
		return nil, err
	}
	if err := g.checkCommands(in, req, ta, orders); err != nil {
		return nil, err
	}
	queue, err := checkThen(env, req, root)
	if err != nil {
		return nil, err
	}
	if len(queue) > 0 && req.SealKey != "" {
		return nil, adjudicator.Errorf(yamlx.Key(root, "then"), adjudicator.CodeUnknownField,
			"orders sent ahead (\"then:\") are not taken with orders that stay secret after their adjudication (%s): send each phase's orders when it comes due", req.Title)
	}
	if len(queue) > 0 && len(ta.parts) > 0 {
		return nil, adjudicator.Errorf(yamlx.Key(root, "then"), adjudicator.CodeUnknownField,
			"orders sent ahead (\"then:\") are not taken when a side's orders are split between its players: send each phase's orders when it comes due")
	}
	if ac, ok := g.Rules.(adjudicator.AheadChecker); ok && len(queue) > 0 {
		ahead := make([]adjudicator.Ahead, len(queue))
		for i, q := range queue {
			ahead[i] = adjudicator.Ahead{Turn: q.Turn, Phase: q.Phase, Orders: &env.Then[q.Index].Orders}
		}
		if err := ac.CheckAhead(g.State, req, orders, ahead); err != nil {
			return nil, err
		}
	}
	norm, err := yaml.Marshal(orders)
	if err != nil {
		return nil, fmt.Errorf("%w: orders do not encode: %v", ErrInternal, err)
	}
	oa := OrdersAccepted{
		Request: req.ID, Side: side, Kind: req.Kind, Turn: req.Turn, Phase: req.Phase, By: ta.by, Parts: ta.parts,
		Text: string(text), SecretRemoved: removed, Digest: digest, Normalized: string(norm),
		Via: in.Via, MessageID: in.MessageID, Replaces: env.Replace,
	}
	if seat != side {
		oa.Seat = seat
	}
	// A SealKey keeps the orders sealed past their adjudication: they are
	// hidden orders whatever Hidden says.
	hidden := req.Hidden || req.SealKey != ""
	if hidden {
		oa.SealKey = req.SealKey
	}
	var op *OrdersOpening
	switch {
	case hidden:
		// Nobody else may read these orders before the adjudication.
		op = &OrdersOpening{Text: oa.Text, Digest: digest, Normalized: oa.Normalized, Queue: queue}
	case len(queue) > 0:
		// The orders due now are public; the ones sent ahead are not.
		if oa.Orders, err = encodeOrders(&env.Orders); err != nil {
			return nil, err
		}
		op = &OrdersOpening{Text: oa.Text, Digest: digest, Queue: queue}
	}
	rec, err := acceptedRecord(in, oa, op, hidden)
	if err != nil {
		return nil, err
	}
	out := &Outcome{Envelope: &env, Orders: orders, Queued: queue}
	out.Accepted = oa
	out.Records = append(out.Records, rec)

	next := g.Clone()
	next.checkSum = true
	if err := next.Apply(Entry{Seq: next.Version + 1, Record: rec}); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInternal, err)
	}
	if next.allAnswered() || (req.Kind == adjudicator.KindResult && next.onlyResultsPending()) {
		if err := next.adjudicate(in, out); err != nil {
			return nil, err
		}
		// Orders sent ahead ("then:") answer what comes due next, one
		// adjudication after another, until a side must be asked.
		for {
			used, err := next.useQueues(in, out)
			if err != nil {
				return nil, err
			}
			if !used || !next.allAnswered() {
				break
			}
			if err := next.adjudicate(in, out); err != nil {
				return nil, err
			}
		}
	}
	if next.Over() {
		// The game is over: everything sealed may now be read by all.
		if err := next.revealAll(in, out); err != nil {
			return nil, err
		}
	}
	next.checkSum = false
	out.Next = next
	return out, nil
}

// acceptedRecord builds an orders.accepted record; with op, the parts of
// oa that op holds are sealed (all of them for hidden orders).
func acceptedRecord(in Input, oa OrdersAccepted, op *OrdersOpening, hidden bool) (Record, error) {
	pub := oa
	var private []byte
	if op != nil {
		var err error
		if op.Salt, err = salt(in); err != nil {
			return Record{}, err
		}
		if hidden && oa.Orders != "" {
			op.Orders = oa.Orders
		}
		if private, pub.Sealed, err = seal(op); err != nil {
			return Record{}, err
		}
		pub.Text, pub.Digest = "", ""
		pub.Ahead = len(op.Queue) > 0
		if hidden {
			pub.Orders, pub.Normalized = "", ""
		}
	}
	rec, err := record(TypeOrders, in.Time, SideActor(oa.Side), pub)
	rec.Private = private
	return rec, err
}

// openPending returns a pending answer's payload with its sealed part.
func (g *Game) openPending(in Input, out *Outcome, p Pending) (OrdersAccepted, error) {
	oa, err := p.Accepted()
	if err != nil {
		return oa, fmt.Errorf("%w: %v", ErrInternal, err)
	}
	if oa.Sealed == "" || p.opening != nil {
		return oa, nil
	}
	b, err := open(in, out, oa.Sealed)
	if err != nil {
		return oa, err
	}
	if err := fillOpening(&oa, b); err != nil {
		return oa, fmt.Errorf("%w: %v", ErrInternal, err)
	}
	return oa, nil
}

func (g *Game) requestFor(side adjudicator.Side, env Envelope, root *yaml.Node) (adjudicator.Request, error) {
	due := g.Due()
	var mine []adjudicator.Request
	for _, r := range due {
		if r.Side == side {
			mine = append(mine, r)
		}
	}
	if len(mine) == 0 {
		return adjudicator.Request{}, adjudicator.Rejection(adjudicator.CodeNotYourTurn,
			"nothing is due from %s now; the game is waiting for %s", side, describeDue(due))
	}
	if env.Turn == nil || env.Phase == "" {
		r := mine[0]
		return adjudicator.Request{}, adjudicator.Errorf(root, adjudicator.CodeMissingField,
			"say which turn and phase these orders are for: add the lines \"turn: %d\" and \"phase: %s\" (%s)", r.Turn, r.Phase, r.Title)
	}
	var match []adjudicator.Request
	for _, r := range mine {
		if r.Turn == *env.Turn && r.Phase == env.Phase {
			match = append(match, r)
		}
	}
	if len(match) > 1 && side == adjudicator.SeriesSide {
		// The results of several games of one round: the result names
		// its game.
		if k := yamlx.Value(&env.Orders, "key"); k != nil {
			for _, r := range match {
				if r.ID == adjudicator.ResultKey(k.Value) {
					return r, nil
				}
			}
		}
	}
	if len(match) > 0 {
		return match[0], nil
	}
	r := mine[0]
	n := yamlx.Key(root, "turn")
	if *env.Turn == r.Turn {
		n = yamlx.Key(root, "phase")
	}
	past := ""
	if *env.Turn < r.Turn {
		past = " (that turn is over)"
	}
	return adjudicator.Request{}, adjudicator.Errorf(n, adjudicator.CodeWrongTurn,
		"these orders are for turn %d, phase %s%s; the game now expects turn %d, phase %s from %s (%s)",
		*env.Turn, env.Phase, past, r.Turn, r.Phase, side, r.Title)
}

// CodeBadSecret is the error code of a missing or wrong secret.
const CodeBadSecret = "bad-secret"

// checkSecret asks in.CheckSecret about the envelope's secret for side,
// whose player holds seat. The error never quotes the secret that was
// sent.
func checkSecret(in Input, side, seat adjudicator.Side, secret string, root *yaml.Node) error {
	secret = strings.TrimSpace(secret)
	ok := false
	if secret != "" {
		var err error
		if ok, err = in.CheckSecret(seat, secret); err != nil {
			return fmt.Errorf("%w: checking the secret of side %s: %v", ErrInternal, side, err)
		}
	}
	if !ok {
		at := yamlx.Key(root, "secret")
		if at == nil {
			at = root
		}
		return adjudicator.Errorf(at, CodeBadSecret,
			"the secret for side %s is missing or wrong: copy the \"secret:\" line from the mail you received when the game was created", side)
	}
	return nil
}

// onlyResultsPending reports whether every answer waiting for an
// adjudication is a child game's result: a series then adjudicates each
// result as it comes (standings after every game), without waiting for the
// results of the other children it plays at the same time.
func (g *Game) onlyResultsPending() bool {
	for _, p := range g.Pending {
		if p.Side != adjudicator.SeriesSide || !strings.HasPrefix(p.Request, adjudicator.ResultKey("")) {
			return false
		}
	}
	return len(g.Pending) > 0
}

func (g *Game) allAnswered() bool {
	due := g.Due()
	if len(due) == 0 {
		return false
	}
	for _, r := range due {
		if _, ok := g.Answered(r.ID); !ok {
			return false
		}
	}
	return true
}

// adjudicate runs Decide on the pending answers and folds the result into g
// (a clone), adding the records to out.
func (g *Game) adjudicate(in Input, out *Outcome) error {
	k := g.K + 1
	var roller adjudicator.Roller
	var a Adjudicated
	a.K = k
	switch g.Created.Dice.Mode {
	case DiceChain:
		if in.Dice != nil {
			roller = in.Dice
			break
		}
		if in.Secrets == nil {
			return fmt.Errorf("%w: no dice secret given for game %s", ErrInternal, g.ID)
		}
		gen, index, seed, err := g.seed(k, in.Secrets)
		if err != nil {
			return fmt.Errorf("%w: %v", ErrInternal, err)
		}
		a.Chain, a.Index, a.Seed = gen, index, hex.EncodeToString(seed)
		roller = dice.NewStream(seed, g.Created.DiceGame(), k)
	case DiceScripted:
		if in.Dice == nil {
			return fmt.Errorf("%w: game %s uses scripted dice but none were given", ErrInternal, g.ID)
		}
		roller = in.Dice
	default:
		return fmt.Errorf("%w: unknown dice mode %q", ErrInternal, g.Created.Dice.Mode)
	}
	for _, p := range g.Pending {
		if !slices.Contains(a.Requests, p.Request) { // the parts of a split request answer it once
			a.Requests = append(a.Requests, p.Request)
		}
	}
	// Hidden orders are revealed in the log before the adjudication that
	// uses them, so that anyone can decide it again from the log; orders
	// with a SealKey stay sealed, and are read from their opening.
	for i, p := range slices.Clone(g.Pending) {
		if p.Sealed == "" || p.opening != nil {
			continue
		}
		if oa, err := p.Accepted(); err != nil || oa.Orders != "" {
			continue // orders sent ahead: the orders due now are public
		}
		if p.sealKey != "" {
			if p.private == nil {
				b, err := open(in, out, p.Sealed)
				if err != nil {
					return err
				}
				g.Pending[i].private = b
			}
			continue
		}
		if err := g.reveal(in, out, SealedRef{Seq: p.Seq, Commitment: p.Sealed}); err != nil {
			return err
		}
	}
	r, err := g.decide(roller)
	if err != nil {
		return err
	}
	var op AdjudicationOpening
	var sealed bool
	a.Report, a.Rolls, op, sealed = splitReport(r.Report(), r.Rolls())
	var private []byte
	if sealed {
		if op.Salt, err = salt(in); err != nil {
			return err
		}
		if private, a.Sealed, err = seal(op); err != nil {
			return err
		}
	}
	a.RulesetVersion = g.Rules.Info().Version
	var reveal []string // the keys Reveals named
	for _, ev := range r.Events() {
		var rec Record
		switch e := ev.(type) {
		case *adjudicator.Reveal:
			// Not stored: its effect is the sealed.revealed records
			// after the adjudication.
			reveal = append(reveal, e.Keys...)
			continue
		case *adjudicator.Secret:
			t, err := g.secretType(e)
			if err != nil {
				return err
			}
			if rec, err = secretRecord(in, e, t); err != nil {
				return err
			}
		case *adjudicator.ChildSecret:
			return fmt.Errorf("%w: the ruleset emitted a child's sealed part %q in the clear: seal it (adjudicator.Seal)", ErrInternal, e.Name)
		default:
			t, ok := g.types[ev.EventType()]
			if !ok {
				return fmt.Errorf("%w: ruleset emitted unregistered event %q", ErrInternal, ev.EventType())
			}
			if rec, err = record(ev.EventType(), in.Time, ActorEngine, ev); err != nil {
				return err
			}
			rec.Schema = t.Schema
		}
		if err := g.Apply(Entry{Seq: g.Version + 1, Record: rec}); err != nil {
			return fmt.Errorf("%w: %v", ErrInternal, err)
		}
		out.Records = append(out.Records, rec)
		a.Events++
	}
	// The state hash, salted while sealed parts hold state (sealedstate.go).
	if err := g.fillSalts(func(c string) ([]byte, error) { return open(in, out, c) }); err != nil {
		return err
	}
	salts, err := g.sealSalts()
	if err != nil {
		return fmt.Errorf("%w: %v", ErrInternal, err)
	}
	a.StateHash = sealedHash(r.State(), salts)
	rec, err := record(TypeAdjudicated, in.Time, ActorEngine, a)
	if err != nil {
		return err
	}
	rec.Private = private
	// Apply checks that the events, decoded from what will be stored, give
	// the state Decide saw: a ruleset whose events do not round-trip fails
	// here instead of writing a log that cannot be replayed.
	if err := g.Apply(Entry{Seq: g.Version + 1, Record: rec}); err != nil {
		return fmt.Errorf("%w: %v", ErrInternal, err)
	}
	out.Records = append(out.Records, rec)
	out.Results = append(out.Results, Result{Adjudicated: a, Full: r.Report(), AllRolls: r.Rolls(), RuleEvents: r.Events()})
	if err := g.revealKeys(in, out, reveal); err != nil {
		return err
	}

	// Commit the next chain as soon as this one is used up, so that its
	// commitment is public before any orders its dice will resolve.
	if g.Created.Dice.Mode == DiceChain && in.Dice == nil && a.Index == g.Chains[a.Chain].ChainLength {
		length := in.ChainLength
		if length == 0 {
			length = g.Chains[a.Chain].ChainLength
		}
		ch, err := dice.NewChain(in.NextSecret, length)
		if err != nil {
			return fmt.Errorf("%w: the dice chain is used up and no usable fresh secret was given: %v", ErrInternal, err)
		}
		ce := ChainExtended{Chain: a.Chain + 1, Commitment: hex.EncodeToString(ch.Commitment()), ChainLength: length, FromK: k + 1}
		rec, err := record(TypeChainExtended, in.Time, ActorEngine, ce)
		if err != nil {
			return err
		}
		if err := g.Apply(Entry{Seq: g.Version + 1, Record: rec}); err != nil {
			return fmt.Errorf("%w: %v", ErrInternal, err)
		}
		out.Records = append(out.Records, rec)
		out.NewSecret = in.NextSecret
		out.NewChain = ce.Chain
	}
	return nil
}

// reparse parses stored orders again, against the state they were accepted in.
func (g *Game) reparse(oa OrdersAccepted) (adjudicator.Submission, error) {
	req, found := g.Request(oa.Request)
	if !found {
		return adjudicator.Submission{}, fmt.Errorf("orders answer request %q, which is not due", oa.Request)
	}
	src := oa.Orders
	if src == "" {
		src = oa.Text
	}
	_, env, err := readEnvelope([]byte(src))
	if err != nil {
		return adjudicator.Submission{}, fmt.Errorf("stored orders do not parse: %v", err)
	}
	orders, err := g.Rules.ParseOrders(g.State, req, &env.Orders)
	if err != nil {
		return adjudicator.Submission{}, fmt.Errorf("stored orders are no longer valid: %v", err)
	}
	return adjudicator.Submission{Request: req, Side: oa.Side, Orders: orders}, nil
}

func record(typ string, t time.Time, actor string, payload any) (Record, error) {
	b, err := json.Marshal(payload)
	if err != nil {
		return Record{}, fmt.Errorf("%w: encoding %s: %v", ErrInternal, typ, err)
	}
	return Record{Type: typ, Schema: max(Schema(typ), 1), Time: t, Actor: actor, Payload: b}, nil
}

func describeDue(due []adjudicator.Request) string {
	if len(due) == 0 {
		return "nobody (the game is over)"
	}
	parts := make([]string, len(due))
	for i, r := range due {
		parts[i] = fmt.Sprintf("%s (%s)", r.Side, r.Title)
	}
	return strings.Join(parts, " and ")
}

func joinSides(s []adjudicator.Side) string {
	parts := make([]string, len(s))
	for i, x := range s {
		parts[i] = string(x)
	}
	return strings.Join(parts, ", ")
}
