package dragonnoir

import (
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// The Gharvs' disappearance, interphase step 3 (DN-GHARV-11, -12,
// AMB-34): every Gharv in contact with no character heads for the
// nearest water by the shortest path, on land up to its land MP (the
// value in parentheses, DN-CNT-8), and is taken off the map as soon as it
// is in the water — the step into the water is paid from its water
// potential (DN-GHARV-12), which it has not used. It passes no living
// character's location and rolls for no infiltration.

// gharvsLeave resolves the disappearance of every Gharv no longer in
// contact, in ID order.
func (w *world) gharvsLeave() {
	st := w.st()
	for _, g := range st.Living(Gharvs) {
		if w.inContact(g) {
			continue
		}
		if w.inWater(st.loc(g)) {
			w.emit(&Placed{Unit: g.ID, Side: Gharvs, Why: "back to the water"})
			w.say(nil, "%s, in contact with no one, sinks back into the water and is gone (DN-GHARV-11).", g.ID)
			continue
		}
		f, kp := st.Values(g)
		path, mp, used := w.pathToWater(g, f.MoveLand)
		used = append(used, kp)
		if path == nil {
			w.say(nil, "%s, in contact with no one, finds no way to the water and stays on %s (DN-GHARV-11).", g.ID, g.At)
			continue
		}
		if len(path) > 1 {
			w.emit(&Moved{Unit: g.ID, Path: path, Kind: "move"})
		}
		if w.inWater(st.loc(g)) {
			w.emit(&Placed{Unit: g.ID, Side: Gharvs, Why: "back to the water"})
			w.say(used, "%s, in contact with no one, crawls %s (%d of its %d land MP) into the water and is gone (DN-GHARV-11, -12).", g.ID, strings.Join(path, " → "), mp, f.MoveLand)
			continue
		}
		w.say(used, "%s, in contact with no one, crawls toward the water: %s (%d of its %d land MP, AMB-34).", g.ID, strings.Join(path, " → "), mp, f.MoveLand)
	}
}

// inWater reports whether l is a water floor.
func (w *world) inWater(l hex.Loc) bool {
	st := w.st()
	return l == st.board.FloorLoc(l.Hex) && st.Terrain(l).Has(TerrWater)
}

// pathToWater is g's way toward the nearest water location it may enter
// and that no living character holds (the fewest steps, breadth first in
// the map's exit order), cut where its land MP run out (AMB-29: a land
// location is entered only with MP left at least its cost); the last step
// into the water is always made. It returns the path (g's location
// first), the land MP spent and the provenance of their costs, or nil when no water can be reached.
func (w *world) pathToWater(g *Char, landMP int) ([]string, int, Provs) {
	st := w.st()
	k := st.Kind(g)
	start := st.loc(g)
	prev := map[hex.Loc]hex.Loc{start: start}
	queue := []hex.Loc{start}
	var goal *hex.Loc
	for len(queue) > 0 && goal == nil {
		cur := queue[0]
		queue = queue[1:]
		for _, n := range st.board.Exits(cur) {
			if _, seen := prev[n]; seen || !st.Touch(cur, n) || !st.CanEnter(k, n) || w.occupied(g, n) {
				continue
			}
			prev[n] = cur
			if w.inWater(n) {
				goal = &n
				break
			}
			queue = append(queue, n)
		}
	}
	if goal == nil {
		return nil, 0, nil
	}
	var rev []hex.Loc
	for l := *goal; l != start; l = prev[l] {
		rev = append(rev, l)
	}
	path := []string{g.At}
	spent := 0
	var used Provs
	for i := len(rev) - 1; i >= 0; i-- {
		l := rev[i]
		if !w.inWater(l) {
			cost, p, _ := st.MPCost(k, l)
			used = append(used, p)
			if spent+cost > landMP {
				break
			}
			spent += cost
		}
		path = append(path, locString(st.board, l))
		if w.inWater(l) {
			break
		}
	}
	return path, spent, used
}
