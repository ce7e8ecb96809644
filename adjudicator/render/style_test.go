package render

import (
	"slices"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	drboard "github.com/umpire-pbem/umpire/adjudicator/dragonrage/board"
)

// texts are the display list's texts.
func texts(p *Picture) []string {
	var out []string
	for _, o := range p.ops {
		if o.kind == opText {
			out = append(out, o.text)
		}
	}
	return out
}

// TestPlainStyle: a map drawn without a style (a new game's, before it has
// one) still shows every kind: terrain by name, named hexes by their
// initials, hexside features as dashed lines named in the legend, markers
// as tags; and the ruleset's style replaces each of them.
func TestPlainStyle(t *testing.T) {
	m := loadMap(t, "nurkott")
	v := adjudicator.View{Map: "nurkott", Turn: 1, Phase: "movement",
		Hexes: []adjudicator.HexMark{{Kind: "whirlwind", At: "1010", Label: "2"}}}
	plain, err := Board(m, v, Options{})
	if err != nil {
		t.Fatal(err)
	}
	styled, err := Board(m, v, Options{Style: drboard.Style})
	if err != nil {
		t.Fatal(err)
	}
	pt, st := texts(plain), texts(styled)
	for _, want := range []string{"SE", "serpent-entry hex", "palisade", "door", "river", "whirlwind 2"} {
		if !slices.Contains(pt, want) {
			t.Errorf("plain picture: no text %q", want)
		}
	}
	for _, want := range []string{"S", "D", "W2", "whirlwind (and its", "land and river", "river between hexes", "serpent-entry hex"} {
		if !slices.Contains(st, want) {
			t.Errorf("styled picture: no text %q", want)
		}
	}
	for _, gone := range []string{"SE", "EN", "whirlwind 2"} {
		if slices.Contains(st, gone) {
			t.Errorf("styled picture: text %q of the plain style", gone)
		}
	}
}
