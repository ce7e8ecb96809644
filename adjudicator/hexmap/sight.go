package hexmap

import (
	"fmt"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// SightLine is the straight line of sight between two locations, from the
// centre of one hex to the centre of the other, rising or falling evenly
// from the first location's level to the second's. It lists every hexside
// and hex the line meets with the exact height of the line there, so that
// a game can say what blocks at which level. It is computed on the flat
// layout only, as hex.TraceSides is.
type SightLine struct {
	From, To hex.Loc
	Sides    []SightSide
	Hexes    []SightHex
}

// SightSide is a hexside the line meets, how, and the line's height there
// (in half-levels; Low == High unless the line runs along the hexside
// while climbing).
type SightSide struct {
	hex.SideSpan
	Low, High hex.Ratio
	// Features are the hexside's features the line meets: those without
	// a level, and those at a level whose storey (from the level up to,
	// not including, the next whole level) the line passes through there.
	Features []Side
}

// SightHex is a hex the line meets, how, the line's lowest and highest
// height while over it (in half-levels), and the hex's locations.
type SightHex struct {
	hex.HexSpan
	Low, High hex.Ratio
	Locs      []hex.Loc
}

// Sight traces the line between two locations of the map. It fails when a
// location is not on the map or the map is not on the flat layout.
func (m *Map) Sight(a, b hex.Loc) (SightLine, error) {
	if m.Layout != hex.Flat {
		return SightLine{}, fmt.Errorf("map %s: line of sight is computed on the flat layout only, and this map is %s", m.Name, m.Layout)
	}
	for _, l := range []hex.Loc{a, b} {
		if !m.HasLoc(l) {
			return SightLine{}, fmt.Errorf("map %s: %s is no location of the map (its hex's locations are %v)", m.Name, l, m.Locs(l.Hex))
		}
	}
	out := SightLine{From: a, To: b}
	if a.Hex == b.Hex {
		return out, nil
	}
	for _, s := range hex.TraceSideSpans(a.Hex, b.Hex) {
		lo, hi := heights(a.Level, b.Level, s.From, s.To)
		ss := SightSide{SideSpan: s, Low: lo, High: hi}
		for _, f := range m.Features(s.Side) {
			if !f.OnLevel || inStorey(lo, hi, f.Level) {
				ss.Features = append(ss.Features, f)
			}
		}
		out.Sides = append(out.Sides, ss)
	}
	for _, h := range hex.TraceHexSpans(a.Hex, b.Hex) {
		if !m.OnMap(h.Hex) {
			continue
		}
		lo, hi := heights(a.Level, b.Level, h.From, h.To)
		out.Hexes = append(out.Hexes, SightHex{HexSpan: h, Low: lo, High: hi, Locs: m.Locs(h.Hex)})
	}
	return out, nil
}

// inStorey reports whether heights lo..hi meet the storey of level l: a
// feature at level 0 stands from 0 up to, but not including, +1, so a line
// passing at +1/2 meets it and a line along a deck at +1 passes over it.
func inStorey(lo, hi hex.Ratio, l hex.Level) bool {
	return lo.CmpLevel(l+hex.Storey) < 0 && hi.CmpLevel(l) >= 0
}

func heights(from, to hex.Level, t0, t1 hex.Ratio) (hex.Ratio, hex.Ratio) {
	lo, hi := hex.HeightAt(from, to, t0), hex.HeightAt(from, to, t1)
	if hi.Cmp(lo) < 0 {
		lo, hi = hi, lo
	}
	return lo, hi
}

// SightRule is what a game says blocks a line of sight between locations.
// Either function may be nil. The games' rules (which features block,
// which characters are obstacles to a line between different levels) live
// in these functions; the map supplies the geometry.
type SightRule struct {
	// Side reports whether the hexside the line meets blocks it.
	Side func(SightSide) bool
	// Loc reports whether location l, in a hex the line meets, blocks it
	// (the line's heights over the hex are in h). The two ends' hexes are
	// never asked about.
	Loc func(l hex.Loc, h SightHex) bool
	// Rule is how a touch at a corner counts (hex.Strict or hex.Lenient).
	Rule hex.LOSRule
}

// Blocked returns the hexsides and locations that block the line under the
// game's rule: none means the line is clear. Touches count as in
// hex.Blockers and hex.BlockingHexes.
func (s SightLine) Blocked(r SightRule) ([]SightSide, []hex.Loc) {
	if s.From.Hex == s.To.Hex {
		return nil, nil
	}
	sides := map[hex.Hexside]SightSide{}
	for _, ss := range s.Sides {
		sides[ss.Side] = ss
	}
	hexes := map[hex.Hex]SightHex{}
	for _, sh := range s.Hexes {
		hexes[sh.Hex] = sh
	}
	var obs hex.Obstacles
	if r.Side != nil {
		obs.Side = func(h hex.Hexside) bool {
			ss, ok := sides[h]
			return ok && r.Side(ss)
		}
	}
	blockingLocs := map[hex.Hex][]hex.Loc{}
	if r.Loc != nil {
		obs.Hex = func(h hex.Hex) bool {
			sh, ok := hexes[h]
			if !ok {
				return false
			}
			if _, done := blockingLocs[h]; !done {
				blockingLocs[h] = []hex.Loc{}
				for _, l := range sh.Locs {
					if r.Loc(l, sh) {
						blockingLocs[h] = append(blockingLocs[h], l)
					}
				}
			}
			return len(blockingLocs[h]) > 0
		}
	}
	var outSides []SightSide
	for _, st := range hex.Blockers(s.From.Hex, s.To.Hex, obs, r.Rule) {
		outSides = append(outSides, sides[st.Side])
	}
	var outLocs []hex.Loc
	for _, ht := range hex.BlockingHexes(s.From.Hex, s.To.Hex, obs, r.Rule) {
		outLocs = append(outLocs, blockingLocs[ht.Hex]...)
	}
	return outSides, outLocs
}

// Clear reports whether nothing blocks the line under the game's rule.
func (s SightLine) Clear(r SightRule) bool {
	sides, locs := s.Blocked(r)
	return len(sides) == 0 && len(locs) == 0
}
