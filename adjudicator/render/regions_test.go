package render

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage/refpicture"
	"github.com/umpire-pbem/umpire/adjudicator/testrules"
)

// regionSample is a small map of regions as the side "north" sees it: its
// own troops, a troop of "south" it has seen, a people of no side, a
// region in fog where it knows a rumour, every kind of path, two moves of
// the last two adjudications and a battle.
func regionSample() (adjudicator.RegionGraph, adjudicator.View, Options) {
	g := adjudicator.RegionGraph{
		Title: "The valley",
		Regions: []adjudicator.RegionNode{
			{ID: "road", Name: "The road", X: 0, Y: 90, Kind: "exit"},
			{ID: "mill", Name: "The mill", X: 20, Y: 75, Kind: "village", Items: []adjudicator.RegionItem{
				{Side: "north", Label: "N1 (4)"}, {Side: "north", Label: "N2 (2)", Status: []string{"wounded", "fatigued"}}}},
			{ID: "ford", Name: "The ford", X: 45, Y: 70, Kind: "water", Items: []adjudicator.RegionItem{
				{Side: "north", Label: "N3 (3)", At: "mill"}, {Side: "south", Label: "S1 (5)"}}, Marks: []string{"battle"}},
			{ID: "wood", Name: "The great wood", X: 30, Y: 35, Kind: "forest", Items: []adjudicator.RegionItem{
				{Label: "a people: the wood folk"}}, Marks: []string{"people", "sacred"}},
			{ID: "hills", Name: "The hills", X: 60, Y: 40, Kind: "hills", Fog: true, Items: []adjudicator.RegionItem{
				{Side: "south", Label: "?"}}},
			{ID: "fort", Name: "The fort", X: 85, Y: 15, Kind: "fort", Fog: true},
			{ID: "marsh", Name: "The marsh", X: 75, Y: 80, Kind: "marsh", Fog: true},
			{ID: "circle", Name: "The stone circle of the old ones", X: 50, Y: 5, Kind: "framed"},
			{ID: "out", Name: "The way out", X: 100, Y: 0, Kind: "exit"},
		},
		Paths: []adjudicator.RegionPath{
			{A: "road", B: "mill", Kind: "road"},
			{A: "mill", B: "ford", Kind: "road"},
			{A: "mill", B: "wood"},
			{A: "ford", B: "hills"},
			{A: "ford", B: "marsh", Label: "2 days"},
			{A: "wood", B: "circle"},
			{A: "wood", B: "hills", Kind: "tunnel"},
			{A: "hills", B: "fort"},
			{A: "fort", B: "out", Kind: "exit"},
		},
		Traces: []adjudicator.RegionTrace{
			{Side: "north", Path: []string{"road", "mill"}, Label: "N1", Step: 1},
			{Side: "north", Path: []string{"mill", "ford"}, Label: "N3", Step: 2},
			{Kind: "melee", Side: "south", Path: []string{"hills", "ford"}, Label: "attack"},
		},
		Legend: []string{"N1 (4): troop N1 of 4 counters", "?: a troop of the other side, reported"},
		Notes:  []string{"Season: spring, week 3.", "The wood folk are neutral."},
	}
	v := adjudicator.View{Turn: 3, Phase: "movement"}
	opt := Options{Game: "demo-valley", Viewer: "north", ToMove: []adjudicator.Side{"north", "south"}, Sides: []adjudicator.Side{"north", "south"}}
	return g, v, opt
}

func drawRegions(t testing.TB, g adjudicator.RegionGraph, v adjudicator.View, opt Options) *Picture {
	t.Helper()
	pic, err := Regions(g, v, opt)
	if err != nil {
		t.Fatal(err)
	}
	return pic
}

// TestRegionsGolden compares the sample map of regions with
// testdata/regions.png (run with -update to accept a change, after
// looking at it).
func TestRegionsGolden(t *testing.T) {
	g, v, opt := regionSample()
	if p := g.Problems(); len(p) > 0 {
		t.Fatalf("the sample has problems: %v", p)
	}
	pic := drawRegions(t, g, v, opt)
	if len(pic.Warnings) > 0 {
		t.Errorf("warnings: %v", pic.Warnings)
	}
	if pic.Width > 1200 || pic.Height > 900 {
		t.Errorf("the picture is %dx%d, more than 1200x900", pic.Width, pic.Height)
	}
	png := encode(t, pic)
	if len(png) > 120_000 {
		t.Errorf("the PNG weighs %d bytes, more than 120 kB", len(png))
	}
	checkGolden(t, "regions", png)
}

// TestRegionsSameBytes: the same graph gives the same bytes, PNG and SVG.
func TestRegionsSameBytes(t *testing.T) {
	g, v, opt := regionSample()
	a, b := drawRegions(t, g, v, opt), drawRegions(t, g, v, opt)
	if !bytes.Equal(encode(t, a), encode(t, b)) {
		t.Error("two PNGs of the same graph differ")
	}
	if !bytes.Equal(a.SVG(), b.SVG()) {
		t.Error("two SVGs of the same graph differ")
	}
}

// TestRegionsShowOnlyTheGraph: the picture is a function of the graph
// alone: drawn twice, the same bytes; with one more item in a fogged
// region, other bytes, and the item in the SVG's text.
func TestRegionsShowOnlyTheGraph(t *testing.T) {
	g, v, opt := regionSample()
	base := encode(t, drawRegions(t, g, v, opt))
	again := encode(t, drawRegions(t, g, v, opt))
	if !bytes.Equal(base, again) {
		t.Fatal("not deterministic")
	}
	g2, _, _ := regionSample()
	g2.Regions[6].Items = append(g2.Regions[6].Items, adjudicator.RegionItem{Side: "south", Label: "S9 (7)"})
	if bytes.Equal(base, encode(t, drawRegions(t, g2, v, opt))) {
		t.Error("an item added to a fogged region changes nothing in the picture")
	}
	if !strings.Contains(string(drawRegions(t, g2, v, opt).SVG()), "S9 (7)") {
		t.Error("the SVG does not list the item added")
	}
}

// TestRegionsWarn: entries that name no region are left out and warned
// about; the rest is drawn.
func TestRegionsWarn(t *testing.T) {
	g, v, opt := regionSample()
	g.Paths = append(g.Paths, adjudicator.RegionPath{A: "mill", B: "nowhere"})
	g.Traces = append(g.Traces, adjudicator.RegionTrace{Side: "south", Path: []string{"nowhere", "ford"}})
	g.Regions[1].Items = append(g.Regions[1].Items, adjudicator.RegionItem{Side: "north", Label: "N9", At: "fort"})
	g.Regions = append(g.Regions, adjudicator.RegionNode{ID: "mill", Name: "again"})
	pic := drawRegions(t, g, v, opt)
	want := []string{`path mill-nowhere joins "mill" and "nowhere"`, `trace 4 () goes through "nowhere"`, `"N9" is at "fort"`, "region mill is listed twice"}
	all := strings.Join(pic.Warnings, "\n")
	for _, w := range want {
		if !strings.Contains(all, w) {
			t.Errorf("no warning %q in:\n%s", w, all)
		}
	}
	if _, err := Regions(adjudicator.RegionGraph{}, v, opt); err == nil {
		t.Error("a graph without regions is drawn")
	}
}

// TestRegionsBounded: a crowded map (many items, marks, notes) stays
// within 1200×900 pixels at scale 1.
func TestRegionsBounded(t *testing.T) {
	g, v, opt := regionSample()
	for i := range g.Regions {
		for k := 0; k < 20; k++ {
			g.Regions[i].Items = append(g.Regions[i].Items, adjudicator.RegionItem{Side: "south", Label: "a long label for a troop " + itoa(k), Status: []string{"wounded"}})
		}
		g.Regions[i].Marks = append(g.Regions[i].Marks, "one", "two", "three", "four", "five", "six")
	}
	for k := 0; k < 200; k++ {
		g.Notes = append(g.Notes, "a note that goes on and on to fill the panel of the picture, number "+itoa(k))
	}
	pic := drawRegions(t, g, v, opt)
	if pic.Width > 1200 || pic.Height > 900 {
		t.Errorf("the picture is %dx%d, more than 1200x900", pic.Width, pic.Height)
	}
}

// TestRegionsFogHidesTheOtherSide draws the test ruleset patrol's map for
// each side from two states that differ only in where red's R2 stands,
// the gate or the meadow, both in fog for blue (on the hill and in the
// keep): blue's pictures are the same bytes, red's are not.
func TestRegionsFogHidesTheOtherSide(t *testing.T) {
	draw := func(r2 string, viewer adjudicator.Side) []byte {
		st, err := testrules.Patrol.Setup(adjudicator.Setup{Position: []byte("troops: {R1: wood, R2: " + r2 + ", B1: hill, B2: keep}\n")})
		if err != nil {
			t.Fatal(err)
		}
		g, ok := testrules.Patrol.(adjudicator.RegionMaps).RegionGraph(st, viewer)
		if !ok {
			t.Fatal("patrol has no map of regions")
		}
		if p := g.Problems(); len(p) > 0 {
			t.Fatalf("patrol's map: %v", p)
		}
		return encode(t, drawRegions(t, g, testrules.Patrol.View(st, viewer), Options{Viewer: viewer, Sides: []adjudicator.Side{"red", "blue"}}))
	}
	if !bytes.Equal(draw("gate", "blue"), draw("meadow", "blue")) {
		t.Error("blue's picture tells where red's R2 stands in the fog")
	}
	if !bytes.Equal(draw("gate", adjudicator.Observer), draw("meadow", adjudicator.Observer)) {
		t.Error("the observer's picture tells where red's R2 stands")
	}
	if bytes.Equal(draw("gate", "red"), draw("meadow", "red")) {
		t.Error("red's picture does not show where its R2 stands")
	}
}

// BenchmarkRegionPicture draws the sample map of regions, graph to PNG
// bytes, and the Esirien reference picture (adjudicator/dragonrage/
// refpicture) in the same loop: "ratio" is the region picture's time over
// the reference's, which does not depend on the machine or its load.
func BenchmarkRegionPicture(b *testing.B) {
	g, v, opt := regionSample()
	m := loadMap(b, "esirien")
	ev := refpicture.View()
	eopt := scenarios[0].opt
	size := 0
	ours := func() {
		pic, err := Regions(g, v, opt)
		if err != nil {
			b.Fatal(err)
		}
		png, err := pic.PNG()
		if err != nil {
			b.Fatal(err)
		}
		size = len(png)
	}
	reference := func() {
		pic, err := Board(m, ev, eopt)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := pic.PNG(); err != nil {
			b.Fatal(err)
		}
	}
	ours() // once each before timing, as a game's later pictures
	reference()
	var own, ref time.Duration
	for b.Loop() {
		t0 := time.Now()
		ours()
		t1 := time.Now()
		reference()
		own, ref = own+t1.Sub(t0), ref+time.Since(t1)
	}
	n := float64(b.N)
	b.ReportMetric(float64(own)/n/1e6, "ms/picture")
	b.ReportMetric(float64(ref)/n/1e6, "esirien-ms/picture")
	b.ReportMetric(float64(own)/float64(ref), "ratio")
	b.ReportMetric(float64(size), "PNG-bytes")
}
