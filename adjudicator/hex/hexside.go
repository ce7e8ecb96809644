package hex

import "fmt"

// Hexside is the edge shared by two adjacent hexes. It is a canonical,
// comparable key: the same edge seen from either hex is the same value, so it
// can index maps of walls, doors and broken gates.
type Hexside struct {
	a, b Hex // a before b in Hex.Less order; always adjacent
}

// SideBetween returns the hexside between two hexes, or false when they are
// not adjacent.
func SideBetween(h, o Hex) (Hexside, bool) {
	if !h.Adjacent(o) {
		return Hexside{}, false
	}
	if o.Less(h) {
		h, o = o, h
	}
	return Hexside{h, o}, true
}

// Side returns the hexside of h in direction d.
func (h Hex) Side(d Direction) Hexside {
	s, _ := SideBetween(h, h.Neighbour(d))
	return s
}

// Hexes returns the two hexes the hexside separates, in column-then-row order.
func (s Hexside) Hexes() (Hex, Hex) { return s.a, s.b }

// Has reports whether h is one of the two hexes of s.
func (s Hexside) Has(h Hex) bool { return s.a == h || s.b == h }

// Other returns the hex across s from h, or false when h is not on s.
func (s Hexside) Other(h Hex) (Hex, bool) {
	switch h {
	case s.a:
		return s.b, true
	case s.b:
		return s.a, true
	}
	return Hex{}, false
}

// DirFrom returns the direction in which s lies as seen from h (for example a
// gate is on the SE side of 0606), or false when h is not on s.
func (s Hexside) DirFrom(h Hex) (Direction, bool) {
	o, ok := s.Other(h)
	if !ok {
		return 0, false
	}
	return h.DirectionTo(o)
}

// IsZero reports whether s is the zero value (no hexside).
func (s Hexside) IsZero() bool { return s == Hexside{} }

// String writes the hexside as "0606/0707".
func (s Hexside) String() string { return fmt.Sprintf("%s/%s", s.a, s.b) }

// Less orders hexsides by their first hex, then their second: a stable
// order for lists of hexsides.
func (s Hexside) Less(o Hexside) bool {
	if s.a != o.a {
		return s.a.Less(o.a)
	}
	return s.b.Less(o.b)
}

// Sides returns the six hexsides of h in direction order.
func (h Hex) Sides() [6]Hexside {
	var out [6]Hexside
	for _, d := range Directions {
		out[d] = h.Side(d)
	}
	return out
}
