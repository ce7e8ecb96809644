package dragonnoir

import (
	"fmt"
	"slices"
)

// Chapter: special rules (A.10.1, A.10.3): how a result changes for
// characters whose counter tags say so, and what the Krobs' bodies change
// in a combat. Everything here is asked by the procedure of another
// chapter through one of these hooks, never the other way round:
//
//	convert          results.go hurt, before any result is applied: Trolls,
//	                 dogs, spectres and Krobs never stunned (a retreat
//	                 instead), killed as a double wound, Crazy Ork going
//	                 berserk, babies dying of their first wound, the
//	                 Killers' lethal wounds with the shared d10 (ROLL-3) and
//	                 Zed's curare, both in combat only (special_kill.go)
//	mayAttackAgain   combat.go declare: a Guard's second attack (DN-KROB-1)
//	declareSpecial   combat.go declare: the Guards' modes, the front and rear
//	                 of the Queen and Guards, Lucifer defending Godiva
//	                 (special_krob.go)
//	declared         combat.go rollCombat, once the attack is made (beside
//	                 spend): what a Guard attacked, for its second attack
//	fireballEffects  magic.go fireball: the Queen's and Guards' resistance
//
// The data they read are counters.yaml's tags and fields (tags.go): a new
// character with a known behaviour is a line of data, not code.

// conversion is what a result becomes for one character.
type conversion struct {
	What string // stunned, wounded, killed, retreat, berserk, or "" for nothing
	N    int    // retreat hexes, or wounds for "wounded"
	Why  string // the rule, for the report; "" when nothing changed
	Used Provs  // the provenances Why rests on besides the kind's (magic chapter: a spell's)
}

// convert says what result what (from a table, caused by the characters
// in by) does to c, by its tags (DN-SPEC-1 … 16, DN-SPECTRE-3, DN-KROB-5
// … 10, DN-KROB-15, AMB-9, AMB-14, AMB-39, AMB-59). melee says the result
// comes from a combat (A.9), where alone the Killers' wounds and Zed's
// curare kill ("Résultats de combats", "un combat auquel participe Zed").
// It may roll the Killer's shared d10 (DN-KROB-6, -7); it changes nothing
// else.
func (w *world) convert(c *Char, what string, by []*Char, melee bool) conversion {
	st := w.st()
	k := st.Kind(c)
	if cv, ok := w.peoplesConvert(c, k, what, melee); ok { // chapter: the valley's peoples
		return cv
	}
	switch {
	case c.On != "" && (what == Retreat || what == Stunned): // DN3: special_ent.go
		return conversion{What: "fall"}
	case k.Has(TagInvulnerable):
		return conversion{What: Retreat, N: 1, Why: fmt.Sprintf("%s cannot be hurt: a simple retreat (DN-SPECTRE-3)", c.ID)}
	case what == Stunned || what == Retreat:
		if cv, ok := w.fanaticConvert(c, what); ok { // magic chapter: the Berserker spell (spell_valley.go)
			return cv
		}
	}
	switch {
	case what == Retreat && c.Berserk:
		return conversion{Why: "a berserk Crazy Ork ignores retreats (DN-SPEC-2)"}
	case what == Retreat:
		return conversion{What: Retreat}
	case what == Stunned:
		return w.stunned(c, k)
	}
	n := 1
	var why []string
	if what == Killed {
		if !k.Has(TagKilledDoubleWound) {
			return conversion{What: Killed}
		}
		n = 2
		why = append(why, fmt.Sprintf("killed is a double wound (%s)", k.cite("killed", "DN-SPEC-13, DN-KROB-8")))
	}
	if melee {
		if cv, ok := w.lethal(c, k, by, why); ok {
			return cv
		}
	}
	switch {
	case k.Has(TagNewborn):
		return conversion{What: Killed, Why: joinWhy(why, "a baby Krob dies of its first wound (DN-KROB-9)")}
	case c.Berserk:
		return conversion{What: Killed, Why: joinWhy(why, "berserk, Crazy Ork dies of his next wound (DN-SPEC-3, AMB-59)")}
	case k.Has(TagBerserker):
		return conversion{What: "berserk", Why: joinWhy(why, "Crazy Ork goes berserk; this wound does not count (DN-SPEC-1, DN-SPEC-3, AMB-59)")}
	case k.Has(TagFirstScratch) && st.Options.GharvScratch:
		return conversion{What: Killed, Why: joinWhy(why, fmt.Sprintf("a %s dies of its first scratch (DN-SPEC-16, option gharv-scratch=always)", k.Title))}
	}
	return conversion{What: Wounded, N: n, Why: joinWhy(why)}
}

// stunned is what a stunned result does to c (DN-SPEC-1, -2, -10, -12,
// DN-KROB-10, AMB-9, AMB-13, AMB-39: in fire as in combat).
func (w *world) stunned(c *Char, k *Kind) conversion {
	switch {
	case c.Berserk:
		return conversion{Why: "a berserk Crazy Ork is never stunned (DN-SPEC-2, AMB-59)"}
	case k.Has(TagBerserker):
		return conversion{What: "berserk", Why: "stunned, Crazy Ork goes berserk (DN-SPEC-1)"}
	case k.StunnedRetreat > 0:
		return conversion{What: Retreat, N: k.StunnedRetreat,
			Why: fmt.Sprintf("%s is never stunned: it retreats %d instead (%s)", aKind(k), k.StunnedRetreat, stunnedRule(k))}
	}
	return conversion{What: Stunned}
}

// stunnedRule names the rule that turns k's stunned results into a
// retreat, for the report.
func stunnedRule(k *Kind) string {
	switch {
	case k.Cites["stunned"] != "": // DN3: an Ent's, the dragon's
		return k.Cites["stunned"]
	case k.Side == string(Krobs):
		return "DN-KROB-10"
	case k.Has(TagKilledDoubleWound):
		return "DN-SPEC-12, AMB-9"
	case k.Has(TagIgnoresInfil):
		return "DN-SPEC-10, AMB-9"
	}
	return "AMB-9"
}

func joinWhy(why []string, more ...string) string {
	out := ""
	for i, s := range append(slices.Clone(why), more...) {
		if i > 0 {
			out += "; "
		}
		out += s
	}
	return out
}

// fireballEffects is what a fireball's result es does to a character of
// kind k (DN-KROB-13): on the Queen and her Guards (fireball-resistant)
// "wounded" becomes "retreat one hex" and "retreat" becomes "no effect";
// on everyone else it works normally. why is the report's reason, "" when
// nothing changed.
func fireballEffects(k *Kind, es []Effect) (out []Effect, why string) {
	if !k.Has(TagFireballProof) {
		return es, ""
	}
	for _, e := range es {
		switch e.What {
		case Wounded:
			out = append(out, Effect{Who: e.Who, What: Retreat, N: 1})
		case Retreat:
		default:
			out = append(out, e)
		}
	}
	if slices.Equal(out, es) {
		return es, ""
	}
	return out, fmt.Sprintf("a fireball does little to a %s: wounded is a retreat of one hex, a retreat nothing (DN-KROB-13)", k.Title)
}
