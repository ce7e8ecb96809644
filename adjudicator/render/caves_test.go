package render

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage/refpicture"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
)

// Maps with levels, decks and several boards, and counters on decks and
// covering several hexes: testdata/caves holds two small boards and an
// assembly file placing them side by side.

var caveVocab = hexmap.Vocabulary{
	Terrain: []string{"floor", "rock", "stairs", "water"},
	Sides:   []string{"wall", "rail", "door"},
	Points:  []string{"entry"},
	Ramps:   []string{"stairs"},
	Decks:   []string{"footbridge"},
}

var caveStyle = &adjudicator.PictureStyle{
	Terrain: []adjudicator.TerrainStyle{
		{Kind: "floor", Fill: 0xe8e1d3},
		{Kind: "rock", Fill: 0x8d8478, Pattern: "hills", Mark: 0x4a433b},
		{Kind: "stairs", Fill: 0xd9cfbb},
		{Kind: "water", Fill: 0x9cc3dd, Pattern: "waves", Mark: 0x1f5f96},
	},
	Sides: []adjudicator.SideStyle{
		{Kind: "wall", Shape: "wall", Colour: 0x3b3b3b},
		{Kind: "rail", Shape: "line", Colour: 0x7a4a1a, Legend: "railing"},
		{Kind: "door", Shape: "entrance", Colour: 0x6b3d12, Letter: "D"},
	},
	Points: []adjudicator.PointStyle{{Kind: "entry", Label: "IN", Fill: 0xffffff, Text: 0x1a1a1a}},
}

// caveMap is the two test boards assembled by testdata/caves/descent.yaml.
func caveMap(t testing.TB) *hexmap.Map {
	t.Helper()
	m, err := hexmap.LoadAssembly(os.DirFS("testdata/caves"), "descent.yaml", &caveVocab)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// caveView puts counters on floors at several levels, on the footbridge
// (over a counter on the floor and alone), and counters of two, three and
// seven hexes.
func caveView() adjudicator.View {
	us := refpicture.Units(`
delvers SCT scout-1 0303 2-4
delvers SCT scout-2 0303 2-4
delvers ARC archer-1 0501 3-3 face=S
delvers ARC archer-2 0501 3-3
delvers WAR warrior-1 0504 4-2
delvers WAR warrior-2 0505 4-2 ready
delvers CRT cart-1 0204 0-2 face=NE
wardens BIG colossus 1103 9-1 face=SW
wardens GRD guard-1 0904 5-2 face=NW
wardens GRD guard-2 1005 5-2 face=S
wardens SNT sentry-1 0701 3-2
`)
	for i := range us {
		switch us[i].ID {
		case "archer-1", "sentry-1":
			us[i].Level = "+1"
		case "colossus":
			us[i].Shape = "rosette"
		case "guard-1", "guard-2":
			us[i].Shape = "triangle"
		case "cart-1":
			us[i].Shape = "pair"
		}
	}
	return adjudicator.View{Turn: 2, Phase: "move", Units: us}
}

var caveOptions = Options{Style: caveStyle, Game: "demo-caves", Viewer: "delvers", Sides: []adjudicator.Side{"delvers", "wardens"}}

func drawCaves(t testing.TB, v adjudicator.View, scale float64) (*board, *Picture) {
	t.Helper()
	opt := caveOptions
	opt.Scale = scale
	m := caveMap(t)
	b, err := build(m, v, opt)
	if err != nil {
		t.Fatal(err)
	}
	pic, err := Board(m, v, opt)
	if err != nil {
		t.Fatal(err)
	}
	return b, pic
}

// TestCavesGolden: testdata/caves.png (the whole picture) and
// testdata/caves-empty.png (the map alone) at scale 0.6; run with -update
// and look at them after a change.
func TestCavesGolden(t *testing.T) {
	for name, v := range map[string]adjudicator.View{"caves": caveView(), "caves-empty": {Turn: 1, Phase: "setup"}} {
		t.Run(name, func(t *testing.T) {
			_, pic := drawCaves(t, v, 0.6)
			for _, w := range pic.Warnings {
				t.Errorf("warning: %s", w)
			}
			checkGolden(t, name, encode(t, pic))
		})
	}
}

// TestCavesDeterministic: the same picture twice gives the same bytes.
func TestCavesDeterministic(t *testing.T) {
	_, a := drawCaves(t, caveView(), 0.6)
	_, b := drawCaves(t, caveView(), 0.6)
	if !bytes.Equal(encode(t, a), encode(t, b)) || !bytes.Equal(a.SVG(), b.SVG()) {
		t.Error("two drawings of the same caves differ")
	}
}

// TestCavesLegend: the legend explains every level, the drops, the stairs,
// the footbridge, the railing's level, the counter on the deck, the
// counters of several hexes and the seam, and the panel lists the boards.
func TestCavesLegend(t *testing.T) {
	b, pic := drawCaves(t, caveView(), 1)
	for _, k := range []string{"level:+1", "level:0", "level:-1/2", "level:-1", "level:-2", "contour", "ramp",
		"deck:footbridge", "side-level", "on-deck", "footprint", "seam", "facing"} {
		if !b.used[k] {
			t.Errorf("legend entry %s not used", k)
		}
	}
	svg := string(pic.SVG())
	for _, s := range []string{"floor at level −1", "floor at level −½", "footbridge above the",
		"Boards", "grotto: The Grotto, 0101–0806", "hall: The Annex, 0901–1206", ">−2<"} {
		if !strings.Contains(svg, s) {
			t.Errorf("the picture does not say %q", s)
		}
	}
	if strings.Contains(svg, "0303@") {
		t.Error("a stack on the floor is named by its hex alone")
	}
}

// TestCaveStacks: counters on a deck and on the floor below are two
// stacks; a counter of several hexes is in none, and every hex it covers
// gets its number printed again over it.
func TestCaveStacks(t *testing.T) {
	b, _ := drawCaves(t, caveView(), 1)
	var got []string
	for _, s := range b.stacks() {
		got = append(got, s.where()+":"+itoa(len(s.units)))
	}
	want := []string{"0303:2", "0501:1", "0501@+1:1", "0504:1", "0505:1", "0701@+1:1"}
	if !slices.Equal(got, want) {
		t.Errorf("stacks %v, want %v", got, want)
	}
	n := 0
	for _, p := range b.units {
		if p.multi {
			n += len(p.fp.Hexes())
			for _, h := range p.fp.Hexes() {
				if !b.occupied[h] {
					t.Errorf("%s covers %s, which is not marked occupied", p.u.ID, h)
				}
			}
		}
	}
	if n != 7+3+3+2 {
		t.Errorf("footprints cover %d hexes, want 15", n)
	}
	// In an Overview, a hex's counters make one summary whatever their level.
	opt := caveOptions
	opt.Mode = Overview
	o, err := build(caveMap(t), caveView(), opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range o.hexStacks() {
		if s.h.String() == "0501" && len(s.units) != 2 {
			t.Errorf("overview: %d units at 0501, want 2", len(s.units))
		}
	}
}

// TestCaveWarnings: a level that is no location of the hex, a shape that
// is not one, and a counter that does not fit are drawn plainly, with a
// warning each.
func TestCaveWarnings(t *testing.T) {
	v := adjudicator.View{Units: refpicture.Units(`
delvers A a-1 0303
delvers B b-1 0304
delvers C c-1 0305
delvers D d-1 1206 face=N
`)}
	v.Units[0].Level = "+1"
	v.Units[1].Level = "up"
	v.Units[2].Shape = "hexagon"
	v.Units[3].Shape = "rosette"
	_, pic := drawCaves(t, v, 0.6)
	want := []string{"not a location of descent", `at level "up"`, `"hexagon" is not a counter shape`, "does not fit on descent"}
	if len(pic.Warnings) != len(want) {
		t.Fatalf("warnings %q", pic.Warnings)
	}
	for i, w := range want {
		if !strings.Contains(pic.Warnings[i], w) {
			t.Errorf("warning %q does not say %q", pic.Warnings[i], w)
		}
	}
}

// TestLevelText: levels are tagged with a true minus sign and a half.
func TestLevelText(t *testing.T) {
	for in, want := range map[string]string{"+1": "+1", "-1": "−1", "-1/2": "−½", "+1/2": "+½", "-3/2": "−1½", "+5/2": "+2½", "0": "0"} {
		l, err := hexLevel(in)
		if err != nil {
			t.Fatal(err)
		}
		if got := levelText(l); got != want {
			t.Errorf("levelText(%s) = %q, want %q", in, got, want)
		}
	}
}

func hexLevel(s string) (hex.Level, error) { return hex.ParseLevel(s) }

// TestFlatMapsDrawNoLevels: a flat map of one board, its units without
// levels or shapes, draws nothing of levels, decks, footprints or seams
// (the golden pictures check the pixels).
func TestFlatMapsDrawNoLevels(t *testing.T) {
	for _, sc := range scenarios {
		v := sc.view()
		b, err := build(loadMap(t, v.Map), v, sc.opt)
		if err != nil {
			t.Fatal(err)
		}
		for k := range b.used {
			for _, p := range []string{"level:", "contour", "ramp", "deck:", "side-level", "on-deck", "footprint", "seam"} {
				if strings.HasPrefix(k, p) {
					t.Errorf("%s: legend entry %s on a flat map", sc.name, k)
				}
			}
		}
		if slices.Contains(b.panelSections(), "Boards") {
			t.Errorf("%s: a Boards section for a map of one board", sc.name)
		}
	}
}
