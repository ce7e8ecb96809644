package glory

import (
	"fmt"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Teams (DG-SETUP-2). With the game option team.orders=split, each player
// of a side commands some nations: a part is a nation of the module, named
// by its id ("valen"), and "own" is the side's counters of no nation (its
// wizards, its draconians, the dragons an event brings). Every nation of
// the module is a part of both sides, since a neutral nation may join
// either; the referee gives each player his nations when creating the game
// (--player whitestone=ann@example.org:valen,dunmere), and the captain
// holds the rest. Only a mover's orders (fleets, moves, attacks, naval
// battles, dismantled capitals) are split; steps 1 to 4 and the answers to
// questions are the captain's, and conceding is for the holder of own.

// OwnPart is the part of a side's counters that belong to no nation.
const OwnPart = "own"

var _ adjudicator.Splitter = ruleset{}

// Parts lists every nation of the module, then own.
func (ruleset) Parts(s adjudicator.State, side adjudicator.Side) []string {
	st := s.(*State)
	return append(st.data.NationIDs(), OwnPart)
}

// partOf is the part that commands counter id.
func (s *State) partOf(id string) string {
	if k := s.Kind(id); k != nil && k.Nation != "" {
		return k.Nation
	}
	return OwnPart
}

// Needs: at a mover's step, every part with a counter of the mover's on the
// map (or aboard, or in the Maelstrom); nothing is split otherwise.
func (ruleset) Needs(s adjudicator.State, req adjudicator.Request) []string {
	st := s.(*State)
	if req.Kind != "orders" || req.Phase != StepMove {
		return nil
	}
	var out []string
	for _, u := range st.Sorted() {
		if u.Side != req.Side || (u.Where != OnMap && u.Where != Aboard && u.Where != InMael) {
			continue
		}
		if p := st.partOf(u.ID); !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// Commands lists the parts a mover's orders give orders to: the counters'
// nations, and for a dismantled capital its nation.
func (ruleset) Commands(s adjudicator.State, req adjudicator.Request, o adjudicator.Orders) []string {
	st := s.(*State)
	mo, ok := o.(*MoveOrders)
	if !ok {
		return nil
	}
	var out []string
	add := func(p string) {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	for _, id := range mo.units() {
		add(st.partOf(id))
	}
	for _, n := range mo.Dismantle {
		add(n)
	}
	if mo.Concede {
		add(OwnPart) // conceding is for the holder of the side's own counters, the captain by default
	}
	slices.Sort(out)
	return out
}

// units lists every counter the orders command.
func (o *MoveOrders) units() []string {
	var ids []string
	for _, f := range o.Fleets {
		ids = append(ids, f.Unit)
	}
	for _, m := range o.Moves {
		ids = append(ids, m.Unit)
	}
	for _, a := range o.Attacks {
		ids = append(ids, a.Units...)
	}
	for _, n := range o.Naval {
		ids = append(ids, n.Fleets...)
	}
	return ids
}

// Merge puts the parts' orders together in the order the answers came,
// each answer giving only the orders of its own parts: fleet moves first,
// then army moves, attacks and naval battles, as the rules resolve them.
// An attack or battle is taken from the answer whose parts command all its
// counters. Standing orders are the captain's alone (a part's answer does
// not change them).
func (ruleset) Merge(s adjudicator.State, req adjudicator.Request, answers []adjudicator.PartAnswer) (adjudicator.Orders, error) {
	st := s.(*State)
	if req.Phase != StepMove {
		return nil, fmt.Errorf("glory: request %s is not split", req.ID)
	}
	out := &MoveOrders{}
	for _, a := range answers {
		mo, ok := a.Orders.(*MoveOrders)
		if !ok {
			return nil, fmt.Errorf("glory: the answer for %v is %T, not a mover's orders", a.Parts, a.Orders)
		}
		mine := func(ids ...string) bool {
			for _, id := range ids {
				if !slices.Contains(a.Parts, st.partOf(id)) {
					return false
				}
			}
			return true
		}
		for _, f := range mo.Fleets {
			if mine(f.Unit) {
				out.Fleets = append(out.Fleets, f)
			}
		}
		for _, m := range mo.Moves {
			if mine(m.Unit) {
				out.Moves = append(out.Moves, m)
			}
		}
		for _, at := range mo.Attacks {
			if mine(at.Units...) {
				out.Attacks = append(out.Attacks, at)
			}
		}
		for _, n := range mo.Naval {
			if mine(n.Fleets...) {
				out.Naval = append(out.Naval, n)
			}
		}
		for _, n := range mo.Dismantle {
			if slices.Contains(a.Parts, n) {
				out.Dismantle = append(out.Dismantle, n)
			}
		}
		out.Concede = out.Concede || mo.Concede && slices.Contains(a.Parts, OwnPart)
	}
	return out, nil
}
