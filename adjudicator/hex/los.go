package hex

// LOSRule chooses what a line of sight that only grazes an obstacle means.
//
// The rules (DR-HEX-11, DR-LOS-4) draw a straight line from the centre of the
// firer's hex to the centre of the target's hex; if it crosses a wall or a
// tower as drawn on the map, the fire is forbidden. They do not say what
// happens when the line runs exactly along a walled hexside or passes through
// a corner where a wall ends (DR-GAP-21). The digest proposes that touching
// blocks; that is Strict, the zero value and the default.
type LOSRule int

const (
	// Strict: the line is blocked if it touches a blocking hexside or tower
	// hex at all — crossing it, running along it, or touching only a corner.
	Strict LOSRule = iota
	// Lenient: the line is blocked only where it really passes a wall: by
	// crossing the inside of a blocking hexside or tower hex, by running
	// along a blocking hexside (or a side of a tower hex), or by passing
	// through a corner with blocking hexsides on both sides of the line (a
	// wall that bends or continues at that corner). Grazing the end of a
	// wall, or a tower's corner, does not block.
	Lenient
)

// String returns "strict" or "lenient".
func (r LOSRule) String() string {
	if r == Lenient {
		return "lenient"
	}
	return "strict"
}

// blocks reports whether a touch of kind t blocks under rule r, taken on its
// own (Lenient vertex touches are judged together, see vertexCrossings).
func (r LOSRule) blocks(t Touch) bool {
	switch t {
	case Cross, Along:
		return true
	case Vertex:
		return r == Strict
	}
	return false
}

// Obstacles says which hexsides and hexes block sight. Either may be nil.
type Obstacles struct {
	// Side reports a hexside drawn as a wall (or any other sight-blocking
	// edge feature).
	Side func(Hexside) bool
	// Hex reports a hex that blocks sight when the line passes through or
	// touches it, such as a tower. The firer's and target's own hexes are
	// never obstacles to their own line of sight.
	Hex func(Hex) bool
}

// LineOfSight reports whether the straight segment between the centres of a
// and b is clear of the obstacles under rule r. A hex always sees itself.
// Game rules that override geometry (a firer in a tower sees everything,
// DR-LOS-2; firing through an open entrance, DR-LOS-5; Nurkott palisades,
// DR-LOS-7) belong to the caller: pass an Obstacles that leaves those out.
func LineOfSight(a, b Hex, obs Obstacles, r LOSRule) bool {
	return len(Blockers(a, b, obs, r)) == 0 && len(blockingHexes(a, b, obs, r)) == 0
}

// Blockers returns the hexsides that block the line from a to b under rule r,
// with how the line meets each — for explaining a refusal to a player.
func Blockers(a, b Hex, obs Obstacles, r LOSRule) []SideTouch {
	if obs.Side == nil || a == b {
		return nil
	}
	var out []SideTouch
	corners := map[Point][]SideTouch{}
	for _, st := range TraceSides(a, b) {
		if !obs.Side(st.Side) {
			continue
		}
		if r.blocks(st.Touch) {
			out = append(out, st)
		} else if st.Touch == Vertex {
			corners[st.At] = append(corners[st.At], st)
		}
	}
	p, q := Centre(a), Centre(b)
	for _, st := range TraceSides(a, b) { // keep the sorted order
		if st.Touch != Vertex || !obs.Side(st.Side) || r.blocks(st.Touch) {
			continue
		}
		if wallThrough(p, q, corners[st.At]) {
			out = append(out, st)
		}
	}
	return out
}

// wallThrough reports whether the blocking hexsides meeting at one corner lie
// on both sides of the line p–q, so that the line passes through the wall
// there rather than grazing its end.
func wallThrough(p, q Point, sides []SideTouch) bool {
	var left, right bool
	for _, st := range sides {
		v, w := st.Side.Ends()
		far := v
		if v == st.At {
			far = w
		}
		switch orient(p, q, far) {
		case 1:
			right = true
		case -1:
			left = true
		}
	}
	return left && right
}

// BlockingHexes returns the obstacle hexes (other than a and b) that block the
// line from a to b under rule r.
func BlockingHexes(a, b Hex, obs Obstacles, r LOSRule) []HexTouch {
	return blockingHexes(a, b, obs, r)
}

func blockingHexes(a, b Hex, obs Obstacles, r LOSRule) []HexTouch {
	if obs.Hex == nil || a == b {
		return nil
	}
	var out []HexTouch
	for _, ht := range TraceHexes(a, b) {
		if ht.Hex == a || ht.Hex == b || !obs.Hex(ht.Hex) {
			continue
		}
		if r.blocks(ht.Touch) {
			out = append(out, ht)
		}
	}
	return out
}
