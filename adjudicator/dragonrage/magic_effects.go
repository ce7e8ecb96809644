package dragonrage

// What the spell markers do to the other rules, and how they expire at the
// start of their caster's side's next magic phase (DR-PBEM-8).

import (
	"fmt"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// boosted reports whether u is under its side's Boost Morale. A unit that
// has a hero's bonus does not take the spell's as well: a hero stacked with
// it doubles its strength instead (DR-SPELL-MORALE-8); against monsters the
// callers give the hero's aura first.
func (w *world) boosted(u *Unit) bool {
	if u.Side == "" {
		return false
	}
	for _, b := range w.st.Magic.Boosts {
		if b.Side == u.Side && slices.Contains(b.Units, u.ID) {
			return !w.heroWith(u)
		}
	}
	return false
}

// fogAt returns the fog covering h, or nil (DR-SPELL-FOG-1, DR-SPELL-FOG-3).
func (w *world) fogAt(h hex.Hex) *Fog {
	for i, f := range w.st.Magic.Fogs {
		c, _ := hex.Parse(f.Hex)
		if hex.Distance(c, h) <= 2 {
			return &w.st.Magic.Fogs[i]
		}
	}
	return nil
}

// inFog reports whether h is in a fog.
func (w *world) inFog(h hex.Hex) bool { return w.fogAt(h) != nil }

// whirlwindAt returns the Whirlwind standing in h, or nil.
func (w *world) whirlwindAt(h hex.Hex) *Whirlwind {
	for i, x := range w.st.Magic.Whirlwinds {
		if x.Hex == h.String() {
			return &w.st.Magic.Whirlwinds[i]
		}
	}
	return nil
}

// whirlwindIn reports whether a Whirlwind stands in h.
func (w *world) whirlwindIn(h hex.Hex) bool { return w.whirlwindAt(h) != nil }

// isMonsterType reports whether u is a monster for the Whirlwind's rules:
// a minor monster (the Elemental included, DR-ELM-1) or a major one.
func (st *State) isMonsterType(u *Unit) bool {
	k := st.typ(u).Kind
	return k == "minor" || k == "major"
}

// magicBlocksAttack says why fog or a Whirlwind forbids an attack from a
// on b, or "": no attack of any kind in, from or into fog
// (DR-SPELL-FOG-4); no attack on a unit in a Whirlwind, nor by one, except
// a monster's (DR-SPELL-WHIRL-5, DR-AMB-57).
func (w *world) magicBlocksAttack(a, b hex.Hex) string {
	if f := w.fogAt(b); f != nil {
		return fmt.Sprintf("%s is in the fog around %s, which lifts at the start of the %s's next magic phase: no attack into, out of or inside fog (DR-SPELL-FOG-4)", b, f.Hex, f.Side)
	}
	if f := w.fogAt(a); f != nil {
		return fmt.Sprintf("%s is in the fog around %s, which lifts at the start of the %s's next magic phase: no attack into, out of or inside fog (DR-SPELL-FOG-4)", a, f.Hex, f.Side)
	}
	if x := w.whirlwindAt(b); x != nil {
		return fmt.Sprintf("a Whirlwind %d stands in %s: no unit in it may be attacked (DR-SPELL-WHIRL-5, DR-AMB-57)", x.Age, b)
	}
	if x := w.whirlwindAt(a); x != nil && !w.monsterIn(a) {
		return fmt.Sprintf("a Whirlwind %d stands in %s: units in it may not attack; only a monster may (DR-SPELL-WHIRL-5)", x.Age, a)
	}
	return ""
}

// monsterIn reports whether a monster stands in h (the attacker, in a
// Whirlwind hex: a monster never stacks with troops, DR-STACK-1).
func (w *world) monsterIn(h hex.Hex) bool {
	for _, u := range w.st.at(h.String()) {
		if w.st.isMonsterType(u) {
			return true
		}
	}
	return false
}

// whirlwindCost is the extra MP a monster pays to step from one hex to the
// next: +1 to leave a Whirlwind hex and +1 to enter one (DR-SPELL-WHIRL-4).
func (w *world) whirlwindCost(from, to string, u *Unit) int {
	if !w.st.isMonsterType(u) {
		return 0
	}
	cost := 0
	for _, s := range []string{from, to} {
		if h, err := hex.Parse(s); err == nil && w.whirlwindIn(h) {
			cost++
		}
	}
	return cost
}

// beginMagic runs the automatic start of a magic phase (DR-PBEM-8): Lightning
// held for a melee is lost; the side's own fogs lift (DR-SPELL-FOG-2); its
// Whirlwinds 2 vanish and its Whirlwinds 1 drift and become Whirlwinds 2
// (DR-SPELL-WHIRL-2); its Boost Morale ends (DR-AMB-41).
func (w *world) beginMagic() {
	side := phases[w.st.Phase].side
	m := w.st.Magic.clone()
	for _, b := range m.Bolts {
		w.emit(&MagicEnded{Kind: "bolt", Wizard: b.Wizard, Target: b.Target})
		w.sayf("the Lightning %s kept for a melee on %s was not used: it is lost (DR-SPELL-LIGHT-7)", b.Wizard, b.Target)
	}
	for _, f := range m.Fogs {
		if f.Side == side {
			w.emit(&MagicEnded{Kind: "fog", Wizard: f.Wizard, Hex: f.Hex})
			w.sayf("the fog %s cast around %s lifts (DR-SPELL-FOG-2)", f.Wizard, f.Hex)
		}
	}
	for _, x := range m.Whirlwinds {
		if x.Side == side && x.Age == 2 {
			w.emit(&MagicEnded{Kind: "whirlwind", Wizard: x.Wizard, Hex: x.Hex})
			w.sayf("the Whirlwind 2 in %s vanishes (DR-SPELL-WHIRL-2)", x.Hex)
		}
	}
	for _, x := range m.Whirlwinds {
		if x.Side == side && x.Age == 1 {
			w.driftWhirlwind(x)
		}
	}
	for _, b := range m.Boosts {
		if b.Side == side {
			w.emit(&MagicEnded{Kind: "boost", Wizard: b.Wizard})
			w.sayf("the Boost Morale %s cast ends (DR-AMB-41)", b.Wizard)
		}
	}
}
