package hex

// Line returns the n hexes met by walking straight from h in direction d,
// h excluded: a bound's or flight segment's path, or the breath line
// (DR-HEX-10). n <= 0 gives none.
func Line(h Hex, d Direction, n int) []Hex {
	var out []Hex
	for i := 0; i < n; i++ {
		h = h.Neighbour(d)
		out = append(out, h)
	}
	return out
}

// InLine reports whether o lies on the straight line from h in direction d
// (at distance 1 or more), and how far along it.
func InLine(h Hex, d Direction, o Hex) (int, bool) {
	n := Distance(h, o)
	if n == 0 {
		return 0, false
	}
	cur := h
	for i := 1; i <= n; i++ {
		cur = cur.Neighbour(d)
	}
	return n, cur == o
}

// Bound returns the hexes a bound may reach from h facing f: after an optional
// 60° turn left or right, 1, 2 or 3 hexes straight ahead — nine hexes
// (DR-HEX-10).
func Bound(h Hex, f Direction) []Hex {
	var out []Hex
	for _, d := range []Direction{f.Left(), f, f.Right()} {
		out = append(out, Line(h, d, 3)...)
	}
	return out
}
