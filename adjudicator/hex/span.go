package hex

import "strconv"

// clipHex classifies how segment p–q meets hex h (0: not at all) and gives
// the closed interval of the segment's parameter t ∈ [0, 1] on or inside the
// hex, by clipping against the six half-planes of the hexagon with exact
// fractions.
func clipHex(p, q Point, h Hex) (Touch, frac, frac) {
	c := Centre(h)
	dx, dy := q.X-p.X, q.Y-p.Y
	// open interval (strict inequalities) and closed interval bounds,
	// as fractions num/den with den > 0.
	openLo, openHi := frac{0, 1}, frac{1, 1}
	closedLo, closedHi := frac{0, 1}, frac{1, 1}
	openEmpty, closedEmpty := false, false
	for i := 0; i < 6; i++ {
		v := Point{c.X + cornerOff[i].X, c.Y + cornerOff[i].Y}
		w := Point{c.X + cornerOff[(i+1)%6].X, c.Y + cornerOff[(i+1)%6].Y}
		// Inside is to the right of v→w (corners run clockwise with y down),
		// i.e. cross(w−v, x−v) > 0. Write it as A + t·B > 0.
		ex, ey := w.X-v.X, w.Y-v.Y
		A := ex*(p.Y-v.Y) - ey*(p.X-v.X)
		B := ex*dy - ey*dx
		if B == 0 {
			if A <= 0 {
				openEmpty = true
			}
			if A < 0 {
				closedEmpty = true
			}
			continue
		}
		t := frac{-A, B}.norm() // boundary crossing parameter
		if B > 0 {              // t > t0 inside
			openLo, closedLo = fmax(openLo, t), fmax(closedLo, t)
		} else {
			openHi, closedHi = fmin(openHi, t), fmin(closedHi, t)
		}
	}
	switch {
	case !openEmpty && openLo.less(openHi):
		return Cross, closedLo, closedHi
	case closedEmpty || closedHi.less(closedLo):
		return 0, frac{}, frac{}
	case closedLo.less(closedHi):
		return Along, closedLo, closedHi
	}
	return Vertex, closedLo, closedHi
}

// Ratio is an exact fraction Num/Den (Den > 0): a position along a line of
// sight, or a height between levels. It is never rounded.
type Ratio struct{ Num, Den int }

func (f frac) ratio() Ratio {
	g := gcd(abs(f.n), abs(f.d))
	if g == 0 {
		return Ratio{0, 1}
	}
	return Ratio{f.n / g, f.d / g}
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// Cmp compares r and o: −1, 0 or +1.
func (r Ratio) Cmp(o Ratio) int {
	a, b := r.Num*o.Den, o.Num*r.Den
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// CmpLevel compares a height r, in half-levels, with level l.
func (r Ratio) CmpLevel(l Level) int { return r.Cmp(Ratio{int(l), 1}) }

// String writes "3/4", or "2" for a whole number.
func (r Ratio) String() string {
	if r.Den == 1 {
		return strconv.Itoa(r.Num)
	}
	return strconv.Itoa(r.Num) + "/" + strconv.Itoa(r.Den)
}

// HeightAt is the height, in half-levels, of the straight line from level
// from (t = 0) to level to (t = 1) at parameter t.
func HeightAt(from, to Level, t Ratio) Ratio {
	return frac{int(from)*t.Den + int(to-from)*t.Num, t.Den}.norm().ratio()
}

// SideSpan is a hexside a line meets (as TraceSides reports it) with the
// part of the line that meets it: the parameters From ≤ To along the line,
// 0 at the first centre and 1 at the second. A crossing or a corner touch
// has From == To.
type SideSpan struct {
	SideTouch
	From, To Ratio
}

// HexSpan is a hex a line meets (as TraceHexes reports it) with the part of
// the line on or inside it, as parameters From ≤ To.
type HexSpan struct {
	HexTouch
	From, To Ratio
}

// TraceSideSpans is TraceSides with where along the line each hexside is
// met, so that a caller can tell the line's height there.
func TraceSideSpans(a, b Hex) []SideSpan {
	p, q := Centre(a), Centre(b)
	var out []SideSpan
	for _, st := range TraceSides(a, b) {
		v, w := st.Side.Ends()
		var lo, hi frac
		switch st.Touch {
		case Cross:
			// p + t(q−p) on line v–w: t = cross(v−p, w−v) / cross(q−p, w−v).
			ex, ey := w.X-v.X, w.Y-v.Y
			num := (v.X-p.X)*ey - (v.Y-p.Y)*ex
			den := (q.X-p.X)*ey - (q.Y-p.Y)*ex
			lo = frac{num, den}.norm()
			hi = lo
		case Vertex:
			lo = param(p, q, st.At)
			hi = lo
		case Along:
			lo, hi = param(p, q, v), param(p, q, w)
			if hi.less(lo) {
				lo, hi = hi, lo
			}
			lo, hi = fmax(lo, frac{0, 1}), fmin(hi, frac{1, 1})
		}
		out = append(out, SideSpan{SideTouch: st, From: lo.ratio(), To: hi.ratio()})
	}
	return out
}

// TraceHexSpans is TraceHexes with the part of the line on or inside each
// hex.
func TraceHexSpans(a, b Hex) []HexSpan {
	p, q := Centre(a), Centre(b)
	var out []HexSpan
	for _, h := range candidates(a, b) {
		if t, lo, hi := clipHex(p, q, h); t != 0 {
			out = append(out, HexSpan{HexTouch: HexTouch{h, t}, From: lo.ratio(), To: hi.ratio()})
		}
	}
	return out
}

// param is the parameter of point x, known to lie on the line p–q.
func param(p, q, x Point) frac {
	dx, dy := q.X-p.X, q.Y-p.Y
	return frac{(x.X-p.X)*dx + (x.Y-p.Y)*dy, dx*dx + dy*dy}.norm()
}
