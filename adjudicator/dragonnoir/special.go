package dragonnoir

import "fmt"

// Chapter: special rules (A.10.1, A.10.3): how a result changes for
// characters whose counter tags say so — Trolls, dogs, spectres and Krobs
// never stunned (a retreat instead), killed as a double wound, Crazy Ork
// going berserk, the Killers' and Zed's lethal wounds. Results (results.go)
// ask convert before applying anything.
//
// First implementation: the conversions below from tags and fields of
// counters.yaml. Left to its helper: Lucifer's co-defence in every case
// (combat.go adds him when Godiva is attacked), the Guards' attack modes'
// geometry (between the legs, GAP-10), DN-KROB-7 when an attacker is
// wounded fighting a Killer.

// conversion is what a result becomes for one character.
type conversion struct {
	What string // stunned, wounded, killed, retreat, or "" for nothing
	N    int    // retreat hexes, or wounds for "wounded"
	Why  string // the rule, for the report; "" when nothing changed
}

// convert says what result what (from a table, by the characters in by)
// does to c, by its tags (DN-SPEC-1 … 16, DN-SPECTRE-3, DN-KROB-5, -8 …
// -10, AMB-9).
func (w *world) convert(c *Char, what string, by []*Char) conversion {
	st := w.st()
	k := st.Kind(c)
	killer, curare := false, false
	for _, b := range by {
		bk := st.Kind(b)
		killer = killer || bk.Has(TagKiller)
		curare = curare || bk.Has(TagCurare)
	}
	switch {
	case what == Retreat:
		if c.Berserk {
			return conversion{Why: "a berserk Crazy Ork ignores retreats (DN-SPEC-2)"}
		}
		return conversion{What: Retreat}
	case k.Has(TagInvulnerable):
		return conversion{What: Retreat, N: 1, Why: fmt.Sprintf("%s cannot be hurt: a simple retreat (DN-SPECTRE-3)", c.ID)}
	case what == Stunned && c.Berserk:
		return conversion{Why: "a berserk Crazy Ork is never stunned (DN-SPEC-2)"}
	case what == Stunned && k.Has(TagBerserker):
		return conversion{What: "berserk", Why: "Crazy Ork goes berserk (DN-SPEC-1)"}
	case what == Stunned && k.StunnedRetreat > 0:
		return conversion{What: Retreat, N: k.StunnedRetreat, Why: fmt.Sprintf("a %s is never stunned: it retreats %d (DN-KROB-10, DN-SPEC-10, DN-SPEC-12)", k.Title, k.StunnedRetreat)}
	case what == Stunned:
		return conversion{What: Stunned}
	case what == Wounded && killer && !k.Has(TagKilledDoubleWound):
		return conversion{What: Killed, Why: "a Killer's wound kills (DN-KROB-5, DN-SPEC-4)"}
	case what == Wounded && curare && !k.Has(TagCurareImmune):
		return conversion{What: Killed, Why: "Zed's curare kills (DN-SPEC-15)"}
	case what == Wounded && k.Has(TagBerserker) && !c.Berserk:
		return conversion{What: "berserk", Why: "Crazy Ork goes berserk; this wound does not count (DN-SPEC-1, DN-SPEC-3)"}
	case what == Wounded:
		return conversion{What: Wounded, N: 1}
	case what == Killed && k.Has(TagKilledDoubleWound):
		return conversion{What: Wounded, N: 2, Why: "killed is a double wound (DN-SPEC-13, DN-KROB-8)"}
	}
	return conversion{What: Killed}
}

// killerSplit is DN-KROB-6 (ROLL-3): when a Killer attacks together with
// other Krobs, a wound is fatal on 1 to 5 only.
func (w *world) killerSplit(by []*Char) bool {
	st := w.st()
	killers, others := 0, 0
	for _, b := range by {
		if st.Kind(b).Has(TagKiller) {
			killers++
		} else {
			others++
		}
	}
	if killers == 0 || others == 0 {
		return killers > 0
	}
	r := w.d10("who struck the blow (DN-KROB-6)")
	fatal := r.Total <= 5
	if fatal {
		outcome(r, nil, "1 to 5: the Killer struck, the wound is fatal")
	} else {
		outcome(r, nil, "6 to 10: another Krob struck, a normal wound")
	}
	return fatal
}
