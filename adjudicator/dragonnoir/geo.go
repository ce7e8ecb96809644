package dragonnoir

import (
	"fmt"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
)

// The geometry every chapter asks: where a character stands (its
// locations: a hex and a level, several for a counter of several hexes),
// which locations touch across a hexside, who is "in position to attack"
// (DN-COMBAT-7, one function for the whole ruleset), distances and the line
// of fire. Chapters ask these and never walk the map themselves, so that
// levels, decks, walls and footprints are handled once.

// locOn reads a location of mp: "0304" is the hex's floor, "0304@+1" a
// deck above it.
func locOn(mp *hexmap.Map, s string) (hex.Loc, error) {
	l, leveled, err := hex.ParseLoc(s)
	if err != nil {
		return l, err
	}
	if !mp.OnMap(l.Hex) {
		return l, fmt.Errorf("%s is not on the map", l.Hex)
	}
	if !leveled {
		return mp.FloorLoc(l.Hex), nil
	}
	if !mp.HasLoc(l) {
		return l, fmt.Errorf("%s has no location at level %s (its locations: %v)", l.Hex, l.Level, mp.Locs(l.Hex))
	}
	return l, nil
}

// locString writes a location as players write it: the bare hex for its
// floor, "0304@+1" for a deck.
func locString(mp *hexmap.Map, l hex.Loc) string {
	if l == mp.FloorLoc(l.Hex) {
		return l.Hex.String()
	}
	return l.Hex.String() + "@" + l.Level.String() // "0404@0": a deck at 0 over a lower floor
}

// footprintOf is where a counter of kind k anchored at h and facing facing
// stands ("" faces the layout's first direction).
func footprintOf(mp *hexmap.Map, k *Kind, h hex.Hex, facing string) (hex.Footprint, error) {
	sh, err := hex.ParseShape(k.Shape)
	if err != nil {
		return hex.Footprint{}, err
	}
	var d hex.Direction
	if facing != "" {
		if d, err = mp.Layout.ParseDirection(facing); err != nil {
			return hex.Footprint{}, err
		}
	}
	return hex.Footprint{Shape: sh, Anchor: h, Facing: d, Layout: mp.Layout}, nil
}

// loc is where c stands (its anchor for a counter of several hexes).
func (s *State) loc(c *Char) hex.Loc {
	l, err := locOn(s.board, c.At)
	if err != nil {
		panic(fmt.Sprintf("dragonnoir: %s stands at %q, no location of the map: %v", c.ID, c.At, err))
	}
	return l
}

// footprint is c's footprint.
func (s *State) footprint(c *Char) hex.Footprint {
	f, err := footprintOf(s.board, s.Kind(c), s.loc(c).Hex, c.Facing)
	if err != nil {
		panic(fmt.Sprintf("dragonnoir: %s: %v", c.ID, err))
	}
	return f
}

// Locs are the locations c covers: one, or one per hex of its footprint
// (each on that hex's floor). A hex off the map is no location: a
// footprint that hangs off the board (a state some older engine left:
// retreats, moves and placements now keep every hex on the map) covers
// only its hexes on it, so that no chapter ever reads the terrain of a
// hex that is not there.
func (s *State) Locs(c *Char) []hex.Loc {
	if !c.Alive() && c.At == "" {
		return nil
	}
	l := s.loc(c)
	if s.Kind(c).Shape == hex.Single.Name {
		return []hex.Loc{l}
	}
	var out []hex.Loc
	for _, h := range s.footprint(c).Hexes() {
		if s.board.OnMap(h) {
			out = append(out, s.board.FloorLoc(h))
		}
	}
	return out
}

// Covers reports whether c covers location l.
func (s *State) Covers(c *Char, l hex.Loc) bool { return slices.Contains(s.Locs(c), l) }

// At lists the characters on the map covering l, in ID order (dead ones
// too: ask Alive). A character an Ent carries is not on the hex but above
// it: Aboard lists them (DN3, special_ent.go).
func (s *State) At(l hex.Loc) []*Char {
	var out []*Char
	for _, c := range s.Sorted() {
		if c.At != "" && c.On == "" && s.Covers(c, l) {
			out = append(out, c)
		}
	}
	return out
}

// Touch reports whether a character can step, or strike, from a to b:
// adjacent hexes whose levels connect (hexmap.Connects: same level, a ramp's
// up or down side, a deck's own path), with no hexside feature between them
// that stops movement at either level (a wall; a door does not).
func (s *State) Touch(a, b hex.Loc) bool {
	if !s.board.Connects(a, b) {
		return false
	}
	side, _ := s.board.SideBetween(a.Hex, b.Hex)
	if s.demolished(side) { // magic chapter: a wall a spell knocked down
		return true
	}
	for _, lv := range []hex.Level{a.Level, b.Level} {
		for _, f := range s.board.FeaturesAt(side, lv) {
			if ft := s.data.Features[f.Kind]; ft != nil && ft.BlocksMove {
				return false
			}
		}
	}
	return true
}

// Terrain is the terrain row of the hex under l; nil off the map (a
// caller that may be handed such a hex asks OnMap first).
func (s *State) Terrain(l hex.Loc) *Terrain {
	if k, ok := s.magicTerrain(l.Hex); ok { // magic chapter: a bridge or gallery a spell made
		return s.data.Terrain[k]
	}
	return s.data.Terrain[s.board.Terrain(l.Hex)]
}

// CanEnter reports whether a character of kind k may ever stand at l:
// the terrain is passable and not closed to any of its tags (DN-MOVE-5).
func (s *State) CanEnter(k *Kind, l hex.Loc) bool {
	t := s.Terrain(l)
	if t == nil || t.Impassable || s.burning(l) { // burning: magic chapter, a fireball's hex (AMB-78)
		return false
	}
	return !closedTo(k, t) && (len(t.OpenTo) == 0 || slices.ContainsFunc(t.OpenTo, k.Has)) // move_rider.go: a rider's prohibitions; DN3: the deep river (AMB-64)
}

// InPosition reports whether e is in position to attack location l
// (DN-COMBAT-7, AMB-36): e is alive and on its feet, one of its locations
// touches l (same level or a connecting ramp, no wall between), it could
// enter l (DN-COMBAT-6), and a Queen or Guard does not touch l with its
// rear alone. Fire (DN-FIRE-4, DN-COVER-17), infiltration (DN-INFIL-1) and
// combat (DN-COMBAT-1) all ask this one function.
func (s *State) InPosition(e *Char, l hex.Loc) bool {
	if !e.Standing() {
		return false
	}
	if e.On != "" { // DN3: a character an Ent carries (special_ent.go)
		return s.aboardReaches(e, l)
	}
	k := s.Kind(e)
	if s.CanEnter(s.mover(e), l) { // a rider by its steed's ways (move_rider.go)
		for _, from := range s.Locs(e) {
			if !s.Touch(from, l) {
				continue
			}
			if k.Shape == hex.Single.Name || k.Faces["healthy"].Rear == 0 {
				return true
			}
			if s.notRearOnly(e, l.Hex) {
				return true
			}
		}
	}
	return k.ReachUp > 0 && s.reachesUp(e, l) // DN3: an Ent's, the dragon's reach (special_dragon.go)
}

// notRearOnly reports whether h touches e's counter by a side that is not
// of its grey rear zone (DN-KROB-2, DN3-PEOPLE-ENT-9).
func (s *State) notRearOnly(e *Char, h hex.Hex) bool {
	c, ok := s.footprint(e).ContactOf(h)
	return ok && c.Aspect&hex.AspectRear != c.Aspect
}

// CanAttack reports whether a is in position to attack one of d's
// locations.
func (s *State) CanAttack(a, d *Char) bool {
	if d.On != "" { // DN3: a character an Ent carries (special_ent.go)
		return s.reachesAboard(a, d)
	}
	for _, l := range s.Locs(d) {
		if s.InPosition(a, l) {
			return true
		}
	}
	return false
}

// Threats lists the enemies of side in position to attack l, in ID order.
func (s *State) Threats(side string, l hex.Loc) []*Char {
	var out []*Char
	for _, e := range s.Living("") {
		if string(e.Side) != side && s.InPosition(e, l) {
			out = append(out, e)
		}
	}
	return out
}

// Distance is the number of hexes from a to b, counting b's and not a's
// (DN-FIRE-8, DN-MAGIC-12).
func (s *State) Distance(a, b hex.Loc) int { return s.board.Layout.Distance(a.Hex, b.Hex) }
