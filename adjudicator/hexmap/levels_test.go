package hexmap

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// caveVocab is a vocabulary for maps with levels, as a game would give.
var caveVocab = Vocabulary{
	Terrain: []string{"floor", "rock", "stairs", "slope", "water"},
	Sides:   []string{"wall", "rail", "door"},
	Points:  []string{"entry"},
	Ramps:   []string{"stairs", "slope"},
	Decks:   []string{"footbridge"},
}

func loadTest(t *testing.T, name string) *Map {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name + ".yaml")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Parse(name+".yaml", data, &caveVocab)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func loc(s string) hex.Loc {
	l, _, err := hex.ParseLoc(s)
	if err != nil {
		panic(err)
	}
	return l
}

func TestLevelsParse(t *testing.T) {
	m := loadTest(t, "pit")
	h := hex.MustParse
	if m.Floor(h("0101")) != hex.Levels(1) || m.Floor(h("0505")) != hex.Levels(-1) || m.Floor(h("0202")) != 0 || m.Floor(h("0403")) != -hex.Half {
		t.Error("floors")
	}
	if !m.FloorProvenance(h("0101")).Assumed || m.FloorProvenance(h("0505")).Rule != "T-1" || !m.Leveled() {
		t.Error("floor provenance")
	}
	if r, ok := m.Ramp(h("0403")); !ok || !slices.Equal(r.Up, []hex.Direction{hex.N}) || !slices.Equal(r.Down, []hex.Direction{hex.S}) || r.Rule != "T-2" {
		t.Errorf("ramp %+v", r)
	}
	for _, c := range []struct {
		h    string
		want []string
	}{
		{"0301", []string{"0301", "0301@+1"}},
		{"0101", []string{"0101@+1"}},
		{"0505", []string{"0505@-1"}},
		{"0403", []string{"0403@-1/2"}},
		{"0909", nil},
	} {
		var got []string
		for _, l := range m.Locs(h(c.h)) {
			got = append(got, l.String())
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("Locs(%s) = %v, want %v", c.h, got, c.want)
		}
	}
	if d, ok := m.DeckAt(loc("0301@+1")); !ok || d.Name != "walk" || d.Kind != "footbridge" || len(d.Over(m)) != 4 {
		t.Errorf("deck %+v", d)
	}
	if _, ok := m.DeckAt(loc("0101@+1")); ok {
		t.Error("a deck's resting hex is a floor, not a deck location")
	}
	s, _ := m.SideBetween(h("0301"), h("0302"))
	if f := m.FeaturesAt(s, 0); len(f) != 1 || f[0].Kind != "wall" {
		t.Errorf("features at 0: %+v", f)
	}
	if f := m.FeaturesAt(s, hex.Levels(1)); len(f) != 1 || f[0].Kind != "rail" {
		t.Errorf("features at +1: %+v", f)
	}
	if m.EdgeLabel(East) != "X" || m.EdgeLabel(North) != "Y" || !m.EdgeProvenance().Assumed {
		t.Error("edges")
	}
	if a, ok := m.Arrow(); !ok || a != East {
		t.Error("arrow")
	}
}

func TestConnects(t *testing.T) {
	m := loadTest(t, "pit")
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"0201@+1", "0301@+1", true},   // along the deck
		{"0101@+1", "0201@+1", true},   // from the platform it rests on
		{"0201@+1", "0202", false},     // a deck and the floor beside it
		{"0201@+1", "0201", false},     // a deck and the floor under it
		{"0101@+1", "0102", false},     // a whole level apart
		{"0201", "0301", true},         // under the deck, on the floor
		{"0402", "0403@-1/2", true},    // onto the stairs from above, through their up side
		{"0403@-1/2", "0404@-1", true}, // down the stairs, through their down side
		{"0403@-1/2", "0503", false},   // not an up side
		{"0403@-1/2", "0504@-1", false},
		{"0404@-1", "0504@-1", true},
		{"0304", "0404@-1", false}, // the pit's edge
		{"0402", "0404@-1", false}, // not adjacent
		{"0402@+1", "0403@-1/2", false},
	} {
		a, b := loc(c.a), loc(c.b)
		if got := m.Connects(a, b); got != c.want {
			t.Errorf("Connects(%s, %s) = %v, want %v", a, b, got, c.want)
		}
		if m.Connects(b, a) != m.Connects(a, b) {
			t.Errorf("Connects(%s, %s) is not symmetric", a, b)
		}
	}
	var exits []string
	for _, l := range m.Exits(loc("0403@-1/2")) {
		exits = append(exits, l.String())
	}
	if !slices.Equal(exits, []string{"0402", "0404@-1"}) {
		t.Errorf("exits of the stairs: %v", exits)
	}
	if LevelDiff(loc("0404@-1"), loc("0201@+1")) != hex.Levels(2) {
		t.Error("LevelDiff")
	}
}

func TestLevelsErrors(t *testing.T) {
	head := "name: t\nbounds: {cols: [1, 5], rows: [1, 5]}\ndefault: floor\n"
	for _, c := range []struct {
		body, want string
	}{
		{"floors:\n  - {level: -1/2, hexes: [\"0202\"]}\n", `t.yaml:5:27: hex 0202 is at half level -1/2, but its terrain is floor`},
		{"floors:\n  - {level: -1, hexes: [\"0202\"], up: [N]}\n", `t.yaml:5:39: up: and down: name the sides`},
		{"floors:\n  - {level: -1, hexes: [\"0202\"]}\n  - {level: +1, hexes: [\"0201:0203\"]}\n", `t.yaml:6:25: hex 0202 already has its floor at level -1`},
		{"floors:\n  - {level: 1/3, hexes: [\"0202\"]}\n", `t.yaml:5:13: a floors entry: "1/3" is not a level`},
		{"floors:\n  - {hexes: [\"0202\"]}\n", `a floors entry needs a level`},
		{"floors:\n  - {level: +1, hexes: [\"0202\"], height: 3}\n", `unknown field "height"`},
		{"floors:\n  - {level: -1/2, hexes: [\"0202\"]}\nterrain:\n  - {kind: stairs, hexes: [\"0202\"]}\n  - {kind: sand, hexes: [\"0303\"]}\n", `unknown terrain "sand"`},
		{"floors:\n  - {level: +1, hexes: [\"0301\"]}\ndecks:\n  - {name: d, kind: footbridge, level: 0, path: [\"0101\", \"0201\", \"0301\"]}\n", `t.yaml:7:66: deck d at level 0 cannot pass 0301, whose floor is higher (+1)`},
		{"decks:\n  - {name: d, kind: footbridge, level: 0, path: [\"0101\", \"0201\"]}\n", `deck d stands above no hex`},
		{"decks:\n  - {name: d, kind: footbridge, level: +1, path: [\"0101\", \"0301\"]}\n", `deck d jumps from 0101 to 0301`},
		{"decks:\n  - {name: d, kind: footbridge, level: +1, path: [\"0101\"]}\n", `deck d needs a path of at least two`},
		{"decks:\n  - {name: d, kind: bridge, level: +1, path: [\"0101\", \"0201\"]}\n", `unknown deck kind "bridge"`},
		{"decks:\n  - {name: d, level: +1, path: [\"0101\", \"0201\"]}\n", `t.yaml:5:33: deck d needs a kind: one of footbridge`},
		{"decks:\n  - {level: +1, path: [\"0101\", \"0201\"]}\n", `t.yaml:5:24: a deck needs a name`},
		{"decks:\n  - {name: a, kind: footbridge, level: +1, path: [\"0101\", \"0201\"]}\n  - {name: b, kind: footbridge, level: +1, path: [\"0201\", \"0301\"]}\n", `deck a and deck b both stand at 0201@+1`},
		{"hexsides:\n  - {kind: wall, sides: [\"0202 N\"], level: 0}\n  - {kind: rail, sides: [\"0202 N\"], level: 0}\n", `hexside 0201/0202 already has a wall`},
		{"hexsides:\n  - {kind: wall, sides: [\"0202 N\"]}\n  - {kind: rail, sides: [\"0202 N\"], level: +1}\n", `hexside 0201/0202 already has a wall`},
		{"hexsides:\n  - {kind: wall, sides: [\"0202 N\"], level: up}\n", `"up" is not a level`},
		{"arrow: up\n", `t.yaml:4:8: arrow: "up" is not a board edge`},
		{"edges: {north: X, top: Y}\n", `unknown field "top"`},
	} {
		_, err := Parse("t.yaml", []byte(head+c.body), &caveVocab)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s\nwant an error containing %q, got %v", c.body, c.want, err)
		}
	}
	// A vocabulary without ramps lets any terrain stand at a half level,
	// and one without deck kinds takes decks without a kind.
	plain := Vocabulary{Terrain: []string{"open"}}
	if _, err := Parse("t.yaml", []byte("name: t\nbounds: {cols: [1, 5], rows: [1, 5]}\nfloors:\n  - {level: +1/2, hexes: [\"0202\"]}\ndecks:\n  - {name: d, level: +1, path: [\"0101\", \"0201\"]}\n"), &plain); err != nil {
		t.Error(err)
	}
	if _, err := Parse("t.yaml", []byte("name: t\nbounds: {cols: [1, 5], rows: [1, 5]}\ndecks:\n  - {name: d, kind: footbridge, level: +1, path: [\"0101\", \"0201\"]}\n"), &plain); err == nil || !strings.Contains(err.Error(), "no deck kinds") {
		t.Errorf("a deck kind with a vocabulary of none: %v", err)
	}
}
