package dragonnoir_test

import (
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir"
)

// dn3Counter reports whether k is one of La Conquête's counters, which no
// DN2 box holds: its values rest on GAP-18 (the DN3 counters) or GAP-15
// (the Black Dragon of DN1), its first clue says so.
func dn3Counter(k *dragonnoir.Kind) bool {
	return len(k.Prov.Clues) > 0 && (strings.HasPrefix(k.Prov.Clues[0], "GAP-18") || strings.HasPrefix(k.Prov.Clues[0], "GAP-15"))
}

// TestMagicResistance: the Ents' and the Black Dragon's magic resistance
// is Table DN3-T6's (DN3-PEOPLE-ENT-29, DN3-PEOPLE-DRAGON-6): 3 and 9.
func TestMagicResistance(t *testing.T) {
	d, err := dragonnoir.LoadModule(builtin(t))
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]int{"ent": 3, "black-dragon": 9} {
		if k := d.Kinds[id]; k == nil || k.MagicResistance != want {
			t.Errorf("%s: magic resistance %v, want %d (Table DN3-T6)", id, k, want)
		}
	}
	if d.Kinds["konrad"].MagicResistance != 0 {
		t.Error("a DN2 character has no magic resistance")
	}
}
