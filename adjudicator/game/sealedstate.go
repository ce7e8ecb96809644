package game

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Sealed state. A ruleset with hidden state emits some of its events
// wrapped in an adjudicator.Secret: the engine stores a state.sealed
// record whose payload says only who may read it, under which key it is
// revealed, and the commitment of its opening (SealedEvent); the opening —
// a salt and the wrapped event, as a ruleset event would be stored — goes
// to the referee's private part (Record.Private). A fold reads the event
// from the opening: the entry's private part when the referee's store
// gives it, the opening a later sealed.revealed event carries when an
// export is replayed, or the Source's Openings. Without one the fold
// stops there (ErrSealed).
//
// The answers to a request with a SealKey stay sealed after their
// adjudication in the same way. While a game has such sealed parts, its
// state hashes are salted with their salts (sealedHash), so that nobody
// can test a guess of the hidden state against them.

// SealedEvent is the payload of state.sealed (adjudicator.TypeSecret).
type SealedEvent struct {
	To     adjudicator.Audience `json:"to"`     // who may read it now (never every side)
	Key    string               `json:"key"`    // a Reveal naming it opens it; "" waits for the game's end
	Sealed string               `json:"sealed"` // commitment of the SecretOpening
}

// SecretOpening is the opening of a state.sealed event: the wrapped ruleset
// event, with its stored type and schema, and a random salt.
type SecretOpening struct {
	Salt   string          `json:"salt"`
	Type   string          `json:"type"`
	Schema int             `json:"schema"`
	Event  json.RawMessage `json:"event"`
}

// Openings is implemented by a Source that holds a referee's private part
// (the store): the opening of commitment c made in game id, or nil and no
// error when it has none.
type Openings interface {
	Opening(game, c string) ([]byte, error)
}

// WithOpenings is src that also finds openings with open (Openings).
func WithOpenings(src Source, open func(game, c string) ([]byte, error)) Source {
	return withOpenings{src, open}
}

type withOpenings struct {
	Source
	open func(game, c string) ([]byte, error)
}

func (w withOpenings) Opening(game, c string) ([]byte, error) { return w.open(game, c) }

// stateSeal is a sealed part that holds game state and is not revealed
// yet: a state.sealed event, or an answer to a request with a SealKey.
type stateSeal struct {
	Seq        uint64 `json:"seq"`
	Commitment string `json:"commitment"`
	Key        string `json:"key"`
	Salt       string `json:"salt"` // "" while this fold has not seen the opening
	// For an answer: where it was accepted, to index its text once it is
	// revealed (the index of accepted texts).
	Orders bool             `json:"orders,omitempty"`
	Side   adjudicator.Side `json:"side,omitempty"`
	Turn   int              `json:"turn,omitempty"`
	Phase  string           `json:"phase,omitempty"`
}

// aheadOpening is an opening revealed later in the entries being folded.
type aheadOpening struct {
	seq uint64 // the sealed.revealed event
	b   []byte
}

// lookAhead notes the openings the sealed.revealed events of entries
// carry, by commitment, for a fold of entries that lack their private
// parts (an export): a sealed event is folded from the opening revealed
// after it.
func (g *Game) lookAhead(entries []Entry) {
	var m map[string]aheadOpening
	for _, e := range entries {
		if e.Type != TypeRevealed {
			continue
		}
		var rv Revealed
		if decodeRevealed(e.Payload, &rv) != nil {
			continue // the fold says what is wrong with it when it gets there
		}
		if m == nil {
			m = map[string]aheadOpening{}
		}
		if _, seen := m[rv.Commitment]; !seen {
			m[rv.Commitment] = aheadOpening{seq: e.Seq, b: []byte(rv.Opening)}
		}
	}
	g.ahead = m
}

// openingOf finds the opening of commitment c made by event seq: private
// (the entry's own), a reveal later in the entries folded, or the
// Source's Openings. nil when none is at hand; an error when the one found
// does not hash to c.
func (g *Game) openingOf(seq uint64, c string, private []byte) ([]byte, error) {
	if private != nil {
		if Digest(private) != c {
			return nil, &LogError{Seq: seq, Msg: fmt.Sprintf("the opening kept for commitment %s does not hash to it: the data file was changed", c)}
		}
		return private, nil
	}
	if a, ok := g.ahead[c]; ok {
		if Digest(a.b) != c {
			return nil, &LogError{Seq: a.seq, Msg: fmt.Sprintf("the opening revealed does not hash to the commitment %s of event %d: it was changed", c, seq)}
		}
		return a.b, nil
	}
	if g.opener != nil {
		b, err := g.opener(c)
		if err != nil {
			return nil, &LogError{Seq: seq, Msg: fmt.Sprintf("reading the opening of commitment %s: %v", c, err)}
		}
		if b != nil && Digest(b) != c {
			return nil, &LogError{Seq: seq, Msg: fmt.Sprintf("the opening kept for commitment %s does not hash to it: the data file was changed", c)}
		}
		return b, nil
	}
	return nil, nil
}

// errNotRevealed is the error of a fold that needs a sealed part it does
// not have.
func errNotRevealed(seq uint64, what string) error {
	return &LogError{Seq: seq, Msg: what + " is sealed and not revealed yet (everything is when the game ends)", Err: ErrSealed}
}

// applySecret folds a state.sealed entry: the ruleset event of its opening.
func (g *Game) applySecret(e Entry) error {
	var se SealedEvent
	if err := json.Unmarshal(e.Payload, &se); err != nil {
		return &LogError{Seq: e.Seq, Msg: "bad state.sealed payload: " + err.Error()}
	}
	if se.Sealed == "" || se.To.Public() {
		return &LogError{Seq: e.Seq, Msg: "a state.sealed event names no commitment, or no audience"}
	}
	b, err := g.openingOf(e.Seq, se.Sealed, e.Private)
	if err != nil {
		return err
	}
	if b == nil {
		return errNotRevealed(e.Seq, "this ruleset event")
	}
	var op SecretOpening
	if err := json.Unmarshal(b, &op); err != nil {
		return &LogError{Seq: e.Seq, Msg: "bad opening of a state.sealed event: " + err.Error()}
	}
	t, ok := g.types[op.Type]
	if !ok {
		return &LogError{Seq: e.Seq, Msg: fmt.Sprintf("seals an event of unknown type %q", op.Type)}
	}
	if op.Schema != t.Schema {
		return &LogError{Seq: e.Seq, Msg: fmt.Sprintf("seals %s of schema %d; this build reads schema %d", op.Type, op.Schema, t.Schema)}
	}
	ev := t.New()
	if err := json.Unmarshal(op.Event, ev); err != nil {
		return &LogError{Seq: e.Seq, Msg: fmt.Sprintf("bad sealed %s payload: %v", op.Type, err)}
	}
	if err := g.evolve(e.Seq, op.Type, ev); err != nil {
		return err
	}
	g.seal(e.Seq, se.Sealed)
	g.addStateSeal(stateSeal{Seq: e.Seq, Commitment: se.Sealed, Key: se.Key, Salt: op.Salt})
	return nil
}

// addStateSeal notes a sealed part holding state. stateSeals is never
// changed in place: clones share it.
func (g *Game) addStateSeal(s stateSeal) {
	g.stateSeals = append(slices.Clone(g.stateSeals), s)
}

// dropStateSeal forgets the sealed part of event seq (revealed or lost),
// returning it.
func (g *Game) dropStateSeal(seq uint64, c string) (stateSeal, bool) {
	i := slices.IndexFunc(g.stateSeals, func(s stateSeal) bool { return s.Seq == seq && s.Commitment == c })
	if i < 0 {
		return stateSeal{}, false
	}
	s := g.stateSeals[i]
	g.stateSeals = slices.Delete(slices.Clone(g.stateSeals), i, i+1)
	return s, true
}

// saltOf reads the salt of an opening (every kind has one).
func saltOf(b []byte) (string, error) {
	var x struct {
		Salt string `json:"salt"`
	}
	if err := json.Unmarshal(b, &x); err != nil {
		return "", err
	}
	return x.Salt, nil
}

// sealSalts are the salts of the sealed parts holding state, in the order
// of their events: what the state hash is salted with.
func (g *Game) sealSalts() ([]string, error) {
	out := make([]string, 0, len(g.stateSeals))
	for _, s := range g.stateSeals {
		if s.Salt == "" {
			return nil, errNotRevealed(s.Seq, "a sealed part the state hash is salted with")
		}
		out = append(out, s.Salt)
	}
	return out, nil
}

// fillSalts finds the salts this fold lacks (an answer accepted in a fold
// without its private part) with get.
func (g *Game) fillSalts(get func(c string) ([]byte, error)) error {
	var seals []stateSeal
	for i, s := range g.stateSeals {
		if s.Salt != "" {
			continue
		}
		b, err := get(s.Commitment)
		if err != nil {
			return err
		}
		salt, err := saltOf(b)
		if err != nil || salt == "" {
			return fmt.Errorf("%w: the opening of commitment %s has no salt", ErrInternal, s.Commitment)
		}
		if seals == nil {
			seals = slices.Clone(g.stateSeals)
		}
		seals[i].Salt = salt
	}
	if seals != nil {
		g.stateSeals = seals
	}
	return nil
}

// sealedHash is the state hash of st with salts: StateHash when there are
// none (a game without sealed state hashes as it always did), else the hex
// SHA-256 of st's JSON followed by each salt's hex text, in order.
func sealedHash(st adjudicator.State, salts []string) string {
	if len(salts) == 0 {
		return StateHash(st)
	}
	h := sha256.New()
	h.Write(stateJSON(st))
	for _, s := range salts {
		h.Write([]byte(s))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// stateHash is the state hash of g's state, salted as sealedHash says.
func (g *Game) stateHash() (string, error) {
	salts, err := g.sealSalts()
	if err != nil {
		return "", err
	}
	return sealedHash(g.State, salts), nil
}

// secretRecord makes the state.sealed record of s, whose inner event has
// the registered type t.
func secretRecord(in Input, s *adjudicator.Secret, t adjudicator.EventType) (Record, error) {
	if s.To.Public() {
		return Record{}, fmt.Errorf("%w: the ruleset sealed a %s event for every side: a secret names who may read it", ErrInternal, t.Name)
	}
	body, err := json.Marshal(s.Event)
	if err != nil {
		return Record{}, fmt.Errorf("%w: encoding sealed %s: %v", ErrInternal, t.Name, err)
	}
	op := SecretOpening{Type: t.Name, Schema: t.Schema, Event: body}
	if op.Salt, err = salt(in); err != nil {
		return Record{}, err
	}
	private, c, err := seal(op)
	if err != nil {
		return Record{}, err
	}
	rec, err := record(adjudicator.TypeSecret, in.Time, ActorEngine, SealedEvent{To: s.To, Key: s.Key, Sealed: c})
	rec.Private = private
	return rec, err
}

// secretType checks a Secret a ruleset emitted and returns the type of the
// event it wraps.
func (g *Game) secretType(s *adjudicator.Secret) (adjudicator.EventType, error) {
	if s.Event == nil {
		return adjudicator.EventType{}, fmt.Errorf("%w: the ruleset sealed no event", ErrInternal)
	}
	name := s.Event.EventType()
	t, ok := g.types[name]
	switch {
	case !ok:
		return t, fmt.Errorf("%w: ruleset sealed unregistered event %q", ErrInternal, name)
	case name == adjudicator.TypeChildGame:
		return t, fmt.Errorf("%w: a child game cannot be sealed: the series and its games are public to each other", ErrInternal)
	}
	return t, nil
}

// revealKeys appends a sealed.revealed record for every sealed part still
// sealed under one of keys: state.sealed events and answers to requests
// with that SealKey.
func (g *Game) revealKeys(in Input, out *Outcome, keys []string) error {
	var refs []SealedRef
	for _, s := range g.stateSeals {
		if s.Key != "" && slices.Contains(keys, s.Key) {
			refs = append(refs, SealedRef{Seq: s.Seq, Commitment: s.Commitment})
		}
	}
	for _, ref := range refs {
		if err := g.revealIfSealed(in, out, ref.Seq, ref.Commitment); err != nil {
			return err
		}
	}
	return nil
}

// secretMatches reports whether the recorded state.sealed entry e (whose
// opening is b) is what the rules now decide, s.
func secretMatches(e Entry, b []byte, s *adjudicator.Secret, t adjudicator.EventType) (bool, error) {
	var se SealedEvent
	if err := json.Unmarshal(e.Payload, &se); err != nil {
		return false, err
	}
	var op SecretOpening
	if err := json.Unmarshal(b, &op); err != nil {
		return false, err
	}
	body, err := json.Marshal(s.Event)
	if err != nil {
		return false, err
	}
	return slices.Equal(se.To, s.To) && se.Key == s.Key && op.Type == t.Name && op.Schema == t.Schema && string(op.Event) == string(body), nil
}

// sealedAhead counts the sealed parts holding state that entries leave
// sealed: state.sealed events and answers with a SealKey, neither
// revealed nor lost.
func sealedAhead(entries []Entry) int {
	open := map[string]bool{}
	for _, e := range entries {
		switch e.Type {
		case adjudicator.TypeSecret:
			if c, err := sealedOf(e.Payload); err == nil && c != "" {
				open[c] = true
			}
		case TypeOrders:
			var oa ordersFold
			if oa.decode(e.Payload) == nil && oa.SealKey != "" && oa.Sealed != "" {
				open[oa.Sealed] = true
			}
		case TypeRevealed:
			var rv Revealed
			if decodeRevealed(e.Payload, &rv) == nil {
				delete(open, rv.Commitment)
			}
		case TypeLost:
			var l Lost
			if json.Unmarshal(e.Payload, &l) == nil {
				delete(open, l.Commitment)
			}
		}
	}
	return len(open)
}

// openerOf is how a fold of game id finds openings in src's private part,
// nil when src has none.
func openerOf(src Source, id string) func(c string) ([]byte, error) {
	o, ok := src.(Openings)
	if !ok {
		return nil
	}
	return func(c string) ([]byte, error) { return o.Opening(id, c) }
}

// ChildSecrets lists the sealed parts of child key's position this game
// has folded: those a series sealed for its child key, or those a child
// (whose key is key) read. Parts not opened in this fold are not listed.
func (g *Game) ChildSecrets(key string) []adjudicator.ChildSecret {
	var out []adjudicator.ChildSecret
	for _, p := range g.childSecrets {
		if p.Child == key {
			out = append(out, p)
		}
	}
	return out
}
