package hex

// Neighbour returns the adjacent hex in direction d, by the column-parity
// formula of DR-HEX-4 (even columns sit half a hex lower):
//
//	N = (c, r−1), S = (c, r+1)
//	odd c:  NE = (c+1, r−1), SE = (c+1, r),   SW = (c−1, r),   NW = (c−1, r−1)
//	even c: NE = (c+1, r),   SE = (c+1, r+1), SW = (c−1, r+1), NW = (c−1, r)
func (h Hex) Neighbour(d Direction) Hex {
	c, r := h.Col, h.Row
	lo := 0 // row shift for the diagonal neighbours
	if even(c) {
		lo = 1
	}
	switch d.norm() {
	case N:
		return Hex{c, r - 1}
	case S:
		return Hex{c, r + 1}
	case NE:
		return Hex{c + 1, r - 1 + lo}
	case SE:
		return Hex{c + 1, r + lo}
	case SW:
		return Hex{c - 1, r + lo}
	default: // NW
		return Hex{c - 1, r - 1 + lo}
	}
}

// Neighbours returns the six adjacent hexes in direction order N, NE, … NW.
func (h Hex) Neighbours() [6]Hex {
	var out [6]Hex
	for _, d := range Directions {
		out[d] = h.Neighbour(d)
	}
	return out
}

// DirectionTo returns the direction from h to o when they are adjacent.
func (h Hex) DirectionTo(o Hex) (Direction, bool) {
	for _, d := range Directions {
		if h.Neighbour(d) == o {
			return d, true
		}
	}
	return 0, false
}

// Adjacent reports whether h and o share a hexside.
func (h Hex) Adjacent(o Hex) bool {
	_, ok := h.DirectionTo(o)
	return ok
}
