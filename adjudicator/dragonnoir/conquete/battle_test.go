package conquete_test

import (
	"encoding/json"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir/conquete"
)

// TestBattlePosition reads the Battle a rule case creates: a dragonnoir
// child on the Region's assembly (DN3-WORLD-3, DN3-CAMP-BATTLE-4), played
// by the Rebels' player as adventurers and the Reptilians' as krobs, the
// troop on its arrival path entering by that path's edge and the one at
// the centre placed there (DN3-CAMP-BATTLE-5, -6): the battle position of
// the contracts.
func TestBattlePosition(t *testing.T) {
	run := playCase(t, "negotiation/DN3-CAMP-NEG-1-regions-in-turn.yaml")
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
	if child.Key != "b1" || child.Ruleset != "dragonnoir" || child.Scenario != "" || len(child.Players) != 2 ||
		child.Players[0] != (adjudicator.ChildPlayer{Side: conquete.ChildRebels, Player: conquete.Rebels}) ||
		child.Players[1] != (adjudicator.ChildPlayer{Side: conquete.ChildReptilians, Player: conquete.Reptilians}) {
		t.Errorf("child %+v", child)
	}
	var pos conquete.BattlePosition
	if err := yaml.Unmarshal([]byte(child.Position), &pos); err != nil {
		t.Fatal(err)
	}
	b := pos.Battle
	if b.Region != "la-croisee" || b.Map != "battle-la-croisee" || b.Night || b.First != conquete.ChildRebels ||
		b.Names[conquete.ChildRebels] != "Rebels" || b.Names[conquete.ChildReptilians] != "Reptilians" {
		t.Errorf("battle %+v", b)
	}
	want := map[string]conquete.BattleForce{
		"konrad":         {Unit: "konrad", Side: conquete.ChildRebels, Zone: "edge", Edge: "le-pont"},
		"jon":            {Unit: "jon", Side: conquete.ChildRebels, Zone: "edge", Edge: "le-pont"},
		"chief-sarrak":   {Unit: "chief-sarrak", Side: conquete.ChildReptilians, Zone: "centre"},
		"rept-warrior-1": {Unit: "rept-warrior-1", Side: conquete.ChildReptilians, Zone: "centre"},
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

// TestBattleFatigue: the Battle's position gives each counter its troop's
// fatigue, for the tactical game's maluses (DN3-CAMP-REST-6, -7).
func TestBattleFatigue(t *testing.T) {
	run := playCase(t, "rest/DN3-CAMP-REST-11-a-battle-wakes-and-tires.yaml")
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
	got := map[string]string{}
	for _, f := range pos.Forces {
		got[f.Unit] = f.Fatigue
	}
	if got["konrad"] != "fatigued" || got["chief-sarrak"] != "exhausted" || len(got) != 2 {
		t.Errorf("fatigue in the battle position: %v", got)
	}
}
