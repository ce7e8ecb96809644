package hex

// axial converts to axial coordinates (q, a) as DR-HEX-5 gives them:
// q = c, a = r − floor((c + (c mod 2)) / 2).
func (h Hex) axial() (q, a int) {
	c := h.Col
	return c, h.Row - floorDiv(c+mod2(c), 2)
}

func mod2(c int) int { return ((c % 2) + 2) % 2 }

func floorDiv(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Distance is the number of hex steps from h to o (DR-HEX-5). A hex is at
// distance 0 from itself and 1 from its neighbours (DR-HEX-6).
func Distance(h, o Hex) int {
	q1, a1 := h.axial()
	q2, a2 := o.axial()
	dq, da := q2-q1, a2-a1
	return (abs(dq) + abs(da) + abs(dq+da)) / 2
}

// Within returns every hex at distance radius or less from h, h included,
// ordered by column then row. Radius 1 gives 7 hexes, radius 2 gives 19
// (DR-HEX-6). A negative radius gives none.
func Within(h Hex, radius int) []Hex {
	var out []Hex
	for c := h.Col - radius; c <= h.Col+radius; c++ {
		for r := h.Row - radius - 1; r <= h.Row+radius+1; r++ {
			o := Hex{c, r}
			if Distance(h, o) <= radius {
				out = append(out, o)
			}
		}
	}
	return out
}

// Ring returns the hexes at exactly distance radius from h, ordered by column
// then row (6·radius hexes; just h for radius 0).
func Ring(h Hex, radius int) []Hex {
	var out []Hex
	for _, o := range Within(h, radius) {
		if Distance(h, o) == radius {
			out = append(out, o)
		}
	}
	return out
}
