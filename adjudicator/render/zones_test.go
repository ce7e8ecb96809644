package render

import (
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	drboard "github.com/umpire-pbem/umpire/adjudicator/dragonrage/board"
)

// TestZoneMarks: zone marks are shaded, outlined and named once with the
// zone's name, and listed in the legend; a View without them draws none.
func TestZoneMarks(t *testing.T) {
	m := loadMap(t, "esirien")
	v := adjudicator.View{Map: "esirien", Phase: "defender setup"}
	for _, h := range []string{"0808", "0809", "0810", "0908", "0909"} {
		v.Hexes = append(v.Hexes, adjudicator.HexMark{Kind: "zone", At: h, Label: "defender-setup"})
	}
	for _, h := range []string{"0714", "0715"} {
		v.Hexes = append(v.Hexes, adjudicator.HexMark{Kind: "zone", At: h, Label: "harbour"})
	}
	pic, err := Board(m, v, Options{Style: drboard.Style, Viewer: "defender"})
	if err != nil {
		t.Fatal(err)
	}
	if len(pic.Warnings) > 0 {
		t.Errorf("warnings: %v", pic.Warnings)
	}
	svg := string(pic.SVG())
	for _, s := range []string{">defender-setup<", ">harbour<", ">zone defender-setup<", ">zone harbour<"} {
		if strings.Count(svg, s) != 1 {
			t.Errorf("%q is in the picture %d times, want once", s, strings.Count(svg, s))
		}
	}
	bare, err := Board(m, adjudicator.View{Map: "esirien", Phase: "defender setup"}, Options{Style: drboard.Style, Viewer: "defender"})
	if err != nil {
		t.Fatal(err)
	}
	if s := string(bare.SVG()); strings.Contains(s, "defender-setup") || strings.Contains(s, "harbour") {
		t.Error("a View without zone marks has a zone in its picture")
	}
	// The shading is there: inside 0810 (a zone hex) the pixels change; in
	// 1212 (none) they do not.
	img, plain := pic.Image(), bare.Image()
	b := &board{m: m, v: v, opt: Options{Viewer: "defender", Scale: 1}, st: newStyle(drboard.Style), u: 1, s: 20, fs: faces{}, used: map[string]bool{}}
	b.readView()
	b.layout() // places the map as Board did
	for _, tc := range []struct {
		hex  string
		zone bool
	}{{"0810", true}, {"1212", false}} {
		h, _ := b.parseHex(tc.hex)
		c := b.centre(h).add(pt{-14, 10}) // below the hex number, clear of the label
		got, want := img.RGBAAt(int(c.X), int(c.Y)), plain.RGBAAt(int(c.X), int(c.Y))
		if (got != want) != tc.zone {
			t.Errorf("hex %s: pixel %v, without zones %v (zone: %v)", tc.hex, got, want, tc.zone)
		}
	}
}
