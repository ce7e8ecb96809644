package dragonnoir

import (
	"fmt"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// The Krobs' bodies in combat (A.10.3): the Guards' two attacks or one
// between the legs (DN-KROB-1, GAP-10), the Queen's and Guards' front and
// rear (DN-KROB-2, -3), and Lucifer defending Godiva (DN-SPEC-11,
// AMB-37), asked by combat.go's declare.

// flagLegs is the flag of a game turn (State.Done) on a Guard that made
// its one doubled attack between its legs (DN-KROB-1); combat.go's
// flagAttackedTwice marks its second attack.
const flagLegs = "attacked-between-legs"

// flagTargets is the flag on the enemies Guard id attacked this turn.
func flagTargets(id string) string { return "attacked-by:" + id }

// mayAttackAgain reports whether a, which has attacked this turn, may make
// another attack: a Queen's Guard makes two (DN-KROB-1). declareSpecial
// says why the second one is refused when it is.
func (w *world) mayAttackAgain(a *Char) bool {
	st := w.st()
	k := st.Kind(a)
	return k.Has(TagGuard) && !st.Is(flagAttackedTwice, a.ID) || k.Attacks > 1 // an Ent's two: special_ent.go says why not (DN3-PEOPLE-ENT-9)
}

// declareSpecial checks what the Krobs' bodies change in an attack that
// combat.go's declare found possible, and says why it cannot be made: a
// Guard's mode (DN-KROB-1), the front or rear of the Queen and Guards
// (DN-KROB-2, -3). When it can, it adds the co-defenders (DN-SPEC-11).
func (w *world) declareSpecial(cw *combatWork, o *AttackOrder) string {
	if why := w.guardMode(cw, o); why != "" {
		return why
	}
	if why := w.entAttack(cw, o); why != "" { // DN3: special_ent.go
		return why
	}
	st := w.st()
	for _, d := range cw.Defenders {
		if why := w.frontOrRear(st.Chars[d], cw.Attackers, o.From); why != "" {
			return why
		}
	}
	w.coDefenders(cw)
	return ""
}

// guardMode checks a Guard's attack (DN-KROB-1): two attacks in a turn
// against different enemies, or one alone, doubled and shifted one column
// right, against an enemy between its legs.
func (w *world) guardMode(cw *combatWork, o *AttackOrder) string {
	st := w.st()
	var guards []*Char
	for _, id := range cw.Attackers {
		if a := st.Chars[id]; st.Kind(a).Has(TagGuard) {
			guards = append(guards, a)
		}
	}
	if o.Mode != "" && o.Mode != "both" && len(guards) == 0 {
		return fmt.Sprintf("mode: %s is a Queen's Guard's attack (DN-KROB-1), and none attacks here", o.Mode)
	}
	for _, g := range guards {
		again := st.Is(flagAttacked, g.ID)
		switch {
		case again && st.Is(flagLegs, g.ID):
			return fmt.Sprintf("%s attacked between its legs this turn: that is its only attack (DN-KROB-1)", g.ID)
		case again && o.Mode == "legs":
			return fmt.Sprintf("%s has attacked this turn: an attack between its legs must be its only one (DN-KROB-1)", g.ID)
		}
		if again {
			for _, d := range cw.Defenders {
				if st.Is(flagTargets(g.ID), d) {
					return fmt.Sprintf("%s has attacked %s this turn: a Guard's two attacks are against different enemies (DN-KROB-1)", g.ID, d)
				}
			}
		}
		if o.Mode != "legs" {
			continue
		}
		if len(cw.Defenders) != 1 {
			return fmt.Sprintf("%s attacks one enemy between its legs, not %s (DN-KROB-1)", g.ID, list(cw.Defenders))
		}
		if d := st.Chars[cw.Defenders[0]]; !w.betweenLegs(g, d) {
			return fmt.Sprintf("%s is not between %s's legs, the hex straight ahead of it that touches both its front hexes (DN-KROB-1)", d.ID, g.ID)
		}
	}
	return ""
}

// betweenLegs reports whether d stands between g's legs: on the hex
// outside g's counter that touches it by two of its front sides — for the
// Guard's triangle, the hex straight ahead, touching both front hexes
// (GAP-10: the "Utilisation des pions" sheet that shows it is missing).
func (w *world) betweenLegs(g, d *Char) bool {
	st := w.st()
	legs := legsOf(st, g)
	return slices.ContainsFunc(st.Locs(d), func(l hex.Loc) bool { return slices.Contains(legs, l.Hex) })
}

// legsOf are the hexes between g's legs (betweenLegs).
func legsOf(st *State, g *Char) []hex.Hex {
	var out []hex.Hex
	for _, c := range st.footprint(g).Around() {
		front := 0
		for _, e := range c.Edges {
			if e.Aspect == hex.AspectFront {
				front++
			}
		}
		if front >= 2 && c.Aspect == hex.AspectFront {
			out = append(out, c.Hex)
		}
	}
	return out
}

// frontOrRear checks an attack on d from (front when ""): a rear attack
// needs d's rear defence and every attacker touching the grey rear zone of
// its counter (DN-KROB-2); a front attack on the Queen or a Guard needs
// every attacker touching a side of it that is not rear, for front and
// rear attacks are never one combat (DN-KROB-3). A hex that touches both
// may attack either way.
func (w *world) frontOrRear(d *Char, attackers []string, from string) string {
	st := w.st()
	rear := st.Kind(d).Faces["healthy"].Rear > 0
	rule := st.Kind(d).cite("rear", "DN-KROB-2") // an Ent's: DN3-PEOPLE-ENT-8
	switch {
	case from == "rear" && !rear:
		return fmt.Sprintf("%s has no rear defence: attack it plainly (DN-KROB-2)", d.ID)
	case !rear:
		return ""
	}
	f := st.footprint(d)
	for _, id := range attackers {
		var touch hex.Aspect
		for _, l := range st.Locs(st.Chars[id]) {
			if c, ok := f.ContactOf(l.Hex); ok {
				touch |= c.Aspect
			}
		}
		switch {
		case from == "rear" && touch&hex.AspectRear == 0:
			return fmt.Sprintf("%s does not touch %s's grey rear zone (%s)", id, d.ID, rule)
		case from != "rear" && touch != 0 && touch&^hex.AspectRear == 0:
			return fmt.Sprintf("%s touches only %s's grey rear zone: attack it from: rear, in a combat of its own (%s)", id, d.ID, st.Kind(d).cite("rear", "DN-KROB-2, DN-KROB-3"))
		}
	}
	return ""
}

// coDefenders adds to a combat the characters whose defence joins a
// defender's (guarded-by, DN-SPEC-11: Lucifer next to Godiva). They are
// full co-defenders: a result may fall on either, a retreat on both
// (AMB-37); no attacker need reach them.
func (w *world) coDefenders(cw *combatWork) {
	st := w.st()
	for _, id := range slices.Clone(cw.Defenders) {
		d := st.Chars[id]
		g := st.Chars[st.Kind(d).GuardedBy]
		if g == nil || !g.Alive() || g.Side != d.Side || slices.Contains(cw.Defenders, g.ID) || !w.adjacent(d, g) {
			continue
		}
		cw.Defenders = append(cw.Defenders, g.ID)
		w.say(nil, "%s defends %s with her: his defence joins hers (DN-SPEC-11, AMB-37).", g.ID, d.ID)
	}
}

// declared records a Guard's attack once made (the odds allowed it): whom it attacked, for its
// second attack, and an attack between its legs, its only one
// (DN-KROB-1).
func (w *world) declared(cw *combatWork, o *AttackOrder) {
	st := w.st()
	for _, id := range cw.Attackers {
		if !st.Kind(st.Chars[id]).Has(TagGuard) {
			continue
		}
		w.emit(&Flagged{Flag: flagTargets(id), IDs: slices.Clone(cw.Defenders)})
		if o.Mode == "legs" {
			w.emit(&Flagged{Flag: flagLegs, IDs: []string{id}})
		}
	}
}
