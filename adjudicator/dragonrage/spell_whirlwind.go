package dragonrage

// Whirlwind, 2 SP (DR-SPELL-WHIRL-1..9).

import (
	"fmt"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// checkWhirlwind: cast into any hex within 4 of the wizard
// (DR-SPELL-WHIRL-1).
func (w *world) checkWhirlwind(sp *Spell, wz *Unit) (string, string, string) {
	if field, code, why := w.within(wz, sp.At, 4, "DR-SPELL-WHIRL-1"); why != "" {
		return field, code, why
	}
	h, _ := hex.Parse(sp.At)
	if w.whirlwindIn(h) {
		return "at", codeCannot, fmt.Sprintf("a Whirlwind already stands in %s: cast this one into another hex", sp.At)
	}
	return "", "", ""
}

// castWhirlwind puts a Whirlwind 1 in the hex; every VP there is destroyed,
// and scores for the invader whoever cast it (DR-SPELL-WHIRL-9, DR-VP-8,
// DR-AMB-44).
func (w *world) castWhirlwind(sp *Spell, wz *Unit, cost int) {
	w.emit(&SpellCast{Wizard: wz.ID, Spell: spellWhirlwind, SP: cost, Hex: sp.At})
	w.trace("spell", wz.ID, []string{wz.Hex, sp.At}, "whirlwind")
	w.sayf("%s casts a Whirlwind into %s (%d SP, %d left): a Whirlwind 1 stands there until the %s's next magic phase, when it drifts (DR-SPELL-WHIRL-1, DR-SPELL-WHIRL-2)", wz.ID, sp.At, cost, wz.SP, wz.Side)
	h, _ := hex.Parse(sp.At)
	w.destroyVP(h, wz, fmt.Sprintf("the Whirlwind %s cast (DR-SPELL-WHIRL-9, DR-AMB-44)", wz.ID))
	w.whirlwindOnFlyers(h, "is cast") // DR-SPELL-WHIRL-7
}

// driftWhirlwind moves a Whirlwind 1 one hex at random and makes it a
// Whirlwind 2: 1 N, 2 NE, 3 SE, 4 S, 5 SW, 6 NW (DR-SPELL-WHIRL-2). Off the
// map it vanishes (DR-AMB-57). VP where it lands are destroyed
// (DR-SPELL-WHIRL-9 [Inference]). The drift is not a casting
// (DR-SPELL-WHIRL-3).
func (w *world) driftWhirlwind(x Whirlwind) {
	from, _ := hex.Parse(x.Hex)
	r := w.roll(fmt.Sprintf("Whirlwind of %s in %s drifts", x.Wizard, x.Hex), 1)
	dir := hex.Directions[r.Total-1]
	to := from.Neighbour(dir)
	if !w.m.OnMap(to) {
		r.Outcome = fmt.Sprintf("%s: off the map, it vanishes (DR-AMB-57)", dir)
		w.sayf("%s: %s", r.Label, r.Outcome)
		w.emit(&MagicEnded{Kind: "whirlwind", Wizard: x.Wizard, Hex: x.Hex})
		return
	}
	r.Outcome = fmt.Sprintf("%s to %s, now a Whirlwind 2", dir, to)
	w.sayf("%s: %s (DR-SPELL-WHIRL-2)", r.Label, r.Outcome)
	w.emit(&WhirlwindDrifted{Wizard: x.Wizard, From: x.Hex, To: to.String()})
	w.trace("whirlwind", x.Wizard, []string{x.Hex, to.String()}, "drifted")
	if wz := w.st.unit(x.Wizard); wz != nil {
		w.destroyVP(to, wz, fmt.Sprintf("the Whirlwind of %s drifted into it (DR-SPELL-WHIRL-9, DR-AMB-44)", x.Wizard))
	}
	w.whirlwindOnFlyers(to, "drifts") // DR-AMB-57 (c)
}
