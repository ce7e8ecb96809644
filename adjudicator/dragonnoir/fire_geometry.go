package dragonnoir

import (
	"sort"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// A line of fire from an opening (DN-COVER-5, -10, -23): a character at a
// window, an arrow slit or a door fires from the middle of the opening,
// not from its hex's centre, so the line is a segment from a hexside's
// midpoint to a hex's centre. hex and hexmap trace only centre to centre;
// this file traces the other kind, exactly, in the hex package's integer
// plane doubled (a hexside's midpoint is the sum of its two hexes'
// centres, a whole point there). It classifies touches as hex.TraceSides
// and hex.TraceHexes do (cross, along, vertex), so that the fire rules
// judge both kinds of line alike (fire_line.go).

// dpt is a point of the doubled plane.
type dpt struct{ x, y int }

func doubled(p hex.Point) dpt { return dpt{2 * p.X, 2 * p.Y} }

// midpoint is a hexside's midpoint, doubled.
func midpoint(s hex.Hexside) dpt {
	a, b := s.Hexes()
	ca, cb := hex.Centre(a), hex.Centre(b)
	return dpt{ca.X + cb.X, ca.Y + cb.Y}
}

func orientD(p, q, r dpt) int {
	v := (q.x-p.x)*(r.y-p.y) - (q.y-p.y)*(r.x-p.x)
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

func within(p, q, r dpt) bool {
	return min(p.x, q.x) <= r.x && r.x <= max(p.x, q.x) && min(p.y, q.y) <= r.y && r.y <= max(p.y, q.y)
}

// touchSeg says how segment p–q meets edge v–w.
func touchSeg(p, q, v, w dpt) hex.Touch {
	o1, o2 := orientD(p, q, v), orientD(p, q, w)
	o3, o4 := orientD(v, w, p), orientD(v, w, q)
	if o1 == 0 && o2 == 0 {
		ax := func(a dpt) int { return a.x }
		if abs(q.x-p.x) < abs(q.y-p.y) || (p.x == q.x && v.x == w.x) {
			ax = func(a dpt) int { return a.y }
		}
		lo := max(min(ax(p), ax(q)), min(ax(v), ax(w)))
		hi := min(max(ax(p), ax(q)), max(ax(v), ax(w)))
		switch {
		case lo < hi:
			return hex.Along
		case lo == hi:
			return hex.Vertex
		}
		return 0
	}
	switch {
	case o1*o2 < 0 && o3*o4 < 0:
		return hex.Cross
	case o1 == 0 && within(p, q, v), o2 == 0 && within(p, q, w):
		return hex.Vertex
	}
	return 0
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// corners are a hex's six corners, doubled, clockwise from the NW end of
// its north side (hex.Corners).
func corners(h hex.Hex) [6]dpt {
	var out [6]dpt
	for i, d := range hex.Directions {
		v, _ := hex.Corners(h, d)
		out[i] = doubled(v)
	}
	return out
}

// touchHex says how segment p–q meets hex h: through its inside (cross),
// along a side only, or at a corner only; 0 when it misses it. It clips the
// segment against the hexagon's six half-planes with exact fractions.
func touchHex(p, q dpt, h hex.Hex) hex.Touch {
	cs := corners(h)
	dx, dy := q.x-p.x, q.y-p.y
	type fr struct{ n, d int }
	less := func(a, b fr) bool { return a.n*b.d < b.n*a.d }
	oLo, oHi, cLo, cHi := fr{0, 1}, fr{1, 1}, fr{0, 1}, fr{1, 1}
	oEmpty, cEmpty := false, false
	for i := range 6 {
		v, w := cs[i], cs[(i+1)%6]
		ex, ey := w.x-v.x, w.y-v.y
		a := ex*(p.y-v.y) - ey*(p.x-v.x)
		b := ex*dy - ey*dx
		if b == 0 {
			oEmpty = oEmpty || a <= 0
			cEmpty = cEmpty || a < 0
			continue
		}
		t := fr{-a, b}
		if t.d < 0 {
			t = fr{-t.n, -t.d}
		}
		if b > 0 {
			if less(oLo, t) {
				oLo = t
			}
			if less(cLo, t) {
				cLo = t
			}
		} else {
			if less(t, oHi) {
				oHi = t
			}
			if less(t, cHi) {
				cHi = t
			}
		}
	}
	switch {
	case !oEmpty && less(oLo, oHi):
		return hex.Cross
	case cEmpty || less(cHi, cLo):
		return 0
	case less(cLo, cHi):
		return hex.Along
	}
	return hex.Vertex
}

// traceFrom lists the hexsides and hexes the segment from p (doubled) to
// the centre of b meets, p lying on hexside start (which is not listed);
// near is a hex whose neighbourhood holds p.
func traceFrom(p dpt, start hex.Hexside, near, b hex.Hex) ([]hex.SideTouch, []hex.HexTouch) {
	q := doubled(hex.Centre(b))
	c0, c1 := min(near.Col, b.Col)-2, max(near.Col, b.Col)+2
	r0, r1 := min(near.Row, b.Row)-2, max(near.Row, b.Row)+2
	seen := map[hex.Hexside]bool{start: true}
	var sides []hex.SideTouch
	var hexes []hex.HexTouch
	for c := c0; c <= c1; c++ {
		for r := r0; r <= r1; r++ {
			h := hex.New(c, r)
			if t := touchHex(p, q, h); t != 0 {
				hexes = append(hexes, hex.HexTouch{Hex: h, Touch: t})
			}
			cs := corners(h)
			for i, d := range hex.Directions {
				s := h.Side(d)
				if seen[s] {
					continue
				}
				seen[s] = true
				if t := touchSeg(p, q, cs[i], cs[(i+1)%6]); t != 0 {
					sides = append(sides, hex.SideTouch{Side: s, Touch: t})
				}
			}
		}
	}
	sort.Slice(sides, func(i, j int) bool { return sides[i].Side.Less(sides[j].Side) })
	return sides, hexes
}

// beyond reports whether the centre of h lies strictly on the far side of
// hexside s from hex from: a line from the opening s toward h goes out
// through it.
func beyond(s hex.Hexside, from, h hex.Hex) bool {
	v, w := s.Ends()
	dv, dw := doubled(v), doubled(w)
	return orientD(dv, dw, doubled(hex.Centre(from)))*orientD(dv, dw, doubled(hex.Centre(h))) < 0
}
