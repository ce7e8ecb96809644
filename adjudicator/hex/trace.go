package hex

import "sort"

// Touch says how a straight line meets a hexside or a hex.
type Touch int

// How a line meets a hexside (or a hex's outline).
const (
	// Vertex: the line only touches an end point (corner) of the hexside,
	// or only a corner of the hex.
	Vertex Touch = iota + 1
	// Along: the line runs along the hexside for some length (for a hex:
	// along one of its sides, without entering it).
	Along
	// Cross: the line passes through the inside of the hexside (for a hex:
	// through the inside of the hex).
	Cross
)

// String names the touch: "vertex", "along", "cross" (or "none").
func (t Touch) String() string {
	switch t {
	case Vertex:
		return "vertex"
	case Along:
		return "along"
	case Cross:
		return "cross"
	}
	return "none"
}

// SideTouch is one hexside a line meets and how.
type SideTouch struct {
	Side  Hexside
	Touch Touch
	// At is the corner touched, for a Vertex touch.
	At Point
}

// HexTouch is one hex a line meets and how: Cross means through its inside.
type HexTouch struct {
	Hex   Hex
	Touch Touch
}

// candidates returns the hexes whose outline may meet the segment between the
// centres of a and b: the bounding box of the two, grown by one column and two
// rows, which covers every hex within two units of the segment.
func candidates(a, b Hex) []Hex {
	c0, c1 := min(a.Col, b.Col)-1, max(a.Col, b.Col)+1
	r0, r1 := min(a.Row, b.Row)-2, max(a.Row, b.Row)+2
	var out []Hex
	for c := c0; c <= c1; c++ {
		for r := r0; r <= r1; r++ {
			out = append(out, Hex{c, r})
		}
	}
	return out
}

// TraceSides returns every hexside the straight segment from the centre of a
// to the centre of b meets, and how (DR-HEX-11), ordered by hexside. a == b
// meets none.
func TraceSides(a, b Hex) []SideTouch {
	if a == b {
		return nil
	}
	p, q := Centre(a), Centre(b)
	seen := map[Hexside]bool{}
	var out []SideTouch
	for _, h := range candidates(a, b) {
		for _, d := range Directions {
			s := h.Side(d)
			if seen[s] {
				continue
			}
			seen[s] = true
			v, w := Corners(h, d)
			if t, at := segTouch(p, q, v, w); t != 0 {
				out = append(out, SideTouch{s, t, at})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Side.Less(out[j].Side) })
	return out
}

// TraceHexes returns every hex the segment between the centres of a and b
// meets, a and b included, and how: Cross (through its inside), Along (along
// one of its sides only) or Vertex (a corner only).
func TraceHexes(a, b Hex) []HexTouch {
	p, q := Centre(a), Centre(b)
	var out []HexTouch
	for _, h := range candidates(a, b) {
		if t := hexTouch(p, q, h); t != 0 {
			out = append(out, HexTouch{h, t})
		}
	}
	return out
}

// orient is the sign of the cross product (q−p)×(r−p).
func orient(p, q, r Point) int {
	v := (q.X-p.X)*(r.Y-p.Y) - (q.Y-p.Y)*(r.X-p.X)
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// onSeg reports whether r, known collinear with p–q, lies within it.
func onSeg(p, q, r Point) bool {
	return min(p.X, q.X) <= r.X && r.X <= max(p.X, q.X) &&
		min(p.Y, q.Y) <= r.Y && r.Y <= max(p.Y, q.Y)
}

// segTouch classifies how segment p–q meets edge v–w (0: not at all) and,
// for a Vertex touch, which corner.
func segTouch(p, q, v, w Point) (Touch, Point) {
	o1, o2 := orient(p, q, v), orient(p, q, w)
	o3, o4 := orient(v, w, p), orient(v, w, q)
	if o1 == 0 && o2 == 0 {
		// Collinear: measure the overlap along the dominant axis.
		lo, hi := overlap(p, q, v, w)
		switch {
		case lo < hi:
			return Along, Point{}
		case lo == hi && onSeg(p, q, v):
			return Vertex, v
		case lo == hi:
			return Vertex, w
		}
		return 0, Point{}
	}
	if o1*o2 < 0 && o3*o4 < 0 {
		return Cross, Point{}
	}
	if o1 == 0 && onSeg(p, q, v) {
		return Vertex, v
	}
	if o2 == 0 && onSeg(p, q, w) {
		return Vertex, w
	}
	return 0, Point{}
}

// overlap projects two collinear segments on the axis where they vary most
// and returns the overlap interval [lo, hi].
func overlap(p, q, v, w Point) (int, int) {
	proj := func(a Point) int { return a.X }
	if abs(q.X-p.X) < abs(q.Y-p.Y) || (p.X == q.X && v.X == w.X) {
		proj = func(a Point) int { return a.Y }
	}
	lo := max(min(proj(p), proj(q)), min(proj(v), proj(w)))
	hi := min(max(proj(p), proj(q)), max(proj(v), proj(w)))
	return lo, hi
}

// hexTouch classifies how segment p–q meets hex h (0: not at all).
func hexTouch(p, q Point, h Hex) Touch {
	t, _, _ := clipHex(p, q, h)
	return t
}

type frac struct{ n, d int }

func (f frac) norm() frac {
	if f.d < 0 {
		return frac{-f.n, -f.d}
	}
	return f
}
func (f frac) less(g frac) bool { return f.n*g.d < g.n*f.d }
func fmax(f, g frac) frac {
	if f.less(g) {
		return g
	}
	return f
}
func fmin(f, g frac) frac {
	if g.less(f) {
		return g
	}
	return f
}
