package glory

import (
	"fmt"
	"sort"
)

// What a sinking fleet takes with it (DG-SEA-8, DG-NAVAL-10, -11,
// DG-NAVAL-LDR-3, DG-NAVAL-WIZ-2, DG-MAEL-8): the fleet is out of the game,
// the land army aboard goes to its side's pool (eliminate does that), each
// leader aboard rolls for its life, and each wizard reappears with the
// nearest friendly army or fleet.
func (w *world) sink(id, why string) {
	st := w.st()
	for _, c := range st.cargo(id) {
		switch st.Kind(c.ID).Type {
		case Leader:
			w.leaderLoss(c.ID, "its fleet "+id+" sank")
		case Wizard:
			w.fleetWizardLost(c.ID, id)
		}
	}
	w.eliminate(id, why)
}

// origins are the hexes a counter's distances are counted from: its hex,
// its fleet's position, or the Maelstrom's hexes.
func (s *State) origins(u *Unit) []string {
	switch u.Where {
	case OnMap:
		return banks(u.Hex)
	case Aboard:
		return s.origins(s.Units[u.Carrier])
	case InMael:
		var out []string
		for _, h := range s.Geo().Hexes() {
			if s.Geo().Maelstrom(h) {
				out = append(out, h)
			}
		}
		return out
	}
	return nil
}

// nearestFriend is the friendly counter nearest to u that ok accepts: its
// ID, with ties going to the lowest position and then the lowest ID.
func (s *State) nearestFriend(u *Unit, ok func(*Unit) bool) *Unit {
	from := s.origins(u)
	type cand struct {
		u *Unit
		d int
	}
	var cs []cand
	for _, f := range s.Sorted() {
		if f.ID == u.ID || f.Side != u.Side || f.Where != OnMap || !ok(f) {
			continue
		}
		best := -1
		for _, o := range from {
			if d := s.Geo().posDistance(o, f.Hex); d >= 0 && (best < 0 || d < best) {
				best = d
			}
		}
		if best >= 0 {
			cs = append(cs, cand{f, best})
		}
	}
	if len(cs) == 0 {
		return nil
	}
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].d != cs[j].d {
			return cs[i].d < cs[j].d
		}
		return cs[i].u.Hex < cs[j].u.Hex
	})
	return cs[0].u
}

// leaderLoss rolls for a leader whose stack or fleet is lost (DG-LOSS-1,
// DG-NAVAL-LDR-3, DG-AMB-56): 1d6, on 1-3 the leader is out of the game,
// on 4-6 it is placed with the nearest friendly army (the lowest hex among
// equally near ones), or out of the game when its side has no army on the
// map.
//
// The land-combat chapter writes this rule too (glory-combat); whichever
// version reaches main first stays, and the other is removed at merge.
func (w *world) leaderLoss(id, reason string) {
	st := w.st()
	u := st.Units[id]
	r := w.roll(fmt.Sprintf("leader loss: %s (%s)", id, reason), 1, 6)
	if r.Total <= 3 {
		r.Outcome = "1-3: the leader is removed from the game"
		w.emit(&Put{Units: []string{id}, Where: Out, Why: "leader lost"})
		w.say("%s is lost: %s (DG-NAVAL-LDR-3).", id, reason)
		return
	}
	to := st.nearestFriend(u, func(f *Unit) bool { return st.Kind(f.ID).IsArmy() })
	if to == nil {
		r.Outcome = "4-6: the leader survives, but no friendly army is on the map: removed (DG-AMB-56)"
		w.emit(&Put{Units: []string{id}, Where: Out, Why: "leader lost"})
		w.say("%s survives (%s) but finds no friendly army and leaves the game.", id, reason)
		return
	}
	r.Outcome = fmt.Sprintf("4-6: the leader joins %s at %s", to.ID, to.Hex)
	w.emit(&Put{Units: []string{id}, Where: OnMap, Hex: to.Hex, Why: "leader survived"})
	w.say("%s survives (%s) and joins %s at %s.", id, reason, to.ID, to.Hex)
	w.entered(id, to.Hex, false)
}

// fleetWizardLost moves a wizard whose fleet sank to the nearest friendly
// army or fleet (DG-NAVAL-WIZ-2, DG-MAEL-8): aboard it, for a fleet. With
// none on the map, the wizard leaves the game.
func (w *world) fleetWizardLost(id, fleet string) {
	st := w.st()
	u := st.Units[id]
	to := st.nearestFriend(u, func(f *Unit) bool {
		k := st.Kind(f.ID)
		return f.ID != fleet && (k.IsArmy() || k.Type == Fleet)
	})
	switch {
	case to == nil:
		w.emit(&Put{Units: []string{id}, Where: Out, Why: "wizard lost"})
		w.say("%s's fleet %s sank and no friendly army or fleet is on the map: %s leaves the game.", id, fleet, id)
	case st.Kind(to.ID).Type == Fleet:
		w.emit(&Put{Units: []string{id}, Where: Aboard, Carrier: to.ID, Why: "wizard relocated"})
		w.say("%s's fleet %s sank: %s reappears aboard %s (DG-NAVAL-WIZ-2).", id, fleet, id, to.ID)
	default:
		w.emit(&Put{Units: []string{id}, Where: OnMap, Hex: to.Hex, Why: "wizard relocated"})
		w.say("%s's fleet %s sank: %s reappears with %s at %s (DG-NAVAL-WIZ-2).", id, fleet, id, to.ID, to.Hex)
		w.entered(id, to.Hex, false)
	}
}
