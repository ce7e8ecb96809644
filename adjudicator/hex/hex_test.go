package hex

import "testing"

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Hex
		ok   bool
	}{
		{"0606", Hex{6, 6}, true},
		{"2516", Hex{25, 16}, true},
		{"606", Hex{}, false},
		{"06066", Hex{}, false},
		{"06a6", Hex{}, false},
		{"", Hex{}, false},
	} {
		got, err := Parse(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("Parse(%q) = %v, %v", tc.in, got, err)
		}
	}
	for in, want := range map[string]Hex{"109": {1, 9}, "208": {2, 8}, " 0606 ": {6, 6}, "hex 1413": {14, 13}, "#2516": {25, 16}} {
		got, err := ParseLenient(in)
		if err != nil || got != want {
			t.Errorf("ParseLenient(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := ParseLenient("12"); err == nil {
		t.Error("ParseLenient accepted two digits")
	}
	if s := (Hex{1, 9}).String(); s != "0109" {
		t.Errorf("String = %q", s)
	}
}

// The adjacencies DR-HEX-4 gives as evidence for the column parity.
func TestStatedAdjacencies(t *testing.T) {
	pairs := [][2]string{
		{"0606", "0707"}, {"2113", "2212"}, // Esirien wall gates
		{"0815", "0915"}, {"0915", "1014"}, {"1014", "1115"}, // dock chain
		{"0109", "0208"}, // Nurkott serpent hexes
	}
	for _, p := range pairs {
		a, b := MustParse(p[0]), MustParse(p[1])
		if !a.Adjacent(b) || !b.Adjacent(a) || Distance(a, b) != 1 {
			t.Errorf("%s and %s should be adjacent", a, b)
		}
	}
	// With the opposite parity these would not hold; check one direction each.
	for _, tc := range []struct {
		a string
		d Direction
		b string
	}{
		{"0606", SE, "0707"}, {"2113", NE, "2212"}, {"0815", NE, "0915"},
		{"0915", NE, "1014"}, {"1014", SE, "1115"}, {"0109", NE, "0208"},
		{"1410", NW, "1310"}, {"1410", SE, "1511"},
	} {
		if got := MustParse(tc.a).Neighbour(tc.d); got != MustParse(tc.b) {
			t.Errorf("%s %s = %s, want %s", tc.a, tc.d, got, tc.b)
		}
	}
}

func TestNeighbourFormula(t *testing.T) {
	odd, even := Hex{5, 5}, Hex{6, 5}
	wantOdd := [6]Hex{{5, 4}, {6, 4}, {6, 5}, {5, 6}, {4, 5}, {4, 4}}
	wantEven := [6]Hex{{6, 4}, {7, 5}, {7, 6}, {6, 6}, {5, 6}, {5, 5}}
	if odd.Neighbours() != wantOdd {
		t.Errorf("odd: %v", odd.Neighbours())
	}
	if even.Neighbours() != wantEven {
		t.Errorf("even: %v", even.Neighbours())
	}
}

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		d    int
	}{
		{"0606", "0606", 0}, {"0606", "0707", 1}, {"0101", "0103", 2},
		{"0101", "0301", 2}, {"0101", "0302", 2}, {"0606", "0403", 4},
		{"0110", "2508", 24}, {"1413", "1414", 1}, {"0815", "1115", 3},
	} {
		if got := Distance(MustParse(tc.a), MustParse(tc.b)); got != tc.d {
			t.Errorf("Distance(%s,%s) = %d, want %d", tc.a, tc.b, got, tc.d)
		}
	}
}

func TestWithinRing(t *testing.T) {
	for _, h := range []Hex{{5, 5}, {6, 5}, {1, 1}} {
		if n := len(Within(h, 2)); n != 19 {
			t.Errorf("Within(%s,2) has %d hexes", h, n)
		}
		if n := len(Within(h, 1)); n != 7 {
			t.Errorf("Within(%s,1) has %d hexes", h, n)
		}
		if n := len(Ring(h, 2)); n != 12 {
			t.Errorf("Ring(%s,2) has %d hexes", h, n)
		}
		if n := len(Ring(h, 0)); n != 1 {
			t.Errorf("Ring(%s,0) has %d hexes", h, n)
		}
	}
}

func TestDirections(t *testing.T) {
	if N.Left() != NW || NW.Right() != N || SE.Opposite() != NW || S.Rotate(-7) != SE {
		t.Error("rotation")
	}
	for _, d := range Directions {
		got, err := ParseDirection(d.String())
		if err != nil || got != d {
			t.Errorf("ParseDirection(%s)", d)
		}
	}
	if _, err := ParseDirection("W"); err == nil {
		t.Error("W accepted")
	}
}

func TestFacing(t *testing.T) {
	h := Hex{10, 10}
	f := NE
	if Front(h, f) != h.Neighbour(NE) || Behind(h, f) != h.Neighbour(SW) {
		t.Error("front/behind")
	}
	if FrontThree(h, f) != [3]Hex{h.Neighbour(N), h.Neighbour(NE), h.Neighbour(SE)} {
		t.Error("front three")
	}
	// LF, RF, LR, RR
	if Sides(h, f) != [4]Hex{h.Neighbour(N), h.Neighbour(SE), h.Neighbour(NW), h.Neighbour(S)} {
		t.Errorf("sides %v", Sides(h, f))
	}
	if TurnLeft(N) != NW || TurnRight(NW) != N {
		t.Error("turns")
	}
}

func TestLines(t *testing.T) {
	l := Line(MustParse("0606"), SE, 3)
	want := []Hex{{7, 7}, {8, 7}, {9, 8}}
	for i := range want {
		if l[i] != want[i] {
			t.Fatalf("Line = %v", l)
		}
	}
	if n, ok := InLine(MustParse("0606"), SE, Hex{9, 8}); !ok || n != 3 {
		t.Error("InLine")
	}
	if _, ok := InLine(MustParse("0606"), S, Hex{9, 8}); ok {
		t.Error("InLine wrong direction")
	}
	b := Bound(Hex{10, 10}, N)
	seen := map[Hex]bool{}
	for _, h := range b {
		seen[h] = true
	}
	if len(b) != 9 || len(seen) != 9 {
		t.Errorf("Bound gives %d hexes", len(b))
	}
}

func TestHexside(t *testing.T) {
	a, b := MustParse("0606"), MustParse("0707")
	s1, ok1 := SideBetween(a, b)
	s2, ok2 := SideBetween(b, a)
	if !ok1 || !ok2 || s1 != s2 || s1 != a.Side(SE) || s1 != b.Side(NW) {
		t.Fatal("canonical hexside")
	}
	if d, _ := s1.DirFrom(a); d != SE {
		t.Error("DirFrom a")
	}
	if d, _ := s1.DirFrom(b); d != NW {
		t.Error("DirFrom b")
	}
	if o, _ := s1.Other(a); o != b {
		t.Error("Other")
	}
	if _, ok := SideBetween(a, MustParse("0909")); ok {
		t.Error("non-adjacent hexside")
	}
	if s1.String() != "0606/0707" {
		t.Error(s1.String())
	}
	// The two corners of a side are shared by both hexes.
	p, q := Corners(a, SE)
	r, s := Corners(b, NW)
	if !(p == s && q == r) {
		t.Errorf("corners %v %v vs %v %v", p, q, r, s)
	}
}
