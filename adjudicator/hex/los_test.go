package hex

import "testing"

func findSide(ts []SideTouch, s Hexside) Touch {
	for _, t := range ts {
		if t.Side == s {
			return t.Touch
		}
	}
	return 0
}

func TestCentres(t *testing.T) {
	// Every pair of neighbours is the same distance apart in the true
	// geometry: check via the scaled coordinates (x, y·√3) — squared
	// distance dx² + 3dy² must be 12 for all six.
	for _, h := range []Hex{{5, 5}, {6, 5}} {
		c := Centre(h)
		for _, n := range h.Neighbours() {
			o := Centre(n)
			dx, dy := o.X-c.X, o.Y-c.Y
			if dx*dx+3*dy*dy != 12 {
				t.Errorf("%s→%s: (%d,%d)", h, n, dx, dy)
			}
		}
	}
}

func TestTraceAdjacent(t *testing.T) {
	a, b := Hex{6, 6}, Hex{7, 7}
	ts := TraceSides(a, b)
	s, _ := SideBetween(a, b)
	if len(ts) != 1 || ts[0].Side != s || ts[0].Touch != Cross {
		t.Fatalf("adjacent trace: %v", ts)
	}
}

func TestTraceThroughVertex(t *testing.T) {
	// 0505 (15,10) → 1003 (30,7): the line passes exactly through the corner
	// (20,9) shared by 0604, 0704 and 0705, and along no hexside.
	p, q := Hex{5, 5}, Hex{10, 3}
	ts := TraceSides(p, q)
	at := Point{20, 9}
	s1, _ := SideBetween(Hex{6, 4}, Hex{7, 4})
	s2, _ := SideBetween(Hex{6, 4}, Hex{7, 5})
	s3, _ := SideBetween(Hex{7, 4}, Hex{7, 5})
	for _, s := range []Hexside{s1, s2, s3} {
		found := false
		for _, st := range ts {
			if st.Side == s {
				found = true
				if st.Touch != Vertex || st.At != at {
					t.Errorf("%v: %v at %v", s, st.Touch, st.At)
				}
			}
			if st.Touch == Along {
				t.Errorf("unexpected along %v", st.Side)
			}
		}
		if !found {
			t.Errorf("%v not met", s)
		}
	}
	for _, ht := range TraceHexes(p, q) {
		if ht.Hex == (Hex{7, 5}) && ht.Touch != Vertex {
			t.Errorf("0705 touched %v", ht.Touch)
		}
	}
	// A wall ending at the corner: strict blocks, lenient does not.
	one := Obstacles{Side: func(s Hexside) bool { return s == s3 }}
	if LineOfSight(p, q, one, Strict) {
		t.Error("strict: touching a wall's end should block")
	}
	if !LineOfSight(p, q, one, Lenient) {
		t.Error("lenient: grazing a wall's end should not block")
	}
	// A wall running through the corner (s1 on one side of the line, s3 on
	// the other) blocks under both rules.
	two := Obstacles{Side: func(s Hexside) bool { return s == s1 || s == s3 }}
	if LineOfSight(p, q, two, Lenient) || LineOfSight(p, q, two, Strict) {
		t.Error("a wall through the corner blocks")
	}
	// Two walled sides on the same side of the line do not.
	same := Obstacles{Side: func(s Hexside) bool { return s == s2 || s == s3 }}
	if !LineOfSight(p, q, same, Lenient) {
		t.Error("lenient: a wall bending away from the line should not block")
	}
}

func TestTraceDiagonalAlong(t *testing.T) {
	// 0505 (15,10) → 0603 (18,7) runs along the side between 0504 and 0604.
	s, _ := SideBetween(Hex{5, 4}, Hex{6, 4})
	if findSide(TraceSides(Hex{5, 5}, Hex{6, 3}), s) != Along {
		t.Error("want along")
	}
}

func TestTraceAlongHexside(t *testing.T) {
	// Centres (0505)=(15,10) and (0805): 0805 odd → (24,10)… horizontal line
	// y=10 from x=15 to 24 crosses 0605 (18,11) / 0604 (18,9): it runs along
	// the hexside between 0604 and 0605 (the N side of 0605, from (17,10)
	// to (19,10)).
	a, b := Hex{5, 5}, Hex{7, 5}
	ts := TraceSides(a, b)
	along := Hex{6, 5}.Side(N)
	if findSide(ts, along) != Along {
		t.Fatalf("want along %v, got %v", along, ts)
	}
	obs := Obstacles{Side: func(s Hexside) bool { return s == along }}
	if LineOfSight(a, b, obs, Strict) || LineOfSight(a, b, obs, Lenient) {
		t.Error("a wall the line runs along blocks under both rules")
	}
	// The hexes 0604 and 0605 are met only along a side.
	for _, ht := range TraceHexes(a, b) {
		if (ht.Hex == Hex{6, 4} || ht.Hex == Hex{6, 5}) && ht.Touch != Along {
			t.Errorf("%v touched %v", ht.Hex, ht.Touch)
		}
	}
	tower := func(h Hex) bool { return h == Hex{6, 5} }
	if LineOfSight(a, b, Obstacles{Hex: tower}, Lenient) {
		t.Error("running along a tower's side blocks")
	}
}

func TestTraceTowerInterior(t *testing.T) {
	a, b := Hex{5, 5}, Hex{5, 8}
	tower := func(h Hex) bool { return h == Hex{5, 6} }
	if LineOfSight(a, b, Obstacles{Hex: tower}, Lenient) {
		t.Error("a tower between blocks")
	}
	if !LineOfSight(a, Hex{5, 6}, Obstacles{Hex: tower}, Strict) {
		t.Error("the target's own hex is no obstacle")
	}
}

func TestLOSSymmetric(t *testing.T) {
	walls := map[Hexside]bool{}
	for _, h := range []Hex{{8, 8}, {9, 9}, {10, 7}, {7, 10}} {
		walls[h.Side(N)] = true
		walls[h.Side(SE)] = true
	}
	obs := Obstacles{Side: func(s Hexside) bool { return walls[s] }, Hex: func(h Hex) bool { return h == Hex{9, 6} }}
	for _, a := range Within(Hex{9, 8}, 4) {
		for _, b := range Within(Hex{9, 8}, 4) {
			for _, r := range []LOSRule{Strict, Lenient} {
				if LineOfSight(a, b, obs, r) != LineOfSight(b, a, obs, r) {
					t.Fatalf("asymmetric %s %s %s", a, b, r)
				}
			}
			if len(TraceSides(a, b)) != len(TraceSides(b, a)) {
				t.Fatalf("trace asymmetric %s %s", a, b)
			}
		}
	}
}

// Every hexside the line crosses separates two hexes it passes through, and
// the number of crossed sides equals the number of entered hexes minus one
// when no vertex or along touch occurs.
func TestTraceConsistency(t *testing.T) {
	for _, a := range Within(Hex{10, 10}, 5) {
		b := Hex{10, 10}
		if a == b {
			continue
		}
		var cross, other int
		for _, st := range TraceSides(a, b) {
			if st.Touch == Cross {
				cross++
			} else {
				other++
			}
		}
		var inside int
		for _, ht := range TraceHexes(a, b) {
			if ht.Touch == Cross {
				inside++
			}
		}
		if other == 0 && cross != inside-1 {
			t.Errorf("%s→%s: %d crossings, %d hexes", a, b, cross, inside)
		}
		if Distance(a, b) == 1 && cross != 1 {
			t.Errorf("neighbours %s %s: %d crossings", a, b, cross)
		}
	}
}
