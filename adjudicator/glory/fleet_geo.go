package glory

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Where fleets may be, as the rules read the map (DG-FLEET-1 to -3, -8).
//
// A fleet's position is a hex ("1914") at sea or on a coast, or a great
// river's hexside ("1613/1713", the two hexes it separates, the lower ID
// first) when it sails up a river (DG-FLEET-3: on a river a fleet counts the
// hexsides it moves along). Two positions are next to each other when they
// touch on the map: two neighbouring hexes; a hex and a hexside of its own
// border or one ending at one of its corners; two hexsides meeting at a
// corner. Every step from a position to the next costs 1 MP, whether it
// enters a hex or moves along a hexside, and entering the Maelstrom costs 1
// (DG-AMB-28). Neighbours are always read from Geo, so the map's layout
// (flat- or pointy-topped) changes nothing here.

// maelStep is the path step that enters the Maelstrom (DG-MAEL-2).
const maelStep = "maelstrom"

// isHexside reports whether a position is a hexside.
func isHexside(pos string) bool { return strings.Contains(pos, "/") }

// hexsideName writes the hexside between a and b, the lower ID first.
func hexsideName(a, b string) string {
	if b < a {
		a, b = b, a
	}
	return a + "/" + b
}

// banks are the hexes a position is at: the hex itself, or the two hexes a
// hexside separates.
func banks(pos string) []string {
	if a, b, ok := strings.Cut(pos, "/"); ok {
		return []string{a, b}
	}
	return []string{pos}
}

// fleetHex reports whether a fleet may be in hex h: open sea (not the
// Maelstrom's hexes, which are one area apart, DG-AMB-28) or a coastal hex
// (DG-FLEET-1), never a swamp (DG-TERR-9).
func (g *Geo) fleetHex(h string) bool {
	if g.Sea(h) {
		return !g.Maelstrom(h)
	}
	return g.Coastal(h) && g.Terrain(h) != "swamp"
}

// greatSide reports whether a and b are neighbours across a great river a
// fleet may sail along (DG-FLEET-2).
func (g *Geo) greatSide(a, b string) bool { return g.Adjacent(a, b) && g.Side(a, b).Great }

// fleetPos reports whether pos is a position a fleet may be in.
func (g *Geo) fleetPos(pos string) bool {
	if isHexside(pos) {
		b := banks(pos)
		return g.greatSide(b[0], b[1])
	}
	return g.fleetHex(pos)
}

// common lists the hexes next to both a and b: the third hexes at the two
// ends of the hexside a/b.
func (g *Geo) common(a, b string) []string {
	var out []string
	for _, c := range g.Near(a) {
		if g.Adjacent(c, b) {
			out = append(out, c)
		}
	}
	return out
}

// posNear lists the positions touching pos (hexes, and great-river
// hexsides), whatever their terrain.
func (g *Geo) posNear(pos string) []string {
	var out []string
	add := func(p string) {
		if p != pos && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	if isHexside(pos) {
		b := banks(pos)
		add(b[0])
		add(b[1])
		for _, c := range g.common(b[0], b[1]) {
			add(c)
			for _, x := range b {
				if g.greatSide(x, c) {
					add(hexsideName(x, c))
				}
			}
		}
	} else {
		for _, n := range g.Near(pos) {
			add(n)
			if g.greatSide(pos, n) {
				add(hexsideName(pos, n))
			}
			for _, m := range g.Near(pos) {
				if m != n && g.Adjacent(m, n) && g.greatSide(m, n) {
					add(hexsideName(m, n))
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// fleetNear lists the positions a fleet at pos may sail to in one step:
// the touching positions a fleet may be in. Between two coastal (land)
// hexes a fleet sails only along the coast: they must share a sea
// neighbour, so a fleet never crosses a neck of land (an assumed reading of
// "coastal hexes", DG-FLEET-1).
func (g *Geo) fleetNear(pos string) []string {
	var out []string
	for _, q := range g.posNear(pos) {
		if !g.fleetPos(q) {
			continue
		}
		if !isHexside(pos) && !isHexside(q) && g.Land(pos) && g.Land(q) && !g.shareSea(pos, q) {
			continue
		}
		out = append(out, q)
	}
	return out
}

func (g *Geo) shareSea(a, b string) bool {
	for _, c := range g.common(a, b) {
		if g.Sea(c) && !g.Maelstrom(c) {
			return true
		}
	}
	return false
}

// nextToMael reports whether a fleet at pos may enter the Maelstrom: pos is
// a hex next to one of its hexes (DG-MAEL-2).
func (g *Geo) nextToMael(pos string) bool {
	if isHexside(pos) {
		return false
	}
	for _, n := range g.Near(pos) {
		if g.Maelstrom(n) {
			return true
		}
	}
	return false
}

// maelExits are the hexes a fleet leaving the Maelstrom may come out in:
// the fleet hexes next to it (DG-MAEL-9, DG-AMB-30).
func (g *Geo) maelExits() []string {
	var out []string
	for _, h := range g.Hexes() {
		if g.fleetHex(h) && g.nextToMael(h) {
			out = append(out, h)
		}
	}
	return out
}

// posDistance counts the hexes between two positions (the nearest banks of
// a hexside), ignoring terrain.
func (g *Geo) posDistance(a, b string) int {
	best := -1
	for _, x := range banks(a) {
		for _, y := range banks(b) {
			if d := g.Distance(x, y); d >= 0 && (best < 0 || d < best) {
				best = d
			}
		}
	}
	return best
}

// posAt reads a position of a set-up: a hex, or for a fleet (fleet set) a
// great river's hexside "CCRR/CCRR".
func (d *Data) posAt(s string, fleet bool) (string, error) {
	a, b, ok := strings.Cut(s, "/")
	if !ok || !fleet {
		h, err := d.hexAt(s)
		return h.String(), err
	}
	ha, err := d.hexAt(a)
	if err != nil {
		return "", err
	}
	hb, err := d.hexAt(b)
	if err != nil {
		return "", err
	}
	if !d.Geo.greatSide(ha.String(), hb.String()) {
		return "", fmt.Errorf("%s: a fleet stands on a great river's hexside, between two neighbours (DG-FLEET-3)", s)
	}
	return hexsideName(ha.String(), hb.String()), nil
}

// Fleets and what they carry, in the state.

// fleetsAt lists side's fleets on the map at position pos.
func (s *State) fleetsAt(pos string, side adjudicator.Side) []*Unit {
	var out []*Unit
	for _, u := range s.At(pos) {
		if u.Side == side && s.Kind(u.ID).Type == Fleet {
			out = append(out, u)
		}
	}
	return out
}

// cargo lists what fleet id carries, in ID order.
func (s *State) cargo(id string) []*Unit {
	var out []*Unit
	for _, u := range s.Sorted() {
		if u.Where == Aboard && u.Carrier == id {
			out = append(out, u)
		}
	}
	return out
}

// armyAboard is the land army fleet id carries, or nil (DG-SEA-1).
func (s *State) armyAboard(id string) *Unit {
	for _, u := range s.cargo(id) {
		if s.Kind(u.ID).IsLand() {
			return u
		}
	}
	return nil
}

// fleetBlocked says why a fleet of side may not enter pos, or "" when it
// may: not a fleet position, an enemy fleet there (DG-FLEET-4), an enemy
// army there or, for a hexside, on either bank (DG-FLEET-5, DG-AMB-24), or
// already two of side's fleets on that hexside (DG-FLEET-8). Fleets in
// ignore (the fleet itself) are not counted.
func (s *State) fleetBlocked(pos string, side adjudicator.Side, ignore ...string) string {
	g := s.Geo()
	if !g.fleetPos(pos) {
		if isHexside(pos) {
			return pos + " is not a great river's hexside (DG-FLEET-2)"
		}
		if g.Terrain(pos) == "swamp" {
			return pos + " is a swamp, which fleets cannot enter (DG-TERR-9)"
		}
		return pos + " is neither at sea nor on the coast (DG-FLEET-1)"
	}
	if len(s.fleetsAt(pos, Other(side))) > 0 {
		return pos + " holds an enemy fleet (DG-FLEET-4)"
	}
	for _, h := range banks(pos) {
		if s.EnemyArmiesAt(h, side) {
			if isHexside(pos) {
				return "an enemy army is in " + h + ", on a bank of " + pos + " (DG-FLEET-5, DG-AMB-24)"
			}
			return pos + " holds an enemy army (DG-FLEET-5)"
		}
	}
	if isHexside(pos) {
		n := 0
		for _, u := range s.fleetsAt(pos, side) {
			if !slices.Contains(ignore, u.ID) {
				n++
			}
		}
		if n >= 2 {
			return pos + " already holds two fleets, the most a river hexside takes (DG-FLEET-8)"
		}
	}
	return ""
}

// FleetBridge reports whether a fleet of side on the river hexside between
// a and b bridges it for side's armies: it has not moved, been displaced or
// retreated this turn (DG-SEA-7, DG-AMB-27). Movement and combat use it for
// crossing and attacking across that hexside.
func (s *State) FleetBridge(a, b string, side adjudicator.Side) bool {
	for _, u := range s.fleetsAt(hexsideName(a, b), side) {
		if !s.Is(flagFleetMoved, u.ID) {
			return true
		}
	}
	return false
}

// Per-turn flags of this chapter (State.Done).
const (
	flagFleetMoved  = "fleet-moved" // moved, displaced or retreated this turn (DG-SEA-7)
	flagEscaped     = "escaped"     // used its escape into the Maelstrom this turn (DG-MAEL-7)
	flagTransported = "transported" // a land army a fleet carried this turn (DG-SEA-6)
	flagNaval       = "naval"       // took part in a naval battle this combat step (DG-NAVAL-8)
)

// fleetSay reports what side's fleets did: to everyone, or only to side
// when stacks are hidden (DG-HIDE-3).
func (w *world) fleetSay(side adjudicator.Side, format string, args ...any) {
	if w.st().Options.Hidden {
		w.tell(adjudicator.To(side), format, args...)
		return
	}
	w.say(format, args...)
}

// fleetRoll throws dice for side's fleet: every side sees them unless
// stacks are hidden.
func (w *world) fleetRoll(side adjudicator.Side, label string, faces int) *adjudicator.Roll {
	if w.st().Options.Hidden {
		return w.r.RollFor(adjudicator.To(side), label, 1, faces)
	}
	return w.roll(label, 1, faces)
}

// drawable is a trace as the pictures can draw it: a hexside step of a
// fleet's path is drawn in the hexside's lower-ID bank, and a step that
// repeats the one before is dropped.
func drawable(t adjudicator.Trace) adjudicator.Trace {
	var path []string
	changed := false
	for _, p := range t.Path {
		if isHexside(p) {
			p, changed = banks(p)[0], true
		}
		if len(path) > 0 && path[len(path)-1] == p {
			continue
		}
		path = append(path, p)
	}
	if changed {
		t.Path = path
	}
	return t
}
