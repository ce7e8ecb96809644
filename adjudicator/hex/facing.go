package hex

// Positions around a major monster that faces direction f (DR-HEX-8). With
// facing f: front = f, right-front = f+1, right-rear = f+2, behind = f+3,
// left-rear = f+4, left-front = f+5 (mod 6).

// Front is the hex the monster faces (F).
func Front(h Hex, f Direction) Hex { return h.Neighbour(f) }

// FrontThree is the front hex and the two beside it: left-front, front,
// right-front ("3 hex. devant").
func FrontThree(h Hex, f Direction) [3]Hex {
	return [3]Hex{h.Neighbour(f.Left()), h.Neighbour(f), h.Neighbour(f.Right())}
}

// Sides is the four side hexes: left-front, right-front, left-rear,
// right-rear ("4 hex. de côté"), i.e. the neighbours except front and behind.
func Sides(h Hex, f Direction) [4]Hex {
	return [4]Hex{
		h.Neighbour(f.Left()), h.Neighbour(f.Right()),
		h.Neighbour(f.Rotate(4)), h.Neighbour(f.Rotate(2)),
	}
}

// Behind is the hex directly behind (B, "juste derrière").
func Behind(h Hex, f Direction) Hex { return h.Neighbour(f.Opposite()) }

// TurnLeft and TurnRight rotate a facing one hexside (60°, DR-HEX-9).
func TurnLeft(f Direction) Direction { return f.Left() }

// TurnRight rotates a facing one hexside clockwise.
func TurnRight(f Direction) Direction { return f.Right() }
