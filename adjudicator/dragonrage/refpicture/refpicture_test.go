package refpicture_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/dragonrage/refpicture"
	"github.com/umpire-pbem/umpire/adjudicator/render"
)

// TestEsirienIsTheReference draws the reference at scale 0.6, as render's
// golden test draws its own copy, and finds exactly render's golden
// picture of Esirien (adjudicator/render/testdata/esirien.png): the
// benchmarks that use this package measure against the very picture
// docs/PERFORMANCE.md calls the reference. A change of the renderer
// rewrites the golden (go test -update ./adjudicator/render/) and this
// still holds; if it fails, render's esirienView and this one have parted:
// make them the same position again.
func TestEsirienIsTheReference(t *testing.T) {
	m, v, opt, err := refpicture.Esirien()
	if err != nil {
		t.Fatal(err)
	}
	opt.Scale = 0.6
	pic, err := render.Board(m, v, opt)
	if err != nil {
		t.Fatal(err)
	}
	got, err := pic.PNG()
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("../../render/testdata/esirien.png")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the reference drawn at scale 0.6 (%d×%d, %d bytes) is not render's golden picture of Esirien (%d bytes): the two positions have parted",
			pic.Width, pic.Height, len(got), len(want))
	}
}
