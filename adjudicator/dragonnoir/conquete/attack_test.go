package conquete_test

import (
	"encoding/json"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir/conquete"
)

// TestAttackedPeoplePosition reads the Battle of an attacked people
// (DN3-CAMP-BATTLE-2, AMB-60): the position names the people in
// attacked:, its counters fight at the centre for the other side, and the
// Hermit has his 100 PE in his first fight (DN3-PEOPLE-HERMIT-1).
func TestAttackedPeoplePosition(t *testing.T) {
	run := playCase(t, "peoples/DN3-PEOPLE-HERMIT-1-first-fight.yaml")
	var child *adjudicator.ChildGame
	for _, e := range run.Log {
		if e.Type == adjudicator.TypeChildGame {
			child = &adjudicator.ChildGame{}
			if err := json.Unmarshal(e.Payload, child); err != nil {
				t.Fatal(err)
			}
		}
	}
	if child == nil {
		t.Fatal("no child game")
	}
	var pos conquete.BattlePosition
	if err := yaml.Unmarshal([]byte(child.Position), &pos); err != nil {
		t.Fatal(err)
	}
	if pos.Battle.Attacked != "ermite" || pos.Battle.People != nil {
		t.Errorf("battle %+v", pos.Battle)
	}
	want := map[string]conquete.BattleForce{
		"konrad": {Unit: "konrad", Side: conquete.ChildRebels, Zone: "centre"},
		"hermit": {Unit: "hermit", Side: conquete.ChildReptilians, Zone: "centre", PE: 100},
		"ent-1":  {Unit: "ent-1", Side: conquete.ChildReptilians, Zone: "centre"},
	}
	if len(pos.Forces) != len(want) {
		t.Errorf("forces %+v", pos.Forces)
	}
	for _, f := range pos.Forces {
		if f != want[f.Unit] {
			t.Errorf("force %+v, want %+v", f, want[f.Unit])
		}
	}
}
