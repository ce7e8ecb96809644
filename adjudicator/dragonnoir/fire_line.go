package dragonnoir

import (
	"fmt"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
)

// The line of fire and cover (A.5.1, A.6). A line runs from the centre of
// the shooter's hex to the centre of the target's (DN-FIRE-7), rising or
// falling between their levels (hexmap's Map.Sight), or from the middle of
// the opening a shooter stands at (fire_geometry.go). What blocks it, what
// cover the target has, and the openings' and steep banks' own rules are
// here, each asked of the module's data (terrain.yaml's rows and hexside
// features, counters' tags), never of a terrain's or counter's name. A
// touch counts as a crossing (hex.Strict), as everywhere in umpire's
// Dragon Noir.

// fireLine is a traced line of fire: the hexsides it meets with the
// features there, and the hexes between its two ends.
type fireLine struct {
	from, to hex.Loc
	sides    []lineSide
	hexes    []lineHex
	// opening is the window, arrow slit or door the line starts from.
	opening *hexmap.Side
}

type lineSide struct {
	side     hex.Hexside
	touch    hex.Touch
	features []hexmap.Side
}

type lineHex struct {
	hex   hex.Hex
	touch hex.Touch
	locs  []hex.Loc
}

// LineOfFire traces the line from shooter to the target location
// (DN-FIRE-7) and says whether it is clear, and if not why, with the cover
// the target has (DN-COVER-1; AMB-6: the highest single cover counts).
func (s *State) LineOfFire(shooter, target *Char, to hex.Loc) (cover string, why string) {
	if why := s.warded(to); why != "" { // magic chapter: a magic circle
		return "", why
	}
	ln, why := s.traceFire(shooter, to)
	if why != "" {
		return "", why
	}
	if why := s.fireBlocked(shooter, target, ln); why != "" {
		return "", why
	}
	if why := s.steepBank(ln); why != "" {
		return "", why
	}
	return s.fireCover(ln, target), ""
}

// traceFire traces the line: from the opening the shooter stands at when
// the target is beyond it, else centre to centre.
func (s *State) traceFire(shooter *Char, to hex.Loc) (*fireLine, string) {
	from := s.loc(shooter)
	ln := &fireLine{from: from, to: to}
	if op, ok := s.openingFor(from, to); ok {
		ln.opening = &op
		sides, hexes := traceFrom(midpoint(op.Side), op.Side, from.Hex, to.Hex)
		for _, st := range sides {
			ln.sides = append(ln.sides, lineSide{side: st.Side, touch: st.Touch, features: s.standingFeatures(st.Side, s.board.FeaturesAt(st.Side, from.Level))})
		}
		for _, ht := range hexes {
			if ht.Hex != from.Hex && ht.Hex != to.Hex && s.board.OnMap(ht.Hex) {
				ln.hexes = append(ln.hexes, lineHex{hex: ht.Hex, touch: ht.Touch, locs: s.board.Locs(ht.Hex)})
			}
		}
		return ln, ""
	}
	sl, err := s.board.Sight(from, to)
	if err != nil {
		return nil, err.Error()
	}
	for _, ss := range sl.Sides {
		ln.sides = append(ln.sides, lineSide{side: ss.Side, touch: ss.Touch, features: s.standingFeatures(ss.Side, ss.Features)})
	}
	for _, sh := range sl.Hexes {
		if sh.Hex != from.Hex && sh.Hex != to.Hex {
			ln.hexes = append(ln.hexes, lineHex{hex: sh.Hex, touch: sh.Touch, locs: sh.Locs})
		}
	}
	return ln, ""
}

// standingFeatures are the features of hexside side still standing: none
// where a spell demolished the wall (magic chapter; like a demolished
// wall, DN-COVER-14, it neither blocks nor covers).
func (s *State) standingFeatures(side hex.Hexside, fs []hexmap.Side) []hexmap.Side {
	if s.demolished(side) {
		return nil
	}
	return fs
}

// openingFor finds the opening a shooter at from fires through at to: a
// feature that fires from (DN-COVER-5, -10, -23) on a side of from's hex,
// with from its inside hex and to beyond it; or with from its outside hex
// and to in the room behind it (DN-COVER-7).
func (s *State) openingFor(from, to hex.Loc) (hexmap.Side, bool) {
	for _, side := range from.Hex.Sides() {
		for _, f := range s.board.FeaturesAt(side, from.Level) {
			ft := s.data.Features[f.Kind]
			if ft == nil || !ft.FireFrom {
				continue
			}
			in, out := insideOf(f, from.Hex)
			switch {
			case in == from.Hex && beyond(side, in, to.Hex):
				return f, true
			case out == from.Hex && ft.RoomFromOutside && s.inRoom(in, to.Hex):
				return f, true
			}
		}
	}
	return hexmap.Side{}, false
}

// insideOf is a feature's inside and outside hexes; a feature with no
// inside hex is taken as inside from the side of near.
func insideOf(f hexmap.Side, near hex.Hex) (in, out hex.Hex) {
	a, b := f.Side.Hexes()
	in = f.Inside
	if in == (hex.Hex{}) {
		in = near
	}
	if in == a {
		return a, b
	}
	return b, a
}

// inRoom reports whether h is in the room behind inside hex in: the zone
// of group "room" that holds in, or in itself when no zone does.
func (s *State) inRoom(in, h hex.Hex) bool {
	if z, ok := s.board.ZoneOf(in, "room"); ok {
		return z.Has(h)
	}
	return h == in
}

// fireBlocked says what blocks the line, "" when nothing does: a feature
// that blocks fire (a wall, DN-COVER-13); a window or arrow slit the line
// passes through to reach anyone but the character right behind it
// (DN-COVER-6, -11); a hex between whose terrain blocks fire (trees,
// DN-COVER-2, -3) or with a web (DN-COVER-31); a standing character
// between (DN-COVER-15), except a low one for a shooter that is not a
// dwarf, one in water, and one on the lower level when an end is a level
// above the other (DN-COVER-16).
func (s *State) fireBlocked(shooter, target *Char, ln *fireLine) string {
	for _, ls := range ln.sides {
		for _, f := range ls.features {
			ft := s.data.Features[f.Kind]
			if ft == nil {
				continue
			}
			if ft.BlocksFire {
				return fmt.Sprintf("a %s on %s blocks the line (DN-COVER-13)", ft.Title, ls.side)
			}
			if ls.touch != hex.Cross || ft.Through == "" {
				continue
			}
			in, out := insideOf(f, ln.to.Hex)
			switch {
			case ln.to.Hex != in:
				return fmt.Sprintf("through the %s on %s only the character right behind it, on %s, can be shot (DN-COVER-6, -11)", ft.Title, ls.side, in)
			case ft.Through == "aligned":
				d, _ := in.DirectionTo(out)
				if _, ok := hex.InLine(in, d, ln.from.Hex); !ok {
					return fmt.Sprintf("a shot through the %s on %s comes from a hex in line with it (DN-COVER-11)", ft.Title, ls.side)
				}
			}
		}
	}
	sk := s.Kind(shooter)
	split := ln.from.Level != ln.to.Level
	low := min(ln.from.Level, ln.to.Level)
	for _, lh := range ln.hexes {
		for _, l := range lh.locs {
			if l == s.board.FloorLoc(l.Hex) {
				if t := s.Terrain(l); t != nil && t.Has(TerrBlocksFire) {
					return fmt.Sprintf("the %s on %s blocks the line (DN-COVER-2)", t.Title, l.Hex)
				}
				if s.Web(locString(s.board, l)) {
					return fmt.Sprintf("the web on %s blocks the line (DN-COVER-31)", l.Hex)
				}
			}
			for _, c := range s.At(l) {
				switch {
				case !c.Standing() || c == shooter:
				case c.ID == shooter.On || target != nil && c.ID == target.On: // DN3: the Ent a shooter or target sits on (special_ent.go)
				case s.Terrain(l).Has(TerrWater):
				case split && l.Level <= low:
				case s.Kind(c).Has(TagLow) && !sk.Has(TagDwarf):
				default:
					return fmt.Sprintf("%s on %s blocks the line (DN-COVER-15)", c.ID, locString(s.board, l))
				}
			}
		}
	}
	return ""
}

// steepBank applies the steep bank's rules (DN-COVER-27 … 29, AMB-24): a
// steep bank does not block a line unless it passes over its top (a side
// toward a higher hex); then the lower character must be at least as far
// from the bank's hex as the upper one. A character on the bank and one
// above it see each other only when the upper one is next to the bank.
func (s *State) steepBank(ln *fireLine) string {
	upper, lower := ln.from, ln.to
	if lower.Level > upper.Level {
		upper, lower = lower, upper
	}
	for _, end := range []hex.Loc{ln.from, ln.to} {
		other := ln.to
		if end == ln.to {
			other = ln.from
		}
		if s.steep(end.Hex) && other.Level > s.board.Floor(end.Hex) && s.board.Layout.Distance(end.Hex, other.Hex) > 1 {
			return fmt.Sprintf("a character on the steep bank %s and one above it see each other only from next to its top (DN-COVER-29, AMB-24)", end.Hex)
		}
	}
	if upper.Level == lower.Level {
		return ""
	}
	for _, lh := range ln.hexes {
		if lh.touch != hex.Cross || !s.steep(lh.hex) {
			continue
		}
		top := false
		for _, ls := range ln.sides {
			if o, ok := ls.side.Other(lh.hex); ok && ls.touch == hex.Cross && s.board.Floor(o) > s.board.Floor(lh.hex) {
				top = true
			}
		}
		if !top {
			continue
		}
		du, dl := s.board.Layout.Distance(upper.Hex, lh.hex), s.board.Layout.Distance(lower.Hex, lh.hex)
		if dl < du {
			return fmt.Sprintf("the line passes over the top of the steep bank %s and the lower character is nearer to it (%d hexes) than the upper (%d): they cannot see each other (DN-COVER-28)", lh.hex, dl, du)
		}
	}
	return ""
}

// steep reports whether h is a steep bank: a hex at a half level whose
// terrain carries the steep tag.
func (s *State) steep(h hex.Hex) bool {
	t := s.data.Terrain[s.board.Terrain(h)]
	return t != nil && t.Has(TerrSteep) && s.board.Floor(h).IsHalf()
}

// fireCover is the target's cover on a clear line (AMB-6: the highest
// single one): its terrain's (trees, marsh, water: DN-COVER-4, -9, -26); a
// web's for a Krob on it (DN-COVER-32); each feature the line passes
// through or starts from, unless the feature gives none to this shot
// (no-cover-for: DN-COVER-21, -24), and a feature's own cover for a target
// in water (DN-COVER-20); a hex crossed that covers a target in water (a
// wooden bridge, DN-COVER-19).
func (s *State) fireCover(ln *fireLine, target *Char) string {
	t := s.Terrain(ln.to)
	cover := s.targetCover(target, t) // DN3: an Ent, a character it carries (special_ent.go)
	wet := t.Has(TerrWater)
	raise := func(c string) {
		if coverRank(c) > coverRank(cover) {
			cover = c
		}
	}
	if s.Web(locString(s.board, ln.to)) {
		raise("light")
	}
	feature := func(f hexmap.Side) {
		ft := s.data.Features[f.Kind]
		if ft == nil {
			return
		}
		in, _ := insideOf(f, ln.from.Hex)
		for _, n := range ft.NoCoverFor {
			switch {
			case n == "shooter-inside" && ln.from.Hex == in,
				n == "target-inside" && ln.to.Hex == in,
				n == "shooter-beside" && f.Side.Has(ln.from.Hex):
				return
			}
		}
		if wet && ft.WaterCover != "" {
			raise(ft.WaterCover)
			return
		}
		raise(ft.Cover)
	}
	if ln.opening != nil {
		feature(*ln.opening)
	}
	for _, ls := range ln.sides {
		if ls.touch == hex.Cross {
			for _, f := range ls.features {
				feature(f)
			}
		}
	}
	if wet {
		for _, lh := range ln.hexes {
			if ct := s.data.Terrain[s.board.Terrain(lh.hex)]; lh.touch == hex.Cross && ct != nil && ct.CrossedWaterCover != "" {
				raise(ct.CrossedWaterCover)
			}
		}
	}
	return cover
}

// fireFeature checks a hexside row's fire fields (terrain.yaml).
func fireFeature(c *checker, file string, line int, f *Feature) {
	if !slices.Contains([]string{"", "behind", "aligned"}, f.Through) {
		c.at(file, line, "hexside %s: through %q is behind, aligned or nothing (DN-COVER-6, -11)", f.Kind, f.Through)
	}
	for _, n := range f.NoCoverFor {
		if !slices.Contains([]string{"shooter-inside", "target-inside", "shooter-beside"}, n) {
			c.at(file, line, "hexside %s: no-cover-for %q is shooter-inside, target-inside or shooter-beside", f.Kind, n)
		}
	}
	if f.WaterCover != "" && coverRank(f.WaterCover) < 0 {
		c.at(file, line, "hexside %s: water-cover %q is one of %v", f.Kind, f.WaterCover, covers)
	}
}

// fireTerrain checks a terrain row's fire fields (terrain.yaml).
func fireTerrain(c *checker, file string, line int, t *Terrain) {
	if t.CrossedWaterCover != "" && coverRank(t.CrossedWaterCover) < 0 {
		c.at(file, line, "terrain %s: crossed-water-cover %q is one of %v", t.Kind, t.CrossedWaterCover, covers)
	}
}
