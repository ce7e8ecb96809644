package glory

import (
	"fmt"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Rules every chapter shares: stacking, adjacency, what happens to a
// counter that is reduced or eliminated, and what entering a hex sets off.

// Geo is the module's map as the rules read it.
func (s *State) Geo() *Geo { return s.data.Geo }

// Kender reports whether the counter is a kender army (DG-STACK-3).
func (k *CounterKind) Kender() bool { return k.IsLand() && k.Race == "kender" }

// Flyer reports whether the army flies (DG-AIR-1, DG-COMP-11).
func (k *CounterKind) Flyer() bool { return k.Type == Air }

// Permanent reports whether the counter is never replaced: dragons,
// griffons, pegasi (every air army) and fleets go out of play instead of
// to the pool (DG-REPL-11, DG-CRT-14); so do leaders and wizards.
func (k *CounterKind) Permanent() bool {
	return k.Type == Air || k.Type == Fleet || k.Type == Leader || k.Type == Wizard
}

// StackProblem says why side may not have the counters adding in hex h on
// top of what is there, or "" when it may (DG-STACK): two land armies (three
// in a fortified city), two air armies, any number of leaders and fleets,
// wizards not counted; kender only with kender, leaders, wizards and fleets
// (DG-AMB-36); never with enemy armies (DG-STACK-7). Counters of adding
// already in h are not counted twice.
func (s *State) StackProblem(h string, side adjudicator.Side, adding []string) string {
	if s.EnemyArmiesAt(h, side) {
		return fmt.Sprintf("%s holds enemy armies (DG-STACK-7)", h)
	}
	ids := map[string]bool{}
	for _, u := range s.At(h) {
		if u.Side == side {
			ids[u.ID] = true
		}
	}
	for _, id := range adding {
		ids[id] = true
	}
	land, air, kender, other := 0, 0, 0, 0
	for id := range ids {
		k := s.Kind(id)
		switch {
		case k.IsLand():
			land++
			if k.Kender() {
				kender++
			} else {
				other++
			}
		case k.Type == Air:
			air++
			other++
		}
	}
	limit := 2
	if s.Geo().Fort(h) == "fortified-city" && !s.capitalDismantled(h) {
		limit = 3
	}
	switch {
	case land > limit:
		return fmt.Sprintf("%d land armies in %s, over its limit of %d (DG-STACK-1, -2)", land, h, limit)
	case air > 2:
		return fmt.Sprintf("%d air armies in %s, over the limit of 2 (DG-STACK-4)", air, h)
	case kender > 0 && other > 0:
		return fmt.Sprintf("kender armies may not stack with other armies in %s (DG-STACK-3)", h)
	}
	return ""
}

// capitalDismantled reports whether h is a semi-human capital that has been
// dismantled and is now clear terrain (DG-CAP-4): while the capital waits
// to be set up again, and after, when it was set up elsewhere.
func (s *State) capitalDismantled(h string) bool {
	n := s.Geo().PrintedCapital(h)
	return n != "" && (s.Nations[n].Back > 0 || s.Nations[n].Capital != "" && s.Nations[n].Capital != h)
}

// Touching reports whether armies in a and b count as adjacent for
// movement and retreats (DG-ADJ-2): neighbours not separated by a mountain
// hexside (a pass crosses it) or a deep river (a bridge or ford crosses it).
func (s *State) Touching(a, b string) bool {
	g := s.Geo()
	if !g.Adjacent(a, b) {
		return false
	}
	switch g.Side(a, b).Kind {
	case "mountain", "deep-river":
		return false
	}
	return true
}

// EnemyNear reports whether an enemy army of side touches h (DG-ADJ-1); with
// landOnly, only enemy land armies count (DG-ADJ-4, DG-AMB-35).
func (s *State) EnemyNear(h string, side adjudicator.Side, landOnly bool) bool {
	return s.enemyTouching(h, side, landOnly) != ""
}

// enemyTouching names the first hex (in map order) touching h that holds
// an enemy army of side, counting only land armies with landOnly
// (DG-ADJ-1, -2, -4, -5), or "".
func (s *State) enemyTouching(h string, side adjudicator.Side, landOnly bool) string {
	for _, n := range s.Geo().Near(h) {
		if !s.Touching(h, n) {
			continue
		}
		for _, u := range s.Armies(n, Other(side)) {
			if !landOnly || s.Kind(u.ID).IsLand() {
				return n
			}
		}
	}
	return ""
}

// Controller is the side that holds fortification h: the last side whose
// army entered it, or its nation's ally (DG-CONQ-2, DG-AMB-62).
func (s *State) Controller(h string) adjudicator.Side {
	if c, ok := s.Held[h]; ok {
		return c
	}
	if n := s.Geo().Nation(h); n != "" {
		return s.Nations[n].Side
	}
	return ""
}

// reduce takes one reduction on a counter: a full army or fleet flips; a
// reduced one, or a counter with no reduced face, is eliminated (DG-CRT-2,
// DG-AMB-51).
func (w *world) reduce(id, why string) {
	st := w.st()
	u, k := st.Units[id], st.Kind(id)
	if u.Reduced || k.Half == nil {
		w.eliminate(id, why)
		return
	}
	w.emit(&Flipped{Unit: id, Reduced: true})
	if k.Type == Fleet {
		w.say("%s is damaged (%s).", id, why)
	} else {
		w.say("%s is reduced (%s).", id, why)
	}
}

// eliminate removes a counter from the map: to its side's pool, or out of
// play for the counters that are never replaced and for a conquered
// nation's (DG-REPL-2, -11, -13, DG-CRT-14, DG-CONQ-5). Anything a fleet
// carries shares its fate (DG-SEA-8): armies go to the pool, leaders and
// wizards are handled by the caller (their loss rolls) before this.
func (w *world) eliminate(id, why string) {
	st := w.st()
	k := st.Kind(id)
	where := InPool
	if k.Permanent() || (k.Nation != "" && st.Nations[k.Nation].Conquered != "") {
		where = Out
	}
	var cargo []string
	for _, u := range st.Sorted() {
		if u.Where == Aboard && u.Carrier == id {
			cargo = append(cargo, u.ID)
		}
	}
	w.emit(&Put{Units: []string{id}, Where: where, Why: why})
	if where == InPool {
		w.say("%s is eliminated (%s) and goes to the %s replacement pool.", id, why, st.Units[id].Side)
	} else {
		w.say("%s is eliminated (%s) and is out of the game.", id, why)
	}
	for _, c := range cargo {
		w.eliminate(c, "aboard "+id)
	}
}

// entered is called each time a counter enters (or flies over, with over
// set) a hex by any means: movement, transport, retreat, advance, placement
// (DG-CONQ-2, DG-INV-10, DG-AMB-20). An army that stops in a fortification
// captures it; any force entering a neutral nation's land sets off its
// activation by invasion, which is resolved at once.
func (w *world) entered(id, h string, over bool) {
	st := w.st()
	u, k := st.Units[id], st.Kind(id)
	if !over && k.IsArmy() && st.Geo().Fort(h) != "" && !st.capitalDismantled(h) && st.Controller(h) != u.Side {
		w.capture(h, u.Side)
	}
	if k.Type != Fleet && st.Geo().Land(h) {
		if n := st.Geo().Nation(h); n != "" && st.Nations[n].Side == "" && st.Nations[n].Conquered == "" && st.data.Nations[n].Activation != nil {
			w.invade(n, u.Side, id, h)
		}
	}
}

// capture gives fortification h to side and checks the conquests it may
// complete.
func (w *world) capture(h string, side adjudicator.Side) {
	st := w.st()
	w.emit(&Captured{Hex: h, Side: side})
	w.say("%s captures %s.", side, h)
	if h == st.Temple && side == Whitestone && !st.TempleTaken {
		w.emit(&TempleChanged{Taken: true, Draconians: st.Draconians})
		w.say("The Dark Temple at %s is taken: no more draconians can be brought into play (DG-DRAC-8).", h)
	}
	w.checkConquest(h)
}
