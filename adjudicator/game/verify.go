package game

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// Audit is what Verify and Replay found.
type Audit struct {
	Game           string
	Events         int
	Adjudications  int
	Rolls          int // throws checked
	Dice           int // individual dice recomputed
	Seeds          int // revealed seeds checked against the chain
	Chains         int
	Revealed       int      // sealed parts revealed in the log and checked against their commitments
	Sealed         int      // sealed parts not revealed yet (their dice are checked once they are)
	Lost           int      // sealed parts whose opening the referee lost (sealed.lost)
	Redecided      int      // adjudications decided again (Replay only)
	VersionChanges []string // adjudications made by another ruleset version
	// ReplayedTo is, when a Replay stopped short of the end because the
	// log holds sealed state not revealed yet (a game in progress), the
	// last event it checked; NotRevealed counts those sealed parts. Not
	// a problem: they are revealed when the game ends.
	ReplayedTo  uint64
	NotRevealed int
	Notes       []string // what was not checked, and why
	Problems    []string // empty when all is well
}

// OK reports whether nothing was wrong.
func (a *Audit) OK() bool { return len(a.Problems) == 0 }

func (a *Audit) problem(seq uint64, format string, args ...any) {
	a.Problems = append(a.Problems, fmt.Sprintf("event %d: %s", seq, fmt.Sprintf(format, args...)))
}

// Verify checks a log's dice without the rules: every revealed seed against
// the commitment chain, and every die of every adjudication recomputed from
// its seed. Anyone can run it on an exported bundle. (The store checks the
// hash chain of the events themselves.)
func Verify(entries []Entry) *Audit {
	a := &Audit{Events: len(entries)}
	if len(entries) == 0 || entries[0].Type != TypeCreated {
		a.problem(0, "the log does not start with %s", TypeCreated)
		return a
	}
	var c Created
	if err := json.Unmarshal(entries[0].Payload, &c); err != nil {
		a.problem(entries[0].Seq, "bad game.created: %v", err)
		return a
	}
	a.Game = c.Game
	var chains []ChainExtended
	if c.Dice.Mode == DiceChain {
		chains = append(chains, ChainExtended{Commitment: c.Dice.Commitment, ChainLength: c.Dice.ChainLength, FromK: 1})
	}
	last := map[int]goodSeed{} // chain → last seed that checked (starts at the commitment)
	scripted := 0
	commitments := map[uint64]string{} // event → its commitment, while sealed
	seeds := map[uint64]adjSeed{}      // turn.adjudicated event → its seed, for revealed rolls
	for _, e := range entries[1:] {
		switch e.Type {
		case TypeOrders, TypeQueueDropped, TypePressSent, adjudicator.TypeSecret:
			sealed, err := sealedOf(e.Payload)
			if err != nil {
				a.problem(e.Seq, "bad %s: %v", e.Type, err)
				continue
			}
			if sealed != "" {
				commitments[e.Seq] = sealed
			}
		case TypeLost:
			var l Lost
			if err := json.Unmarshal(e.Payload, &l); err != nil {
				a.problem(e.Seq, "bad sealed.lost: %v", err)
				continue
			}
			if c, ok := commitments[l.Of]; !ok || c != l.Commitment {
				a.problem(e.Seq, "says commitment %s of event %d is lost, but it is not sealed", l.Commitment, l.Of)
				continue
			}
			delete(commitments, l.Of)
			a.Lost++
		case TypeRevealed:
			var rv Revealed
			if err := decodeRevealed(e.Payload, &rv); err != nil {
				a.problem(e.Seq, "bad sealed.revealed: %v", err)
				continue
			}
			c, ok := commitments[rv.Of]
			switch {
			case !ok:
				a.problem(e.Seq, "reveals a commitment of event %d, which has none left to reveal", rv.Of)
				continue
			case c != rv.Commitment:
				a.problem(e.Seq, "reveals commitment %s, but event %d committed to %s", rv.Commitment, rv.Of, c)
				continue
			case Digest([]byte(rv.Opening)) != c:
				a.problem(e.Seq, "the opening it reveals does not hash to the commitment %s of event %d: it was changed", c, rv.Of)
				continue
			}
			delete(commitments, rv.Of)
			a.Revealed++
			if as, ok := seeds[rv.Of]; ok {
				var op AdjudicationOpening
				if err := json.Unmarshal([]byte(rv.Opening), &op); err != nil {
					a.problem(e.Seq, "bad opening of adjudication %d: %v", as.k, err)
					continue
				}
				a.checkHidden(e.Seq, as, op.Rolls)
			}
		case TypeChainExtended:
			var ce ChainExtended
			if err := json.Unmarshal(e.Payload, &ce); err != nil {
				a.problem(e.Seq, "bad dice.chain-extended: %v", err)
				continue
			}
			if ce.Chain != len(chains) {
				a.problem(e.Seq, "dice chain %d announced after %d chains", ce.Chain, len(chains))
			}
			chains = append(chains, ce)
		case TypeAdjudicated:
			var adj Adjudicated
			if err := decodeAdjudicatedFor(e.Payload, &adj, false); err != nil {
				a.problem(e.Seq, "bad turn.adjudicated: %v", err)
				continue
			}
			a.Adjudications++
			if adj.K != a.Adjudications {
				a.problem(e.Seq, "adjudication %d where %d was expected", adj.K, a.Adjudications)
			}
			if adj.Sealed != "" {
				commitments[e.Seq] = adj.Sealed
			}
			var roller func(label string, n, faces int) int
			switch c.Dice.Mode {
			case DiceChain:
				seed, ok := a.checkSeed(e.Seq, adj, chains, last)
				if !ok {
					continue
				}
				roller = func(label string, n, faces int) int { return dice.Face(seed, c.DiceGame(), adj.K, label, n, faces) }
				if adj.Sealed != "" { // only a sealed part is revealed later
					seeds[e.Seq] = adjSeed{k: adj.K, face: roller, rolls: adj.Rolls}
				}
			case DiceScripted:
				roller = func(string, int, int) int {
					if scripted >= len(c.Dice.Faces) {
						return 0
					}
					scripted++
					return c.Dice.Faces[scripted-1]
				}
			default:
				a.problem(e.Seq, "unknown dice mode %q", c.Dice.Mode)
				return a
			}
			a.checkRolls(e.Seq, adj, roller)
		}
	}
	a.Chains = len(chains)
	a.Sealed = len(commitments)
	return a
}

// goodSeed is the last seed of a chain that checked, and its index.
type goodSeed struct {
	seed  []byte
	index int
}

// adjSeed is what checking an adjudication's revealed rolls needs.
type adjSeed struct {
	k     int
	face  func(label string, n, faces int) int
	rolls []*adjudicator.Roll
}

// checkHidden checks rolls revealed after their adjudication: each stands
// where a sealed stand-in of the same dice stood, and its dice are the seed's.
func (a *Audit) checkHidden(seq uint64, as adjSeed, rolls []*adjudicator.Roll) {
	stand := map[int]string{}
	for _, r := range as.rolls {
		if r.Sealed {
			stand[r.N] = r.Dice
		}
	}
	for _, r := range rolls {
		if d, ok := stand[r.N]; !ok || d != r.Dice {
			a.problem(seq, "adjudication %d: revealed roll %q at die %d has no sealed stand-in of %s there", as.k, r.Label, r.N, r.Dice)
			continue
		}
		a.checkRoll(seq, as.k, r, as.face)
	}
}

func (a *Audit) checkSeed(seq uint64, adj Adjudicated, chains []ChainExtended, last map[int]goodSeed) ([]byte, bool) {
	if adj.Chain < 0 || adj.Chain >= len(chains) {
		a.problem(seq, "adjudication %d uses dice chain %d, which was never committed", adj.K, adj.Chain)
		return nil, false
	}
	ch := chains[adj.Chain]
	if want := adj.K - ch.FromK + 1; adj.Index != want {
		a.problem(seq, "adjudication %d uses seed %d of chain %d; it should use seed %d", adj.K, adj.Index, adj.Chain, want)
		return nil, false
	}
	if adj.Index > ch.ChainLength {
		a.problem(seq, "adjudication %d is past the end of chain %d", adj.K, adj.Chain)
		return nil, false
	}
	seed, err := dice.ParseSeed(adj.Seed)
	if err != nil {
		a.problem(seq, "adjudication %d: %v", adj.K, err)
		return nil, false
	}
	prev, ok := last[adj.Chain]
	if !ok {
		c, err := hex.DecodeString(ch.Commitment)
		if err != nil {
			a.problem(seq, "chain %d: bad commitment", adj.Chain)
			return nil, false
		}
		prev = goodSeed{seed: c}
	}
	// A seed is checked against the last one that checked, hashing once per
	// step between them: one bad seed is reported once, and the seeds
	// after it still check against the chain.
	h := seed
	for i := prev.index; i < adj.Index-1; i++ {
		h = dice.Hash(h)
	}
	if adj.Index <= prev.index || !dice.Follows(h, prev.seed) {
		a.problem(seq, "adjudication %d: revealed seed %s is not seed %d of chain %d (it does not hash to the committed chain): its dice were not the committed ones", adj.K, adj.Seed, adj.Index, adj.Chain)
		return nil, false
	}
	last[adj.Chain] = goodSeed{seed: seed, index: adj.Index}
	a.Seeds++
	return seed, true
}

func (a *Audit) checkRolls(seq uint64, adj Adjudicated, face func(label string, n, faces int) int) {
	n := 0
	for _, r := range adj.Rolls {
		count, _, err := ParseDice(r.Dice)
		if err != nil {
			a.problem(seq, "adjudication %d: roll %q has a bad dice spec %q", adj.K, r.Label, r.Dice)
			continue
		}
		if r.N != n {
			a.problem(seq, "adjudication %d: roll %q starts at die %d, expected %d", adj.K, r.Label, r.N, n)
		}
		n = r.N + count
		if r.Sealed {
			continue // checked when revealed
		}
		a.checkRoll(seq, adj.K, r, face)
	}
}

// checkRoll recomputes the dice of one roll.
func (a *Audit) checkRoll(seq uint64, k int, r *adjudicator.Roll, face func(label string, n, faces int) int) {
	a.Rolls++
	count, faces, err := ParseDice(r.Dice)
	if err != nil || count != len(r.Faces) {
		a.problem(seq, "adjudication %d: roll %q has a bad dice spec %q", k, r.Label, r.Dice)
		return
	}
	total := 0
	for i, got := range r.Faces {
		a.Dice++
		if want := face(r.Label, r.N+i, faces); want != got {
			a.problem(seq, "adjudication %d: %q die %d shows %d, but the seed gives %d", k, r.Label, i+1, got, want)
		}
		total += got
	}
	if total != r.Total {
		a.problem(seq, "adjudication %d: %q totals %d, not %d", k, r.Label, total, r.Total)
	}
}

// ParseDice reads a dice spec such as "2d6".
func ParseDice(s string) (count, faces int, err error) {
	c, f, ok := strings.Cut(s, "d")
	if ok {
		count, err = strconv.Atoi(c)
		if err == nil {
			faces, err = strconv.Atoi(f)
		}
	}
	if !ok || err != nil || count < 1 || faces < 2 {
		return 0, 0, fmt.Errorf("bad dice %q", s)
	}
	return count, faces, nil
}

// Replay folds the log again and decides every adjudication anew from the
// recorded orders and dice, comparing each event, roll and state hash with
// the log. The first divergence of each adjudication is reported; a ruleset
// version different from the recorded one is noted, since it explains most
// divergences.
//
// A log that makes the rules fail (a ruleset panics on a state that no
// real game reaches: a tampered or cut log) is reported, never a crash.
func Replay(entries []Entry, lookup Source) (a *Audit) {
	a = &Audit{Events: len(entries)}
	defer func() {
		if p := recover(); p != nil {
			a.Problems = append(a.Problems, fmt.Sprintf("the rules fail on this log (%v): it was changed or cut", p))
		}
	}()
	if len(entries) == 0 {
		a.problem(0, "the log is empty")
		return a
	}
	g, err := Start(entries[0], lookup)
	if err != nil {
		a.Problems = append(a.Problems, err.Error())
		return a
	}
	a.Game = g.ID
	g.checkSum = true
	g.lookAhead(entries)
	script := &dice.Script{Faces: g.Created.Dice.Faces}
	// The ruleset's version, asked once: Info can be costly (Dragon
	// Rage's lists its scenarios), and the ruleset does not change.
	version := g.Rules.Info().Version
	var pre *Game
	var group []Entry
	// stop ends a replay that meets sealed state not revealed yet: the
	// log is checked up to the adjudication (or event) that needs it.
	stop := func(e Entry) *Audit {
		last := e.Seq - 1
		if len(group) > 0 {
			last = group[0].Seq - 1
		}
		a.ReplayedTo, a.NotRevealed, a.Adjudications, a.Chains = last, sealedAhead(entries), g.K, len(g.Chains)
		a.Notes = append(a.Notes, fmt.Sprintf("replayed to event %d; %d sealed events are not revealed yet (they are when the game ends)", last, a.NotRevealed))
		return a
	}
	for _, e := range entries[1:] {
		switch {
		case e.Type == TypeAdjudicated:
			if pre == nil {
				pre = g.Clone()
			}
			salts, err := g.sealSalts()
			if err == nil {
				err = a.redecide(pre, append(group, e), script, version, salts)
			}
			if errors.Is(err, ErrSealed) {
				return stop(e)
			}
			pre, group = nil, nil
		case ruleEvent(e.Type):
			if pre == nil {
				pre = g.Clone()
			}
			group = append(group, e)
		}
		if err := g.Apply(e); err != nil {
			if errors.Is(err, ErrSealed) {
				return stop(e)
			}
			a.Problems = append(a.Problems, err.Error())
			return a
		}
	}
	a.Adjudications = g.K
	a.Chains = len(g.Chains)
	if g.allAnswered() {
		last := entries[len(entries)-1]
		a.problem(last.Seq, "every answer due is in, but the log ends without their adjudication: it was cut after event %d", last.Seq)
	}
	return a
}

// ruleEvent reports whether events of type typ are a ruleset's, public or
// sealed.
func ruleEvent(typ string) bool { return Schema(typ) == 0 || typ == adjudicator.TypeSecret }

// redecide decides again the adjudication whose recorded entries are group
// (ruleset events, then turn.adjudicated), starting from pre; v is the
// version of pre's ruleset, salts what its state hash is salted with. An
// error wrapping ErrSealed says that an input of the adjudication is
// sealed; anything else it finds is a problem of a.
func (a *Audit) redecide(pre *Game, group []Entry, script *dice.Script, v string, salts []string) error {
	last := group[len(group)-1]
	var adj Adjudicated
	if err := decodeAdjudicated(last.Payload, &adj); err != nil {
		a.problem(last.Seq, "bad turn.adjudicated: %v", err)
		return nil
	}
	if adj.RulesetVersion != v {
		a.VersionChanges = append(a.VersionChanges, fmt.Sprintf("adjudication %d was made by %s %s; this is %s", adj.K, pre.Created.Ruleset, adj.RulesetVersion, v))
	}
	var roller adjudicator.Roller = script
	if pre.Created.Dice.Mode == DiceChain {
		seed, err := dice.ParseSeed(adj.Seed)
		if err != nil {
			a.problem(last.Seq, "adjudication %d: %v", adj.K, err)
			return nil
		}
		roller = dice.NewStream(seed, pre.Created.DiceGame(), adj.K)
	}
	r, err := pre.decide(roller)
	if errors.Is(err, ErrSealed) {
		return err // orders that stay sealed, not revealed yet
	}
	if err != nil {
		a.problem(last.Seq, "adjudication %d no longer decides: %v", adj.K, err)
		return nil
	}
	a.Redecided++
	evs := slices.DeleteFunc(slices.Clone(r.Events()), func(ev adjudicator.Event) bool { return ev.EventType() == adjudicator.TypeReveal })
	recorded := group[:len(group)-1]
	for i := 0; i < max(len(evs), len(recorded)); i++ {
		switch {
		case i >= len(evs):
			a.problem(recorded[i].Seq, "adjudication %d: the log has %s here, the rules now decide nothing more", adj.K, recorded[i].Type)
			return nil
		case i >= len(recorded):
			a.problem(last.Seq, "adjudication %d: the rules now also decide %s, which the log lacks", adj.K, evs[i].EventType())
			return nil
		}
		if s, ok := evs[i].(*adjudicator.Secret); ok {
			if !pre.sameSecret(recorded[i], s) {
				a.problem(recorded[i].Seq, "adjudication %d diverges: the log has %s here, the rules now decide another sealed %s", adj.K, recorded[i].Type, eventName(s.Event))
				return nil
			}
			continue
		}
		b, _ := json.Marshal(evs[i])
		if evs[i].EventType() != recorded[i].Type || !bytes.Equal(b, recorded[i].Payload) {
			a.problem(recorded[i].Seq, "adjudication %d diverges: the log has %s %s, the rules now decide %s %s",
				adj.K, recorded[i].Type, recorded[i].Payload, evs[i].EventType(), b)
			return nil
		}
	}
	lines, rolls, _, _ := splitReport(r.Report(), r.Rolls())
	got, _ := json.Marshal(rolls)
	want, _ := json.Marshal(adj.Rolls)
	if !bytes.Equal(got, want) {
		a.problem(last.Seq, "adjudication %d: the rolls differ: log %s, now %s", adj.K, want, got)
		return nil
	}
	if gl, wl := adjudicator.Texts(lines), adjudicator.Texts(adj.Report); !slices.Equal(gl, wl) {
		a.problem(last.Seq, "adjudication %d: the report differs: log %q, now %q", adj.K, wl, gl)
		return nil
	}
	if h := sealedHash(r.State(), salts); h != adj.StateHash {
		a.problem(last.Seq, "adjudication %d: the state now hashes to %s, the log says %s", adj.K, h, adj.StateHash)
	}
	return nil
}

// sameSecret reports whether the recorded state.sealed entry e is the
// secret s the rules now decide (its opening is at hand: e was folded).
func (g *Game) sameSecret(e Entry, s *adjudicator.Secret) bool {
	if e.Type != adjudicator.TypeSecret || s.Event == nil {
		return false
	}
	t, ok := g.types[s.Event.EventType()]
	if !ok {
		return false
	}
	c, err := sealedOf(e.Payload)
	if err != nil {
		return false
	}
	b, err := g.openingOf(e.Seq, c, e.Private)
	if err != nil || b == nil {
		return false
	}
	same, err := secretMatches(e, b, s, t)
	return err == nil && same
}

func eventName(ev adjudicator.Event) string {
	if ev == nil {
		return "nothing"
	}
	return ev.EventType()
}
