package hex

import (
	"slices"
	"testing"
)

func sortedHexes(hs []Hex) []Hex {
	out := slices.Clone(hs)
	slices.SortFunc(out, func(a, b Hex) int {
		if a.Less(b) {
			return -1
		}
		if b.Less(a) {
			return 1
		}
		return 0
	})
	return out
}

// TestFootprintProperties: on every layout, for every shape, anchor parity
// and facing, a footprint's hexes are distinct and connected; turning by six
// (or by three twice, or n and back) is the identity; a step and the step
// back is the identity, and a step shifts every hex by that step.
func TestFootprintProperties(t *testing.T) {
	for _, l := range Layouts {
		for _, sh := range Shapes {
			for _, anchor := range []Hex{New(5, 5), New(6, 5), New(5, 6), New(6, 6)} {
				for _, d := range Directions {
					f := Footprint{Shape: sh, Anchor: anchor, Facing: d, Layout: l}
					hs := f.Hexes()
					if len(hs) != sh.Size() || len(slices.Compact(sortedHexes(hs))) != sh.Size() {
						t.Fatalf("%v %v: hexes %v are not %d distinct hexes", l, f, hs, sh.Size())
					}
					if !Connected(l, hs) {
						t.Fatalf("%v %v: hexes %v are not one piece", l, f, hs)
					}
					if hs[0] != anchor || !f.Covers(anchor) {
						t.Fatalf("%v %v: the anchor is not the first hex", l, f)
					}
					if f.Turn(6) != f || f.Turn(3).Turn(3) != f || f.Turn(2).Turn(-2) != f || f.Face(d) != f {
						t.Fatalf("%v %v: turning round is not the identity", l, f)
					}
					for _, s := range Directions {
						g := f.Step(s)
						if g.Step(s.Opposite()) != f {
							t.Fatalf("%v %v: a step %v and back moves it", l, f, s)
						}
						for i, h := range g.Hexes() {
							if h != l.Neighbour(hs[i], s) {
								t.Fatalf("%v %v: step %v puts cell %d at %v, not next to %v", l, f, s, i, h, hs[i])
							}
						}
					}
					// Every outline edge is a side of a covered hex to an
					// uncovered one, and contacts list each outer hex once.
					for _, e := range f.Outline() {
						if !f.Covers(e.Inner) || f.Covers(e.Outer) || l.Side(e.Inner, e.Dir) != e.Side || l.Neighbour(e.Inner, e.Dir) != e.Outer {
							t.Fatalf("%v %v: bad outline edge %+v", l, f, e)
						}
					}
					seen := map[Hex]bool{}
					for _, c := range f.Around() {
						if seen[c.Hex] || f.Covers(c.Hex) || len(c.Edges) == 0 {
							t.Fatalf("%v %v: bad contact %+v", l, f, c)
						}
						seen[c.Hex] = true
					}
				}
			}
		}
	}
}

// TestFootprintOutline counts each shape's outline and its front, flank
// and rear sides, the same for every facing: a shape's aspects turn with it.
func TestFootprintOutline(t *testing.T) {
	for _, c := range []struct {
		sh                        Shape
		edges, around             int
		front, flank, rear        int
		frontHexes, rearOnlyHexes int
	}{
		{Single, 6, 6, 3, 0, 3, 3, 3},
		{Pair, 10, 8, 5, 0, 5, 5, 3},
		{Triangle, 12, 9, 4, 4, 4, 3, 2},
		{Rosette, 18, 12, 9, 0, 9, 7, 5},
	} {
		for _, l := range Layouts {
			for _, d := range Directions {
				f := Footprint{Shape: c.sh, Anchor: New(7, 7), Facing: d, Layout: l}
				count := map[Aspect]int{}
				for _, e := range f.Outline() {
					count[e.Aspect]++
				}
				if len(f.Outline()) != c.edges || count[AspectFront] != c.front || count[AspectFlank] != c.flank || count[AspectRear] != c.rear {
					t.Errorf("%v %v: %d edges, aspects %v", l, f, len(f.Outline()), count)
				}
				var front, rearOnly int
				for _, ct := range f.Around() {
					if ct.Aspect&AspectFront != 0 {
						front++
					}
					if ct.Aspect == AspectRear {
						rearOnly++
					}
				}
				if len(f.Around()) != c.around || front != c.frontHexes || rearOnly != c.rearOnlyHexes {
					t.Errorf("%v %v: %d hexes around, %d touching the front, %d only the rear", l, f, len(f.Around()), front, rearOnly)
				}
			}
		}
	}
}

// TestSingleFootprintMatchesFacing: a one-hex footprint's front is the
// package's FrontThree and its rear the other three neighbours.
func TestSingleFootprintMatchesFacing(t *testing.T) {
	for _, h := range []Hex{New(6, 6), New(7, 6)} {
		for _, d := range Directions {
			f := Footprint{Shape: Single, Anchor: h, Facing: d}
			front := FrontThree(h, d)
			for _, c := range f.Around() {
				want := AspectRear
				if slices.Contains(front[:], c.Hex) {
					want = AspectFront
				}
				if c.Aspect != want {
					t.Errorf("%v: %v is %v, want %v", f, c.Hex, c.Aspect, want)
				}
			}
			if c, ok := f.ContactOf(Behind(h, d)); !ok || c.Aspect != AspectRear || f.Bearing(d.Opposite()) != 6 || f.Bearing(d) != 0 {
				t.Errorf("%v: behind is %+v", f, c)
			}
		}
	}
}

func TestRosetteFacingNorth(t *testing.T) {
	f := Footprint{Shape: Rosette, Anchor: MustParse("0606"), Facing: N}
	ahead := MustParse("0604") // two hexes straight north
	behind := MustParse("0608")
	if c, ok := f.ContactOf(ahead); !ok || c.Aspect != AspectFront || len(c.Edges) != 1 {
		t.Errorf("0604 ahead of the rosette: %+v", c)
	}
	if c, ok := f.ContactOf(behind); !ok || c.Aspect != AspectRear {
		t.Errorf("0608 behind the rosette: %+v", c)
	}
	if _, ok := f.ContactOf(MustParse("0605")); ok {
		t.Error("a covered hex is a contact")
	}
	if _, ok := f.ContactOf(MustParse("0601")); ok {
		t.Error("a far hex is a contact")
	}
	if f.String() != "rosette at 0606 facing N" {
		t.Error(f.String())
	}
}

func TestTriangleLooksBetweenDirections(t *testing.T) {
	f := Footprint{Shape: Triangle, Anchor: MustParse("0606"), Facing: N}
	if got := f.Hexes(); !slices.Equal(got, []Hex{MustParse("0606"), MustParse("0605"), MustParse("0706")}) {
		t.Fatalf("triangle facing N: %v", got)
	}
	for d, want := range []int{1, 1, 3, 5, 5, 3} { // N NE SE S SW NW
		if got := f.Bearing(Direction(d)); got != want {
			t.Errorf("bearing of %v = %d, want %d", Direction(d), got, want)
		}
	}
}

func TestNewShape(t *testing.T) {
	if _, err := NewShape("bent", false, nil, []Direction{0}, []Direction{0, 1}); err != nil {
		t.Errorf("a bent line of three: %v", err)
	}
	for _, c := range []struct {
		name  string
		cells [][]Direction
	}{
		{"no anchor", [][]Direction{{0}}},
		{"empty", nil},
		{"twice", [][]Direction{{}, {0}, {1, 5}}},
		{"apart", [][]Direction{{}, {0, 0}}},
	} {
		if _, err := NewShape(c.name, false, c.cells...); err == nil {
			t.Errorf("NewShape(%s) accepted %v", c.name, c.cells)
		}
	}
	if sh, err := ParseShape(" Triangle "); err != nil || sh.Name != "triangle" {
		t.Errorf("ParseShape: %v %v", sh.Name, err)
	}
	if _, err := ParseShape("square"); err == nil {
		t.Error("ParseShape(square)")
	}
	if (AspectFront|AspectRear).String() != "front+rear" || Aspect(0).String() != "none" {
		t.Error("Aspect.String")
	}
}
