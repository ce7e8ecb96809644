package conquete_test

import (
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir/conquete"
)

// TestKandarsJoinFromTheExit: the Kandärs waiting at the valley exit join
// a Fort Ekal Battle by the edge of its map that leads to the exit
// (AMB-55), and the tactical ruleset sets that position up.
func TestKandarsJoinFromTheExit(t *testing.T) {
	c, pos := childPosition(t, "kandar/AMB-55-the-besiegers-join-a-fort-ekal-battle.yaml")
	if pos.Battle.Map != "battle-fort-ekal" {
		t.Errorf("map %q", pos.Battle.Map)
	}
	checkForces(t, pos, map[string]conquete.BattleForce{
		"konrad":          {Unit: "konrad", Side: conquete.ChildRebels, Zone: "centre"},
		"lord":            {Unit: "lord", Side: conquete.ChildReptilians, Zone: "edge", Edge: "le-pont"},
		"kandar-officer":  {Unit: "kandar-officer", Side: conquete.ChildReptilians, Zone: "edge", Edge: "sortie"},
		"kandar-sergeant": {Unit: "kandar-sergeant", Side: conquete.ChildReptilians, Zone: "edge", Edge: "sortie"},
	})
	if _, err := dragonnoir.Ruleset.Setup(adjudicator.Setup{Position: []byte(c.Position), Sides: []adjudicator.Side{conquete.ChildRebels, conquete.ChildReptilians}}); err != nil {
		t.Errorf("the tactical ruleset refuses the Battle's position: %v\n%s", err, c.Position)
	}
}
