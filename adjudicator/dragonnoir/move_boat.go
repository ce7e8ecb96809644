package dragonnoir

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
)

// Boats (A.7.3). A boat counter covers two hexes (DN-BOAT-7): its stern,
// where Boat.At is, and its bow, the hex its facing points to (hex.Pair).
// A character is in a boat when it stands on one of the boat's hexes; one
// character a hex, two a boat (AMB-38). Only Adventurers board (DN-BOAT-1),
// paying 1 MP from land and 2 from water (DN-BOAT-2) whatever the water
// would cost, armoured or not: the boat carries them (DN-MOVE-5). A boat is
// rowed by naming the hexes its bow enters (row:): straight ahead or one
// hexside aside counts one hex, a turn of more than 60° two (DN-BOAT-5).
// It floats on water and runs ashore on a beach; nobody lands from it
// unless it is docked at a pontoon (both its hexes touching one) or on a
// beach (DN-BOAT-6).

// flagRowed marks the boats rowed this game turn: one rower a boat a turn.
const flagRowed = "rowed"

// boatFootprintOn is where boat b lies on mp, its facing required (the
// loader's check; a game asks State.boatFootprint).
func boatFootprintOn(mp *hexmap.Map, b *Boat) (hex.Footprint, error) {
	l, err := locOn(mp, b.At)
	if err != nil {
		return hex.Footprint{}, err
	}
	d, err := mp.Layout.ParseDirection(b.Facing)
	if err != nil {
		return hex.Footprint{}, fmt.Errorf("boat %s: facing %q: %v", b.ID, b.Facing, err)
	}
	return hex.Footprint{Shape: hex.Pair, Anchor: l.Hex, Facing: d, Layout: mp.Layout}, nil
}

// BoatHexes are the stern and the bow of b.
func (s *State) BoatHexes(b *Boat) (stern, bow hex.Hex) {
	f, err := s.boatFootprint(b)
	if err != nil {
		panic(fmt.Sprintf("dragonnoir: %v", err))
	}
	hs := f.Hexes()
	return hs[0], hs[1]
}

// boatOn is the boat lying on location l (a floor: a boat floats on no
// footbridge), or nil.
func (w *world) boatOn(l hex.Loc) *Boat {
	if l != w.st().board.FloorLoc(l.Hex) {
		return nil
	}
	return w.boatAt(l.Hex)
}

// floats reports whether a boat may lie on t: water, or a beach it has
// run onto (DN-BOAT-6); never a pontoon, which it docks beside.
func floats(t *Terrain) bool {
	return t != nil && (t.Has(TerrWater) || t.Has(TerrBeach) && !t.Has(TerrPontoon))
}

// Ashore reports whether b lets its crew land, and how: docked at a
// pontoon, both its hexes touching it, or run onto a beach hex
// (DN-BOAT-6).
func (s *State) Ashore(b *Boat) (string, bool) {
	stern, bow := s.BoatHexes(b)
	touches := func(h hex.Hex) bool {
		for _, n := range s.board.Neighbours(h) {
			if t := s.Terrain(s.board.FloorLoc(n)); t != nil && t.Has(TerrPontoon) {
				return true
			}
		}
		return false
	}
	if touches(stern) && touches(bow) {
		return "docked at a pontoon", true
	}
	for _, h := range []hex.Hex{stern, bow} {
		if t := s.Terrain(s.board.FloorLoc(h)); t.Has(TerrBeach) && !t.Has(TerrPontoon) {
			return "on the beach " + h.String(), true
		}
	}
	return "", false
}

// boardingCost is what entering boat b's hex from cur costs (DN-BOAT-2),
// and why c may not.
func (w *world) boardingCost(c *Char, b *Boat, cur hex.Loc) (int, Prov, string) {
	st := w.st()
	p := Prov{Rule: "DN-BOAT-2"}
	if c.Side != Adventurers {
		return 0, Prov{Rule: "DN-BOAT-1"}, fmt.Sprintf("%s is a boat: only Adventurers move by boat (DN-BOAT-1)", b.ID)
	}
	if w.boatOn(cur) != b && st.Terrain(cur).Has(TerrWater) {
		return 2, p, ""
	}
	return 1, p, ""
}

// checkMarkers says what is wrong with a set-up's boats and oubliette
// entrances on mp: a boat lies on two hexes of water or beach, each boat
// and entrance once, at most four entrances (DN-CNT-13).
func checkMarkers(mp *hexmap.Map, d *Data, boats []Placement, oubliettes []string) []error {
	var errs []error
	seen := map[hex.Hex]string{}
	for _, p := range boats {
		b := &Boat{ID: p.Unit, At: p.At, Facing: p.Facing}
		f, err := boatFootprintOn(mp, b)
		if p.Unit == "" {
			err = fmt.Errorf("boats: give each boat its name (unit: boat-1)")
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, h := range f.Hexes() {
			t := d.Terrain[mp.Terrain(h)]
			switch {
			case !mp.OnMap(h):
				errs = append(errs, fmt.Errorf("boat %s facing %s from %s covers %s, off the map", p.Unit, p.Facing, p.At, h))
			case !floats(t):
				errs = append(errs, fmt.Errorf("boat %s covers %s, which is %s: a boat lies on water or a beach (DN-BOAT-6, -7)", p.Unit, h, mp.Terrain(h)))
			case seen[h] != "":
				errs = append(errs, fmt.Errorf("boats %s and %s both cover %s", seen[h], p.Unit, h))
			}
			seen[h] = p.Unit
		}
	}
	if len(oubliettes) > 4 {
		errs = append(errs, fmt.Errorf("oubliettes: %d entrances, but the game has four counters (DN-CNT-13)", len(oubliettes)))
	}
	for i, o := range oubliettes {
		if _, err := locOn(mp, o); err != nil {
			errs = append(errs, fmt.Errorf("oubliettes: %v", err))
		}
		if slices.Contains(oubliettes[:i], o) {
			errs = append(errs, fmt.Errorf("oubliettes: %s twice", o))
		}
	}
	return errs
}

// placeMarkers puts a set-up's boats and oubliette entrances on the map.
func (st *State) placeMarkers(boats []Placement, oubliettes []string) error {
	if errs := checkMarkers(st.board, st.data, boats, oubliettes); len(errs) > 0 {
		return errs[0]
	}
	if err := st.placeBoats(boats); err != nil {
		return err
	}
	for _, o := range oubliettes {
		l, _ := locOn(st.board, o)
		st.Oubliettes = sortedInsert(st.Oubliettes, locString(st.board, l))
	}
	return nil
}

// row rows the boat c is in along o.Row (DN-BOAT-3 … 5): 4 hexes for a
// rower who began the move in it, 2 when it then walks ashore, 2 after
// boarding with half its MP or less (AMB-30: halves round down), none
// after boarding with more.
func (w *world) row(c *Char, o *MoveOrder, mv *moveWork) legEnd {
	st := w.st()
	b := w.boatOf(c)
	f, _ := st.Values(c)
	if b == nil {
		w.say(nil, "%s does not row: it is in no boat; board one first, its path ending on a boat hex (DN-BOAT-2).", c.ID)
		return legStopped
	}
	if st.Is(flagRowed, b.ID) {
		w.say(nil, "%s does not row: %s has already been rowed this turn.", c.ID, b.ID)
		return legStopped
	}
	var allow int
	var why string
	switch {
	case mv.Afloat && len(o.Then) > 0:
		allow, why = 2, "2 hexes, then half its MP ashore (DN-BOAT-4)"
	case mv.Afloat:
		allow, why = 4, "4 hexes (DN-BOAT-4)"
	case mv.Boarded > 0 && mv.Boarded-1 <= f.Move/2:
		allow, why = 2, fmt.Sprintf("2 hexes, having used %d of its %d MP to reach it (DN-BOAT-3)", mv.Boarded-1, f.Move)
	default:
		w.say(nil, "%s does not row: it used %d of its %d MP to reach %s, more than half (%d): the boat waits for the next turn (DN-BOAT-3, AMB-30).",
			c.ID, mv.Boarded-1, f.Move, b.ID, f.Move/2)
		return legStopped
	}
	trail := []string{}
	used := 0
	report := func() {
		if len(trail) > 0 {
			w.say(nil, "%s rows %s %s (%d of %d hexes: %s).", c.ID, b.ID, strings.Join(trail, " → "), used, allow, why)
		}
	}
	for _, s := range o.Row {
		stern, bow := st.BoatHexes(b)
		if len(trail) == 0 {
			trail = append(trail, bow.String())
		}
		l, err := locOn(st.board, s)
		if err == nil && l != st.board.FloorLoc(l.Hex) {
			err = fmt.Errorf("a boat floats on the floor of %s", l.Hex)
		}
		var cost int
		if err == nil {
			cost, err = w.rowStep(b, stern, bow, l)
		}
		if err == nil && used+cost > allow {
			err = fmt.Errorf("the bow's way to %s costs %d and %d of %d hexes are left (DN-BOAT-5)", s, cost, allow-used, allow)
		}
		if err != nil {
			report()
			w.say(nil, "%s stops rowing at %s: %v.", b.ID, bow, err)
			return legStopped
		}
		if used == 0 {
			w.emit(&Flagged{Flag: flagRowed, IDs: []string{b.ID}})
		}
		d, _ := st.board.Layout.DirectionTo(bow, l.Hex)
		crew := map[*Char]hex.Hex{}
		for _, x := range st.At(st.board.FloorLoc(bow)) {
			crew[x] = l.Hex
		}
		for _, x := range st.At(st.board.FloorLoc(stern)) {
			crew[x] = bow
		}
		w.emit(&Rowed{Boat: b.ID, At: locString(st.board, st.board.FloorLoc(bow)), Facing: st.board.Layout.DirName(d)})
		for _, x := range st.Sorted() {
			if to, ok := crew[x]; ok && x.Alive() {
				w.emit(&Moved{Unit: x.ID, Path: []string{x.At, locString(st.board, st.board.FloorLoc(to))}, Kind: "boat"})
			}
		}
		used += cost
		mv.Rowed = used
		trail = append(trail, l.Hex.String())
	}
	report()
	return legWalked
}

// rowStep says what moving boat b's bow from bow to l costs
// (DN-BOAT-5), or why it may not.
func (w *world) rowStep(b *Boat, stern, bow hex.Hex, l hex.Loc) (int, error) {
	st := w.st()
	mp := st.board
	d, ok := mp.Layout.DirectionTo(bow, l.Hex)
	if !ok || l.Hex == stern {
		return 0, fmt.Errorf("%s is not ahead of its bow: the bow enters a hex next to it, other than the stern's", l.Hex)
	}
	facing, _ := mp.Layout.ParseDirection(b.Facing)
	turn := (int(d) - int(facing) + 6) % 6
	turn = min(turn, 6-turn)
	t := st.Terrain(l)
	switch {
	case !floats(t):
		return 0, fmt.Errorf("%s is %s: a boat floats on water and runs onto a beach (DN-BOAT-6)", l.Hex, t.Title)
	case !t.Has(TerrWater) && !st.Terrain(mp.FloorLoc(bow)).Has(TerrWater):
		return 0, fmt.Errorf("it is aground on %s", bow)
	case !st.Touch(mp.FloorLoc(bow), l):
		return 0, fmt.Errorf("no way by water from %s to %s", bow, l.Hex)
	case w.boatOn(l) != nil:
		return 0, fmt.Errorf("%s lies on %s", w.boatOn(l).ID, l.Hex)
	}
	for _, o := range st.At(l) {
		if o.Alive() {
			return 0, fmt.Errorf("%s is on %s", o.ID, l.Hex)
		}
	}
	if turn > 1 { // more than 60°: one hex more (DN-BOAT-5)
		return 2, nil
	}
	return 1, nil
}
