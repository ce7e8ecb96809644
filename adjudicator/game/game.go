// Package game is the game aggregate: it folds a game's log into its current
// state and turns a player's submission into the records to append — the
// accepted orders and, when every due request is answered, one adjudication
// with its ruleset events, dice rolls, report, revealed seed and state hash.
//
// Like the rest of adjudicator/ it is pure: the log comes in as entries and
// goes out as records, time comes on the input, and the dice secret comes
// from the caller. Persisting records is the store's job.
package game

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Lookup finds a ruleset by name.
type Lookup func(name string) (adjudicator.Ruleset, bool)

// DiceGame is the game id the dice derivation uses: the game's own, or
// its parent's for a branch.
func (c Created) DiceGame() string {
	if c.Dice.Game != "" {
		return c.Dice.Game
	}
	return c.Game
}

// Settled reports whether the fold stands between two submissions: no
// adjudication half-written, no answers waiting that were all in. A branch
// may start only at such a point.
func (g *Game) Settled() bool { return g.nRuleEvs == 0 && !g.allAnswered() }

// ClockSettings returns the game's deadline settings.
func (g *Game) ClockSettings() ClockSettings {
	cs, _ := ParseClock(g.Created.Clock) // checked when the game was created
	return cs
}

// Game is a game's current state, as folded from its log.
type Game struct {
	ID      string
	Created Created
	Rules   adjudicator.Ruleset
	// Module is the module data the game is played from (its files, found
	// by the digest its game.created records); nil for a ruleset not
	// played from modules. It is shared by clones and never changed.
	Module  *adjudicator.Module
	State   adjudicator.State
	Version uint64    // Seq of the last entry applied
	Updated time.Time // time of the last entry applied
	K       int       // adjudications made
	Chains  []ChainExtended
	Pending []Pending                   // accepted answers waiting for the adjudication
	Queues  map[adjudicator.Side]*Queue // orders sent ahead for later phases ("then:")
	// Unrevealed lists the commitments of the log not revealed yet, in
	// the order they were made.
	Unrevealed []SealedRef
	// Deadlines are the deadlines of requests, by request id (clock.go).
	Deadlines map[string]Deadline
	// PausedAt is when the referee paused the game's clock (zero when it
	// runs), with the reason given.
	PausedAt    time.Time
	PauseReason string
	Misses      map[adjudicator.Side]int       // deadlines each side missed
	Graced      []adjudicator.Side             // sides that had their grace (no-move.grace)
	Ended       *Ended                         // the game ended outside its rules (game.ended)
	AwayUntil   map[adjudicator.Side]time.Time // absences announced (away.go)
	// ResultsOnlyDue are the sides that get results only when something
	// is due from them (results_pref.go).
	ResultsOnlyDue map[adjudicator.Side]bool
	DigestK        int        // the last adjudication in the referee's digest
	DigestAt       time.Time  // when the last digest was sent
	Created0       time.Time  // when the game was created
	Observers      []Observer // follow the game without playing it (observers.go)

	// accepted indexes every accepted text by digest, to answer a resend
	// of orders already used (persistent: clones share it, accepted.go).
	accepted acceptedIndex

	// stateSeals are the sealed parts holding state not revealed yet, in
	// log order (sealedstate.go); never changed in place.
	stateSeals []stateSeal
	// ahead are the openings revealed later in the entries a Load or a
	// Replay folds; opener finds openings in the referee's private part
	// (the Source's Openings). Both are only read once set.
	ahead  map[string]aheadOpening
	opener func(c string) ([]byte, error)

	// childSecrets are the sealed parts of a child's position this game
	// sealed (a series) or read (a child), in log order; never changed in
	// place (ChildSecrets).
	childSecrets []adjudicator.ChildSecret

	types    map[string]adjudicator.EventType
	nRuleEvs int // ruleset events since the last adjudication
	checkSum bool
	chains   map[int]*seedChain // dice chains built from their secrets, checked once
}

// AcceptedRef is where a text of orders was accepted.
type AcceptedRef struct {
	Seq   uint64
	Time  time.Time
	Turn  int
	Phase string
	Side  adjudicator.Side
}

// noteAccepted remembers the digest of an accepted text.
func (g *Game) noteAccepted(digest string, ref AcceptedRef) {
	d, ok := parseDigest(digest)
	if !ok {
		return // not a digest Digest wrote: no resend can match it
	}
	g.accepted = g.accepted.with(d, ref)
}

// AcceptedBefore reports where a text with this digest was accepted.
func (g *Game) AcceptedBefore(digest string) (AcceptedRef, bool) {
	d, ok := parseDigest(digest)
	if !ok {
		return AcceptedRef{}, false
	}
	return g.accepted.get(d)
}

// Pending is an accepted answer waiting for its adjudication. Its orders
// are parsed again only when the adjudication needs them (Submissions):
// folding a long log never pays for YAML parsing.
type Pending struct {
	Seq     uint64
	Request string           // the request it answers
	Side    adjudicator.Side // who sent it
	Digest  string           // hex SHA-256 of the orders as received; "" while sealed
	Sealed  string           // the commitment of its sealed part, if any
	Parts   []string         // the parts of the side it answers for (team.orders=split)
	payload []byte           // the orders.accepted payload, decoded on demand
	opening []byte           // its opening, once revealed in the log
	// sealKey is the request's SealKey: the orders stay sealed after
	// their adjudication, which reads them from private, their opening
	// as the referee's private part (or a later reveal) gives it.
	sealKey string
	private []byte
	// What the fold read of the payload, for the index of accepted texts
	// when the opening is revealed; whole says the payload decodes as an
	// OrdersAccepted (else Accepted decodes it, as it always did).
	turn   int
	phase  string
	queued bool
	whole  bool
}

// revealedRef is what Accepted would give the index of accepted texts once
// the opening is in: the digest of the text and its place, ok false when
// Accepted would fail.
func (p Pending) revealedRef() (digest string, turn int, phase string, side adjudicator.Side, queued, ok bool) {
	if p.whole && p.opening != nil {
		if d, ok := openingDigest(p.opening); ok {
			return d, p.turn, p.phase, p.Side, p.queued, true
		}
	}
	oa, err := p.Accepted()
	if err != nil {
		return "", 0, "", "", false, false
	}
	return oa.Digest, oa.Turn, oa.Phase, oa.Side, oa.Queued, true
}

// Queue is a side's "then:" list: the text is sealed, so the entries are
// read from its opening when a phase comes due.
type Queue struct {
	Seq    uint64 // the orders.accepted event that carried it
	Sealed string // the commitment of that event's opening
	Used   int    // entries up to this index were used or passed; -1 for none
}

// Accepted decodes the whole orders.accepted record, with its sealed part
// put back once revealed.
func (p Pending) Accepted() (OrdersAccepted, error) {
	var oa OrdersAccepted
	if err := decodeAccepted(p.payload, &oa); err != nil {
		return oa, err
	}
	if p.opening != nil {
		if err := fillOpening(&oa, p.opening); err != nil {
			return oa, err
		}
	}
	return oa, nil
}

// fillOpening puts the sealed part of an orders.accepted payload back.
func fillOpening(oa *OrdersAccepted, opening []byte) error {
	if Digest(opening) != oa.Sealed {
		return fmt.Errorf("the opening does not match the commitment %s", oa.Sealed)
	}
	var op OrdersOpening
	if err := decodeOpening(opening, &op); err != nil {
		return err
	}
	oa.Text, oa.Digest = op.Text, op.Digest
	if op.Orders != "" {
		oa.Orders = op.Orders
	}
	if op.Normalized != "" {
		oa.Normalized = op.Normalized
	}
	return nil
}

// ErrNeedsUpgrade says that a log was written by an older umpire whose
// schema kept what must not be stored; `umpire upgrade` rewrites it.
var ErrNeedsUpgrade = errors.New("written by an older umpire: run 'umpire upgrade' once (see docs/trust.md)")

// checkSchema refuses game-level events of another schema than this
// build writes.
func checkSchema(e Entry) error {
	want := Schema(e.Type)
	if e.Schema == want {
		return nil
	}
	if e.Schema < want {
		return &LogError{Seq: e.Seq, Msg: fmt.Sprintf("%s has schema %d, %v", e.Type, e.Schema, ErrNeedsUpgrade), Err: ErrNeedsUpgrade}
	}
	return &LogError{Seq: e.Seq, Msg: fmt.Sprintf("%s has schema %d; this build reads schema %d (a newer umpire wrote it?)", e.Type, e.Schema, want)}
}

// LogError is a log that cannot be folded: a bug or tampering, never a
// player's mistake.
type LogError struct {
	Seq uint64
	Msg string
	Err error // a cause to test with errors.Is, e.g. ErrNeedsUpgrade
}

func (e *LogError) Error() string { return fmt.Sprintf("game log, event %d: %s", e.Seq, e.Msg) }

func (e *LogError) Unwrap() error { return e.Err }

// Load folds a whole log.
func Load(entries []Entry, lookup Source) (*Game, error) {
	var g *Game
	for _, e := range entries {
		var err error
		if g == nil {
			if g, err = Start(e, lookup); err == nil {
				g.lookAhead(entries)
			}
		} else {
			err = g.Apply(e)
		}
		if err != nil {
			return nil, err
		}
	}
	if g == nil {
		return nil, &LogError{Msg: "the log is empty"}
	}
	return g, nil
}

// Start begins a fold from the game.created entry. A game played from
// module data gets the module's files from lookup, by the digest its
// game.created records; a LogError wrapping ErrNoModule says they are
// missing or were changed.
func Start(e Entry, lookup Source) (*Game, error) {
	if e.Type != TypeCreated {
		return nil, &LogError{Seq: e.Seq, Msg: fmt.Sprintf("the first event is %q, not %s", e.Type, TypeCreated)}
	}
	if err := checkSchema(e); err != nil {
		return nil, err
	}
	var c Created
	if err := json.Unmarshal(e.Payload, &c); err != nil {
		return nil, &LogError{Seq: e.Seq, Msg: "bad game.created payload: " + err.Error()}
	}
	for _, p := range c.Players {
		if p.Seat != "" {
			return nil, &LogError{Seq: e.Seq, Msg: fmt.Sprintf("game.created names a seat (%s) for the player of %s: players take their seats from the sides they are named for", p.Seat, p.Side)}
		}
	}
	c.Players = withSeats(c.Players)
	rs, ok := lookup.Ruleset(c.Ruleset)
	if !ok {
		return nil, &LogError{Seq: e.Seq, Msg: fmt.Sprintf("ruleset %q is not in this build of umpire", c.Ruleset)}
	}
	mod, err := moduleOf(e.Seq, c, rs, lookup)
	if err != nil {
		return nil, err
	}
	st, err := rs.Setup(setupOf(c, mod))
	if err != nil {
		return nil, &LogError{Seq: e.Seq, Msg: "the setup no longer loads: " + err.Error()}
	}
	g := &Game{ID: c.Game, Created: c, Rules: rs, Module: mod, State: st, Version: e.Seq, Updated: e.Time, Created0: e.Time.UTC()}
	g.types = eventTypes(rs)
	g.opener = openerOf(lookup, c.Game)
	if c.Dice.Mode == DiceChain {
		g.Chains = []ChainExtended{{Chain: 0, Commitment: c.Dice.Commitment, ChainLength: c.Dice.ChainLength, FromK: 1}}
	}
	return g, nil
}

func setupOf(c Created, mod *adjudicator.Module) adjudicator.Setup {
	s := adjudicator.Setup{Scenario: c.Scenario, Options: c.Options, Module: mod}
	if c.Position != "" {
		s.Position = []byte(c.Position)
	}
	s.Sides = sidesOf(c.Players)
	return s
}

// Apply folds one more entry into g. It is how the log is replayed and how
// a game in memory follows what was just appended.
func (g *Game) Apply(e Entry) error {
	if e.Seq != g.Version+1 {
		return &LogError{Seq: e.Seq, Msg: fmt.Sprintf("out of order: expected event %d", g.Version+1)}
	}
	if Schema(e.Type) != 0 {
		if err := checkSchema(e); err != nil {
			return err
		}
	}
	switch e.Type {
	case TypeCreated:
		return &LogError{Seq: e.Seq, Msg: "a second game.created"}
	case adjudicator.TypeSecret:
		if err := g.applySecret(e); err != nil {
			return err
		}
	case TypeOrders:
		var oa ordersFold
		if err := oa.decode(e.Payload); err != nil {
			return &LogError{Seq: e.Seq, Msg: "bad orders payload: " + err.Error()}
		}
		if !oa.Queued {
			g.noteAccepted(oa.Digest, AcceptedRef{Seq: e.Seq, Time: e.Time, Turn: oa.Turn, Phase: oa.Phase, Side: oa.Side})
		}
		p := Pending{Seq: e.Seq, Request: oa.Request, Side: oa.Side, Digest: oa.Digest, Sealed: oa.Sealed, Parts: oa.Parts, payload: e.Payload,
			turn: oa.Turn, phase: oa.Phase, queued: oa.Queued, whole: oa.whole, sealKey: oa.SealKey}
		if oa.Sealed != "" && oa.SealKey != "" {
			// Orders that stay sealed after their adjudication: the
			// adjudication reads them from their opening, when this fold
			// has it, and the state hash is salted with its salt.
			b, err := g.openingOf(e.Seq, oa.Sealed, e.Private)
			if err != nil {
				return err
			}
			s := stateSeal{Seq: e.Seq, Commitment: oa.Sealed, Key: oa.SealKey, Orders: true, Side: oa.Side, Turn: oa.Turn, Phase: oa.Phase}
			if b != nil {
				if s.Salt, err = saltOf(b); err != nil {
					return &LogError{Seq: e.Seq, Msg: "bad opening of sealed orders: " + err.Error()}
				}
				p.private = b
			}
			g.addStateSeal(s)
		}
		g.addPending(p)
		if oa.Sealed != "" {
			g.seal(e.Seq, oa.Sealed)
		}
		switch {
		case oa.Queued && oa.QueueDone:
			g.setQueue(oa.Side, nil)
		case oa.Queued:
			if q := g.Queues[oa.Side]; q != nil {
				g.setQueue(oa.Side, &Queue{Seq: q.Seq, Sealed: q.Sealed, Used: oa.QueueIndex})
			}
		case oa.Ahead:
			g.setQueue(oa.Side, &Queue{Seq: e.Seq, Sealed: oa.Sealed, Used: -1})
		}
	case TypeQueueDropped:
		var qd QueueDropped
		if err := json.Unmarshal(e.Payload, &qd); err != nil {
			return &LogError{Seq: e.Seq, Msg: "bad queue payload: " + err.Error()}
		}
		g.setQueue(qd.Side, nil)
		if qd.Sealed != "" {
			g.seal(e.Seq, qd.Sealed)
		}
	case TypeRevealed:
		var rv Revealed
		if err := decodeRevealed(e.Payload, &rv); err != nil {
			return &LogError{Seq: e.Seq, Msg: "bad reveal payload: " + err.Error()}
		}
		i := slices.IndexFunc(g.Unrevealed, func(r SealedRef) bool { return r.Seq == rv.Of && r.Commitment == rv.Commitment })
		if i < 0 {
			return &LogError{Seq: e.Seq, Msg: fmt.Sprintf("reveals commitment %s of event %d, which is not sealed", rv.Commitment, rv.Of)}
		}
		if Digest([]byte(rv.Opening)) != rv.Commitment {
			return &LogError{Seq: e.Seq, Msg: fmt.Sprintf("the opening revealed does not hash to the commitment %s of event %d", rv.Commitment, rv.Of)}
		}
		g.Unrevealed = slices.Delete(slices.Clone(g.Unrevealed), i, i+1)
		pending := false
		for k, p := range g.Pending {
			if p.Seq == rv.Of {
				pending = true
				g.Pending[k].opening = []byte(rv.Opening)
				if digest, turn, phase, side, queued, ok := g.Pending[k].revealedRef(); ok && !queued {
					g.noteAccepted(digest, AcceptedRef{Seq: p.Seq, Time: e.Time, Turn: turn, Phase: phase, Side: side})
				}
			}
		}
		if s, ok := g.dropStateSeal(rv.Of, rv.Commitment); ok && s.Orders && !pending {
			// Orders sealed past their adjudication, revealed now.
			if digest, ok := openingDigest([]byte(rv.Opening)); ok {
				g.noteAccepted(digest, AcceptedRef{Seq: s.Seq, Time: e.Time, Turn: s.Turn, Phase: s.Phase, Side: s.Side})
			} else {
				var op OrdersOpening
				if json.Unmarshal([]byte(rv.Opening), &op) == nil {
					g.noteAccepted(op.Digest, AcceptedRef{Seq: s.Seq, Time: e.Time, Turn: s.Turn, Phase: s.Phase, Side: s.Side})
				}
			}
		}
	case TypeLost:
		var l Lost
		if err := json.Unmarshal(e.Payload, &l); err != nil {
			return &LogError{Seq: e.Seq, Msg: "bad sealed.lost payload: " + err.Error()}
		}
		i := slices.IndexFunc(g.Unrevealed, func(r SealedRef) bool { return r.Seq == l.Of && r.Commitment == l.Commitment })
		if i < 0 {
			return &LogError{Seq: e.Seq, Msg: fmt.Sprintf("says commitment %s of event %d is lost, but it is not sealed", l.Commitment, l.Of)}
		}
		g.Unrevealed = slices.Delete(slices.Clone(g.Unrevealed), i, i+1)
		g.dropStateSeal(l.Of, l.Commitment)
		for side, q := range g.Queues {
			if q.Seq == l.Of {
				g.setQueue(side, nil)
			}
		}
	case TypeObserverAdded, TypeObserverRemoved:
		if err := g.applyObserver(e); err != nil {
			return err
		}
	case TypePressSent:
		if err := g.applyPress(e); err != nil {
			return err
		}
	case TypeAway, TypeBack:
		if err := g.applyAway(e); err != nil {
			return err
		}
	case TypeResultsPref:
		if err := g.applyResultsPref(e); err != nil {
			return err
		}
	case TypeUpgraded:
		// A note for auditors; nothing changes.
	case TypeDeadlineSet, TypeDeadlineReminded, TypeDeadlinePassed, TypeDeadlineExtended, TypePaused, TypeResumed, TypeEnded, TypeReplaced, TypeDigest:
		if err := g.applyClock(e); err != nil {
			return err
		}
	case TypeAdjudicated:
		// A plain fold trusts the log (the store's hash chain guards it)
		// and does not decode the rolls and report; a checking fold
		// (replay, and every submission's self-check) verifies all.
		if g.checkSum {
			a, err := adjudicationCheck(e.Payload)
			if err != nil {
				return &LogError{Seq: e.Seq, Msg: "bad adjudication payload: " + err.Error()}
			}
			if a.K != g.K+1 {
				return &LogError{Seq: e.Seq, Msg: fmt.Sprintf("adjudication %d follows %d", a.K, g.K)}
			}
			if a.Events != g.nRuleEvs {
				return &LogError{Seq: e.Seq, Msg: fmt.Sprintf("adjudication %d claims %d events, the log has %d", a.K, a.Events, g.nRuleEvs)}
			}
			h, err := g.stateHash()
			if err != nil {
				return err
			}
			if h != a.StateHash {
				return &LogError{Seq: e.Seq, Msg: fmt.Sprintf("state after adjudication %d hashes to %s, the log says %s", a.K, h, a.StateHash)}
			}
		}
		if bytes.Contains(e.Payload, []byte(`"sealed":"`)) {
			sealed, err := sealedOf(e.Payload)
			if err != nil {
				return &LogError{Seq: e.Seq, Msg: "bad adjudication payload: " + err.Error()}
			}
			g.seal(e.Seq, sealed)
		}
		g.K++
		g.Pending = g.Pending[:0]
		g.nRuleEvs = 0
	case TypeChainExtended:
		var c ChainExtended
		if err := json.Unmarshal(e.Payload, &c); err != nil {
			return &LogError{Seq: e.Seq, Msg: "bad chain payload: " + err.Error()}
		}
		if c.Chain != len(g.Chains) {
			return &LogError{Seq: e.Seq, Msg: fmt.Sprintf("dice chain %d follows chain %d", c.Chain, len(g.Chains)-1)}
		}
		g.Chains = append(g.Chains, c)
	case adjudicator.TypeChildSecret:
		return &LogError{Seq: e.Seq, Msg: "a child's sealed part is stored in the clear: it must be a state.sealed event"}
	default:
		t, ok := g.types[e.Type]
		if !ok {
			return &LogError{Seq: e.Seq, Msg: fmt.Sprintf("unknown event type %q (a newer umpire wrote it?)", e.Type)}
		}
		if e.Schema != t.Schema {
			return &LogError{Seq: e.Seq, Msg: fmt.Sprintf("%s has schema %d; this build reads schema %d", e.Type, e.Schema, t.Schema)}
		}
		ev := t.New()
		if err := json.Unmarshal(e.Payload, ev); err != nil {
			return &LogError{Seq: e.Seq, Msg: fmt.Sprintf("bad %s payload: %v", e.Type, err)}
		}
		if err := g.evolve(e.Seq, e.Type, ev); err != nil {
			return err
		}
	}
	g.Version = e.Seq
	g.Updated = e.Time
	return nil
}

// evolve folds the ruleset event ev (of type typ, stored by event seq,
// public or sealed) into the state.
func (g *Game) evolve(seq uint64, typ string, ev adjudicator.Event) error {
	g.nRuleEvs++
	if cs, ok := ev.(*adjudicator.ChildSecret); ok {
		// A sealed part of a child's position changes no state
		// (childsecret.go): the game only lists it.
		g.childSecrets = append(slices.Clip(g.childSecrets), *cs)
		return nil
	}
	g.State = g.Rules.Evolve(g.State, ev)
	if sw, ok := ev.(adjudicator.PlayersSwap); ok {
		if a, b, ok := sw.SwapsPlayers(); ok {
			if err := g.swapPlayers(a, b); err != nil {
				return &LogError{Seq: seq, Msg: fmt.Sprintf("%s %v", typ, err)}
			}
		}
	}
	return nil
}

// fold makes a record of a game-level event and folds it into g: how the
// clock, the referee's actions and the other game-level events are written.
func (g *Game) fold(t time.Time, actor, typ string, payload any) (Record, error) {
	rec, err := record(typ, t, actor, payload)
	if err == nil {
		err = g.Apply(Entry{Seq: g.Version + 1, Record: rec})
	}
	return rec, err
}

// setQueue replaces a side's queue (nil removes it). Queues are never
// changed in place: clones share them.
func (g *Game) setQueue(side adjudicator.Side, q *Queue) {
	m := make(map[adjudicator.Side]*Queue, len(g.Queues)+1)
	for k, v := range g.Queues {
		m[k] = v
	}
	if q == nil {
		delete(m, side)
	} else {
		m[side] = q
	}
	g.Queues = m
}

// seal notes a commitment made by event seq.
func (g *Game) seal(seq uint64, c string) {
	g.Unrevealed = append(slices.Clone(g.Unrevealed), SealedRef{Seq: seq, Commitment: c})
}

func (g *Game) addPending(p Pending) {
	for i, q := range g.Pending {
		if q.Request == p.Request && slices.Equal(q.Parts, p.Parts) {
			g.Pending[i] = p
			return
		}
	}
	g.Pending = append(g.Pending, p)
}

// Submissions parses the pending answers against the current state, in
// the order they were accepted: what Decide is given.
func (g *Game) Submissions() ([]adjudicator.Submission, error) {
	subs := make([]adjudicator.Submission, 0, len(g.Pending))
	parts := make([][]string, 0, len(g.Pending))
	for _, p := range g.Pending {
		oa, err := p.Accepted()
		if err != nil {
			return nil, &LogError{Seq: p.Seq, Msg: "bad orders payload: " + err.Error()}
		}
		if oa.Sealed != "" && p.opening == nil && oa.Orders == "" {
			if p.sealKey == "" || p.private == nil {
				return nil, &LogError{Seq: p.Seq, Msg: "these orders are sealed and were not revealed before their adjudication", Err: ErrSealed}
			}
			// Orders that stay sealed (a SealKey): read from their
			// opening, which the referee keeps.
			if err := fillOpening(&oa, p.private); err != nil {
				return nil, &LogError{Seq: p.Seq, Msg: "bad opening of sealed orders: " + err.Error()}
			}
		}
		sub, err := g.reparse(oa)
		if err != nil {
			return nil, &LogError{Seq: p.Seq, Msg: err.Error()}
		}
		subs = append(subs, sub)
		parts = append(parts, p.Parts)
	}
	merged, err := g.merge(subs, parts)
	if err != nil {
		return nil, &LogError{Msg: err.Error()}
	}
	return merged, nil
}

// Request returns the due request with that id.
func (g *Game) Request(id string) (adjudicator.Request, bool) {
	for _, r := range g.Due() {
		if r.ID == id {
			return r, true
		}
	}
	return adjudicator.Request{}, false
}

// Due is what the game waits for now, with the requests already answered
// marked.
func (g *Game) Due() []adjudicator.Request {
	if g.Ended != nil {
		return nil
	}
	return g.Rules.Due(g.State)
}

// Over reports whether the game has ended.
func (g *Game) Over() bool { return len(g.Due()) == 0 }

// Answered returns the pending answer to request id, if it is answered:
// when the side's orders are split between its players, once every part
// it needs has answered (the answer returned is the last of them).
func (g *Game) Answered(id string) (Pending, bool) {
	var last Pending
	found, split := false, false
	for _, p := range g.Pending {
		if p.Request == id {
			last, found = p, true
			split = split || len(p.Parts) > 0
		}
	}
	if !found || !split {
		return last, found
	}
	req, ok := g.Request(id)
	return last, !ok || len(g.Missing(req)) == 0
}

// Player returns the player of side s: its captain, when several play it.
func (g *Game) Player(s adjudicator.Side) (Player, bool) {
	for _, p := range g.Created.Players {
		if p.Side == s {
			return p, true
		}
	}
	return Player{}, false
}

// Sides lists the sides that have players, in setup order.
func (g *Game) Sides() []adjudicator.Side { return sidesOf(g.Created.Players) }

// View is the state as viewer may see it.
func (g *Game) View(viewer adjudicator.Side) adjudicator.View {
	v := g.Rules.View(g.State, viewer)
	if g.Ended != nil {
		v.Over, v.Result = true, g.Ended.Result
	}
	return v
}

// Clone returns a copy of g that can be folded further without touching g.
// It only reads g: the games service hands out clones of one cached game
// to several goroutines at once (concurrent intake), so Clone must never
// write to the game it copies, not even a flag.
func (g *Game) Clone() *Game {
	c := *g
	c.State = g.Rules.Clone(g.State)
	c.Chains = slices.Clone(g.Chains)
	c.Pending = slices.Clone(g.Pending)
	c.chains = maps.Clone(g.chains) // the chains themselves are immutable once built
	return &c
}

// StateHash is the hex SHA-256 of a state's JSON encoding. (A game with
// sealed state salts it: sealedHash.)
func StateHash(st adjudicator.State) string {
	h := sha256.Sum256(stateJSON(st))
	return hex.EncodeToString(h[:])
}

// stateJSON is the encoding of a state that state hashes hash.
func stateJSON(st adjudicator.State) []byte {
	b, err := json.Marshal(st)
	if err != nil {
		// A state that cannot be encoded is a ruleset bug; make it visible
		// in every hash rather than crash a running game.
		b = []byte("unencodable state: " + err.Error())
	}
	return b
}

// Digest is the hex SHA-256 of b.
func Digest(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// chainFor returns the chain generation and seed index that adjudication k uses.
func (g *Game) chainFor(k int) (gen, index int, ok bool) {
	for i := len(g.Chains) - 1; i >= 0; i-- {
		c := g.Chains[i]
		if k >= c.FromK {
			idx := k - c.FromK + 1
			return i, idx, idx <= c.ChainLength
		}
	}
	return 0, 0, false
}

// SeedFor is what an adjudication needs from the caller: the secret s_N of
// dice chain generation gen.
type SeedFor func(gen int) ([]byte, error)

func (g *Game) seed(k int, secrets SeedFor) (gen, index int, seed []byte, err error) {
	gen, index, ok := g.chainFor(k)
	if !ok {
		return 0, 0, nil, fmt.Errorf("game %s: no dice chain covers adjudication %d", g.ID, k)
	}
	ch := g.chains[gen]
	if ch == nil {
		secret, err := secrets(gen)
		if err != nil {
			return 0, 0, nil, fmt.Errorf("game %s: dice secret of chain %d: %w", g.ID, gen, err)
		}
		ch, err = newSeedChain(secret, g.Chains[gen].ChainLength)
		if err != nil {
			return 0, 0, nil, err
		}
		if got := hex.EncodeToString(ch.commitment()); got != g.Chains[gen].Commitment {
			return 0, 0, nil, fmt.Errorf("game %s: the stored dice secret of chain %d does not match its commitment", g.ID, gen)
		}
		if g.chains == nil {
			g.chains = map[int]*seedChain{}
		}
		g.chains[gen] = ch
	}
	seed, err = ch.seed(index)
	return gen, index, seed, err
}
