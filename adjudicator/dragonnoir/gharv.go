package dragonnoir

import (
	"fmt"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
	"github.com/umpire-pbem/umpire/adjudicator/pause"
)

// Chapter: the Gharv interphases (DN-TURN-6, A.10.4, PBEM-DN-12), resolved
// inside the adjudication that ends each player-turn, with no mail: the
// Gharvs are no player's (DN-GHARV-1, AMB-35), the referee rolls and moves
// for them. An interphase has three steps:
//
//  1. appearance (gharv.go): every character of both sides in water,
//     beside water (on a beach, in a boat, or touching a water location)
//     or on marsh rolls on the appearance table (gharvs.yaml); a Gharv
//     that appears is placed at once on an adjacent water location,
//     numbered and picked by re-rolls (DN-GHARV-3, ROLL-7), else on marsh,
//     else anywhere a Gharv may stand (AMB-33);
//  2. combat (gharv_attack.go): every Gharv in contact with a character
//     attacks, the one that called it first, older Gharvs too
//     (DN-GHARV-4, -10), in an order the die settles when it matters
//     (DN-GHARV-7, ROLL-9); a character in a boat has its boat capsized
//     instead (gharv_capsize.go, DN-GHARV-5); a Gharv never attacks into a
//     location it could not enter (DN-GHARV-9), and always advances into
//     the location its victim left (DN-GHARV-8);
//  3. disappearance (gharv_leave.go): a Gharv in contact with nobody heads
//     for the nearest water on its land MP and is gone once in it
//     (DN-GHARV-11, -12, AMB-34).
//
// The players decide only their usual choices (PBEM-DN-12): who of
// several takes a result, a retreat, an advance when a Gharv is beaten
// back — the combat chapter's pauses, asked within the interphase. A
// question the Gharvs would be asked is answered by the referee
// (gharvAnswer): they always advance.

// gharvWork is an interphase in progress, kept in the program's work so
// that a pause in the middle of it resumes where it stopped.
type gharvWork struct {
	// Called says which character called each Gharv that appeared in this
	// interphase (DN-GHARV-4).
	Called map[string]string `json:"called,omitempty"`
	// Order lists the Gharvs that attack, in the order they do.
	Order []string `json:"order,omitempty"`
	// Next is the index in Order of the attack being resolved.
	Next int `json:"next,omitempty"`
	// Combat is that attack once rolled.
	Combat *combatWork `json:"combat,omitempty"`
}

// interphase resolves one Gharv interphase (DN-TURN-6). It reports a
// pause: a player's choice within a Gharv's combat.
func (w *world) interphase(p *program) bool {
	if w.st().valley() { // La Conquête's valley has no Gharvs (magic chapter's marker, spell_lists.go)
		return false
	}
	wk := p.work()
	if wk.Gharv == nil {
		st := w.st()
		n := 1
		if p.Side == Krobs {
			n = 2
		}
		w.say(nil, "Turn %d, Gharv interphase %d (DN-TURN-6).", st.Turn, n)
		gw := &gharvWork{Called: w.appear()}
		gw.Order = w.gharvOrder()
		wk.Gharv = gw
	}
	gw := wk.Gharv
	for ; gw.Next < len(gw.Order); gw.Next++ {
		if w.r.Err() != nil || w.st().Over {
			return true
		}
		if w.gharvAttack(p, gw) {
			return true
		}
		gw.Combat, w.answer = nil, nil
	}
	w.gharvsLeave()
	return false
}

// gharvAnswer is the referee's answer to a question put to the Gharvs
// (AMB-35): they always advance (DN-GHARV-8, PBEM-DN-10); anything else
// takes the question's default.
func gharvAnswer(q pause.Question) string {
	if q.Key == KeyAdvance {
		return "always"
	}
	return q.Default
}

// exposed says whether c must roll for a Gharv, and in which row of the
// appearance table (DN-GHARV-2): "in-water" on a water floor, "marsh" on
// a marsh floor, "beside-water" in a boat, on a beach or touching a water
// location; "" when it need not roll. A counter of several hexes takes
// the most exposed of its locations.
func (w *world) exposed(c *Char) string {
	st := w.st()
	if w.boatOf(c) != nil {
		return "beside-water"
	}
	best := ""
	rank := map[string]int{"": 0, "beside-water": 1, "marsh": 2, "in-water": 3}
	for _, l := range st.Locs(c) {
		where := ""
		t := st.Terrain(l)
		if t == nil { // no row: never guess a hex's exposure
			continue
		}
		floor := l == st.board.FloorLoc(l.Hex)
		switch {
		case floor && t.Has(TerrWater):
			where = "in-water"
		case floor && t.Has(TerrMarsh):
			where = "marsh"
		case t.Has(TerrBeach) || w.touchesWater(l):
			where = "beside-water"
		}
		if rank[where] > rank[best] {
			best = where
		}
	}
	return best
}

// touchesWater reports whether a water location touches l (a character
// there could step into the water: no wall, no cliff between).
func (w *world) touchesWater(l hex.Loc) bool {
	st := w.st()
	for _, n := range st.board.Exits(l) {
		if n == st.board.FloorLoc(n.Hex) && st.Terrain(n).Has(TerrWater) && st.Touch(l, n) {
			return true
		}
	}
	return false
}

// appear rolls for every exposed character of both sides, in ID order,
// and places at once each Gharv that appears (DN-GHARV-2, -3, ROLL-6,
// ROLL-7). It returns who called each Gharv.
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
			outcome(r, used, "%s: no Gharv", where)
			continue
		}
		g := w.pooledGharv()
		if g == nil {
			outcome(r, used, "%s: a Gharv appears", where)
			w.say(used, "A Gharv would rise beside %s, but all %d are already on the map (DN-CNT-4).", c.ID, len(st.data.Kinds[st.data.GharvKind].counterNames()))
			continue
		}
		spots, rule := w.gharvSpots(c)
		outcome(r, used, "%s: a Gharv appears", where)
		if len(spots) == 0 {
			w.say(used, "A Gharv would rise beside %s, but no location beside it is free for one (DN-GHARV-3, AMB-33).", c.ID)
			continue
		}
		at := w.pickSpot(c, spots)
		if g.Wounds > 0 || g.Face != Healthy {
			w.emit(&Conditioned{Unit: g.ID, Face: Healthy})
		}
		w.emit(&Placed{Unit: g.ID, Side: Gharvs, At: locString(st.board, at), Why: "appears"})
		w.say(used, "A Gharv (%s) rises on %s beside %s (%s).", g.ID, locString(st.board, at), c.ID, rule)
		called[g.ID] = c.ID
	}
	return called
}

// pooledGharv is the first Gharv counter off the map (the 8 of DN-CNT-4:
// one killed stays where it fell), nil if none.
func (w *world) pooledGharv() *Char {
	for _, c := range w.st().Sorted() {
		if c.Side == Gharvs && c.At == "" {
			return c
		}
	}
	return nil
}

// gharvSpots are where a Gharv called by c may rise, numbered in
// location order, and the rule that chose them: the free water locations
// touching c (DN-GHARV-3); failing those, the free marsh ones, then any
// free location touching c a Gharv may enter (AMB-33). A location under
// a boat is not free.
func (w *world) gharvSpots(c *Char) ([]hex.Loc, string) {
	st := w.st()
	gk := st.data.Kinds[st.data.GharvKind]
	var water, marsh, other []hex.Loc
	seen := map[hex.Loc]bool{}
	for _, from := range st.Locs(c) {
		for _, l := range st.board.Exits(from) {
			if seen[l] || l != st.board.FloorLoc(l.Hex) || !st.Touch(from, l) || !st.CanEnter(gk, l) || w.occupied(nil, l) || w.boatAt(l.Hex) != nil || st.Covers(c, l) {
				continue
			}
			seen[l] = true
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
	for i, ls := range [][]hex.Loc{water, marsh, other} {
		if len(ls) > 0 {
			slices.SortFunc(ls, func(a, b hex.Loc) int {
				if a.Less(b) {
					return -1
				}
				return 1
			})
			return ls, []string{"DN-GHARV-3", "no water beside it: marsh, AMB-33", "no water or marsh beside it, AMB-33"}[i]
		}
	}
	return nil, ""
}

// maxRerolls bounds the placement re-rolls: each roll has at least one
// chance in ten, so a real die never comes near it; a stream that does
// is broken, and the adjudication fails rather than pick silently.
const maxRerolls = 200

// pickSpot numbers spots 1, 2 … in location order and rolls the d10
// until one of the numbers comes up (DN-GHARV-3, ROLL-7). Only the first
// ten can be numbered on a d10.
func (w *world) pickSpot(c *Char, spots []hex.Loc) hex.Loc {
	st := w.st()
	if len(spots) == 1 {
		return spots[0]
	}
	spots = spots[:min(len(spots), 10)]
	var names []string
	for i, l := range spots {
		names = append(names, fmt.Sprintf("%d %s", i+1, locString(st.board, l)))
	}
	w.say(nil, "The locations where the Gharv may rise beside %s are numbered: %s (DN-GHARV-3).", c.ID, list(names))
	for range maxRerolls {
		r := w.d10(fmt.Sprintf("Gharv placement for %s", c.ID))
		if r.Total <= len(spots) {
			outcome(r, nil, "hex %d of %d: %s", r.Total, len(spots), locString(st.board, spots[r.Total-1]))
			return spots[r.Total-1]
		}
		outcome(r, nil, "no hex numbered %d: roll again", r.Total)
	}
	w.r.Fail(fmt.Errorf("dragonnoir: %d placement rolls for the Gharv beside %s never came up 1 to %d: the dice stream is broken", maxRerolls, c.ID, len(spots)))
	return spots[0]
}
