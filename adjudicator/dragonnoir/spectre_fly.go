package dragonnoir

import (
	"fmt"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// The Gargoyles' flight (DN-SPECTRE-2): a character whose counter carries
// the tag flies may, instead of walking, fly a path of at most
// flightHexes hexes (a move order with fly: true). In flight it
//
//   - passes over obstacles of level 1: characters, trees, water, marsh
//     and any other terrain that is not rock, and a rise of at most one
//     level from one hex to the next (it may drop any depth);
//   - never crosses rock (impassable terrain), a hexside feature that
//     stops movement (a wall, and here every other: the module does not
//     give their heights), or a web (DN-MOVE-11);
//   - needs a gallery at least 2 hexes wide at every hex of the flight,
//     the one it takes off from included: a hex is in such a gallery when
//     it and two of its neighbours that touch each other are all open
//     (not rock) — a corridor one hex wide has no such three hexes except
//     at its sharpest bends;
//   - lands on a location free of living characters that it may enter
//     (DN-STACK-2); it rolls for no infiltration (it passes overhead).
//
// A flight is the character's move for the turn (DN-MOVE-2). An obstacle
// on the way ends the flight on the last free location before it.

// flightHexes is the longest flight (DN-SPECTRE-2: "5 cases maximum").
const flightHexes = 5

// fly resolves a move order with fly: true (DN-SPECTRE-2, -6). It reports
// a pause (never: nothing interrupts the Adventurers' own moves).
func (w *world) fly(p *program, o *MoveOrder) bool {
	st := w.st()
	c := st.Chars[o.Unit]
	if why := w.cannotMove(string(p.Side), c); why != "" {
		w.say(nil, "%s does not fly: %s.", o.Unit, why)
		return false
	}
	k := st.Kind(c)
	switch {
	case !k.Has(TagFlies):
		w.say(Provs{k.Prov}, "%s does not fly: a %s moves normally and does not fly (%s).", c.ID, k.Title, k.cite("fly", "DN-SPECTRE-2, -6")) // cite: DN3, the dragon
		return false
	case len(o.Path) > flightHexes:
		w.say(nil, "%s does not fly: a flight is %d hexes at most and the path has %d (DN-SPECTRE-2).", c.ID, flightHexes, len(o.Path))
		return false
	}
	path, why := w.flightPath(c, o.Path)
	w.emit(&Flagged{Flag: flagMoved, IDs: []string{c.ID}})
	if len(path) > 1 {
		w.emit(&Moved{Unit: c.ID, Path: path, Kind: "fly"})
		w.say(nil, "%s flies %s (DN-SPECTRE-2).", c.ID, strings.Join(path, " → "))
	}
	if why != "" {
		w.say(nil, "%s stops its flight on %s: %s.", c.ID, c.At, why)
	}
	return false
}

// flightPath is the part of the ordered path c can fly (its location
// first), ending on the last free location before an obstacle, and why it
// stops short ("" when it flies the whole path).
func (w *world) flightPath(c *Char, steps []string) ([]string, string) {
	st := w.st()
	k := st.Kind(c)
	cur := st.loc(c)
	path, landed := []string{c.At}, 1
	why := ""
	if !w.wideGallery(cur.Hex) {
		return path, fmt.Sprintf("the gallery at %s is 1 hex wide, the ceiling too low to fly (DN-SPECTRE-2)", c.At)
	}
	for _, s := range steps {
		l, err := locOn(st.board, s)
		if err != nil {
			why = err.Error()
			break
		}
		if why = w.flightStep(cur, l); why != "" {
			break
		}
		cur = l
		path = append(path, locString(st.board, l))
		if st.CanEnter(k, l) && !w.occupied(c, l) {
			landed = len(path)
		}
	}
	if why == "" && landed < len(path) {
		why = fmt.Sprintf("%s is taken: it lands on the last free location of its flight (DN-STACK-2)", path[len(path)-1])
	}
	return path[:landed], why
}

// flightStep says why a flight may not go from a to b ("" when it may).
func (w *world) flightStep(a, b hex.Loc) string {
	st := w.st()
	s := locString(st.board, b)
	side, adjacent := st.board.SideBetween(a.Hex, b.Hex)
	switch t := st.Terrain(b); {
	case !adjacent || st.Distance(a, b) != 1:
		return fmt.Sprintf("%s does not touch %s", s, locString(st.board, a))
	case t == nil || t.Impassable:
		return fmt.Sprintf("%s is rock", s)
	case b.Level-a.Level > hex.Levels(1):
		return fmt.Sprintf("%s rises more than one level: a Gargoyle flies over obstacles of level 1 only (DN-SPECTRE-2)", s)
	case !w.wideGallery(b.Hex):
		return fmt.Sprintf("the gallery at %s is 1 hex wide, the ceiling too low to fly (DN-SPECTRE-2)", s)
	case st.Web(s):
		return fmt.Sprintf("a web on %s bars the way (DN-MOVE-11)", s)
	}
	for _, lv := range []hex.Level{a.Level, b.Level} {
		for _, f := range st.board.FeaturesAt(side, lv) {
			if ft := st.data.Features[f.Kind]; ft != nil && ft.BlocksMove {
				return fmt.Sprintf("a %s stands between %s and %s", ft.Title, locString(st.board, a), s)
			}
		}
	}
	return ""
}

// wideGallery reports whether hex h lies in a gallery at least 2 hexes
// wide: it and two of its neighbours that touch each other are open.
func (w *world) wideGallery(h hex.Hex) bool {
	st := w.st()
	open := func(x hex.Hex) bool {
		t := st.Terrain(st.board.FloorLoc(x))
		return t != nil && !t.Impassable
	}
	if !open(h) {
		return false
	}
	ns := st.board.Neighbours(h)
	for i, a := range ns {
		for _, b := range ns[i+1:] {
			if open(a) && open(b) && st.board.Layout.Distance(a, b) == 1 {
				return true
			}
		}
	}
	return false
}
