package dragonrage

// Summon Elemental, 5 SP, and dismissing an Elemental (DR-SPELL-ELEM-1..12,
// DR-ELM-1): placing it, and who controls it.

import (
	"fmt"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// checkSummon: an empty hex 1 or 2 hexes from the wizard that the Elemental
// could enter, not across a wall from him (DR-SPELL-ELEM-2, DR-AMB-65).
func (w *world) checkSummon(sp *Spell, wz *Unit) (string, string, string) {
	c := w.st.hexOf(wz)
	h, _ := hex.Parse(sp.At)
	d := hex.Distance(c, h)
	switch {
	case d < 1 || d > 2:
		return "at", codeOutOfRange, fmt.Sprintf("%s is %d hexes from %s in %s: the Elemental is placed 1 or 2 hexes from the wizard (DR-SPELL-ELEM-2)", sp.At, d, wz.ID, wz.Hex)
	case len(w.st.at(sp.At)) > 0:
		return "at", codeStacking, fmt.Sprintf("%s holds %s: the Elemental is placed in an empty hex (DR-AMB-65)", sp.At, unitIDs(w.st.at(sp.At)))
	}
	if why := w.elementalBanned(h); why != "" {
		return "at", codeCannot, why
	}
	if !w.elementalReaches(c, h, 2) {
		return "at", codeCannot, fmt.Sprintf("%s is cut off from %s by walls or water: the Elemental is placed where it could go from the wizard's hex, not across a wall (DR-AMB-65, DR-SPELL-ELEM-9)", sp.At, wz.Hex)
	}
	return "", "", ""
}

// castSummon places a new Elemental under the wizard's control. It may
// move but not attack this turn (DR-SPELL-ELEM-3). Arriving in a VP hex
// destroys it (DR-SPELL-ELEM-11 [Inference]: it enters the hex).
func (w *world) castSummon(sp *Spell, wz *Unit, cost int) {
	id := w.nextElementalID()
	w.emit(&SpellCast{Wizard: wz.ID, Spell: spellSummon, SP: cost, Hex: sp.At, Units: []string{id}})
	w.emit(&Flagged{Unit: id, NoAttack: true})
	w.trace("spell", wz.ID, []string{wz.Hex, sp.At}, "summon "+id)
	w.sayf("%s summons the Elemental %s in %s (%d SP, %d left): under his control while it stays within 5 hexes of him and he is not attacked; it may move but not attack this turn (DR-SPELL-ELEM-1..3, DR-SPELL-ELEM-8)", wz.ID, id, sp.At, cost, wz.SP)
	h, _ := hex.Parse(sp.At)
	w.destroyVP(h, w.st.unit(id), "the Elemental "+id+" appeared in it (DR-SPELL-ELEM-11, DR-AMB-44)")
}

// nextElementalID numbers Elementals in the order they are summoned.
func (w *world) nextElementalID() string {
	n := 1
	for w.st.unit(fmt.Sprintf("ELM-%d", n)) != nil {
		n++
	}
	return fmt.Sprintf("ELM-%d", n)
}

// controlledBy returns the Elementals wz still controls.
func (w *world) controlledBy(wz *Unit) []*Unit {
	var out []*Unit
	for _, e := range w.st.Magic.Elementals {
		if u := w.st.unit(e.Unit); e.Controlled && e.Wizard == wz.ID && u != nil && !u.Gone {
			out = append(out, u)
		}
	}
	return out
}

// checkDismiss: the Elemental must be in play. Its controlling summoner
// dismisses it free; any other wizard, an opponent's included, rolls 1d6
// for the cost and pays it only if it is no more than the "pay: up-to N"
// of his order (DR-SPELL-ELEM-12, DR-AMB-65).
func (w *world) checkDismiss(sp *Spell, wz *Unit) (string, string, string) {
	e := w.st.unit(sp.Elemental)
	if e == nil || !w.st.typ(e).IsSummoned() || e.Gone {
		return "elemental", codeCannot, fmt.Sprintf("there is no Elemental %s in play to dismiss", sp.Elemental)
	}
	if rec := w.st.Magic.elemental(e.ID); rec != nil && rec.Controlled && rec.Wizard == wz.ID {
		sp.Cost = "free"
		return "", "", ""
	}
	sp.Cost = fmt.Sprintf("1d6, paid if %d or less", sp.Pay)
	switch {
	case sp.Pay == 0:
		return "elemental", codeCannot, fmt.Sprintf("%s does not control %s, so the dismissal costs 1d6 SP: add \"pay: up-to N\", the most he will pay (DR-SPELL-ELEM-12, DR-AMB-65)", wz.ID, e.ID)
	case wz.SP == 0:
		return "by", codeCannot, fmt.Sprintf("%s has no SP left (DR-MAGIC-2)", wz.ID)
	case sp.Pay > wz.SP:
		return "pay", codeCannot, fmt.Sprintf("%s has only %d SP left: write \"pay: up-to %d\" or less (DR-MAGIC-2)", wz.ID, wz.SP, wz.SP)
	}
	return "", "", ""
}

// castDismiss dismisses the Elemental, or declines to when the rolled cost
// is more than the order agreed to pay. It reports whether it was dismissed;
// a declined dismissal does not use the wizard's spell (DR-AMB-65).
func (w *world) castDismiss(sp *Spell, wz *Unit) bool {
	e := w.st.unit(sp.Elemental)
	cost := 0
	if sp.Cost != "free" {
		r := w.roll(fmt.Sprintf("cost for %s to dismiss %s", wz.ID, e.ID), 1)
		cost = r.Total
		if cost > sp.Pay || cost > wz.SP {
			r.Outcome = fmt.Sprintf("%d SP, more than the %d %s agreed to pay: declined", cost, min(sp.Pay, wz.SP), wz.ID)
			w.sayf("%s: %s; no SP are spent and %s may still cast a spell (DR-SPELL-ELEM-12, DR-AMB-65)", r.Label, r.Outcome, wz.ID)
			return false
		}
		r.Outcome = fmt.Sprintf("%d SP, paid", cost)
	}
	w.emit(&SpellCast{Wizard: wz.ID, Spell: spellDismiss, SP: cost, Target: e.ID})
	w.trace("spell", wz.ID, []string{wz.Hex, e.Hex}, "dismiss "+e.ID)
	how := "free: he controls it"
	if sp.Cost != "free" {
		how = fmt.Sprintf("%d SP, %d left", cost, wz.SP)
	}
	w.emit(&Eliminated{Unit: e.ID, Cause: "dismissed by " + wz.ID})
	w.sayf("%s dismisses %s (%s) (DR-SPELL-ELEM-12)", wz.ID, e.ID, how)
	w.checkVictory()
	return true
}

// wizardAttacked is called for every unit an attack (melee, fire, breath,
// Lightning) is made on: a wizard attacked loses control of his
// Elementals for good (DR-SPELL-ELEM-8, DR-SPELL-LIGHT-8).
func (w *world) wizardAttacked(us ...*Unit) {
	for _, u := range us {
		if !w.st.typ(u).Casts() {
			continue
		}
		for _, e := range w.controlledBy(u) {
			w.freeElemental(e, fmt.Sprintf("%s is attacked", u.ID))
		}
	}
}

// freeElemental: its wizard loses control of it.
func (w *world) freeElemental(e *Unit, why string) {
	w.emit(&ElementalFreed{Unit: e.ID, Why: why})
	w.sayf("%s: the Elemental %s is out of control for good; it now goes for the nearest unit of either side in every movement phase (DR-SPELL-ELEM-8, DR-SPELL-ELEM-10)", why, e.ID)
}

// checkControl frees the Elementals more than 5 hexes from their wizard, or
// whose wizard is dead (DR-SPELL-ELEM-8).
func (w *world) checkControl() {
	for _, e := range w.st.Magic.Elementals {
		u := w.st.unit(e.Unit)
		if !e.Controlled || u.Gone {
			continue
		}
		wz := w.st.unit(e.Wizard)
		switch {
		case wz.Gone || wz.Hex == "":
			w.freeElemental(u, fmt.Sprintf("%s is dead", wz.ID))
		case u.Hex != "" && hex.Distance(w.st.hexOf(u), w.st.hexOf(wz)) > 5:
			w.freeElemental(u, fmt.Sprintf("%s in %s is %d hexes from %s in %s, more than 5", u.ID, u.Hex, hex.Distance(w.st.hexOf(u), w.st.hexOf(wz)), wz.ID, wz.Hex))
		}
	}
}

// wildUnit says why nobody may give orders to u, or "".
func (w *world) wildUnit(u *Unit) string {
	if w.st.typ(u).IsSummoned() && u.Side == "" && !u.Gone {
		return fmt.Sprintf("%s is out of control: it belongs to neither side and moves and attacks by itself (DR-SPELL-ELEM-10); a wizard may dismiss it (DR-SPELL-ELEM-12)", u.ID)
	}
	return ""
}
