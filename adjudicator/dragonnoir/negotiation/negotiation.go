// Package negotiation is the Negotiation markers of Dragon Noir 3 — La
// Conquête (DN3-CAMP-NEG-10, -11): the five kinds, the cup they are drawn
// from (GAP-21, AMB-92), what one marker does when one side is present
// (Step 4, AMB-87), how two secret markers combine (Step 5, AMB-57) and
// which is discarded when a side flees or is wiped out (AMB-58). Pure
// functions: the campaign and the tactical ruleset keep the state.
package negotiation

import (
	"fmt"
	"slices"
)

// Marker is one kind of Negotiation marker.
type Marker string

// The five kinds (DN3-CAMP-NEG-10).
const (
	Alliance        Marker = "alliance"        // "Alliance!"
	AllianceNeutral Marker = "alliance-neutre" // "Alliance / Neutre"
	Neutral         Marker = "neutre"          // "Neutre"
	EnemyNeutral    Marker = "ennemi-neutre"   // "Ennemi / Neutre"
	Enemy           Marker = "ennemi"          // "Ennemi"
)

// Kinds are the five kinds, in the order of the text.
var Kinds = []Marker{Alliance, AllianceNeutral, Neutral, EnemyNeutral, Enemy}

// Valid reports whether m is one of the five kinds.
func Valid(m Marker) bool { return slices.Contains(Kinds, m) }

// Outcome is what a marker does, seen from the side that drew it.
type Outcome string

// Outcomes.
const (
	JoinsDrawer  Outcome = "drawer"  // the people allies with the drawer
	JoinsOther   Outcome = "other"   // the people allies with the other side
	StaysNeutral Outcome = "neutral" // the people watches this turn
)

// Resolve is one marker's outcome as in Step 4 (DN3-CAMP-NEG-10):
// influence is whether a character influential for the people is with
// the drawer, alive; otherAlliance whether the other side drew
// "Alliance!" (Step 5), which makes "Alliance / Neutre" Neutral whatever
// the influence (AMB-87).
func Resolve(m Marker, influence, otherAlliance bool) Outcome {
	switch m {
	case Alliance:
		return JoinsDrawer
	case AllianceNeutral:
		if !otherAlliance && influence {
			return JoinsDrawer
		}
		return StaysNeutral
	case EnemyNeutral:
		if influence {
			return StaysNeutral
		}
		return JoinsOther
	case Enemy:
		return JoinsOther
	}
	return StaysNeutral
}

// Side is one of the two sides of a Step 5, A or B; None for neither.
type Side int

// The sides of Combine.
const (
	None Side = iota
	A
	B
)

// Combine is Step 5's outcome (AMB-57): each marker resolved from its
// drawer's point of view with its own influence ("Alliance / Neutre" is
// Neutral if the other drew "Alliance!"); the people joins the side both
// outcomes name, or the one a single outcome names; None if they name
// different sides or both are Neutral.
func Combine(a, b Marker, influenceA, influenceB bool) Side {
	oa := toSide(Resolve(a, influenceA, b == Alliance), A)
	ob := toSide(Resolve(b, influenceB, a == Alliance), B)
	switch {
	case oa == ob:
		return oa
	case oa == None:
		return ob
	case ob == None:
		return oa
	}
	return None
}

func toSide(o Outcome, drawer Side) Side {
	switch o {
	case JoinsDrawer:
		return drawer
	case JoinsOther:
		return A + B - drawer
	}
	return None
}

// AfterFlight is Step 5 when a side fled or was wiped out (left the map)
// before the end of the Battle's turn 5 (DN3-CAMP-NEG-11, AMB-58): that
// side's marker is discarded and the other's applied as in Step 4 (no
// "Alliance!" of the other to weigh); both gone, both discarded: None.
func AfterFlight(a, b Marker, influenceA, influenceB, aGone, bGone bool) Side {
	switch {
	case aGone && bGone:
		return None
	case bGone:
		return toSide(Resolve(a, influenceA, false), A)
	case aGone:
		return toSide(Resolve(b, influenceB, false), B)
	}
	return Combine(a, b, influenceA, influenceB)
}

// Pool is the cup of markers (GAP-21): drawn without replacement within
// one Region's resolution, all put back when it ends. Its content is never
// shown to the players (HID-17).
type Pool struct {
	Left []Marker
}

// NewPool fills a cup with count markers of each kind, in the order of
// Kinds.
func NewPool(count map[Marker]int) *Pool {
	p := &Pool{}
	for _, k := range Kinds {
		for range count[k] {
			p.Left = append(p.Left, k)
		}
	}
	return p
}

// Len is the number of markers left.
func (p *Pool) Len() int { return len(p.Left) }

// Draw takes the n-th marker left (1 … Len), as a die of Len faces says.
func (p *Pool) Draw(n int) (Marker, error) {
	if n < 1 || n > len(p.Left) {
		return "", fmt.Errorf("negotiation: draw %d from a cup of %d", n, len(p.Left))
	}
	m := p.Left[n-1]
	p.Left = slices.Delete(p.Left, n-1, n)
	return m, nil
}

// Without is the cup with markers already drawn taken out (the draws of
// the Region being resolved).
func (p *Pool) Without(drawn ...Marker) *Pool {
	q := &Pool{Left: slices.Clone(p.Left)}
	for _, m := range drawn {
		if i := slices.Index(q.Left, m); i >= 0 {
			q.Left = slices.Delete(q.Left, i, i+1)
		}
	}
	return q
}
