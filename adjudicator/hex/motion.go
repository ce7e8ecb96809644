package hex

// HexAt returns the hex whose centre is p in the layout's plane (see
// Layout.Centre), or false when p is no hex's centre.
func (l Layout) HexAt(p Point) (Hex, bool) {
	var h Hex
	if l.Pointy() {
		if mod3(p.Y) != 0 {
			return Hex{}, false
		}
		h.Row = p.Y / 3
		x := p.X
		if l.shifted(h.Row) {
			x--
		}
		if mod2(x) != 0 {
			return Hex{}, false
		}
		h.Col = x / 2
	} else {
		if mod3(p.X) != 0 {
			return Hex{}, false
		}
		h.Col = p.X / 3
		y := p.Y
		if even(h.Col) {
			y--
		}
		if mod2(y) != 0 {
			return Hex{}, false
		}
		h.Row = y / 2
	}
	return h, l.Centre(h) == p
}

func mod3(n int) int { return ((n % 3) + 3) % 3 }

// Motion moves a whole board of hexes rigidly on a layout: an optional half
// turn (180°) about hex From, then the shift that takes From to To. Hexes,
// directions and hexsides keep their adjacency under it. Only the half turn
// is offered: it is the one rotation that maps a rectangular board of hexes
// onto a rectangle of the same grid (a 60° or 120° turn makes a
// parallelogram of a rectangle, and 90° is no symmetry of a hex grid).
type Motion struct {
	Layout   Layout
	From, To Hex
	HalfTurn bool
}

// Hex returns where h goes.
func (m Motion) Hex(h Hex) Hex {
	c, f, t := m.Layout.Centre(h), m.Layout.Centre(m.From), m.Layout.Centre(m.To)
	var p Point
	if m.HalfTurn {
		p = Point{t.X + f.X - c.X, t.Y + f.Y - c.Y}
	} else {
		p = Point{t.X + c.X - f.X, t.Y + c.Y - f.Y}
	}
	out, ok := m.Layout.HexAt(p)
	if !ok {
		panic("hex: a motion left the grid") // cannot happen: see Motion's tests
	}
	return out
}

// Dir returns where direction d points after the motion.
func (m Motion) Dir(d Direction) Direction {
	if m.HalfTurn {
		return d.Opposite()
	}
	return d.norm()
}

// Side returns where hexside s goes.
func (m Motion) Side(s Hexside) Hexside {
	out, _ := m.Layout.SideBetween(m.Hex(s.a), m.Hex(s.b))
	return out
}

// Inverse is the motion that undoes m.
func (m Motion) Inverse() Motion {
	return Motion{Layout: m.Layout, From: m.To, To: m.From, HalfTurn: m.HalfTurn}
}
