package conquete_test

import (
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir/conquete"
)

// TestBattleRiders reads the position of a Battle with Reptilians on
// Raptors (AMB-67, DN3-PEOPLE-REPT-4): each Raptor under the first
// Reptilian of the forces, starting where it does, who may ride it; the
// Warrior and the chief left without one on foot; and the tactical
// ruleset sets the position up.
func TestBattleRiders(t *testing.T) {
	c, pos := childPosition(t, "battle/AMB-67-reptilians-on-raptors-start-in-the-saddle.yaml")
	got := map[string]conquete.BattleForce{}
	for _, f := range pos.Forces {
		got[f.Unit] = f
	}
	want := map[string]string{"lord": "raptor-1", "chief-ysshal": "raptor-2", "chief-sarrak": "", "rept-warrior-1": "", "raptor-1": "", "raptor-2": "", "konrad": "", "jon": ""}
	if len(got) != len(want) {
		t.Errorf("forces %+v", pos.Forces)
	}
	for id, m := range want {
		if got[id].Mount != m {
			t.Errorf("%s rides %q, want %q", id, got[id].Mount, m)
		}
	}
	if f := got["lord"]; f.Zone != "edge" || f.Edge != "le-marais" || got["raptor-1"].Edge != "le-marais" {
		t.Errorf("the Lord's pair %+v %+v", f, got["raptor-1"])
	}
	if got["chief-ysshal"].Zone != "centre" || got["raptor-2"].Zone != "centre" {
		t.Errorf("Ysshal's pair %+v %+v", got["chief-ysshal"], got["raptor-2"])
	}
	st, err := dragonnoir.Ruleset.Setup(adjudicator.Setup{Position: []byte(c.Position), Sides: []adjudicator.Side{conquete.ChildRebels, conquete.ChildReptilians}})
	if err != nil {
		t.Fatalf("the tactical ruleset refuses the position: %v\n%s", err, c.Position)
	}
	v := dragonnoir.Ruleset.View(st, conquete.ChildRebels)
	for _, u := range v.Units {
		if u.ID == "raptor-1" && u.At != "edge:le-marais" {
			t.Errorf("raptor-1 is seen at %q, not by the edge with the Lord", u.At)
		}
	}
}
