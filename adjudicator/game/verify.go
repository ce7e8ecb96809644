package game

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
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
	Redecided      int      // adjudications decided again (Replay only)
	VersionChanges []string // adjudications made by another ruleset version
	Problems       []string // empty when all is well
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
	last := map[int][]byte{} // chain → last seed seen (starts at the commitment)
	scripted := 0
	for _, e := range entries[1:] {
		switch e.Type {
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
			if err := json.Unmarshal(e.Payload, &adj); err != nil {
				a.problem(e.Seq, "bad turn.adjudicated: %v", err)
				continue
			}
			a.Adjudications++
			if adj.K != a.Adjudications {
				a.problem(e.Seq, "adjudication %d where %d was expected", adj.K, a.Adjudications)
			}
			var roller func(label string, n, faces int) int
			switch c.Dice.Mode {
			case DiceChain:
				seed, ok := a.checkSeed(e.Seq, adj, chains, last)
				if !ok {
					continue
				}
				roller = func(label string, n, faces int) int { return dice.Face(seed, c.Game, adj.K, label, n, faces) }
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
	return a
}

func (a *Audit) checkSeed(seq uint64, adj Adjudicated, chains []ChainExtended, last map[int][]byte) ([]byte, bool) {
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
	prev := last[adj.Chain]
	if prev == nil {
		prev, err = hex.DecodeString(ch.Commitment)
		if err != nil {
			a.problem(seq, "chain %d: bad commitment", adj.Chain)
			return nil, false
		}
	}
	if !dice.Follows(seed, prev) {
		a.problem(seq, "adjudication %d: revealed seed %s does not hash to the previous seed of chain %d: the dice were not the committed ones", adj.K, adj.Seed, adj.Chain)
		return nil, false
	}
	last[adj.Chain] = seed
	a.Seeds++
	return seed, true
}

func (a *Audit) checkRolls(seq uint64, adj Adjudicated, face func(label string, n, faces int) int) {
	n := 0
	for _, r := range adj.Rolls {
		a.Rolls++
		count, faces, err := ParseDice(r.Dice)
		if err != nil || count != len(r.Faces) {
			a.problem(seq, "adjudication %d: roll %q has a bad dice spec %q", adj.K, r.Label, r.Dice)
			continue
		}
		if r.N != n {
			a.problem(seq, "adjudication %d: roll %q starts at die %d, expected %d", adj.K, r.Label, r.N, n)
		}
		total := 0
		for i, got := range r.Faces {
			a.Dice++
			if want := face(r.Label, r.N+i, faces); want != got {
				a.problem(seq, "adjudication %d: %q die %d shows %d, but the seed gives %d", adj.K, r.Label, i+1, got, want)
			}
			total += got
		}
		if total != r.Total {
			a.problem(seq, "adjudication %d: %q totals %d, not %d", adj.K, r.Label, total, r.Total)
		}
		n = r.N + len(r.Faces)
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
func Replay(entries []Entry, lookup Lookup) *Audit {
	a := &Audit{Events: len(entries)}
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
	script := &dice.Script{Faces: g.Created.Dice.Faces}
	var pre *Game
	var group []Entry
	for _, e := range entries[1:] {
		switch {
		case e.Type == TypeAdjudicated:
			if pre == nil {
				pre = g.Clone()
			}
			a.redecide(pre, append(group, e), script)
			pre, group = nil, nil
		case e.Type != TypeOrders && e.Type != TypeChainExtended && e.Type != TypeCreated && e.Type != TypeQueueDropped:
			if pre == nil {
				pre = g.Clone()
			}
			group = append(group, e)
		}
		if err := g.Apply(e); err != nil {
			a.Problems = append(a.Problems, err.Error())
			return a
		}
	}
	a.Adjudications = g.K
	a.Chains = len(g.Chains)
	return a
}

// redecide decides again the adjudication whose recorded entries are group
// (ruleset events, then turn.adjudicated), starting from pre.
func (a *Audit) redecide(pre *Game, group []Entry, script *dice.Script) {
	last := group[len(group)-1]
	var adj Adjudicated
	if err := json.Unmarshal(last.Payload, &adj); err != nil {
		a.problem(last.Seq, "bad turn.adjudicated: %v", err)
		return
	}
	if v := pre.Rules.Info().Version; adj.RulesetVersion != v {
		a.VersionChanges = append(a.VersionChanges, fmt.Sprintf("adjudication %d was made by %s %s; this is %s", adj.K, pre.Created.Ruleset, adj.RulesetVersion, v))
	}
	var roller adjudicator.Roller = script
	if pre.Created.Dice.Mode == DiceChain {
		seed, err := dice.ParseSeed(adj.Seed)
		if err != nil {
			a.problem(last.Seq, "adjudication %d: %v", adj.K, err)
			return
		}
		roller = dice.NewStream(seed, pre.ID, adj.K)
	}
	r, err := pre.decide(roller)
	if err != nil {
		a.problem(last.Seq, "adjudication %d no longer decides: %v", adj.K, err)
		return
	}
	a.Redecided++
	evs := r.Events()
	recorded := group[:len(group)-1]
	for i := 0; i < max(len(evs), len(recorded)); i++ {
		switch {
		case i >= len(evs):
			a.problem(recorded[i].Seq, "adjudication %d: the log has %s here, the rules now decide nothing more", adj.K, recorded[i].Type)
			return
		case i >= len(recorded):
			a.problem(last.Seq, "adjudication %d: the rules now also decide %s, which the log lacks", adj.K, evs[i].EventType())
			return
		}
		b, _ := json.Marshal(evs[i])
		if evs[i].EventType() != recorded[i].Type || !bytes.Equal(b, recorded[i].Payload) {
			a.problem(recorded[i].Seq, "adjudication %d diverges: the log has %s %s, the rules now decide %s %s",
				adj.K, recorded[i].Type, recorded[i].Payload, evs[i].EventType(), b)
			return
		}
	}
	got, _ := json.Marshal(r.Rolls())
	want, _ := json.Marshal(adj.Rolls)
	if !bytes.Equal(got, want) {
		a.problem(last.Seq, "adjudication %d: the rolls differ: log %s, now %s", adj.K, want, got)
		return
	}
	if h := StateHash(r.State()); h != adj.StateHash {
		a.problem(last.Seq, "adjudication %d: the state now hashes to %s, the log says %s", adj.K, h, adj.StateHash)
	}
}
