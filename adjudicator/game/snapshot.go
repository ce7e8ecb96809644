package game

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// A snapshot is a game's fold written down, so that a long log need not be
// folded from its first event every time a process starts: the caller keeps
// it beside the log, bound to the hash of its last event, and folds only
// the events after it. It is a cache, never evidence: Verify and Replay
// never read one, and RestoreSnapshot refuses one of another format,
// ruleset or ruleset version.
//
// The ruleset's state is written as its JSON (the encoding StateHash
// hashes) and read back into a fresh copy of the scenario's setup state
// with every exported field cleared, so that what JSON does not carry (a
// ruleset's unexported board and tables, which depend on the setup alone)
// comes from the setup. Snapshot checks that this gives back exactly the
// fold it was given, unexported fields included, and refuses
// (ErrNoSnapshot) a state that does not come back whole: such a game is
// always folded from its log.

// snapshotFormat is the version of the snapshot encoding; another is
// refused, and the caller folds the log.
const snapshotFormat = 3

// ErrNoSnapshot says that a fold cannot be snapshotted (its ruleset's state
// does not survive the round trip) or that a snapshot cannot be used (of
// another format, ruleset or ruleset version, or damaged). Either way the
// log must be folded.
var ErrNoSnapshot = errors.New("no usable snapshot")

type snapshot struct {
	Format         int                            `json:"format"`
	Shape          string                         `json:"shape"` // of the Go types written (shapeOf)
	Ruleset        string                         `json:"ruleset"`
	RulesetVersion string                         `json:"ruleset_version"`
	Created        Created                        `json:"created"`
	State          json.RawMessage                `json:"state"`
	Version        uint64                         `json:"version"`
	Updated        time.Time                      `json:"updated"`
	K              int                            `json:"k"`
	Chains         []ChainExtended                `json:"chains"`
	Pending        []snapPending                  `json:"pending"`
	Queues         map[adjudicator.Side]*Queue    `json:"queues"`
	Unrevealed     []SealedRef                    `json:"unrevealed"`
	Deadlines      map[string]Deadline            `json:"deadlines"`
	PausedAt       time.Time                      `json:"paused_at"`
	PauseReason    string                         `json:"pause_reason"`
	Misses         map[adjudicator.Side]int       `json:"misses"`
	Graced         []adjudicator.Side             `json:"graced"`
	Ended          *Ended                         `json:"ended"`
	AwayUntil      map[adjudicator.Side]time.Time `json:"away_until"`
	ResultsOnlyDue map[adjudicator.Side]bool      `json:"results_only_due"`
	DigestK        int                            `json:"digest_k"`
	DigestAt       time.Time                      `json:"digest_at"`
	Created0       time.Time                      `json:"created0"`
	Observers      []Observer                     `json:"observers"`
	Strings        []string                       `json:"strings"` // the strings the packed index of accepted texts names
	RuleEvents     int                            `json:"rule_events"`
	StateSeals     []stateSeal                    `json:"state_seals"` // with their salts: a snapshot is private
}

type snapPending struct {
	Seq     uint64           `json:"seq"`
	Request string           `json:"request"`
	Side    adjudicator.Side `json:"side"`
	Digest  string           `json:"digest"`
	Sealed  string           `json:"sealed"`
	Payload []byte           `json:"payload"`
	Opening []byte           `json:"opening"`
	Turn    int              `json:"turn"`
	Phase   string           `json:"phase"`
	Queued  bool             `json:"queued"`
	Whole   bool             `json:"whole"`
	Parts   []string         `json:"parts,omitempty"`
	SealKey string           `json:"seal_key,omitempty"`
	Private []byte           `json:"private,omitempty"` // the opening of orders with a SealKey
}

// Snapshot writes g's fold down. It fails with ErrNoSnapshot when the
// ruleset's state does not come back exactly.
func (g *Game) Snapshot() ([]byte, error) {
	b, err := g.encodeSnapshot()
	if err != nil {
		return nil, err
	}
	own := Lookup(func(string) (adjudicator.Ruleset, bool) { return g.Rules, true })
	var mods Modules
	if g.Module != nil {
		mods = FilesOf(*g.Module)
	}
	back, err := restore(b, own.With(mods))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoSnapshot, err)
	}
	if !SameFold(back, g) {
		return nil, fmt.Errorf("%w: the state of %s %s does not come back whole from its JSON", ErrNoSnapshot, g.Created.Ruleset, g.Rules.Info().Version)
	}
	return b, nil
}

func (g *Game) encodeSnapshot() ([]byte, error) {
	st, err := json.Marshal(g.State)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoSnapshot, err)
	}
	s := snapshot{Format: snapshotFormat, Shape: shapeOf(g.State), Ruleset: g.Created.Ruleset, RulesetVersion: g.Rules.Info().Version,
		Created: g.Created, State: st, Version: g.Version, Updated: g.Updated, K: g.K, Chains: g.Chains,
		Queues: g.Queues, Unrevealed: g.Unrevealed, Deadlines: g.Deadlines, PausedAt: g.PausedAt,
		PauseReason: g.PauseReason, Misses: g.Misses, Graced: g.Graced, Ended: g.Ended, AwayUntil: g.AwayUntil, ResultsOnlyDue: g.ResultsOnlyDue,
		DigestK: g.DigestK, DigestAt: g.DigestAt, Created0: g.Created0, Observers: g.Observers, RuleEvents: g.nRuleEvs, StateSeals: g.stateSeals}
	if g.Pending != nil {
		s.Pending = make([]snapPending, len(g.Pending))
		for i, p := range g.Pending {
			s.Pending[i] = snapPending{Seq: p.Seq, Request: p.Request, Side: p.Side, Digest: p.Digest, Sealed: p.Sealed, Payload: p.payload, Opening: p.opening,
				Turn: p.turn, Phase: p.phase, Queued: p.queued, Whole: p.whole, Parts: p.Parts, SealKey: p.sealKey, Private: p.private}
		}
	}
	packed := packAccepted(g.accepted.all())
	s.Strings = packed.table
	head, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	// The JSON, then the packed index as it is (searched in place when
	// the snapshot is restored).
	out := binary.AppendUvarint(make([]byte, 0, binary.MaxVarintLen64+len(head)+len(packed.b)), uint64(len(head)))
	out = append(out, head...)
	return append(out, packed.b...), nil
}

// RestoreSnapshot reads a snapshot back into a game, which the caller then
// folds the events after it into. ErrNoSnapshot if it cannot be used.
func RestoreSnapshot(b []byte, lookup Source) (*Game, error) {
	g, err := restore(b, lookup)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoSnapshot, err)
	}
	return g, nil
}

func restore(b []byte, lookup Source) (*Game, error) {
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)-k) {
		return nil, errors.New("the snapshot is cut")
	}
	head, packed := b[k:k+int(n)], b[k+int(n):]
	var s snapshot
	if err := json.Unmarshal(head, &s); err != nil {
		return nil, err
	}
	if s.Format != snapshotFormat {
		return nil, fmt.Errorf("snapshot format %d, this build reads %d", s.Format, snapshotFormat)
	}
	rs, ok := lookup.Ruleset(s.Ruleset)
	if !ok || s.Created.Ruleset != s.Ruleset {
		return nil, fmt.Errorf("ruleset %q is not in this build", s.Ruleset)
	}
	if v := rs.Info().Version; v != s.RulesetVersion {
		return nil, fmt.Errorf("taken with %s %s, this is %s", s.Ruleset, s.RulesetVersion, v)
	}
	mod, err := moduleOf(1, s.Created, rs, lookup)
	if err != nil {
		return nil, err
	}
	st, err := restoreState(rs, s.Created, mod, s.State)
	if err != nil {
		return nil, err
	}
	if shapeOf(st) != s.Shape {
		return nil, errors.New("taken by a build whose state or snapshot types differ")
	}
	g := &Game{ID: s.Created.Game, Created: s.Created, Rules: rs, Module: mod, State: st, Version: s.Version, Updated: s.Updated,
		K: s.K, Chains: s.Chains, Queues: s.Queues, Unrevealed: s.Unrevealed, Deadlines: s.Deadlines,
		PausedAt: s.PausedAt, PauseReason: s.PauseReason, Misses: s.Misses, Graced: s.Graced, Ended: s.Ended,
		AwayUntil: s.AwayUntil, ResultsOnlyDue: s.ResultsOnlyDue, DigestK: s.DigestK, DigestAt: s.DigestAt, Created0: s.Created0, Observers: s.Observers,
		nRuleEvs: s.RuleEvents, types: eventTypes(rs), stateSeals: s.StateSeals, opener: openerOf(lookup, s.Created.Game)}
	if s.Pending != nil {
		g.Pending = make([]Pending, len(s.Pending))
		for i, p := range s.Pending {
			g.Pending[i] = Pending{Seq: p.Seq, Request: p.Request, Side: p.Side, Digest: p.Digest, Sealed: p.Sealed, payload: p.Payload, opening: p.Opening,
				turn: p.Turn, phase: p.Phase, queued: p.Queued, whole: p.Whole, Parts: p.Parts, sealKey: p.SealKey, private: p.Private}
		}
	}
	if len(packed) < len(b)/2 {
		packed = bytes.Clone(packed) // rather than keep the whole snapshot for a small index
	}
	if len(packed) > 0 {
		g.accepted.base = packedIndex{b: packed, table: s.Strings}
		if err := checkPacked(g.accepted.base); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// restoreState reads a state's JSON into a copy of the setup state whose
// exported fields are cleared.
func restoreState(rs adjudicator.Ruleset, c Created, mod *adjudicator.Module, b []byte) (adjudicator.State, error) {
	st, err := rs.Setup(setupOf(c, mod))
	if err != nil {
		return nil, fmt.Errorf("the setup no longer loads: %v", err)
	}
	v := reflect.ValueOf(st)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return nil, fmt.Errorf("a %T state is not a pointer to a struct", st)
	}
	fresh := reflect.New(v.Elem().Type())
	fresh.Elem().Set(v.Elem())
	for i := range fresh.Elem().NumField() {
		if f := fresh.Elem().Field(i); f.CanSet() {
			f.SetZero()
		}
	}
	if err := json.Unmarshal(b, fresh.Interface()); err != nil {
		return nil, err
	}
	return fresh.Interface(), nil
}

// SameFold reports whether two folds of a game are the same in everything
// a fold sets: the ruleset's state (compared deeply, unexported fields
// included), every exported field and the unexported bookkeeping. The dice
// chains a game keeps once it built them are a cache and not compared.
func SameFold(a, b *Game) bool {
	if a.Rules != b.Rules {
		return false
	}
	x, y := *a, *b
	for _, g := range []*Game{&x, &y} {
		g.Rules, g.types, g.chains, g.checkSum, g.accepted = nil, nil, nil, false, acceptedIndex{}
		g.ahead, g.opener = nil, nil // where this fold found openings, not what it folded
	}
	if !reflect.DeepEqual(x, y) {
		return false
	}
	return reflect.DeepEqual(a.accepted.all(), b.accepted.all())
}

func eventTypes(rs adjudicator.Ruleset) map[string]adjudicator.EventType {
	m := map[string]adjudicator.EventType{}
	for _, t := range rs.EventTypes() {
		m[t.Name] = t
	}
	return m
}

// shapeOf is a digest of the Go types a snapshot writes: the snapshot's own
// and the ruleset's state, field by field with their tags, so that a
// build whose types differ (a field added, renamed or retyped without a new
// ruleset version) never reads another build's snapshot.
func shapeOf(st adjudicator.State) string {
	t := reflect.TypeOf(st)
	if s, ok := shapes.Load(t); ok {
		return s.(string)
	}
	s := typeShape(t)
	shapes.Store(t, s)
	return s
}

var shapes sync.Map // reflect.Type → its shapeOf

func typeShape(state reflect.Type) string {
	var b strings.Builder
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		b.WriteString(t.String())
		if seen[t] {
			return
		}
		seen[t] = true
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array:
			b.WriteByte('<')
			walk(t.Elem())
			b.WriteByte('>')
		case reflect.Map:
			b.WriteByte('<')
			walk(t.Key())
			b.WriteByte(',')
			walk(t.Elem())
			b.WriteByte('>')
		case reflect.Struct:
			b.WriteByte('{')
			for i := range t.NumField() {
				f := t.Field(i)
				fmt.Fprintf(&b, "%s %q ", f.Name, f.Tag)
				walk(f.Type)
				b.WriteByte(';')
			}
			b.WriteByte('}')
		}
	}
	walk(reflect.TypeOf(snapshot{}))
	b.WriteByte('|')
	walk(state)
	return Digest([]byte(b.String()))
}
