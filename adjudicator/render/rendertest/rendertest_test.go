package rendertest_test

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage/board"
	"github.com/umpire-pbem/umpire/adjudicator/render"
	"github.com/umpire-pbem/umpire/adjudicator/render/rendertest"
)

// TestEsirienIsTheReference draws EsirienView as render's golden test does
// (scale 0.6) and finds exactly render's golden picture of Esirien
// (../testdata/esirien.png): the benchmarks that use this package measure
// against the very picture docs/PERFORMANCE.md calls the reference. If
// render's golden is rewritten (go test -update ./adjudicator/render/)
// for a change of the renderer, this still holds; if it fails, render's
// esirienView and this one have parted: make them the same position.
func TestEsirienIsTheReference(t *testing.T) {
	m, err := board.Load("esirien")
	if err != nil {
		t.Fatal(err)
	}
	v := rendertest.EsirienView()
	pic, err := render.Board(m, v, render.Options{Style: board.Style, Game: "demo-esirien", Viewer: "defender",
		ToMove: []adjudicator.Side{"invader"}, Sides: rendertest.EsirienSides, Scale: 0.6})
	if err != nil {
		t.Fatal(err)
	}
	got, err := pic.PNG()
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("../testdata/esirien.png")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		gi, wi := decode(t, got), decode(t, want)
		t.Errorf("EsirienView drawn at scale 0.6 (%v, %d bytes) is not render's golden Esirien picture (%v, %d bytes): the two positions have parted",
			gi.Bounds().Size(), len(got), wi.Bounds().Size(), len(want))
	}
}

func decode(t *testing.T, b []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return img
}
