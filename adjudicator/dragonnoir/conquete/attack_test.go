package conquete_test

import (
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir/conquete"
)

// TestAttackedPeoplePosition reads the Battle of an attacked people
// (DN3-CAMP-BATTLE-2, AMB-60): the position names the people in
// attacked:, its counters fight at the centre for the other side, and the
// Hermit has his 100 PE in his first fight (DN3-PEOPLE-HERMIT-1).
func TestAttackedPeoplePosition(t *testing.T) {
	_, _, pos := loggedBattle(t, "peoples/DN3-PEOPLE-HERMIT-1-first-fight.yaml")
	if pos.Battle.Attacked != "ermite" || pos.Battle.People != nil {
		t.Errorf("battle %+v", pos.Battle)
	}
	want := map[string]conquete.BattleForce{
		"konrad": {Unit: "konrad", Side: conquete.ChildRebels, Zone: "centre"},
		"hermit": {Unit: "hermit", Side: conquete.ChildReptilians, Zone: "centre", PE: 100},
		"ent-1":  {Unit: "ent-1", Side: conquete.ChildReptilians, Zone: "centre"},
	}
	checkForces(t, pos, want)
}

// TestFirstAlliancePESecret: the PE the Druids receive at their first
// alliance are told to the side they join alone and the sheet that gives
// them is sealed to it (HID-11).
func TestFirstAlliancePESecret(t *testing.T) {
	s := loadCase(t, "peoples/DN3-PEOPLE-DRUID-1-pe-on-first-alliance.yaml")
	g, _ := playDirect(t, s)
	told := 0
	for _, l := range g.lines {
		if strings.Contains(l.Text, "PE at his people's first alliance") {
			told++
			if len(l.To) != 1 || l.To[0] != conquete.Rebels {
				t.Errorf("%q told to %v", l.Text, l.To)
			}
		}
	}
	if told != 3 {
		t.Errorf("%d druids told, want 3", told)
	}
	for _, ev := range g.events {
		if sh, ok := ev.(*conquete.Sheet); ok {
			for _, c := range sh.Counters {
				if c.PE > 0 {
					t.Errorf("a public sheet shows %s's PE", c.ID)
				}
			}
		}
	}
}
