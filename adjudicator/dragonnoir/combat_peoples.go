package dragonnoir

import (
	"fmt"
)

// The valley's peoples in combat and fire (chapter: the valley's peoples):
// the multiple-attack shift against a unicorn (DN3-PEOPLE-UNIC-2), the
// Grey Dwarves' columns (DN3-PEOPLE-DWARF-2, AMB-61), a charge
// (DN3-PEOPLE-UNIC-3, -REPT-4; GAP-16), and in a battle of La Conquête the
// Elves' fire (DN3-PEOPLE-ELF-1, AMB-23) and the +1 at an armoured target
// (AMB-93). combat.go rollCombat and fire.go shoot ask them.

// chargeProv is what umpire assumes a charge is: Magna Carta's rule is in
// no source.
var chargeProv = Prov{Assumed: true, Clues: []string{
	"GAP-16: Magna Carta's charge rule is in no source",
	"DN3-PEOPLE-UNIC-3, DN3-PEOPLE-REPT-4: unicorns, ridden or not, and riders may charge",
	"DN-MULTI-2: an advantage in combat is a column to the right",
}}

// chargeMP is the MP a charger must have spent moving in its player-turn
// before it charges (assumed).
const chargeMP = 3

// unicornShift says why attackers together get no shift for it, "" when
// they do as far as the unicorns go: none when they are all on foot and
// attack a unicorn (DN3-PEOPLE-UNIC-2); the Ents' own rules are
// special_ent.go's giantMods.
func (w *world) unicornShift(cw *combatWork) string {
	if len(cw.Attackers) < 2 {
		return ""
	}
	st := w.st()
	unicorn, foot := false, true
	for _, id := range cw.Defenders {
		unicorn = unicorn || st.Kind(st.Chars[id]).Has(TagUnicorn)
	}
	for _, id := range cw.Attackers {
		foot = foot && !st.mounted(st.Chars[id])
	}
	if unicorn && foot {
		return "no shift for foot characters together against a unicorn (DN3-PEOPLE-UNIC-2)"
	}
	return ""
}

// declarePeoples says why an attack cannot be made as ordered, "" when it
// can: a charge is made by chargers only — a rider in the saddle or a
// counter that charges (a unicorn, a mounted Serteg or Kandär) — each
// having spent at least chargeMP MP moving this player-turn (assumed,
// GAP-16).
func (w *world) declarePeoples(cw *combatWork, o *AttackOrder) string {
	if !o.Charge {
		return ""
	}
	st := w.st()
	for _, id := range cw.Attackers {
		a := st.Chars[id]
		switch {
		case a.Mount == "" && !st.Kind(a).Has(TagCharges):
			return fmt.Sprintf("%s cannot charge: only riders and unicorns charge (DN3-PEOPLE-UNIC-3, -REPT-4)", id)
		case a.Spent < chargeMP:
			return fmt.Sprintf("%s cannot charge: it has moved %d MP this turn, and a charge comes after %d at least (GAP-16, assumed)", id, a.Spent, chargeMP)
		}
	}
	return ""
}

// peoplesShifts are the columns the valley's peoples shift a combat: each
// Grey Dwarf one in the dwarves' favour (DN3-PEOPLE-DWARF-2, AMB-61;
// option grey-dwarf-shift=right: one right, defending too), a charge one
// right (assumed, GAP-16).
func (w *world) peoplesShifts(cw *combatWork, o *AttackOrder) (int, []string, Provs) {
	st := w.st()
	shift := 0
	var why []string
	var used Provs
	count := func(ids []string) int {
		n := 0
		for _, id := range ids {
			if st.Kind(st.Chars[id]).Has(TagGreyDwarf) {
				n++
			}
		}
		return n
	}
	if n := count(cw.Attackers); n > 0 {
		shift += n
		why = append(why, fmt.Sprintf("%d Grey Dwarf attacking %+d (DN3-PEOPLE-DWARF-2)", n, n))
	}
	if n := count(cw.Defenders); n > 0 {
		if st.Options.GreyDwarfRight {
			shift += n
			why = append(why, fmt.Sprintf("%d Grey Dwarf defending %+d (DN3-PEOPLE-DWARF-2, option grey-dwarf-shift=right)", n, n))
		} else {
			shift -= n
			why = append(why, fmt.Sprintf("%d Grey Dwarf defending %+d (DN3-PEOPLE-DWARF-2, AMB-61)", n, -n))
		}
	}
	if o.Charge {
		shift++
		why = append(why, "charge +1 (DN3-PEOPLE-UNIC-3, -REPT-4; GAP-16)")
		used = append(used, chargeProv)
	}
	return shift, why, used
}

// elfFire reports whether sh fires as an Elf of La Conquête: on the
// Crossbow table with the longbow's movement restrictions and without
// L'Épreuve's -1 (DN3-PEOPLE-ELF-1, AMB-23); Laberne, half-elf, does not
// (AMB-68: no elf tag).
func (s *State) elfFire(sh *Char) bool { return s.valley() && s.Kind(sh).Has(TagElf) }

// fireColumn is the fire table's column sh shoots on: its weapon's, or the
// Crossbow's for an Elf of La Conquête.
func (s *State) fireColumn(sh *Char) string {
	if s.elfFire(sh) {
		return "crossbow"
	}
	return s.Kind(sh).Weapon
}

// rateOf is c's weapon's rate of fire and movement (weapons.yaml): the
// longbow's for an Elf of La Conquête.
func (s *State) rateOf(c *Char) *Weapon {
	if s.elfFire(c) {
		return s.data.Weapons["longbow"]
	}
	return s.data.Weapons[s.Kind(c).Weapon]
}

// armourFire is +1 to a shot at an armoured target in a battle of La
// Conquête, unless the target's own fire modifier already stands for its
// armour (the Krob Warriors', DN-FIRE-10) (AMB-93).
func (s *State) armourFire(t *Char) (int, string) {
	tk := s.Kind(t)
	if !s.valley() || !tk.Armoured || tk.FireTarget != 0 {
		return 0, ""
	}
	return 1, "+1 armoured target (AMB-93)"
}
