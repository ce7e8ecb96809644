package dragonrage

// Lightning, 3 SP (DR-SPELL-LIGHT-1..8). Against Dragons and other major
// monsters (DR-SPELL-LIGHT-3..5, DR-AMB-54) it is resolved in
// major_breath.go (lightningOnMajor).

import (
	"fmt"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// lightningPower is 5 less the distance from the wizard (DR-SPELL-LIGHT-2).
func (w *world) lightningPower(wz *Unit, at string) int {
	h, _ := hex.Parse(at)
	return 5 - hex.Distance(w.st.hexOf(wz), h)
}

// checkLightning: a hex within 4, one enemy unit in it chosen by the caster
// (DR-SPELL-LIGHT-1); not into, out of or inside fog, nor at a unit in a
// Whirlwind, since against units it is fire (DR-AMB-56, DR-SPELL-WHIRL-5).
func (w *world) checkLightning(sp *Spell, wz *Unit) (string, string, string) {
	if field, code, why := w.within(wz, sp.At, 4, "DR-SPELL-LIGHT-1"); why != "" {
		return field, code, why
	}
	t := w.st.unit(sp.Target)
	if t == nil || t.Gone || t.Pool || t.Hex != sp.At {
		var here []*Unit
		for _, u := range w.st.at(sp.At) {
			if u.Side != wz.Side {
				here = append(here, u)
			}
		}
		if len(here) == 0 {
			return "at", codeIllegalMove, fmt.Sprintf("there is no enemy unit in %s for the Lightning to strike (DR-SPELL-LIGHT-1)", sp.At)
		}
		return "target", adjudicator.CodeUnknownUnit, fmt.Sprintf("%s is not in %s; the Lightning may strike %s there (DR-SPELL-LIGHT-1)", sp.Target, sp.At, unitIDs(here))
	}
	if t.Side == wz.Side {
		return "target", codeCannot, fmt.Sprintf("%s is on your side: a Lightning strikes an enemy unit (DR-SPELL-LIGHT-1)", t.ID)
	}
	h, _ := hex.Parse(sp.At)
	if why := w.magicBlocksAttack(w.st.hexOf(wz), h); why != "" {
		return "at", codeCannot, why + "; Lightning counts as fire (DR-AMB-56)"
	}
	if sp.Resolve == "melee" && w.st.typ(t).IsMajor() {
		return "resolve", codeCannot, fmt.Sprintf("%s is a major monster: the Lightning hits it at once for %d damage, with no roll (DR-SPELL-LIGHT-3, DR-SPELL-LIGHT-5); leave out \"resolve\"", t.ID, w.lightningPower(wz, sp.At))
	}
	if sp.Resolve == "melee" && w.st.isMonster(t) {
		return "resolve", codeCannot, fmt.Sprintf("%s is a monster: the Lightning does %d damage at once, with no roll; leave out \"resolve\" (DR-SPELL-LIGHT-6)", t.ID, w.lightningPower(wz, sp.At))
	}
	return "", "", ""
}

// castLightning strikes the target: damage equal to the power against a
// minor monster (DR-SPELL-LIGHT-6); against another unit, fire on the CRT
// at once, the power against that unit's defence alone (DR-SPELL-LIGHT-7,
// DR-AMB-55), or kept to add to a melee on it this turn.
func (w *world) castLightning(sp *Spell, wz *Unit, cost int) {
	t := w.st.unit(sp.Target)
	power := w.lightningPower(wz, sp.At)
	hold := sp.Resolve == "melee"
	ev := &SpellCast{Wizard: wz.ID, Spell: spellLightning, SP: cost, Hex: sp.At, Target: t.ID}
	if hold {
		ev.Power = power
	}
	w.emit(ev)
	w.trace("spell", wz.ID, []string{wz.Hex, sp.At}, "lightning")
	w.sayf("%s casts Lightning at %s in %s (%d SP, %d left): power %d, 5 less the distance (DR-SPELL-LIGHT-2)", wz.ID, t.ID, sp.At, cost, wz.SP, power)
	switch {
	case w.st.typ(t).IsMajor():
		w.lightningOnMajor(t, power, wz) // DR-SPELL-LIGHT-3..5, DR-AMB-54
	case w.st.isMonster(t):
		w.damage(t, power, fmt.Sprintf("Lightning from %s, no roll (DR-SPELL-LIGHT-6)", wz.ID))
	case hold:
		w.sayf("the Lightning is kept: its %d is added to the strength of a melee on %s this turn (DR-SPELL-LIGHT-7)", power, t.ID)
	default:
		w.wizardAttacked(t)
		label := fmt.Sprintf("lightning on %s in %s by %s", t.ID, sp.At, wz.ID)
		def := w.st.typ(t).DefenceStrength()
		hit, how := w.resolveCRT(label, power, def, 0)
		w.sayf("%s: power %d v %d, the defence of %s alone (DR-SPELL-LIGHT-7, DR-AMB-55), %s", label, power, def, t.ID, how)
		if hit {
			w.kill(t, label)
		}
	}
}

// boltPower is the strength a Lightning kept by side adds to a melee on
// one of the units attacked; the Lightning is then spent
// (DR-SPELL-LIGHT-7). The attack is on the whole hex as usual (DR-AMB-55).
func (w *world) boltPower(side adjudicator.Side, attacked []*Unit) int {
	total := 0
	for _, b := range slices.Clone(w.st.Magic.Bolts) {
		if b.Side != side {
			continue
		}
		for _, u := range attacked {
			if u.ID == b.Target {
				w.emit(&MagicEnded{Kind: "bolt", Wizard: b.Wizard, Target: b.Target})
				w.sayf("the Lightning of %s adds %d to the melee on %s (DR-SPELL-LIGHT-7)", b.Wizard, b.Power, u.Hex)
				total += b.Power
			}
		}
	}
	return total
}
