package dragonnoir

import (
	"fmt"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// Fatigue in battle (DN3-CAMP-REST-6, -7) and the fire range of a battle
// by day and by night (AMB-88, GAP-29).
//
// A Fatigued counter takes +1 on the die of its defensive fire and
// attacks one column to the left; an Exhausted one takes +1 on all its
// fire, and the odds shift one column against it when it attacks and when
// it defends. Several attackers or defenders: one column for any of them
// Fatigued or Exhausted, never one per counter (a ruling: the rule speaks
// of a Troop's counters, and a combat's odds are the group's).

// fatigueFire is the fire modifier of a shooter's Fatigue in a shot of
// kind what ("offensive fire", "defensive fire"), with the words of the
// report.
func (s *State) fatigueFire(sh *Char, what string) (int, string) {
	switch {
	case s.Battle == nil:
	case sh.Fatigue == Exhausted:
		return 1, "+1 exhausted shooter (DN3-CAMP-REST-7)"
	case sh.Fatigue == Fatigued && what == "defensive fire":
		return 1, "+1 fatigued shooter in defensive fire (DN3-CAMP-REST-6)"
	}
	return 0, ""
}

// fatigueShift is the odds shift of the combat's Fatigue (to the right,
// the attackers' favour, positive), with the words of the report.
func (s *State) fatigueShift(cw *combatWork) (int, []string) {
	if s.Battle == nil {
		return 0, nil
	}
	level := func(ids []string) string {
		worst := ""
		for _, id := range ids {
			switch s.Chars[id].Fatigue {
			case Exhausted:
				worst = Exhausted
			case Fatigued:
				if worst == "" {
					worst = Fatigued
				}
			}
		}
		return worst
	}
	n, words := 0, []string(nil)
	switch level(cw.Attackers) {
	case Fatigued:
		n--
		words = append(words, "fatigued attackers -1 (DN3-CAMP-REST-6)")
	case Exhausted:
		n--
		words = append(words, "exhausted attackers -1 (DN3-CAMP-REST-7)")
	}
	if level(cw.Defenders) == Exhausted {
		n++
		words = append(words, "exhausted defenders +1 (DN3-CAMP-REST-7)")
	}
	return n, words
}

// battleRange is how far a shot at l reaches in a battle, with the words
// of the report: by day the module's outdoor range (weapons.yaml
// day-range, assumed: GAP-29); by night DN2's torchlight range, 5 hexes,
// but at a hex a Light spell lights, its hex and the six beside it, "as
// in broad daylight" (AMB-88, DN3-SPELL-MAGE-22; State.Lit).
func (s *State) battleRange(l hex.Loc) (int, string) {
	if s.Battle.Night && !s.Lit(l.Hex) { // magic chapter: Light (spell_lists.go)
		return s.data.Range, fmt.Sprintf("the %d hexes a shot reaches by night but at a lit hex (AMB-88)", s.data.Range)
	}
	return s.data.DayRange.Hexes, fmt.Sprintf("the %d hexes a shot reaches in the open (AMB-88; assumed, GAP-29)", s.data.DayRange.Hexes)
}
