package dragonnoir

import (
	"fmt"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// Chapter: the Gharv interphases (DN-TURN-6, A.10.4, PBEM-DN-12), resolved
// inside the adjudication that ends each player-turn, with no mail:
// appearance rolls for every character in water, beside water or on marsh
// (gharvs.yaml), placement on an adjacent water hex by re-rolls (DN-GHARV-3,
// AMB-33), the Gharvs' attacks (DN-GHARV-4 … 10), their return to the water
// (DN-GHARV-11, AMB-34).
//
// First implementation: the referee decides everything (AMB-35): retreat
// paths are the referee's, the Gharv's advance is automatic. Left to its
// helper: capsizing boats (DN-GHARV-5), the attack order by die when
// disputed (DN-GHARV-7), the owners' choices (PBEM-DN-9 … 11).

// interphase resolves one Gharv interphase. It reports a pause (none in
// this implementation: the referee decides).
func (w *world) interphase(p *program) bool {
	st := w.st()
	n := 1
	if p.Side == Krobs {
		n = 2
	}
	w.say(nil, "Turn %d, Gharv interphase %d.", st.Turn, n)
	called := w.appear()
	w.gharvAttacks(called)
	w.gharvsLeave()
	return false
}

// exposed says whether c must roll for a Gharv, and in which situation
// (DN-GHARV-2): in water, beside water (a beach, a boat), on marsh.
func (w *world) exposed(c *Char) string {
	st := w.st()
	t := st.Terrain(st.loc(c))
	switch {
	case t.Has(TerrWater):
		return "in-water"
	case t.Has(TerrMarsh):
		return "marsh"
	case t.Has(TerrBeach):
		return "beside-water"
	}
	return ""
}

// appear rolls for every exposed character and places the Gharvs that
// appear (DN-GHARV-2, -3). It returns who called each Gharv.
func (w *world) appear() map[string]string {
	st := w.st()
	called := map[string]string{}
	for _, c := range st.Living("") {
		if c.Side == Gharvs {
			continue
		}
		where := w.exposed(c)
		if where == "" {
			continue
		}
		row := st.data.Appear[where]
		used := Provs{row.Prov}
		r := w.d10(fmt.Sprintf("Gharv appearance for %s on %s", c.ID, c.At))
		if !slices.Contains(row.Appears, r.Total) {
			outcome(r, used, "no Gharv")
			continue
		}
		g := w.pooledGharv()
		spots := w.gharvSpots(c)
		if g == "" || len(spots) == 0 {
			outcome(r, used, "a Gharv would appear, but none can")
			continue
		}
		at := spots[0]
		if len(spots) > 1 { // number them and re-roll until one comes up (DN-GHARV-3, ROLL-7)
			for i := 0; i < 20; i++ {
				pr := w.d10(fmt.Sprintf("Gharv placement for %s", c.ID))
				if pr.Total <= len(spots) {
					at = spots[pr.Total-1]
					outcome(pr, nil, "hex %d of %d: %s", pr.Total, len(spots), locString(st.board, at))
					break
				}
				outcome(pr, nil, "no hex numbered %d: roll again", pr.Total)
			}
		}
		outcome(r, used, "a Gharv appears")
		w.emit(&Placed{Unit: g, Side: Gharvs, At: locString(st.board, at), Why: "appears"})
		w.say(used, "A Gharv (%s) rises on %s beside %s (DN-GHARV-2, -3).", g, locString(st.board, at), c.ID)
		called[g] = c.ID
	}
	return called
}

// pooledGharv is the first Gharv counter not on the map, "" if none.
func (w *world) pooledGharv() string {
	for _, c := range w.st().Sorted() {
		if c.Side == Gharvs && c.At == "" {
			return c.ID
		}
	}
	return ""
}

// gharvSpots are where a Gharv called by c may rise: adjacent free water
// locations; failing those, adjacent marsh, then any adjacent location a
// Gharv may enter (AMB-33).
func (w *world) gharvSpots(c *Char) []hex.Loc {
	st := w.st()
	gk := st.data.Kinds[st.data.GharvKind]
	var water, marsh, other []hex.Loc
	for _, from := range st.Locs(c) {
		for _, n := range st.board.Neighbours(from.Hex) {
			l := st.board.FloorLoc(n)
			if !st.CanEnter(gk, l) || w.occupied(nil, l) || slices.Contains(append(append(water, marsh...), other...), l) {
				continue
			}
			switch t := st.Terrain(l); {
			case t.Has(TerrWater):
				water = append(water, l)
			case t.Has(TerrMarsh):
				marsh = append(marsh, l)
			default:
				other = append(other, l)
			}
		}
	}
	for _, ls := range [][]hex.Loc{water, marsh, other} {
		if len(ls) > 0 {
			slices.SortFunc(ls, func(a, b hex.Loc) int {
				if a.Less(b) {
					return -1
				}
				return 1
			})
			return ls
		}
	}
	return nil
}

// gharvAttacks: every Gharv in contact with a character attacks it, the
// one that called it first (DN-GHARV-4, -10), in ID order; a retreating or
// killed victim's hex is taken by the Gharv (DN-GHARV-8).
func (w *world) gharvAttacks(called map[string]string) {
	st := w.st()
	for _, g := range st.Living(Gharvs) {
		var target *Char
		if t := st.Chars[called[g.ID]]; t != nil && t.Alive() && st.CanAttack(g, t) {
			target = t
		}
		for _, c := range st.Living("") {
			if target == nil && c.Side != Gharvs && st.CanAttack(g, c) {
				target = c
			}
		}
		if target == nil {
			continue
		}
		cw := &combatWork{Side: Gharvs, Attackers: []string{g.ID}, Defenders: []string{target.ID}}
		if !w.rollCombat(cw, &AttackOrder{}) {
			continue
		}
		bys := []*Char{g}
		from := target.At
		left := false
		for _, e := range cw.Effects {
			c := target
			if e.Who == 'A' {
				c = g
			}
			if w.hurt(c, e.What, e.N, bys, cw.Used, false) && c == target {
				left = true
			}
		}
		if left && g.Standing() && !w.occupied(g, mustLoc(st, from)) {
			w.emit(&Moved{Unit: g.ID, Path: []string{g.At, from}, Kind: "advance"})
			w.say(nil, "%s advances to %s (DN-GHARV-8).", g.ID, from)
		}
	}
}

// gharvsLeave: every Gharv no longer in contact with a character heads
// for the nearest water, up to its land MP, and leaves the map as soon as
// it reaches it (DN-GHARV-11, -12, AMB-34).
func (w *world) gharvsLeave() {
	st := w.st()
	gk := st.data.Kinds[st.data.GharvKind]
	for _, g := range st.Living(Gharvs) {
		busy := false
		for _, c := range st.Living("") {
			if c.Side != Gharvs && w.adjacent(g, c) {
				busy = true
			}
		}
		if busy {
			continue
		}
		if st.Terrain(st.loc(g)).Has(TerrWater) {
			w.emit(&Placed{Unit: g.ID, Side: Gharvs, Why: "back to the water"})
			w.say(nil, "%s sinks back into the water.", g.ID)
			continue
		}
		path := w.pathToWater(g, gk.Faces["healthy"].MoveLand)
		if len(path) > 1 {
			w.emit(&Moved{Unit: g.ID, Path: path, Kind: "move"})
		}
		if st.Terrain(st.loc(g)).Has(TerrWater) {
			w.emit(&Placed{Unit: g.ID, Side: Gharvs, Why: "back to the water"})
			w.say(nil, "%s returns to the water and is gone.", g.ID)
		} else {
			w.say(nil, "%s crawls toward the water, to %s.", g.ID, g.At)
		}
	}
}

// pathToWater is the shortest path from g toward the nearest water
// location, cut to mp MP (breadth first, by location order).
func (w *world) pathToWater(g *Char, mp int) []string {
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
			if st.Terrain(n).Has(TerrWater) {
				goal = &n
				break
			}
			queue = append(queue, n)
		}
	}
	if goal == nil {
		return nil
	}
	var rev []hex.Loc
	for l := *goal; l != start; l = prev[l] {
		rev = append(rev, l)
	}
	path := []string{g.At}
	spent := 0
	for i := len(rev) - 1; i >= 0; i-- {
		cost, _, _ := st.MPCost(k, rev[i])
		if spent+cost > mp && !st.Terrain(rev[i]).Has(TerrWater) {
			break
		}
		spent += cost
		path = append(path, locString(st.board, rev[i]))
		if spent >= mp {
			break
		}
	}
	return path
}
