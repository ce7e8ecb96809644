package render

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage/refpicture"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
)

// maxBigPNG is the most a crop or an overview of a big map may weigh.
const maxBigPNG = 250_000

var bigVocab = hexmap.Vocabulary{
	Terrain:    []string{"grassland", "forest", "mountain", "ocean", "steppe"},
	Sides:      []string{"river", "deep-river", "ford", "bridge", "mountain", "pass"},
	Points:     []string{"city", "fortress"},
	PointTags:  []string{"port", "capital"},
	StackSides: true,
}

var bigStyle = &adjudicator.PictureStyle{
	Terrain: []adjudicator.TerrainStyle{
		{Kind: "grassland", Fill: 0xdfe8b0}, {Kind: "forest", Fill: 0x9cc08a, Pattern: "trees", Mark: 0x4d7a3f},
		{Kind: "mountain", Fill: 0xc9b49a, Pattern: "hills", Mark: 0x7a5c3a}, {Kind: "ocean", Fill: 0xa9cbe6, Pattern: "sea", Mark: 0x5f8fb8},
		{Kind: "steppe", Fill: 0xecdca8},
	},
}

// bigMap is a synthetic 65×53 pointy-odd continent: sea around, forests,
// mountain ranges, rivers along hexsides, sixty named cities and two
// nations.
func bigMap(t testing.TB) *hexmap.Map {
	t.Helper()
	var y strings.Builder
	y.WriteString("name: big\ntitle: Synthetic continent\nlayout: pointy-odd\nbounds: {cols: [0, 64], rows: [0, 52]}\ndefault: grassland\nterrain:\n")
	y.WriteString("  - {kind: ocean, hexes: [\"0000-6400\", \"0052-6452\", \"0000-0052\", \"6400-6452\", \"4030:6452\"], assumed: true}\n")
	y.WriteString("  - {kind: forest, hexes: [\"0505:1215\", \"2020:2628\"], assumed: true}\n")
	y.WriteString("  - {kind: mountain, hexes: [\"3005-3025\", \"1030-2530\"], assumed: true}\n")
	y.WriteString("  - {kind: steppe, hexes: [\"4205:5520\"], assumed: true}\n")
	y.WriteString("hexsides:\n  - kind: river\n    tags: [great-river]\n    sides: [")
	for r := 3; r < 28; r++ {
		fmt.Fprintf(&y, "\"%02d%02d E\", ", 18, r)
	}
	y.WriteString("\"1828 SE\"]\n  - kind: mountain\n    sides: [")
	for c := 32; c < 40; c++ {
		fmt.Fprintf(&y, "\"%02d10 NE NW\", ", c)
	}
	y.WriteString("\"4010 NE\"]\npoints:\n")
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&y, "  - {name: city %d, kind: city, hex: \"%02d%02d\"}\n", i, 3+(i*7)%36, 3+(i*11)%46)
	}
	y.WriteString("zones:\n  - {name: west, group: nation, hexes: [\"0101:3151\"]}\n  - {name: east, group: nation, hexes: [\"3201:6351\"]}\n")
	m, err := hexmap.Parse("big.yaml", []byte(y.String()), &bigVocab)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// bigView is the map full of stacks: 300 units of two sides, stacks of
// one to four counters, a few hidden enemy stacks, and the traces of one
// adjudication (eight moves and two battles) in the north-west.
func bigView() adjudicator.View {
	v := adjudicator.View{Map: "big", Turn: 7, Phase: "movement"}
	n := 0
	for i := 0; n < 300; i++ {
		x := (i * 97) % (60 * 48)
		c, r := 2+x%60, 2+x/60
		side := adjudicator.Side("whitestone")
		if c > 32 {
			side = "highlord"
		}
		at := fmt.Sprintf("%02d%02d", c, r)
		k := 1 + i%4
		if i%17 == 0 {
			v.Units = append(v.Units, adjudicator.UnitView{ID: fmt.Sprintf("secret-%d", i), Side: "highlord", Type: Hidden, At: at, Values: "3", Status: []string{"veteran"}})
			n += 3
			continue
		}
		for j := 0; j < k && n < 300; j++ {
			v.Units = append(v.Units, adjudicator.UnitView{ID: fmt.Sprintf("u%d", n), Side: side, Type: []string{"INF", "CAV", "FLEET", "WING"}[j], Values: fmt.Sprintf("%d-%d", 2+j, 4+j), At: at})
			n++
		}
	}
	for i := 0; i < 8; i++ {
		c, r := 8+i, 10+i%3
		v.Traces = append(v.Traces, adjudicator.Trace{Kind: "move", Unit: fmt.Sprintf("u%d", i), Path: []string{fmt.Sprintf("%02d%02d", c, r), fmt.Sprintf("%02d%02d", c+1, r), fmt.Sprintf("%02d%02d", c+2, r+1)}})
	}
	v.Traces = append(v.Traces,
		adjudicator.Trace{Kind: "melee", Path: []string{"1412", "1513"}, Result: "D2"},
		adjudicator.Trace{Kind: "melee", Path: []string{"1011", "1112"}, Result: "A1"})
	return v
}

func bigOptions(mode Mode) Options {
	return Options{Game: "big", Viewer: "whitestone", Sides: []adjudicator.Side{"whitestone", "highlord"}, Style: bigStyle, Mode: mode}
}

// TestBigMapPictures: the crop and the overview of a 65×53 pointy map full
// of stacks stay under maxBigPNG; the crop is the region of the traces,
// at full counter size; the full picture of the same map would be far
// larger.
func TestBigMapPictures(t *testing.T) {
	m, v := bigMap(t), bigView()
	sizes := map[Mode]int{}
	pics := map[Mode]*Picture{}
	for _, mode := range []Mode{Crop, Overview} {
		pic, err := Board(m, v, bigOptions(mode))
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range pic.Warnings {
			t.Errorf("%s: warning %s", mode, w)
		}
		b := encode(t, pic)
		sizes[mode], pics[mode] = len(b), pic
		t.Logf("%s: %dx%d, %d bytes", mode, pic.Width, pic.Height, len(b))
		if len(b) >= maxBigPNG {
			t.Errorf("%s: the PNG is %d bytes, over %d", mode, len(b), maxBigPNG)
		}
		again, _ := Board(m, v, bigOptions(mode))
		if !bytes.Equal(encode(t, again), b) {
			t.Errorf("%s: two pictures of the same View differ", mode)
		}
	}
	crop, over := pics[Crop].SVG(), pics[Overview].SVG()
	// The crop shows the traces' hexes with their counters and numbers,
	// and nothing far from them.
	for _, want := range []string{">1412<", ">1513<", ">INF<"} {
		if !bytes.Contains(crop, []byte(want)) {
			t.Errorf("the crop lacks %s", want)
		}
	}
	if bytes.Contains(crop, []byte(">5040<")) || bytes.Contains(crop, []byte(">u299<")) {
		t.Error("the crop shows hexes or units far from the traces")
	}
	// The overview has no counters: no unit ids, no unit types.
	for _, no := range []string{">u0<", ">INF<", ">CAV<"} {
		if bytes.Contains(over, []byte(no)) {
			t.Errorf("the overview draws counters (%s)", no)
		}
	}
	// The whole map at counter size would not fit a mail.
	full, err := Board(m, v, bigOptions(Full))
	if err != nil {
		t.Fatal(err)
	}
	if full.Width*full.Height < 4*pics[Crop].Width*pics[Crop].Height {
		t.Errorf("the crop (%dx%d) is not much smaller than the full map (%dx%d)", pics[Crop].Width, pics[Crop].Height, full.Width, full.Height)
	}
}

// TestHiddenUnits: a hidden stack is a blank counter with its count,
// nothing more — in a crop, in the overview's count and in the panel.
func TestHiddenUnits(t *testing.T) {
	m := bigMap(t)
	v := adjudicator.View{Map: "big", Units: []adjudicator.UnitView{
		{ID: "dragon-highlord-verminaard", Side: "highlord", Type: Hidden, At: "1010", Values: "3", Status: []string{"wounded"}, Facing: "NE", Damage: []adjudicator.Damage{{Area: "body", Left: 1, Of: 3}}},
		{ID: "inf-1", Side: "highlord", Type: "INF", At: "1010"},
		{ID: "spy-ring", Side: "highlord", Type: Hidden, Values: "2", At: "off-map"},
		{ID: "w1", Side: "whitestone", Type: "INF", At: "1111"},
	}, Traces: []adjudicator.Trace{{Kind: "move", Unit: "w1", Path: []string{"1211", "1111"}}}}
	for _, mode := range []Mode{Crop, Overview, Full} {
		pic, err := Board(m, v, bigOptions(mode))
		if err != nil {
			t.Fatal(err)
		}
		svg := string(pic.SVG())
		for _, secret := range []string{"verminaard", "wounded", "spy-ring", "body"} {
			if strings.Contains(svg, secret) {
				t.Errorf("%s: the picture shows %q of a hidden stack", mode, secret)
			}
		}
		switch mode {
		case Overview:
			if !strings.Contains(svg, ">4<") { // 3 hidden + 1 known counters in 1010
				t.Error("the overview does not count the hidden stack's counters")
			}
		default:
			if !strings.Contains(svg, ">3<") || !strings.Contains(svg, "hidden stack of 2") {
				t.Errorf("%s: the hidden stacks' counts are not drawn", mode)
			}
		}
	}
}

// TestPointyGeometry: on a pointy map, hexes are drawn with a corner at
// the top (taller than wide), neighbours share their sides, and a
// unit's facing arrow points along the layout's direction.
func TestPointyGeometry(t *testing.T) {
	m := bigMap(t)
	b, err := build(m, adjudicator.View{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := hex.New(10, 10)
	ps := b.hexPts(h)
	minX, maxX, minY, maxY := ps[0].X, ps[0].X, ps[0].Y, ps[0].Y
	for _, p := range ps {
		minX, maxX, minY, maxY = min(minX, p.X), max(maxX, p.X), min(minY, p.Y), max(maxY, p.Y)
	}
	if w, ht := maxX-minX, maxY-minY; ht <= w || ht != 80 {
		t.Errorf("a pointy hex is %.1f wide and %.1f tall", w, ht)
	}
	c := b.centre(h)
	if ps[0].X != c.X || ps[0].Y >= c.Y {
		t.Errorf("the first corner %v is not the top of %v", ps[0], c)
	}
	e := b.centre(m.Layout.Neighbour(h, hex.PointyE))
	if e.Y != c.Y || e.X <= c.X {
		t.Errorf("E neighbour at %v from %v", e, c)
	}
	if v := dirVec(m.Layout, hex.PointyE); v.X < 0.999 || v.Y > 1e-9 || v.Y < -1e-9 {
		t.Errorf("E facing points %v", v)
	}
	if v := dirVec(m.Layout, hex.PointyNE); v.X <= 0 || v.Y >= 0 {
		t.Errorf("NE facing points %v", v)
	}
	if _, err := Board(m, adjudicator.View{}, Options{Mode: Mode(9)}); err == nil {
		t.Error("an unknown mode was accepted")
	}
}

// BenchmarkBigMap draws the crop and the overview of the 65×53 map with
// 300 units, View to PNG, alternately with the Esirien picture of
// BenchmarkRenderEsirien45 (the reference) in the same loop: "ratio" is
// the big picture's time over the reference's.
func BenchmarkBigMap(b *testing.B) {
	for _, mode := range []Mode{Crop, Overview} {
		b.Run(mode.String(), func(b *testing.B) {
			m, v := bigMap(b), bigView()
			ref, rv := loadMap(b, "esirien"), refpicture.View()
			var own, std time.Duration
			size := 0
			for b.Loop() {
				t0 := time.Now()
				pic, err := Board(m, v, bigOptions(mode))
				if err != nil {
					b.Fatal(err)
				}
				out, err := pic.PNG()
				if err != nil {
					b.Fatal(err)
				}
				size = len(out)
				t1 := time.Now()
				rp, err := Board(ref, rv, scenarios[0].opt)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := rp.PNG(); err != nil {
					b.Fatal(err)
				}
				own, std = own+t1.Sub(t0), std+time.Since(t1)
			}
			n := float64(b.N) * 1e6
			b.ReportMetric(float64(own)/n, "big-ms/op")
			b.ReportMetric(float64(std)/n, "esirien-ms/op")
			b.ReportMetric(float64(own)/float64(std), "ratio")
			b.ReportMetric(float64(size), "PNG-bytes")
		})
	}
}

// TestFitBoardShrinksAWideCrop: a crop whose traces span the whole
// continent would be the whole map at counter size, several times the
// weight a mail should carry; FitBoard draws it again smaller until it is
// under MaxPictureBytes.
func TestFitBoardShrinksAWideCrop(t *testing.T) {
	m := bigMap(t)
	v := bigView()
	v.Traces = append(v.Traces, adjudicator.Trace{Kind: "move", Unit: "far", Path: []string{"0101", "6553"}},
		adjudicator.Trace{Kind: "move", Unit: "far2", Path: []string{"6501", "0153"}})
	opt := bigOptions(Crop)
	opt.Scale = 3 // big counters
	first, err := Board(m, v, opt)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := first.PNG()
	if err != nil {
		t.Fatal(err)
	}
	n, err := FitBoard(m, v, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(raw) < MaxPictureBytes {
		t.Fatalf("the wide crop weighs only %d bytes at full scale: the test no longer makes FitBoard shrink it", len(raw))
	}
	if len(n.PNG) >= MaxPictureBytes || n.Picture.Width >= first.Width {
		t.Fatalf("FitBoard: %d bytes, %d px wide (first drawing %d bytes, %d px)", len(n.PNG), n.Picture.Width, len(raw), first.Width)
	}
}
