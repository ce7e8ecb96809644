package hex

// Point is a position in the exact integer plane described in the package
// comment: hex centres at (3c, 2r + [c even]), corners at centre + (±2, 0)
// and (±1, ±1).
type Point struct{ X, Y int }

// Centre returns the exact centre of h.
func Centre(h Hex) Point {
	y := 2 * h.Row
	if even(h.Col) {
		y++
	}
	return Point{3 * h.Col, y}
}

// corner offsets, clockwise from the NW end of the north side: corner i and
// corner i+1 bound the side in direction i.
var cornerOff = [6]Point{{-1, -1}, {1, -1}, {2, 0}, {1, 1}, {-1, 1}, {-2, 0}}

// Corners returns the two end points (vertices) of the hexside of h in
// direction d.
func Corners(h Hex, d Direction) (Point, Point) {
	c := Centre(h)
	i := int(d.norm())
	p, q := cornerOff[i], cornerOff[(i+1)%6]
	return Point{c.X + p.X, c.Y + p.Y}, Point{c.X + q.X, c.Y + q.Y}
}

// Ends returns the two vertices of a hexside.
func (s Hexside) Ends() (Point, Point) {
	d, _ := s.a.DirectionTo(s.b)
	return Corners(s.a, d)
}
