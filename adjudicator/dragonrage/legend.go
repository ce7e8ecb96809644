package dragonrage

import "github.com/umpire-pbem/umpire/adjudicator"

// Legend explains the numbers of Dragon Rage's counters and the markers of
// its text map, for the end of a results mail (adjudicator.Legend).
func (ruleset) Legend() []string { return append(legend(), majorLegend...) }

// LegendFor is the legend of one game: the major monsters' lines only when
// it has one, or a Killer marker (adjudicator.GameLegend).
func (ruleset) LegendFor(s adjudicator.State) []string {
	st, ok := s.(*State)
	if !ok {
		return legend()
	}
	for _, u := range st.Units {
		if st.typ(u).IsMajor() || u.Killer {
			return append(legend(), majorLegend...)
		}
	}
	return legend()
}

// majorLegend explains major monsters (§18).
var majorLegend = []string{
	"head 1×3 8HP 6+, wings 2×2 6HP 4+, …: a major monster's record sheet: for each area, its groups × the attack strength of each, the hit points of each group, and the roll that hits it (DR-TABLE-MMT)",
	"head 8/8, wings.1 6/6, legs.2 1/3: the hit points a major monster's groups have left; a group at 0 is destroyed and no longer attacks or carries (DR-MATK-9..11)",
	"facing SE: the hexside a major monster faces, drawn as the triangle on its counter; flying: in the air (the white band, DR-COMP-11); berserk: its head is destroyed (DR-DRAGON-DEF-2)",
	"Killer: a unit that hurt a Young Dragon in the turn it died or lost its head; Dragons attack it at triple strength (DR-YDRAGON-9)",
}

func legend() []string {
	return []string{
		"2-5-4(6) on a counter: attack strength 2 - escape number 5 - 4 movement points (MP), 6 MP for a move that follows a road from a road hex (DR-MOVE-3)",
		"(2)-5-4(6): an attack strength in brackets is a unit that defends only: it never attacks",
		"3-4-6 5HP: a minor monster: attack 3, escape 4, 6 MP, and 5 hit points (HP) left to destroy it",
		"2/1-–: a siege engine (ballista): attack 2 / defence 1; it has no escape number and does not move",
		"score: invader N: the victory points (VP) the invader has scored by destroying VP hexes",
		"goal 16: the VP the invader needs to win (DR-WIN-5)",
		"last-damage 3: the last turn a VP hex was destroyed; ten turns without one and the defender wins (DR-WIN-3)",
		"last-inside 3: the last turn that ended with an invader inside the walls; ten turns without one and the defender wins (DR-WIN-4)",
		"reinforcements-waiting N: units of the invader waiting to come on the map",
		"SP N (a wizard's status): the spell points the wizard has left",
		"wounded: a hero (or Elowyn) that was hit once; a wounded hero no longer leads others into an attack",
	}
}
