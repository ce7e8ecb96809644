package hex

import (
	"fmt"
	"strings"
)

// Layout is how a map's hexes stand on the page and how "CCRR" names map
// to neighbours. Every hex is still named by column then row; what changes
// is which hexes touch.
//
// The zero value is Flat, the grid the package-level functions use (Dragon
// Rage's): flat-topped hexes in columns, even columns half a hex lower,
// directions N NE SE S SW NW. The pointy-topped layouts stand hexes in
// rows, every other row half a hex to the right, with directions NE E SE SW
// W NW.
//
// A Direction is an index 0..5 numbered clockwise; what each index means
// depends on the layout (index 0 is N on a flat map, NE on a pointy one),
// so direction names go through the layout: DirName, ParseDirection. Rotate,
// Left, Right and Opposite mean the same on every layout.
type Layout uint8

// The layouts.
const (
	// Flat: flat-topped hexes in columns, even-numbered columns half a hex
	// lower (south). The zero value.
	Flat Layout = iota
	// PointyOdd: pointy-topped hexes in rows, odd-numbered rows half a hex
	// to the right (east) of even-numbered rows ("odd-r").
	PointyOdd
	// PointyEven: pointy-topped hexes in rows, even-numbered rows half a
	// hex to the right ("even-r").
	PointyEven
)

// Layouts lists every layout, in the order of their values.
var Layouts = []Layout{Flat, PointyOdd, PointyEven}

// The six directions of a pointy-topped layout, clockwise from NE. They are
// the same type as N … NW, which name the flat layout's: on a pointy map
// index 0 is NE, on a flat one N.
const (
	PointyNE Direction = iota
	PointyE
	PointySE
	PointySW
	PointyW
	PointyNW
)

var layoutNames = [...]string{"flat", "pointy-odd", "pointy-even"}

var pointyDirNames = [6]string{"NE", "E", "SE", "SW", "W", "NW"}

// String is the layout's name in map files: "flat", "pointy-odd" or
// "pointy-even".
func (l Layout) String() string {
	if int(l) < len(layoutNames) {
		return layoutNames[l]
	}
	return fmt.Sprintf("layout(%d)", int(l))
}

// ParseLayout reads a layout name as String writes it.
func ParseLayout(s string) (Layout, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	for i, n := range layoutNames {
		if t == n {
			return Layout(i), nil
		}
	}
	return 0, fmt.Errorf("%q is not a hex layout: use flat (flat-topped, even columns lower), pointy-odd (pointy-topped, odd rows shifted right) or pointy-even (pointy-topped, even rows shifted right)", s)
}

// Pointy reports whether the hexes are pointy-topped (standing in rows).
func (l Layout) Pointy() bool { return l == PointyOdd || l == PointyEven }

// shifted reports whether row r of a pointy layout sits half a hex right.
func (l Layout) shifted(r int) bool {
	odd := mod2(r) == 1
	return odd == (l == PointyOdd)
}

// DirNames are the six direction names of the layout, by index.
func (l Layout) DirNames() [6]string {
	if l.Pointy() {
		return pointyDirNames
	}
	return dirNames
}

// DirName is the name of direction d on this layout: "N" … "NW" on a flat
// map, "NE", "E" … "NW" on a pointy one.
func (l Layout) DirName(d Direction) string { return l.DirNames()[d.norm()] }

// ParseDirection reads a direction name of this layout, in any case.
func (l Layout) ParseDirection(s string) (Direction, error) {
	if !l.Pointy() {
		return ParseDirection(s)
	}
	u := strings.ToUpper(strings.TrimSpace(s))
	for i, n := range pointyDirNames {
		if u == n {
			return Direction(i), nil
		}
	}
	return 0, fmt.Errorf("%q is not a direction of a pointy-topped map: use NE, E, SE, SW, W or NW", s)
}

// Neighbour returns the hex next to h in direction d.
//
// On a pointy layout, with s = 1 when h's row is shifted right and 0
// otherwise: E = (c+1, r), W = (c−1, r), NE = (c+s, r−1), NW = (c−1+s,
// r−1), SE = (c+s, r+1), SW = (c−1+s, r+1).
func (l Layout) Neighbour(h Hex, d Direction) Hex {
	if !l.Pointy() {
		return h.Neighbour(d)
	}
	c, r := h.Col, h.Row
	s := 0
	if l.shifted(r) {
		s = 1
	}
	switch d.norm() {
	case PointyNE:
		return Hex{c + s, r - 1}
	case PointyE:
		return Hex{c + 1, r}
	case PointySE:
		return Hex{c + s, r + 1}
	case PointySW:
		return Hex{c - 1 + s, r + 1}
	case PointyW:
		return Hex{c - 1, r}
	default: // NW
		return Hex{c - 1 + s, r - 1}
	}
}

// Neighbours returns the six hexes next to h, by direction index.
func (l Layout) Neighbours(h Hex) [6]Hex {
	var out [6]Hex
	for _, d := range Directions {
		out[d] = l.Neighbour(h, d)
	}
	return out
}

// DirectionTo returns the direction from h to o when they are adjacent.
func (l Layout) DirectionTo(h, o Hex) (Direction, bool) {
	for _, d := range Directions {
		if l.Neighbour(h, d) == o {
			return d, true
		}
	}
	return 0, false
}

// Adjacent reports whether h and o share a hexside.
func (l Layout) Adjacent(h, o Hex) bool {
	_, ok := l.DirectionTo(h, o)
	return ok
}

// Distance is the number of steps from h to o.
func (l Layout) Distance(h, o Hex) int {
	if !l.Pointy() {
		return Distance(h, o)
	}
	// In the exact plane a pointy hex's centre is (2c + shift, 3r): with
	// "doubled" x, a step changes x by 2 along a row, or x by 1 and the
	// row by 1.
	p, q := l.Centre(h), l.Centre(o)
	dx, dr := abs(q.X-p.X), abs(o.Row-h.Row)
	return dr + max(0, (dx-dr)/2)
}

// Within returns every hex at distance radius or less from h, h included,
// ordered by column then row. A negative radius gives none.
func (l Layout) Within(h Hex, radius int) []Hex {
	if !l.Pointy() {
		return Within(h, radius)
	}
	var out []Hex
	for c := h.Col - radius - 1; c <= h.Col+radius+1; c++ {
		for r := h.Row - radius; r <= h.Row+radius; r++ {
			o := Hex{c, r}
			if l.Distance(h, o) <= radius {
				out = append(out, o)
			}
		}
	}
	return out
}

// Ring returns the hexes at exactly distance radius from h, ordered by
// column then row.
func (l Layout) Ring(h Hex, radius int) []Hex {
	var out []Hex
	for _, o := range l.Within(h, radius) {
		if l.Distance(h, o) == radius {
			out = append(out, o)
		}
	}
	return out
}

// pointyCornerOff are a pointy hex's corners, clockwise from its top: corner
// i and corner i+1 bound the side in direction i (NE is top to upper right).
var pointyCornerOff = [6]Point{{0, -2}, {1, -1}, {1, 1}, {0, 2}, {-1, 1}, {-1, -1}}

// Centre returns the exact centre of h in the layout's integer plane. On a
// flat layout it is the package's Centre. On a pointy layout the plane is
// the flat one turned a quarter: the centre is (2c + [row shifted], 3r) and
// the corners are the centre plus (0, ±2) and (±1, ±1). Pixel turns such a
// point into true proportions.
func (l Layout) Centre(h Hex) Point {
	if !l.Pointy() {
		return Centre(h)
	}
	x := 2 * h.Col
	if l.shifted(h.Row) {
		x++
	}
	return Point{x, 3 * h.Row}
}

// CornerOffsets are the six corners of every hex relative to its centre, in
// the layout's plane, clockwise: corner i and corner i+1 bound the side in
// direction i.
func (l Layout) CornerOffsets() [6]Point {
	if l.Pointy() {
		return pointyCornerOff
	}
	return cornerOff
}

// Corners returns the two ends of the hexside of h in direction d.
func (l Layout) Corners(h Hex, d Direction) (Point, Point) {
	c := l.Centre(h)
	off := l.CornerOffsets()
	i := int(d.norm())
	p, q := off[i], off[(i+1)%6]
	return Point{c.X + p.X, c.Y + p.Y}, Point{c.X + q.X, c.Y + q.Y}
}

// Pixel turns a point of the layout's plane into true proportions, in units
// where a hex's corners are 2 from its centre (the flat plane's y and the
// pointy plane's x are stretched by √3).
func (l Layout) Pixel(p Point) (x, y float64) {
	const sqrt3 = 1.7320508075688772
	if l.Pointy() {
		return sqrt3 * float64(p.X), float64(p.Y)
	}
	return float64(p.X), sqrt3 * float64(p.Y)
}

// Angle is the direction d as an angle on the page, in degrees clockwise
// from north (y down): 0, 60, … on a flat map, 30, 90, … on a pointy one.
func (l Layout) Angle(d Direction) float64 {
	a := 60 * float64(d.norm())
	if l.Pointy() {
		a += 30
	}
	return a
}

// SideBetween returns the hexside between two hexes, or false when they are
// not adjacent on this layout.
func (l Layout) SideBetween(h, o Hex) (Hexside, bool) {
	if !l.Adjacent(h, o) {
		return Hexside{}, false
	}
	if o.Less(h) {
		h, o = o, h
	}
	return Hexside{h, o}, true
}

// Side returns the hexside of h in direction d.
func (l Layout) Side(h Hex, d Direction) Hexside {
	s, _ := l.SideBetween(h, l.Neighbour(h, d))
	return s
}

// Sides returns the six hexsides of h, by direction index.
func (l Layout) Sides(h Hex) [6]Hexside {
	var out [6]Hexside
	for _, d := range Directions {
		out[d] = l.Side(h, d)
	}
	return out
}

// SideDir returns the direction in which s lies as seen from h, or false
// when h is not on s.
func (l Layout) SideDir(s Hexside, h Hex) (Direction, bool) {
	o, ok := s.Other(h)
	if !ok {
		return 0, false
	}
	return l.DirectionTo(h, o)
}

// SideEnds returns the two corners of hexside s.
func (l Layout) SideEnds(s Hexside) (Point, Point) {
	d, _ := l.DirectionTo(s.a, s.b)
	return l.Corners(s.a, d)
}
