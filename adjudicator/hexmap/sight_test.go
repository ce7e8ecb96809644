package hexmap

import (
	"slices"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

func kinds(fs []Side) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Kind)
	}
	return out
}

// TestSightUnderAndOverTheDeck: a line along the deck at +1 passes over
// the wall that stands at level 0 on the hexside below it and meets the
// rail; the same line on the floor meets the wall and not the rail.
func TestSightUnderAndOverTheDeck(t *testing.T) {
	m := loadTest(t, "pit")
	side, _ := m.SideBetween(hex.MustParse("0301"), hex.MustParse("0302"))
	for _, c := range []struct {
		a, b string
		want []string
	}{
		{"0201@+1", "0401@+1", []string{"rail"}},
		{"0201", "0401", []string{"wall"}},
		{"0201@+1", "0401", []string{"wall"}}, // from +1 down to 0: below +1 all along the hexside
	} {
		s, err := m.Sight(loc(c.a), loc(c.b))
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(s.Sides, func(ss SightSide) bool { return ss.Side == side })
		if i < 0 || s.Sides[i].Touch != hex.Along {
			t.Fatalf("%s-%s: the line does not run along %s: %+v", c.a, c.b, side, s.Sides)
		}
		if got := kinds(s.Sides[i].Features); !slices.Equal(got, c.want) {
			t.Errorf("%s-%s: meets %v on %s, want %v", c.a, c.b, got, side, c.want)
		}
		walls := SightRule{Side: func(ss SightSide) bool { return slices.Contains(kinds(ss.Features), "wall") }}
		if s.Clear(walls) != !slices.Contains(c.want, "wall") {
			t.Errorf("%s-%s: Clear = %v", c.a, c.b, s.Clear(walls))
		}
	}
	if _, err := m.Sight(loc("0201@-1"), loc("0401")); err == nil {
		t.Error("a line from no location")
	}
}

// TestSightLowerLevelNotObstacle plays a typical game rule: a character
// blocks the line when it stands at a location the line passes, except
// that when one end is a level above the other, characters on the lower
// level are not obstacles.
func TestSightLowerLevelNotObstacle(t *testing.T) {
	m := loadTest(t, "pit")
	occupied := map[hex.Loc]bool{loc("0302"): true, loc("0301@+1"): true}
	rule := func(a, b hex.Loc) SightRule {
		return SightRule{Loc: func(l hex.Loc, h SightHex) bool {
			if !occupied[l] {
				return false
			}
			if d := LevelDiff(a, b); (d == hex.Storey || d == -hex.Storey) && l.Level == min(a.Level, b.Level) {
				return false
			}
			return h.Low.CmpLevel(l.Level+hex.Storey) < 0 && h.High.CmpLevel(l.Level) >= 0
		}}
	}
	for _, c := range []struct {
		a, b    string
		blocked []string
	}{
		{"0202", "0402", []string{"0302"}},          // both on the floor: the character at 0302 blocks
		{"0201@+1", "0403@-1/2", []string{"0302"}},  // a level and a half down: the line passes 0302 between 0 and +1
		{"0201@+1", "0401@+1", []string{"0301@+1"}}, // along the deck: the character on it blocks
		{"0201", "0401", []string{"0302"}},          // under the deck the one above is not in the way; 0302 is touched along its side
	} {
		a, b := loc(c.a), loc(c.b)
		s, err := m.Sight(a, b)
		if err != nil {
			t.Fatal(err)
		}
		_, locs := s.Blocked(rule(a, b))
		var got []string
		for _, l := range locs {
			got = append(got, l.String())
		}
		if !slices.Equal(got, c.blocked) {
			t.Errorf("%s-%s: blocked by %v, want %v", a, b, got, c.blocked)
		}
	}
	// Exactly one level down, the lower level's character at 0302 is no
	// obstacle.
	a, b := loc("0201@+1"), loc("0402")
	s, _ := m.Sight(a, b)
	if _, locs := s.Blocked(rule(a, b)); len(locs) != 0 {
		t.Errorf("a line one level down is blocked by %v", locs)
	}
}

// TestSightSymmetric: for every pair of locations of the test board, the
// line back meets the same hexsides and hexes at the same heights, and is
// blocked by the same things.
func TestSightSymmetric(t *testing.T) {
	m := loadTest(t, "pit")
	var all []hex.Loc
	for _, h := range m.Hexes() {
		all = append(all, m.Locs(h)...)
	}
	walls := SightRule{Side: func(ss SightSide) bool { return slices.Contains(kinds(ss.Features), "wall") }}
	for _, a := range all {
		for _, b := range all {
			ab, err1 := m.Sight(a, b)
			ba, err2 := m.Sight(b, a)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if len(ab.Sides) != len(ba.Sides) || len(ab.Hexes) != len(ba.Hexes) {
				t.Fatalf("%s-%s: not the same trace both ways", a, b)
			}
			for i := range ab.Sides {
				x, y := ab.Sides[i], ba.Sides[i]
				if x.Side != y.Side || x.Touch != y.Touch || x.Low.Cmp(y.Low) != 0 || x.High.Cmp(y.High) != 0 || !slices.Equal(kinds(x.Features), kinds(y.Features)) {
					t.Fatalf("%s-%s: side %v differs back: %+v / %+v", a, b, x.Side, x, y)
				}
			}
			if ab.Clear(walls) != ba.Clear(walls) {
				t.Fatalf("%s-%s: clear one way only", a, b)
			}
			if a.Level == b.Level {
				for _, sh := range ab.Hexes {
					if sh.Low.CmpLevel(a.Level) != 0 || sh.High.CmpLevel(a.Level) != 0 {
						t.Fatalf("%s-%s: a level line is at %v..%v over %v", a, b, sh.Low, sh.High, sh.Hex)
					}
				}
			}
		}
	}
}

func TestSightFlatOnly(t *testing.T) {
	m, err := Parse("p.yaml", []byte("name: p\nlayout: pointy-odd\nbounds: {cols: [1, 4], rows: [1, 4]}\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Sight(loc("0101"), loc("0303")); err == nil {
		t.Error("a sight line on a pointy map")
	}
}
