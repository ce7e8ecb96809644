package dragonrage

// Boost Morale, 1 to 3 SP (DR-SPELL-MORALE-1..8). Its effects are asked for
// by melee.go through boosted(): +1 to melee when at least half the
// strength is boosted (DR-SPELL-MORALE-4), +1 to hit a monster
// (DR-SPELL-MORALE-5), +1 to the morale check when all heroes are dead
// (DR-SPELL-MORALE-6, DR-MATK-19), militia attacking monsters
// (DR-SPELL-MORALE-7); never with a hero's bonus (DR-SPELL-MORALE-8).

import (
	"fmt"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// castBoost boosts the wizard's side's units within the radius of his hex
// (DR-SPELL-MORALE-1, -2, -3). It lasts until the start of his side's next
// magic phase (DR-AMB-41).
func (w *world) castBoost(sp *Spell, wz *Unit, cost int) {
	r := *sp.Radius
	c := w.st.hexOf(wz)
	var ids []string
	for _, u := range w.st.alive(wz.Side) {
		if u.Hex != "" && hex.Distance(c, w.st.hexOf(u)) <= r {
			ids = append(ids, u.ID)
		}
	}
	w.emit(&SpellCast{Wizard: wz.ID, Spell: spellBoost, SP: cost, Hex: wz.Hex, Radius: r, Units: ids})
	w.trace("spell", wz.ID, []string{wz.Hex}, fmt.Sprintf("boost-morale radius %d", r))
	w.sayf("%s casts Boost Morale, radius %d around %s (%d SP, %d left): %s boosted until the start of the %s's next magic phase (DR-SPELL-MORALE-1, DR-SPELL-MORALE-3, DR-AMB-41)", wz.ID, r, wz.Hex, cost, wz.SP, strings.Join(ids, ", "), wz.Side)
}
