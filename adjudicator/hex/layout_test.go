package hex

import (
	"math"
	"slices"
	"testing"
)

// sample is a block of hexes with both column and both row parities, away
// from the zero coordinates.
func sample() []Hex {
	var out []Hex
	for c := 4; c <= 9; c++ {
		for r := 4; r <= 9; r++ {
			out = append(out, Hex{c, r})
		}
	}
	return out
}

// The flat layout is exactly the package-level grid (what Dragon Rage uses).
func TestFlatLayoutIsPackageGrid(t *testing.T) {
	var l Layout
	if l != Flat || l.String() != "flat" || l.Pointy() {
		t.Fatalf("zero layout is %v", l)
	}
	for _, h := range sample() {
		if l.Neighbours(h) != h.Neighbours() || l.Centre(h) != Centre(h) || l.Sides(h) != h.Sides() {
			t.Fatalf("%s: flat layout differs from the package grid", h)
		}
		for _, o := range sample() {
			if l.Distance(h, o) != Distance(h, o) {
				t.Fatalf("distance %s %s", h, o)
			}
		}
		for _, d := range Directions {
			p, q := l.Corners(h, d)
			p2, q2 := Corners(h, d)
			if p != p2 || q != q2 || l.DirName(d) != d.String() {
				t.Fatalf("%s %s corners or name", h, d)
			}
		}
	}
}

func TestPointyNeighbours(t *testing.T) {
	// Pointy-odd: row 5 is shifted right, row 4 is not.
	odd, even := Hex{5, 5}, Hex{5, 4}
	// NE, E, SE, SW, W, NW
	if got, want := PointyOdd.Neighbours(odd), [6]Hex{{6, 4}, {6, 5}, {6, 6}, {5, 6}, {4, 5}, {5, 4}}; got != want {
		t.Errorf("pointy-odd 0505: %v, want %v", got, want)
	}
	if got, want := PointyOdd.Neighbours(even), [6]Hex{{5, 3}, {6, 4}, {5, 5}, {4, 5}, {4, 4}, {4, 3}}; got != want {
		t.Errorf("pointy-odd 0504: %v, want %v", got, want)
	}
	// Pointy-even is the mirror: row 4 is shifted right.
	if got, want := PointyEven.Neighbours(even), [6]Hex{{6, 3}, {6, 4}, {6, 5}, {5, 5}, {4, 4}, {5, 3}}; got != want {
		t.Errorf("pointy-even 0504: %v, want %v", got, want)
	}
	if PointyOdd.DirName(PointyE) != "E" || PointyOdd.DirName(PointyNE.Opposite()) != "SW" || PointyOdd.DirName(PointyW.Right()) != "NW" {
		t.Error("pointy direction names")
	}
}

func TestLayoutNamesAndDirections(t *testing.T) {
	for _, l := range Layouts {
		got, err := ParseLayout(" " + l.String() + " ")
		if err != nil || got != l {
			t.Errorf("ParseLayout(%s) = %v, %v", l, got, err)
		}
		for _, d := range Directions {
			got, err := l.ParseDirection(l.DirName(d))
			if err != nil || got != d {
				t.Errorf("%s: ParseDirection(%s) = %v, %v", l, l.DirName(d), got, err)
			}
		}
	}
	if _, err := ParseLayout("hexagonal"); err == nil {
		t.Error("a bad layout name was accepted")
	}
	if _, err := PointyOdd.ParseDirection("N"); err == nil {
		t.Error("N accepted on a pointy map")
	}
	if _, err := Flat.ParseDirection("E"); err == nil {
		t.Error("E accepted on a flat map")
	}
	if d, err := PointyEven.ParseDirection("se"); err != nil || d != PointySE {
		t.Errorf("se: %v %v", d, err)
	}
}

// Properties every layout must have: a neighbour's neighbour in the
// opposite direction is the start; DirectionTo and SideBetween agree with
// Neighbour; neighbours share exactly the hexside's two corners; centres of
// neighbours are all the same true distance apart, in the direction Angle
// gives; Distance is the breadth-first distance; Within and Ring have the
// sizes of a hexagonal grid.
func TestLayoutProperties(t *testing.T) {
	for _, l := range Layouts {
		t.Run(l.String(), func(t *testing.T) {
			for _, h := range sample() {
				cx, cy := l.Pixel(l.Centre(h))
				seen := map[Hex]bool{}
				for _, d := range Directions {
					n := l.Neighbour(h, d)
					seen[n] = true
					if l.Neighbour(n, d.Opposite()) != h {
						t.Fatalf("%s %s and back", h, l.DirName(d))
					}
					if got, ok := l.DirectionTo(h, n); !ok || got != d || !l.Adjacent(n, h) || l.Distance(h, n) != 1 {
						t.Fatalf("%s→%s: DirectionTo %v %v", h, n, got, ok)
					}
					s, ok := l.SideBetween(h, n)
					if !ok || s != l.Side(h, d) || s != l.Side(n, d.Opposite()) {
						t.Fatalf("%s %s: hexside", h, l.DirName(d))
					}
					if dd, ok := l.SideDir(s, h); !ok || dd != d {
						t.Fatalf("%s %s: SideDir %v", h, l.DirName(d), dd)
					}
					p, q := l.Corners(h, d)
					r, u := l.Corners(n, d.Opposite())
					if p != u || q != r {
						t.Fatalf("%s %s: corners %v %v, from the other side %v %v", h, l.DirName(d), p, q, r, u)
					}
					if e1, e2 := l.SideEnds(s); !(e1 == p && e2 == q) && !(e1 == q && e2 == p) {
						t.Fatalf("%s %s: SideEnds", h, l.DirName(d))
					}
					nx, ny := l.Pixel(l.Centre(n))
					dist := math.Hypot(nx-cx, ny-cy)
					if math.Abs(dist-2*math.Sqrt(3)) > 1e-9 {
						t.Fatalf("%s→%s: centres %.3f apart", h, n, dist)
					}
					ang := math.Atan2(nx-cx, -(ny-cy)) * 180 / math.Pi
					if diff := math.Mod(ang-l.Angle(d)+720, 360); diff > 1e-6 && diff < 360-1e-6 {
						t.Fatalf("%s %s: at %.1f°, Angle says %.1f°", h, l.DirName(d), ang, l.Angle(d))
					}
					// corners are 2 from the centre
					for _, c := range []Point{p, q} {
						x, y := l.Pixel(c)
						if math.Abs(math.Hypot(x-cx, y-cy)-2) > 1e-9 {
							t.Fatalf("%s: corner %v not on the circle", h, c)
						}
					}
				}
				if len(seen) != 6 || seen[h] {
					t.Fatalf("%s: neighbours %v", h, l.Neighbours(h))
				}
				for _, o := range []Hex{{h.Col + 3, h.Row + 2}, {2, 2}} {
					if _, ok := l.SideBetween(h, o); ok || l.Adjacent(h, o) {
						t.Fatalf("%s and %s are not adjacent", h, o)
					}
				}
			}
			for _, start := range []Hex{{10, 10}, {11, 10}, {10, 11}, {11, 11}} {
				dist := map[Hex]int{start: 0}
				queue := []Hex{start}
				for len(queue) > 0 {
					h := queue[0]
					queue = queue[1:]
					if dist[h] == 6 {
						continue
					}
					for _, n := range l.Neighbours(h) {
						if _, ok := dist[n]; !ok {
							dist[n] = dist[h] + 1
							queue = append(queue, n)
						}
					}
				}
				if len(dist) != 127 {
					t.Fatalf("BFS reached %d hexes", len(dist))
				}
				for h, d := range dist {
					if l.Distance(start, h) != d || l.Distance(h, start) != d {
						t.Fatalf("%s→%s: BFS %d, Distance %d", start, h, d, l.Distance(start, h))
					}
				}
				for r := 0; r <= 4; r++ {
					w := l.Within(start, r)
					if len(w) != 1+3*r*(r+1) || !slices.IsSortedFunc(w, func(a, b Hex) int {
						if a.Less(b) {
							return -1
						}
						return 1
					}) {
						t.Fatalf("Within(%s, %d): %d hexes", start, r, len(w))
					}
					for _, h := range w {
						if dist[h] > r {
							t.Fatalf("Within(%s, %d) holds %s at %d", start, r, h, dist[h])
						}
					}
					want := 6 * r
					if r == 0 {
						want = 1
					}
					if n := len(l.Ring(start, r)); n != want {
						t.Fatalf("Ring(%s, %d): %d hexes", start, r, n)
					}
				}
				if len(l.Within(start, -1)) != 0 {
					t.Fatal("negative radius")
				}
			}
		})
	}
}

// Every corner of a hex is a corner of exactly the two neighbours that
// share it, on every layout (the corners tile the plane).
func TestLayoutCornersShared(t *testing.T) {
	for _, l := range Layouts {
		owners := map[Point]int{}
		for c := 0; c < 12; c++ {
			for r := 0; r < 12; r++ {
				for _, d := range Directions {
					p, _ := l.Corners(Hex{c, r}, d)
					owners[p]++
				}
			}
		}
		for _, h := range []Hex{{5, 5}, {6, 6}, {5, 6}} {
			for _, d := range Directions {
				p, _ := l.Corners(h, d)
				if owners[p] != 3 {
					t.Errorf("%s: corner %v of %s is shared by %d hexes", l, p, h, owners[p])
				}
			}
		}
	}
}
