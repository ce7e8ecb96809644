package render

import (
	"bytes"
	"encoding/xml"
	"flag"
	"image"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage"
	drboard "github.com/umpire-pbem/umpire/adjudicator/dragonrage/board"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage/refpicture"
	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
	"github.com/umpire-pbem/umpire/adjudicator/script"
)

var (
	update = flag.Bool("update", false, "rewrite the golden pictures in testdata/")
	docs   = flag.String("docs", "", "also write the scenario pictures into this `directory`, e.g. ../../docs/pictures")
)

type scenario struct {
	name string
	view func() adjudicator.View
	opt  Options
}

var scenarios = []scenario{
	{"esirien", refpicture.View, Options{Style: drboard.Style, Game: refpicture.Game, Viewer: refpicture.Viewer, ToMove: refpicture.ToMove(), Sides: refpicture.Sides()}},
	{"nurkott", nurkottView, Options{Style: drboard.Style, Game: "demo-nurkott", ToMove: []adjudicator.Side{"defender"}, Sides: []adjudicator.Side{"invader", "defender"}}},
}

func loadMap(t testing.TB, name string) *hexmap.Map {
	t.Helper()
	m, err := drboard.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func drawScenario(t testing.TB, sc scenario, scale float64) *Picture {
	t.Helper()
	v := sc.view()
	opt := sc.opt
	opt.Scale = scale
	pic, err := Board(loadMap(t, v.Map), v, opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range pic.Warnings {
		t.Errorf("%s: warning: %s", sc.name, w)
	}
	return pic
}

func encode(t testing.TB, pic *Picture) []byte {
	t.Helper()
	b, err := pic.PNG()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func decode(t testing.TB, b []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// differ counts the pixels of a and b that differ by more than tol in some
// channel.
func differ(a, b image.Image, tol int) (n int) {
	r := a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			r1, g1, b1, _ := a.At(x, y).RGBA()
			r2, g2, b2, _ := b.At(x, y).RGBA()
			for _, d := range []int{int(r1>>8) - int(r2>>8), int(g1>>8) - int(g2>>8), int(b1>>8) - int(b2>>8)} {
				if d > tol || -d > tol {
					n++
					break
				}
			}
		}
	}
	return n
}

// TestGolden compares each scenario's picture (at scale 0.6, to keep the
// files small) with testdata/NAME.png: at most 0.2% of the pixels may
// differ by more than 40 in a channel, which absorbs anti-aliasing noise
// from another platform's floating point but not a moved or missing shape.
// Run with -update to accept a change, after looking at the pictures.
func TestGolden(t *testing.T) {
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			checkGolden(t, sc.name, encode(t, drawScenario(t, sc, 0.6)))
		})
	}
}

// checkGolden compares a picture with testdata/NAME.png (see TestGolden),
// or writes it there with -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	file := filepath.Join("testdata", name+".png")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	gi, wi := decode(t, got), decode(t, want)
	if gi.Bounds() != wi.Bounds() {
		t.Fatalf("size %v, golden %v", gi.Bounds().Size(), wi.Bounds().Size())
	}
	n := differ(gi, wi, 40)
	total := gi.Bounds().Dx() * gi.Bounds().Dy()
	if n*500 > total {
		out := filepath.Join(t.TempDir(), name+".png")
		os.WriteFile(out, got, 0o644)
		t.Errorf("%d of %d pixels differ from %s; the new picture is %s", n, total, file, out)
	}
}

// TestDeterministic renders every scenario twice, and concurrently, and
// wants the same bytes each time.
func TestDeterministic(t *testing.T) {
	for _, sc := range scenarios {
		first := drawScenario(t, sc, 0.6)
		png1, svg1 := encode(t, first), first.SVG()
		var wg sync.WaitGroup
		pngs, svgs := make([][]byte, 3), make([][]byte, 3)
		for i := range pngs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				v := sc.view()
				opt := sc.opt
				opt.Scale = 0.6
				p, err := Board(loadMap(t, v.Map), v, opt)
				if err != nil {
					t.Error(err)
					return
				}
				pngs[i], _ = p.PNG()
				svgs[i] = p.SVG()
			}()
		}
		wg.Wait()
		for i := range pngs {
			if !bytes.Equal(pngs[i], png1) {
				t.Errorf("%s: PNG %d differs from the first", sc.name, i)
			}
			if !bytes.Equal(svgs[i], svg1) {
				t.Errorf("%s: SVG %d differs from the first", sc.name, i)
			}
		}
	}
}

// TestQuantize checks the paletted PNG against the full-colour rendering:
// flat areas exact, anti-aliased edges close.
func TestQuantize(t *testing.T) {
	pic := drawScenario(t, scenarios[0], 0.6)
	full, paletted := pic.Image(), decode(t, encode(t, pic))
	total := full.Bounds().Dx() * full.Bounds().Dy()
	for _, tol := range []int{0, 8, 16, 32} {
		t.Logf("tolerance %d: %d of %d pixels differ", tol, differ(full, paletted, tol), total)
	}
	if n := differ(full, paletted, 16); n*100 > total {
		t.Errorf("%d of %d pixels changed by more than 16", n, total)
	}
	if n := differ(full, paletted, 32); n*2000 > total {
		t.Errorf("%d of %d pixels changed by more than 32", n, total)
	}
}

func TestSVGWellFormed(t *testing.T) {
	for _, sc := range scenarios {
		pic := drawScenario(t, sc, 1)
		d := xml.NewDecoder(bytes.NewReader(pic.SVG()))
		var root xml.StartElement
		elems := 0
		for {
			tok, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", sc.name, err)
			}
			if se, ok := tok.(xml.StartElement); ok {
				if elems == 0 {
					root = se
				}
				elems++
			}
		}
		if root.Name.Local != "svg" || root.Name.Space != "http://www.w3.org/2000/svg" {
			t.Errorf("%s: root element %v", sc.name, root.Name)
		}
		attr := map[string]string{}
		for _, a := range root.Attr {
			attr[a.Name.Local] = a.Value
		}
		if attr["width"] != itoa(pic.Width) || attr["height"] != itoa(pic.Height) {
			t.Errorf("%s: svg is %sx%s, picture %dx%d", sc.name, attr["width"], attr["height"], pic.Width, pic.Height)
		}
		if elems < pic.Ops() {
			t.Errorf("%s: %d elements for %d drawing operations", sc.name, elems, pic.Ops())
		}
	}
}

// TestOnlyWhatTheViewHolds: the ruleset filters the View for its viewer;
// the picture must show a unit when the View has it and leave no trace of
// it (counter, stack list, damage panel, legend entry) when it has not.
func TestOnlyWhatTheViewHolds(t *testing.T) {
	m := loadMap(t, "esirien")
	v := refpicture.View()
	spy := adjudicator.UnitView{ID: "spy-1", Side: "invader", Type: "SECRET", At: "1208", Values: "9-9-9",
		Status: []string{"disguised"}, Damage: []adjudicator.Damage{{Area: "cloak", Left: 1, Of: 2}}}
	with := v
	with.Units = append(append([]adjudicator.UnitView{}, v.Units...), spy)
	pic, err := Board(m, with, Options{Style: drboard.Style})
	if err != nil {
		t.Fatal(err)
	}
	svg := string(pic.SVG())
	for _, s := range []string{"SECRET", "spy-1", "9-9-9", "cloak", "disguised"} {
		if !strings.Contains(svg, s) {
			t.Errorf("the View has the unit, but %q is not in the picture", s)
		}
	}
	// Without it (the ruleset hid it), nothing of it is drawn: the picture
	// is the one of the View that never had it.
	pic2, err := Board(m, v, Options{Style: drboard.Style})
	if err != nil {
		t.Fatal(err)
	}
	svg2 := string(pic2.SVG())
	for _, s := range []string{"SECRET", "spy-1", "9-9-9", "cloak", "disguised"} {
		if strings.Contains(svg2, s) {
			t.Errorf("the View has no such unit, but %q is in the picture", s)
		}
	}
	// A View with no units at all shows the bare board.
	bare, err := Board(m, adjudicator.View{Map: "esirien", Turn: 1, Phase: "setup"}, Options{Style: drboard.Style})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"ORC", "DRG", "Stacks", "Damage", "Last adjudication"} {
		if strings.Contains(string(bare.SVG()), ">"+s) {
			t.Errorf("an empty View's picture has %q", s)
		}
	}
}

// TestWarnings: what cannot be placed is left out and reported, and the
// rest is drawn.
func TestWarnings(t *testing.T) {
	v := adjudicator.View{
		Map: "nurkott",
		Units: []adjudicator.UnitView{
			{ID: "lost", Side: "invader", Type: "ORC", At: "9999"},
			{ID: "away", Side: "invader", Type: "GOB", At: "off-map"},
			{ID: "turned", Side: "invader", Type: "TREX", At: "0505", Facing: "W"},
		},
		Hexes:  []adjudicator.HexMark{{Kind: "broken", At: "0101/0505"}, {Kind: "fog", At: "7777", Radius: 1}},
		Traces: []adjudicator.Trace{{Kind: "move", Unit: "turned", Path: []string{"0505", "05x6"}}},
	}
	pic, err := Board(loadMap(t, "nurkott"), v, Options{Style: drboard.Style})
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(pic.Warnings, "\n")
	for _, want := range []string{"unit lost is at 9999", "marker broken at 0101/0505", "marker fog at 7777", `"05x6" is not a hex`, `faces "W"`} {
		if !strings.Contains(all, want) {
			t.Errorf("no warning with %q in:\n%s", want, all)
		}
	}
	if strings.Contains(all, "away") {
		t.Errorf("a unit off the map is not a mistake:\n%s", all)
	}
	svg := string(pic.SVG())
	for _, want := range []string{"TREX", "Off the map", "GOB (away)"} {
		if !strings.Contains(svg, want) {
			t.Errorf("%q is not drawn", want)
		}
	}
}

func TestBadInput(t *testing.T) {
	if _, err := Board(nil, adjudicator.View{}, Options{Style: drboard.Style}); err == nil {
		t.Error("no error without a map")
	}
	if _, err := Board(loadMap(t, "esirien"), adjudicator.View{}, Options{Style: drboard.Style, Scale: 100}); err == nil {
		t.Error("no error for scale 100")
	}
}

// TestScale: Scale multiplies the picture's size.
func TestScale(t *testing.T) {
	m := loadMap(t, "esirien")
	a, _ := Board(m, adjudicator.View{}, Options{Style: drboard.Style, Scale: 0.5})
	b, _ := Board(m, adjudicator.View{}, Options{Style: drboard.Style, Scale: 1})
	if d := b.Width - 2*a.Width; d < -2 || d > 2 {
		t.Errorf("width %d at scale 1, %d at scale 0.5", b.Width, a.Width)
	}
}

// TestSideColours: a side keeps its colour whatever units remain, and
// Options.Sides decides the order.
func TestSideColours(t *testing.T) {
	v := adjudicator.View{Units: []adjudicator.UnitView{{Side: "invader"}, {Side: "defender"}}}
	if got := sideOrder(nil, v); len(got) != 2 || got[0] != "defender" || got[1] != "invader" {
		t.Errorf("by name: %v", got)
	}
	v.Units = v.Units[:1]
	if got := sideOrder([]adjudicator.Side{"defender", "invader"}, v); got[0] != "defender" || got[1] != "invader" {
		t.Errorf("given: %v", got)
	}
}

func TestDashes(t *testing.T) {
	got := dashes([]pt{{0, 0}, {10, 0}, {10, 10}}, []float64{4, 2})
	// 0-4, 6-10, then 12-16 (along the turn: (10,2)-(10,6)), 18-20.
	want := [][]pt{{{0, 0}, {4, 0}}, {{6, 0}, {10, 0}, {10, 0}}, {{10, 2}, {10, 6}}, {{10, 8}, {10, 10}}}
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for i := range want {
		a, b := got[i][0], got[i][len(got[i])-1]
		if a != want[i][0] || b != want[i][len(want[i])-1] {
			t.Errorf("dash %d: %v, want %v", i, got[i], want[i])
		}
	}
}

// TestDocsPictures writes the pictures kept in docs/pictures when given
// -docs DIR: the scenarios, and each whole Dragon Rage game of the rule
// cases as the defender sees it just before it ends (its last step left
// out).
func TestDocsPictures(t *testing.T) {
	if *docs == "" {
		t.Skip("give -docs DIR to write the pictures")
	}
	write := func(name string, pic *Picture) {
		t.Helper()
		b := encode(t, pic)
		if err := os.WriteFile(filepath.Join(*docs, name+".png"), b, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %dx%d, %d drawing operations, PNG %d bytes", name, pic.Width, pic.Height, pic.Ops(), len(b))
	}
	for _, sc := range scenarios {
		write(sc.name, drawScenario(t, sc, 1))
	}
	games, err := filepath.Glob("../dragonrage/testdata/games/*.yaml")
	if err != nil || len(games) == 0 {
		t.Fatalf("no whole games: %v", err)
	}
	lookup := func(n string) (adjudicator.Ruleset, bool) { return dragonrage.Ruleset, n == "dragonrage" }
	for _, file := range games {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		s, err := script.Parse(file, src)
		if err != nil {
			t.Fatal(err)
		}
		s.Steps, s.Expect = s.Steps[:len(s.Steps)-1], nil
		run, err := script.Play(s, lookup, script.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !run.OK() {
			t.Fatalf("%s: %v", file, run.Failures)
		}
		v := run.Game.View("defender")
		pic, err := Game(loadMap(t, v.Map), run.Game, "defender", 1)
		if err != nil {
			t.Fatal(err)
		}
		write(strings.TrimSuffix(filepath.Base(file), ".yaml"), pic)
	}
}
