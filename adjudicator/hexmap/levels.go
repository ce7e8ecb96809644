package hexmap

import (
	"slices"
	"sort"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// levels is what a map knows of heights: each hex's floor, the ramps
// between levels and the decks above the floor. A map without any of them
// is flat: every hex has one location, at level 0.
type levels struct {
	floor     map[hex.Hex]hex.Level
	fprov     map[hex.Hex]Provenance
	ramps     map[hex.Hex]Ramp
	decks     []Deck
	deckAt    map[hex.Loc]int // deck location → index in decks
	deckLinks map[deckLink]bool
}

// deckLink is a hexside a deck crosses at its level.
type deckLink struct {
	side  hex.Hexside
	level hex.Level
}

// Ramp is a hex whose floor is at a half level (stairs, a slope, a bank):
// it joins the whole level below and the whole level above. Up and Down,
// when given, are the only sides through which it leads to the level above
// and the level below; when empty, every side does.
type Ramp struct {
	Hex      hex.Hex
	Level    hex.Level
	Up, Down []hex.Direction
	Provenance
}

// Deck is a structure standing above the floor at one level (a footbridge,
// a gallery): a path of adjacent hexes, each pair of consecutive ones
// joined at the deck's level. It rests on the path's hexes whose floor is
// at its level and stands above the others, giving each of them a second
// location. It joins nothing but its own path: a deck is entered only from
// a hex it rests on.
type Deck struct {
	Name  string
	Kind  string
	Level hex.Level
	Path  []hex.Hex
	Provenance
}

// Over returns the hexes the deck stands above (its locations), in path
// order.
func (d Deck) Over(m *Map) []hex.Hex {
	var out []hex.Hex
	for _, h := range d.Path {
		if m.Floor(h) < d.Level {
			out = append(out, h)
		}
	}
	return out
}

// Floor is the level of h's floor: 0 unless the map's floors: say
// otherwise (and 0 off the map).
func (m *Map) Floor(h hex.Hex) hex.Level { return m.floor[h] }

// FloorProvenance says whether h's floor level is stated or assumed.
func (m *Map) FloorProvenance(h hex.Hex) Provenance { return m.fprov[h] }

// Leveled reports whether the map has any floor other than 0 or any deck.
func (m *Map) Leveled() bool { return len(m.floor) > 0 || len(m.decks) > 0 }

// Ramp returns the ramp at h, when h's floor is at a half level.
func (m *Map) Ramp(h hex.Hex) (Ramp, bool) {
	r, ok := m.ramps[h]
	return r, ok
}

// Decks returns the map's decks in file order.
func (m *Map) Decks() []Deck { return m.decks }

// DeckAt returns the deck that location l stands on, when l is a deck
// location (not a floor).
func (m *Map) DeckAt(l hex.Loc) (Deck, bool) {
	i, ok := m.deckAt[l]
	if !ok {
		return Deck{}, false
	}
	return m.decks[i], true
}

// Locs returns the locations of h from the floor up: the floor, then each
// deck above it. Off the map there are none.
func (m *Map) Locs(h hex.Hex) []hex.Loc {
	if !m.OnMap(h) {
		return nil
	}
	out := []hex.Loc{hex.At(h, m.Floor(h))}
	for l := range m.deckAt {
		if l.Hex == h {
			out = append(out, l)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Less(out[j]) })
	return out
}

// HasLoc reports whether l is a location of the map: a hex's floor or a
// deck above it.
func (m *Map) HasLoc(l hex.Loc) bool {
	if !m.OnMap(l.Hex) {
		return false
	}
	_, deck := m.deckAt[l]
	return deck || m.Floor(l.Hex) == l.Level
}

// FloorLoc is the location on h's floor.
func (m *Map) FloorLoc(h hex.Hex) hex.Loc { return hex.At(h, m.Floor(h)) }

// LevelDiff is how far b is above a, in half-levels (negative: below).
func LevelDiff(a, b hex.Loc) hex.Level { return b.Level - a.Level }

// Connects reports whether a character can step between two adjacent
// locations, as far as levels go: two floors at the same level; a floor at
// a half level (a ramp) and a floor half a level above or below it,
// through the ramp's up or down sides when it names them; a deck and the
// next hex of its own path at its level. Anything else (different levels,
// a deck and a hex beside it, a deck and the floor under it) does not
// connect. What stands on the hexside (a wall, a door) is the game's
// question: see FeaturesAt.
func (m *Map) Connects(a, b hex.Loc) bool {
	if !m.HasLoc(a) || !m.HasLoc(b) {
		return false
	}
	s, adjacent := m.Layout.SideBetween(a.Hex, b.Hex)
	if !adjacent {
		return false
	}
	_, da := m.deckAt[a]
	_, db := m.deckAt[b]
	if da || db {
		return a.Level == b.Level && m.deckLinks[deckLink{s, a.Level}]
	}
	switch d := LevelDiff(a, b); d {
	case 0:
		return true
	case hex.Half, -hex.Half:
		lo, hi := a, b
		if d < 0 {
			lo, hi = b, a
		}
		if r, ok := m.ramps[lo.Hex]; ok && lo.Level.IsHalf() {
			return rampSide(m, r, r.Up, hi.Hex)
		}
		if r, ok := m.ramps[hi.Hex]; ok && hi.Level.IsHalf() {
			return rampSide(m, r, r.Down, lo.Hex)
		}
	}
	return false
}

// rampSide reports whether the ramp leads to hex o through sides ds (any
// side when ds is empty).
func rampSide(m *Map, r Ramp, ds []hex.Direction, o hex.Hex) bool {
	if len(ds) == 0 {
		return true
	}
	d, _ := m.Layout.DirectionTo(r.Hex, o)
	return slices.Contains(ds, d)
}

// Exits returns the locations connected to l (see Connects), ordered by
// location.
func (m *Map) Exits(l hex.Loc) []hex.Loc {
	var out []hex.Loc
	for _, n := range m.Neighbours(l.Hex) {
		for _, o := range m.Locs(n) {
			if m.Connects(l, o) {
				out = append(out, o)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Less(out[j]) })
	return out
}

// FeaturesAt returns the features of hexside s that exist at level l: those
// given without a level (they stand at every level) and those given at
// exactly l.
func (m *Map) FeaturesAt(s hex.Hexside, l hex.Level) []Side {
	var out []Side
	for _, f := range m.Features(s) {
		if !f.OnLevel || f.Level == l {
			out = append(out, f)
		}
	}
	return out
}
