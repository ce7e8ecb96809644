package dragonnoir

import (
	"slices"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// TestBetweenLegs: for every facing, a Guard has exactly one hex between
// its legs (GAP-10 as umpire reads it): outside its triangle, next to both
// of its front hexes and not to its rear (anchor) hex, straight ahead.
func TestBetweenLegs(t *testing.T) {
	d, err := builtinData()
	if err != nil {
		t.Fatal(err)
	}
	mp := d.maps["descente"]
	g := d.Kinds["guard"]
	for f := range 6 {
		name := mp.Layout.DirName(hex.Direction(f))
		st := &State{data: d, board: mp, Chars: map[string]*Char{
			"guard-1": {ID: "guard-1", Kind: "guard", Side: Krobs, At: "0803", Facing: name, Face: Healthy},
		}}
		legs := legsOf(st, st.Chars["guard-1"])
		if len(legs) != 1 {
			t.Fatalf("facing %s: %d hexes between the legs (%v), want one", name, len(legs), legs)
		}
		fp, _ := footprintOf(mp, g, st.loc(st.Chars["guard-1"]).Hex, name)
		hs := fp.Hexes()
		l := legs[0]
		if slices.Contains(hs, l) || !mp.Layout.Adjacent(l, hs[1]) || !mp.Layout.Adjacent(l, hs[2]) || mp.Layout.Adjacent(l, hs[0]) {
			t.Errorf("facing %s: %s between the legs of %v: it must touch both front hexes and not the rear one", name, l, hs)
		}
	}
}

// TestGharvScratchOption: the option reads zed or always, and says what
// it expects otherwise.
func TestGharvScratchOption(t *testing.T) {
	for v, want := range map[string]bool{"zed": false, "always": true} {
		r, err := parseOptions(map[string]string{"gharv-scratch": v})
		if err != nil || r.GharvScratch != want {
			t.Errorf("gharv-scratch=%s: %+v, %v", v, r, err)
		}
	}
	if _, err := parseOptions(map[string]string{"gharv-scratch": "never"}); err == nil || !strings.Contains(err.Error(), "zed or always") {
		t.Errorf("gharv-scratch=never: %v, want an error naming zed and always", err)
	}
}
