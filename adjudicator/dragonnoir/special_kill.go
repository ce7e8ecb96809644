package dragonnoir

import "fmt"

// The lethal wounds of combat (A.10.1, A.10.3): a Killer's (DN-KROB-5 …
// 7, DN-SPEC-4, DN-SPEC-14) and Zed's curare (DN-SPEC-15, -16, AMB-14),
// asked by convert for a wound a combat inflicts.

// lethal reports whether the wound that c takes from the characters in by
// (a combat's other side) kills it, and why: a Killer among them kills
// (DN-KROB-5), when it fights with other Krobs only on 1 to 5 of the
// shared d10 (DN-KROB-6, ROLL-3), whether it attacks or defends
// (DN-KROB-7, AMB-39); with Zed among them anyone but a Krob dies of the
// curare (DN-SPEC-15), a Gharv of the first scratch (DN-SPEC-16, AMB-14).
// why are the conversions already made (a double wound).
func (w *world) lethal(c *Char, k *Kind, by []*Char, why []string) (conversion, bool) {
	st := w.st()
	killers, others, curare := 0, 0, false
	for _, b := range by {
		bk := st.Kind(b)
		if bk.Has(TagKiller) {
			killers++
		} else {
			others++
		}
		curare = curare || bk.Has(TagCurare)
	}
	if killers > 0 {
		rule := "DN-KROB-5"
		if st.Step == StepAdventurers {
			rule = "DN-KROB-5, DN-KROB-7: the Killer defends" // the Krobs attack only in their player-turn
		}
		fatal := true
		if others > 0 {
			fatal = w.killerSplit(c)
			rule += "; DN-KROB-6: the Killer struck"
		}
		if fatal {
			return conversion{What: Killed, Why: joinWhy(why, killerWhy(c, k, rule))}, true
		}
	}
	if curare && !st.poisonProof(c) { // a Krob; a unicorn and its rider (DN3-PEOPLE-UNIC-11)
		if k.Has(TagFirstScratch) {
			return conversion{What: Killed, Why: joinWhy(why, fmt.Sprintf("a %s dies of its first scratch in a combat with Zed (DN-SPEC-16, AMB-14)", k.Title))}, true
		}
		return conversion{What: Killed, Why: joinWhy(why, "Zed's curare kills (DN-SPEC-15)")}, true
	}
	return conversion{}, false
}

// killerWhy is the report's reason for a Killer's fatal wound on c.
func killerWhy(c *Char, k *Kind, rule string) string {
	switch {
	case k.Has(TagBerserker) && !c.Berserk:
		return fmt.Sprintf("wounded by a Killer, Crazy Ork dies before he can go berserk (DN-SPEC-4, %s)", rule)
	case k.Has(TagKilledDoubleWound):
		return fmt.Sprintf("a Killer's wound kills, however many wounds a %s takes (DN-SPEC-14, %s)", k.Title, rule)
	}
	return fmt.Sprintf("a Killer's wound kills (%s)", rule)
}

// killerSplit is ROLL-3 (DN-KROB-6, -7): a wound on c in a combat where a
// Killer fights with other Krobs is fatal on 1 to 5 only.
func (w *world) killerSplit(c *Char) bool {
	r := w.d10(fmt.Sprintf("who struck the blow on %s (DN-KROB-6)", c.ID))
	fatal := r.Total <= 5
	if fatal {
		outcome(r, nil, "1 to 5: the Killer struck, the wound is fatal")
	} else {
		outcome(r, nil, "6 to 10: another Krob struck, a normal wound")
	}
	return fatal
}
