package dragonrage

// Legend explains the numbers of Dragon Rage's counters and the markers of
// its text map, for the end of a results mail (adjudicator.Legend).
func (ruleset) Legend() []string {
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
