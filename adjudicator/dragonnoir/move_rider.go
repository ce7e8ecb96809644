package dragonnoir

import (
	"fmt"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// Riders (cavaliers). DN3 moves several of its creatures "as a rider":
// the Ents (DN3-PEOPLE-ENT-1), the unicorns, the mounted peoples. The
// rider's costs and prohibitions are Magna Carta's (GAP-16), which no
// source holds: the module's terrain table gives them, assumed, with the
// ordinary by-tag columns:
//
//	a kind that moves as a rider     carries the counter tag rider
//	what a terrain costs a rider     mp-by: {rider: N} on its row (else its mp)
//	where a rider may not go         closed-to: [rider] on its row
//	where a kind is no rider         rider-enters: [KIND, …] on the kind: it
//	                                 enters those terrain kinds at the cost
//	                                 on foot (an Ent among trees)
//
// Every rule that asks what a character may enter or what it pays goes
// through State.CanEnter and State.MPCost (geo.go, tables.go), which ask
// closedTo and byTagMP here: a rider needs no code of its own elsewhere.

// riderFree reports whether a rider of kind k is no rider on terrain t:
// its kind lists t among the terrain it enters on foot (rider-enters).
func riderFree(k *Kind, t *Terrain) bool {
	return k.Has(TagRider) && slices.Contains(k.RiderEnters, t.Kind)
}

// closedTo reports whether t is closed to a character of kind k: one of
// its closed-to tags is k's, a rider's only where k is a rider.
func closedTo(k *Kind, t *Terrain) bool {
	for _, tag := range t.ClosedTo {
		if k.Has(tag) && !(tag == TagRider && riderFree(k, t)) {
			return true
		}
	}
	return false
}

// byTagMP is the MP entering t costs a character of kind k: the row's
// cost for the first of k's tags it names (a rider's only where k is a
// rider), else its own.
func byTagMP(k *Kind, t *Terrain) int {
	for _, tag := range k.Tags {
		if tag == TagRider && riderFree(k, t) {
			continue
		}
		if v, ok := t.MPBy[tag]; ok {
			return v
		}
	}
	return t.MP
}

// riderBarred says why a rider of kind k may not enter l, when it is as a
// rider that it may not (the terrain is closed to riders); "" otherwise.
func (s *State) riderBarred(k *Kind, l hex.Loc) string {
	t := s.Terrain(l)
	if t == nil || !k.Has(TagRider) || riderFree(k, t) || !slices.Contains(t.ClosedTo, TagRider) {
		return ""
	}
	return fmt.Sprintf("%s moves as a rider, and riders may not enter %s (%s; GAP-16, DN3-PEOPLE-ENT-1)", aKind(k), locString(s.board, l), t.Title)
}
