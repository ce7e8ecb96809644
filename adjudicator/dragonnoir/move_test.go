package dragonnoir

import (
	"strings"
	"testing"
)

// TestMarkersChecked proves a set-up's boats and oubliette entrances are
// checked: a boat lies on water or a beach (DN-BOAT-6, -7), the game has
// four oubliette entrances (DN-CNT-13), and both sides see the entrances
// (DN-MAP-11).
func TestMarkersChecked(t *testing.T) {
	d, err := builtinData()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ pos, want string }{
		{"map: ile\nboats: [{unit: boat-1, at: \"0202\", facing: S}]\n", "a boat lies on water or a beach"},
		{"map: ile\nboats: [{unit: boat-1, at: \"0502\", facing: E}]\n", "facing"},
		{"map: ile\nboats: [{unit: boat-1, at: \"0502\", facing: S}, {unit: boat-2, at: \"0503\", facing: S}]\n", "both cover 0503"},
		{"map: fosse\noubliettes: [\"0202\", \"0203\", \"0204\", \"0205\", \"0302\"]\n", "four counters (DN-CNT-13)"},
	} {
		_, err := positionSetup(d, Rules{}, []byte(c.pos))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("position %q: got %v, want an error with %q", c.pos, err, c.want)
		}
	}
	st, err := positionSetup(d, Rules{}, []byte("map: ile\nboats: [{unit: boat-1, at: \"0502\", facing: S}]\noubliettes: [\"0104\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, side := range (ruleset{}).Info().Sides {
		v := (ruleset{}).View(st, side)
		var marks []string
		for _, h := range v.Hexes {
			marks = append(marks, h.Kind+" "+h.At+" "+h.Label)
		}
		got := strings.Join(marks, "; ")
		if !strings.Contains(got, "oubliette 0104") || !strings.Contains(got, "boat 0502 boat-1 S") {
			t.Errorf("the %s see %q, want the oubliette on 0104 and boat-1 on 0502 facing S", side, got)
		}
	}
	if stern, bow := st.BoatHexes(st.Boats[0]); stern.String() != "0502" || bow.String() != "0503" {
		t.Errorf("boat-1 lies on %s and %s, want 0502 and 0503", stern, bow)
	}
}
