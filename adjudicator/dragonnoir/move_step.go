package dragonnoir

import (
	"fmt"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// One step of a move: what entering a location costs and the
// restrictions of A.7.1, A.7.2 and A.8. The map's geometry answers most:
// a step joins two adjacent locations whose levels connect — floors at
// one level, a stairs, steep-bank or gentle-slope hex at a half level
// between two (DN-MAP-4, DN-MOVE-12), a footbridge only from the hex it
// rests on (a deck, DN-MAP-6, DN-MOVE-14) — with no wall between
// (DN-MOVE-9, geo.go Touch). The terrain table says what a character may
// enter (DN-MOVE-5, DN-MAP-9: closed-to) and from where (DN-MOVE-7:
// not-from).

// step says what entering l from cur costs c (facing face for a counter
// of several hexes, curFace before), and why it may not, "" when it may:
// l touches where c is, or c jumps down one level (DN-MOVE-13); c may
// enter it (DN-MOVE-5, -7, DN-BOAT-1, -2, -6); no standing enemy is there
// (DN-MOVE-4, DN-STACK-1); at the end of its path no other living
// character is there (DN-STACK-2). A counter of several hexes is checked
// by stepFootprint.
func (w *world) step(c *Char, k *Kind, cur hex.Loc, curFace string, l hex.Loc, face string, jump, last bool) (int, Prov, string) {
	st := w.st()
	if k.Shape != hex.Single.Name {
		return w.stepFootprint(c, k, cur, curFace, l, face, last)
	}
	t := st.Terrain(l)
	switch {
	case jump:
		if !k.Has(TagDaredevil) {
			return 0, t.Prov, "only a daredevil Adventurer jumps (DN-MOVE-13)"
		}
		if !st.board.Layout.Adjacent(cur.Hex, l.Hex) || cur.Level-l.Level != hex.Storey || st.walled(cur, l) {
			return 0, t.Prov, fmt.Sprintf("a jump goes down exactly one level to a hex next to it, with no wall between; %s is not (DN-MOVE-13)", locString(st.board, l))
		}
	case !st.Touch(cur, l):
		return 0, t.Prov, fmt.Sprintf("%s does not lead to %s: a different level, a wall, or not next to it (DN-MOVE-9, DN-MOVE-12)", locString(st.board, cur), locString(st.board, l))
	}
	var cost int
	var prov Prov
	from := w.boatOn(cur)
	if b := w.boatOn(l); b != nil {
		var why string
		if cost, prov, why = w.boardingCost(c, b, cur); why != "" {
			return 0, prov, why
		}
	} else {
		if from != nil && !t.Has(TerrWater) {
			if _, ok := st.Ashore(from); !ok {
				return 0, Prov{Rule: "DN-BOAT-6"}, fmt.Sprintf("%s is neither docked at a pontoon (both its hexes touching it) nor on a beach: nobody lands from it (DN-BOAT-6)", from.ID)
			}
		}
		var ok bool
		cost, prov, ok = st.MPCost(k, l)
		if n, p, on := st.waterStep(c, l); on { // magic chapter: walking on water
			cost, prov, ok = n, p, true
		}
		cost += st.crossing(cur, l) // magic chapter: a demolished wall
		if !ok {
			if why := st.riderBarred(k, l); why != "" { // move_rider.go
				return 0, prov, why
			}
			return 0, prov, fmt.Sprintf("a %s may not enter %s (%s, DN-MOVE-5)", k.Title, locString(st.board, l), t.Title)
		}
		if from == nil && !st.waterWalker(c) {
			if why := notFrom(k, st.Terrain(cur), t); why != "" {
				return 0, t.Prov, fmt.Sprintf("%s: %s", locString(st.board, l), why)
			}
			cost, prov = st.bridgeCost(k, st.Terrain(cur), t, cost, prov) // chapter: the valley's peoples (DN3-PEOPLE-GOB-2)
		}
	}
	if why := w.leashed(c, cur, l); why != "" { // chapter: the valley's peoples (DN3-PEOPLE-GOB-5)
		return 0, Prov{Rule: "DN3-PEOPLE-GOB-5"}, why
	}
	for _, o := range st.At(l) {
		if o == c || !o.Alive() {
			continue
		}
		if o.Standing() && Enemy(o.Side, c.Side) {
			return 0, prov, fmt.Sprintf("%s stands on %s (DN-MOVE-4)", o.ID, locString(st.board, l))
		}
		if last {
			return 0, prov, fmt.Sprintf("%s is on %s: one living character a hex at the end of a move (DN-STACK-2)", o.ID, locString(st.board, l))
		}
	}
	return cost, prov, ""
}

// notFrom says why a character of kind k may not enter terrain to from
// terrain from (DN-MOVE-7: a wooden bridge is not entered from water; by
// DN-SPEC-8 Goblins alone pass from water to a wooden bridge or pontoon
// and back), "" when it may.
func notFrom(k *Kind, from, to *Terrain) string {
	for _, tag := range to.NotFrom {
		if !from.Has(tag) {
			continue
		}
		if slices.ContainsFunc(to.NotFromExcept, k.Has) {
			return ""
		}
		return fmt.Sprintf("%s cannot be entered from %s (DN-MOVE-7, DN-SPEC-8)", to.Title, from.Title)
	}
	return ""
}

// dearest is the dearest of the hexes hs for a character of kind k, with
// its provenance: a step of an Ent pays it for all three
// (DN3-PEOPLE-ENT-2: "celui des trois qui a le mouvement le plus coûteux
// compte pour tous"), turning in place too, a fraction of its movement.
func (s *State) dearest(k *Kind, hs []hex.Hex) (int, Prov) {
	cost, prov := 0, Prov{Rule: "DN3-PEOPLE-ENT-2"}
	for _, h := range hs {
		if n, p, _ := s.MPCost(k, s.board.FloorLoc(h)); n > cost {
			cost, prov = n, p
		}
	}
	return cost, prov
}

// walled reports whether a hexside feature that stops movement stands
// between a and b at either's level.
func (s *State) walled(a, b hex.Loc) bool {
	side, ok := s.board.SideBetween(a.Hex, b.Hex)
	if !ok {
		return false
	}
	for _, lv := range []hex.Level{a.Level, b.Level} {
		for _, f := range s.board.FeaturesAt(side, lv) {
			if ft := s.data.Features[f.Kind]; ft != nil && ft.BlocksMove {
				return true
			}
		}
	}
	return false
}

// stepFootprint is step for the Queen and her Guards (DN-MOVE-15 … 17):
// the counter lies on the grid, its anchor moving one hex at a time or
// turning where it stands; it turns freely, at no cost (DN-MOVE-17); a
// step costs the dearest hex it newly covers. Every hex it covers must be
// open to it and joined to the next inside it with no wall or change of
// level between — so it passes no place narrower than itself: 3 hexes for
// the Queen, 2 for a Guard (DN-MOVE-16) — and every hex it newly covers
// must touch one it covered.
func (w *world) stepFootprint(c *Char, k *Kind, cur hex.Loc, curFace string, l hex.Loc, face string, last bool) (int, Prov, string) {
	st := w.st()
	mp := st.board
	t := st.Terrain(l)
	if l != mp.FloorLoc(l.Hex) {
		return 0, t.Prov, fmt.Sprintf("a %s stands on the floor, not on %s", k.Title, locString(mp, l))
	}
	if l.Hex != cur.Hex && !mp.Layout.Adjacent(cur.Hex, l.Hex) {
		return 0, t.Prov, fmt.Sprintf("a %s moves one hex at a time: %s is not next to %s (DN-MOVE-15)", k.Title, l.Hex, cur.Hex)
	}
	old, err := footprintOf(mp, k, cur.Hex, curFace)
	if err != nil {
		return 0, t.Prov, err.Error()
	}
	fp, err := footprintOf(mp, k, l.Hex, face)
	if err != nil {
		return 0, t.Prov, fmt.Sprintf("facing %q: %v (DN-MOVE-15)", face, err)
	}
	narrow := func(h hex.Hex, why string) (int, Prov, string) {
		return 0, t.Prov, fmt.Sprintf("facing %s on %s it would cover %s, %s: it passes no place narrower than itself (DN-MOVE-15, DN-MOVE-16)",
			mp.Layout.DirName(fp.Facing), l.Hex, h, why)
	}
	hs := fp.Hexes()
	for _, h := range hs {
		if !mp.OnMap(h) {
			return narrow(h, "off the map")
		}
		if hl := mp.FloorLoc(h); !st.CanEnter(k, hl) {
			if why := st.riderBarred(k, hl); why != "" { // move_rider.go
				return 0, t.Prov, fmt.Sprintf("facing %s on %s it would cover %s: %s", mp.Layout.DirName(fp.Facing), l.Hex, h, why)
			}
			return narrow(h, "where it cannot stand ("+st.Terrain(hl).Title+")")
		}
		if w.boatOn(mp.FloorLoc(h)) != nil {
			return narrow(h, "where a boat lies (DN-BOAT-1)")
		}
	}
	for i, a := range hs {
		for _, b := range hs[i+1:] {
			if mp.Layout.Adjacent(a, b) && !st.Touch(mp.FloorLoc(a), mp.FloorLoc(b)) {
				return narrow(b, fmt.Sprintf("with a wall or a change of level between it and %s", a))
			}
		}
	}
	cost, prov := 0, Prov{Rule: "DN-MOVE-17"}
	for _, h := range hs {
		if old.Covers(h) {
			continue
		}
		hl := mp.FloorLoc(h)
		joined := false
		for _, o := range old.Hexes() {
			joined = joined || st.Touch(mp.FloorLoc(o), hl)
		}
		if !joined {
			return narrow(h, "which it cannot reach from where it lies")
		}
		for _, o := range st.At(hl) {
			if o != c && o.Standing() && Enemy(o.Side, c.Side) {
				return 0, t.Prov, fmt.Sprintf("%s stands on %s (DN-MOVE-4)", o.ID, locString(mp, hl))
			}
		}
		if l.Hex == cur.Hex {
			continue // turning where it stands is free (DN-MOVE-17)
		}
		n, p, _ := st.MPCost(k, hl)
		extra := -1 // magic chapter: a demolished wall crossed, by the cheapest side it enters
		for _, o := range old.Hexes() {
			if ol := mp.FloorLoc(o); st.Touch(ol, hl) && (extra < 0 || st.crossing(ol, hl) < extra) {
				extra = st.crossing(ol, hl)
			}
		}
		if n += max(extra, 0); n > cost {
			cost, prov = n, p
		}
	}
	switch k.StepCost { // DN3: an Ent's three hexes, the dragon's centre (giantCost)
	case "all":
		if n, p := st.dearest(k, hs); n > cost || l.Hex == cur.Hex {
			cost, prov = max(cost, n), p
		}
	case "centre":
		cost, prov = 0, Prov{Rule: "DN3-PEOPLE-DRAGON-2"}
		if l.Hex != cur.Hex {
			n, _, _ := st.MPCost(k, l)
			cost, prov = n+st.crossing(cur, l), t.Prov
		}
	}
	if last {
		for _, h := range hs {
			for _, o := range st.At(mp.FloorLoc(h)) {
				if o != c && o.Alive() {
					return 0, prov, fmt.Sprintf("%s is on %s: one living character a hex at the end of a move (DN-STACK-2)", o.ID, h)
				}
			}
		}
	}
	return cost, prov, ""
}
