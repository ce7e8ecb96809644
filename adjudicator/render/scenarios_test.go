package render

import (
	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage/refpicture"
)

// Synthetic positions for the golden pictures, the documentation and the
// benchmark. They are plausible, not played: no ruleset made them. The
// Esirien one is the benchmarks' reference picture, kept in refpicture
// (every ruleset's picture benchmark draws it too); its Units reads the
// unit lines of these.

// nurkottView is turn 2 of a raid on Nurkott: the invaders cross the river
// toward the palisade, a sea serpent in the west branch.
func nurkottView() adjudicator.View {
	us := refpicture.Units(`
invader SERP serpent-1 0408 9-7-6 face=NE
invader HERO hero-1 0705 5-4-6
invader WZD wizard-1 0604 1-3-5(6)
invader CAV cav-1 0703 4-3-8
invader CAV cav-2 0504 4-3-8
invader INF inf-1 0603 3-2-4
invader INF inf-2 0603 3-2-4
invader ARH arh-1 0503 1-2-4(5)
invader INF inf-3 0614 3-2-4
invader INF inf-4 0713 3-2-4 st=wounded
invader CAV cav-3 0813 4-3-8
defender ORC orc-1 0805 3-3-5
defender ORC orc-2 0904 3-3-5
defender ORC orc-3 1004 3-3-5
defender ORC orc-4 0806 3-3-5
defender ORC orc-5 1306 3-3-5 st=killer
defender TRL troll-1 1105 6-4-4
defender GOB gob-1 0511 2-2-6 ready
defender GOB gob-2 0612 2-2-6 ready
defender GOB gob-3 0611 2-2-6 st=broken ready
defender GOB gob-4 1804 2-2-6
defender GOB gob-5 1905 2-2-6
defender SHA shaman 1105 1-2-5(7)
defender ORC orc-6 1609 3-3-5
defender ORC orc-7 0808 3-3-5
defender GOB gob-6 0512 2-2-6 gone
`)
	for i := range us {
		if us[i].ID == "serpent-1" {
			us[i].Damage = []adjudicator.Damage{
				{Area: "head", Left: 5, Of: 6},
				{Area: "coils", Group: "1", Left: 8, Of: 10},
				{Area: "coils", Group: "2", Left: 10, Of: 10},
				{Area: "tail", Left: 3, Of: 4},
			}
		}
	}
	return adjudicator.View{
		Map:   "nurkott",
		Turn:  2,
		Phase: "defender fire",
		Units: us,
		Score: map[adjudicator.Side]int{"invader": 3, "defender": 0},
		Hexes: []adjudicator.HexMark{
			{Kind: "broken", At: "0705/0805"},
			{Kind: "broken", At: "1008/1009"},
			{Kind: "vp-destroyed", At: "0907"},
			{Kind: "burned", At: "1002"},
			{Kind: "whirlwind", At: "0906", Label: "2"},
			{Kind: "fog", At: "1807", Radius: 2},
		},
		// Three adjudications since the defender's last picture (orders
		// sent ahead): hero-1 moves in the first and again in the second.
		Traces: []adjudicator.Trace{
			{Kind: "spell", Unit: "wizard-1", Path: []string{"0604", "0906"}, Result: "whirlwind 2", Step: 1},
			{Kind: "move", Unit: "hero-1", Path: []string{"0303", "0403", "0504"}, Step: 1},
			{Kind: "move", Unit: "cav-3", Path: []string{"0516", "0515", "0614", "0714", "0813"}, Step: 1},
			{Kind: "move", Unit: "cav-1", Path: []string{"0403", "0504", "0604", "0703"}, Step: 2},
			{Kind: "move", Unit: "hero-1", Path: []string{"0504", "0604", "0705"}, Step: 2},
			{Kind: "move", Unit: "serpent-1", Path: []string{"0208", "0308", "0408"}, Step: 2},
			{Kind: "melee", Unit: "hero-1", Path: []string{"0705", "0604", "0805"}, Result: "door broken", Step: 2},
			{Kind: "fire", Unit: "orc-2", Path: []string{"0904", "0804", "0703"}, Result: "missed", Step: 3},
			{Kind: "melee", Unit: "gob-6", Path: []string{"0512", "0613"}, Result: "GOB destroyed", Step: 3},
		},
	}
}
