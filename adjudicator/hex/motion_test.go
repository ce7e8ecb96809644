package hex

import "testing"

func TestHexAtInvertsCentre(t *testing.T) {
	for _, l := range Layouts {
		for c := -5; c <= 12; c++ {
			for r := -5; r <= 12; r++ {
				h := New(c, r)
				if got, ok := l.HexAt(l.Centre(h)); !ok || got != h {
					t.Fatalf("%v: HexAt(Centre(%v)) = %v, %v", l, h, got, ok)
				}
				p := l.Centre(h)
				if _, ok := l.HexAt(Point{p.X + 1, p.Y}); ok {
					t.Fatalf("%v: a point beside %v's centre is taken for a centre", l, h)
				}
			}
		}
	}
}

// TestMotion: a motion keeps adjacency and directions, its inverse undoes
// it, and a half turn twice about the same hex is the identity.
func TestMotion(t *testing.T) {
	for _, l := range Layouts {
		for _, m := range []Motion{
			{Layout: l, From: New(1, 1), To: New(1, 1)},
			{Layout: l, From: New(1, 1), To: New(12, 1)},
			{Layout: l, From: New(1, 1), To: New(11, 4)},
			{Layout: l, From: New(2, 3), To: New(7, 8), HalfTurn: true},
			{Layout: l, From: New(10, 10), To: New(1, 1), HalfTurn: true},
			{Layout: l, From: New(9, 4), To: New(1, 1), HalfTurn: true},
		} {
			for c := 1; c <= 10; c++ {
				for r := 1; r <= 10; r++ {
					h := New(c, r)
					g := m.Hex(h)
					if m.Inverse().Hex(g) != h {
						t.Fatalf("%+v: %v goes to %v, which comes back as %v", m, h, g, m.Inverse().Hex(g))
					}
					for _, d := range Directions {
						if got := m.Hex(l.Neighbour(h, d)); got != l.Neighbour(g, m.Dir(d)) {
							t.Fatalf("%+v: %v's %v neighbour goes to %v, not next to %v in %v", m, h, l.DirName(d), got, g, l.DirName(m.Dir(d)))
						}
						s := l.Side(h, d)
						if ms := m.Side(s); ms != l.Side(g, m.Dir(d)) {
							t.Fatalf("%+v: side %v goes to %v", m, s, ms)
						}
					}
					if m.HalfTurn {
						twice := Motion{Layout: l, From: g, To: g, HalfTurn: true}
						back := Motion{Layout: l, From: m.To, To: m.From, HalfTurn: true}
						if back.Hex(twice.Hex(g)) != h {
							t.Fatalf("%+v: two half turns are not the identity", m)
						}
					}
				}
			}
			if m.Hex(m.From) != m.To {
				t.Fatalf("%+v: From does not go to To", m)
			}
		}
	}
}
