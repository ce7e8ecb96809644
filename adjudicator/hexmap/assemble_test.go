package hexmap

import (
	"errors"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// TestAssembleKeepsEveryHex: every board hex appears exactly once, with
// its terrain, floor and origin, and movement between locations is the
// same as on its own board; zones, points and decks are renamed.
func TestAssembleKeepsEveryHex(t *testing.T) {
	pit, ledge := loadTest(t, "pit"), loadTest(t, "ledge")
	for _, c := range []struct {
		name string
		ps   []Placement
	}{
		{"side by side", []Placement{{Board: pit, At: hex.MustParse("0101")}, {Board: ledge, At: hex.MustParse("0701")}}},
		{"odd shift", []Placement{{Board: pit, At: hex.MustParse("0202")}, {Board: ledge, At: hex.MustParse("0802")}}},
		{"half turned", []Placement{{Board: ledge, At: hex.MustParse("0101"), HalfTurn: true}, {Board: pit, At: hex.MustParse("0501"), HalfTurn: true}}},
	} {
		m, err := Assemble("scenario.yaml", "s", "S", c.ps)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got, want := len(m.Hexes()), len(pit.Hexes())+len(ledge.Hexes()); got != want {
			t.Errorf("%s: %d hexes, want %d", c.name, got, want)
		}
		seen := map[string]bool{}
		for _, g := range m.Hexes() {
			o, ok := m.Origin(g)
			if !ok {
				t.Fatalf("%s: %s has no origin", c.name, g)
			}
			key := o.Name + " " + o.Hex.String()
			if seen[key] {
				t.Fatalf("%s: %s appears twice", c.name, key)
			}
			seen[key] = true
			b := pit
			if o.Name == "ledge" {
				b = ledge
			}
			if m.Terrain(g) != b.Terrain(o.Hex) || m.Floor(g) != b.Floor(o.Hex) {
				t.Fatalf("%s: %s (%s) has terrain %s floor %s", c.name, g, o, m.Terrain(g), m.Floor(g))
			}
		}
		// Connections between locations are kept.
		var p Placement
		for _, q := range c.ps {
			if q.Board == pit {
				p = q
			}
		}
		mv := p.motion()
		for _, h := range pit.Hexes() {
			for _, a := range pit.Locs(h) {
				for _, n := range pit.Neighbours(h) {
					for _, b := range pit.Locs(n) {
						ga, gb := hex.At(mv.Hex(a.Hex), a.Level), hex.At(mv.Hex(b.Hex), b.Level)
						if pit.Connects(a, b) != m.Connects(ga, gb) {
							t.Fatalf("%s: %s-%s connect %v on the board, %v once placed", c.name, a, b, pit.Connects(a, b), m.Connects(ga, gb))
						}
					}
				}
			}
		}
		if _, ok := m.Zone("ledge/entry"); !ok {
			t.Errorf("%s: zone ledge/entry", c.name)
		}
		if pt, ok := m.Point("ledge/door"); !ok || m.Where(pt.Hex) != pt.Hex.String()+" (board The Ledge 0403)" {
			t.Errorf("%s: point ledge/door at %s", c.name, m.Where(pt.Hex))
		}
		if len(m.Decks()) != 1 || m.Decks()[0].Name != "pit/walk" || len(m.Placements()) != 2 {
			t.Errorf("%s: decks %+v", c.name, m.Decks())
		}
	}
}

// TestHalfTurnTwice: a board turned half round, then the result turned
// half round again in place, is the board itself.
func TestHalfTurnTwice(t *testing.T) {
	for _, name := range []string{"pit", "ledge"} {
		b := loadTest(t, name)
		at := hex.New(b.Bounds.MinCol, b.Bounds.MinRow)
		once, err := Assemble("s.yaml", "once", "", []Placement{{Board: b, At: at, HalfTurn: true}})
		if err != nil {
			t.Fatal(err)
		}
		twice, err := Assemble("s.yaml", "twice", "", []Placement{{Board: once, At: at, HalfTurn: true}})
		if err != nil {
			t.Fatal(err)
		}
		if twice.Bounds != b.Bounds {
			t.Fatalf("%s: bounds %+v, want %+v", name, twice.Bounds, b.Bounds)
		}
		for _, h := range b.Hexes() {
			if twice.Terrain(h) != b.Terrain(h) || twice.Floor(h) != b.Floor(h) || len(twice.Locs(h)) != len(b.Locs(h)) {
				t.Fatalf("%s: %s differs after two half turns", name, h)
			}
			for _, s := range b.Layout.Sides(h) {
				if len(twice.Features(s)) != len(b.Features(s)) {
					t.Fatalf("%s: side %s differs after two half turns", name, s)
				}
			}
		}
		if r, ok := twice.Ramp(hex.MustParse("0403")); name == "pit" && (!ok || r.Up[0] != hex.N) {
			t.Errorf("the stairs' up side after two half turns: %+v", r)
		}
	}
}

func TestAssembleErrors(t *testing.T) {
	pit, ledge := loadTest(t, "pit"), loadTest(t, "ledge")
	h := hex.MustParse
	pointy, err := Parse("p.yaml", []byte("name: p\nlayout: pointy-odd\nbounds: {cols: [1, 4], rows: [1, 4]}\ndefault: floor\n"), &caveVocab)
	if err != nil {
		t.Fatal(err)
	}
	other, err := Parse("o.yaml", []byte("name: o\nbounds: {cols: [1, 4], rows: [1, 4]}\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		ps   []Placement
		want string
	}{
		{"none", nil, "needs at least one board"},
		{"overlap", []Placement{{Board: pit, At: h("0101")}, {Board: ledge, At: h("0601")}}, "boards The Pit and The Ledge overlap at 0601 (The Pit 0601, The Ledge 0101)"},
		{"off the grid", []Placement{{Board: pit, At: h("9701")}}, "off the 00-99 grid"},
		{"layout", []Placement{{Board: pit, At: h("0101")}, {Board: pointy, At: h("0901")}}, "pointy-odd layout"},
		{"vocabulary", []Placement{{Board: pit, At: h("0101")}, {Board: other, At: h("0901")}}, "another vocabulary"},
		{"same name", []Placement{{Board: ledge, At: h("0101")}, {Board: ledge, At: h("0601")}}, `two boards are placed under the name "ledge"`},
		// The ledge turned half round shows its east edge (Y) to the pit's east edge (X).
		{"labels", []Placement{{Board: pit, At: h("0101")}, {Board: ledge, At: h("0701"), HalfTurn: true}},
			"board The Pit's east edge (X) meets board The Ledge's east edge (Y) at 0601/0701"},
		{"arrows", []Placement{{Board: pit, At: h("0101")}, {Board: ledge, At: h("0701"), HalfTurn: true}},
			"their arrows point east and west"},
		// Below the pit, the ledge's unlabelled north edge meets the pit's south edge (Y).
		{"unlabelled", []Placement{{Board: pit, At: h("0101")}, {Board: ledge, At: h("0106")}},
			"board The Pit's south edge (Y) meets board The Ledge's north edge (unlabelled)"},
	} {
		_, err := Assemble("scenario.yaml", "s", "", c.ps)
		var es Errors
		if err == nil || !errors.As(err, &es) || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "scenario.yaml: ") {
			t.Errorf("%s: want an error containing %q, got %v", c.name, c.want, err)
		}
	}
	// A corner touch is no join: the ledge set diagonally below the pit.
	if _, err := Assemble("s.yaml", "s", "", []Placement{{Board: pit, At: h("0101")}, {Board: ledge, At: h("0706")}}); err != nil {
		t.Errorf("a corner touch: %v", err)
	}
}

func TestAssemblePointy(t *testing.T) {
	src := "name: %s\nlayout: pointy-odd\nbounds: {cols: [1, 4], rows: [1, 4]}\nedges: {east: X, west: X}\n"
	a, err := Parse("a.yaml", []byte(strings.ReplaceAll(src, "%s", "a")), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Parse("b.yaml", []byte(strings.ReplaceAll(src, "%s", "b")), nil)
	for _, turn := range []bool{false, true} {
		m, err := Assemble("s.yaml", "s", "", []Placement{{Board: a, At: hex.MustParse("0101")}, {Board: b, At: hex.MustParse("0501"), HalfTurn: turn}})
		if err != nil {
			t.Fatalf("half turn %v: %v", turn, err)
		}
		if len(m.Hexes()) != 32 || m.Layout != hex.PointyOdd {
			t.Errorf("half turn %v: %d hexes", turn, len(m.Hexes()))
		}
	}
}
