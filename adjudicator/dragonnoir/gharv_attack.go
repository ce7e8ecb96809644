package dragonnoir

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// The Gharvs' attacks, interphase step 2 (DN-GHARV-4 … 10, ROLL-8, ROLL-9).

// orderReach is how close two attacking Gharvs must be for the order of
// their attacks to matter: a retreat of up to two hexes and a Gharv's
// advance of one can bring one fight into contact with the other.
const orderReach = 4

// inContact reports whether g touches a living character that is no
// Gharv (DN-TURN-6 step 2, DN-GHARV-11).
func (w *world) inContact(g *Char) bool {
	for _, c := range w.st().Living("") {
		if c.Side != Gharvs && w.adjacent(g, c) {
			return true
		}
	}
	return false
}

// gharvOrder lists the Gharvs that attack in this interphase: every Gharv
// on its feet in contact with a character, those just called and older
// ones alike (DN-GHARV-4, -10). When two of them are close enough for one
// fight to change the other (orderReach), the die settles the order
// (DN-GHARV-7, ROLL-9); otherwise it is the counters' order, which then
// changes nothing.
func (w *world) gharvOrder() []string {
	st := w.st()
	var ids []string
	for _, g := range st.Living(Gharvs) {
		if g.Standing() && w.inContact(g) {
			ids = append(ids, g.ID)
		}
	}
	matters := false
	for i, a := range ids {
		for _, b := range ids[i+1:] {
			if st.Distance(st.loc(st.Chars[a]), st.loc(st.Chars[b])) <= orderReach {
				matters = true
			}
		}
	}
	if !matters {
		return ids
	}
	ids = w.rollOrder(ids)
	w.say(nil, "The Gharvs attack in the order %s (DN-GHARV-7).", list(ids))
	return ids
}

// rollOrder orders ids by a d10 each, the highest first; those who tie
// roll again among themselves (ROLL-9).
func (w *world) rollOrder(ids []string) []string {
	if len(ids) < 2 {
		return ids
	}
	by := map[int][]string{}
	for _, id := range ids {
		r := w.d10(fmt.Sprintf("Gharv attack order: %s", id))
		outcome(r, nil, "%s rolls %d", id, r.Total)
		by[r.Total] = append(by[r.Total], id)
	}
	var out []string
	for v := 10; v >= 1; v-- {
		out = append(out, w.rollOrder(by[v])...)
	}
	return out
}

// gharvTarget is the character g attacks: the one that called it when it
// may (DN-GHARV-4), else the character in contact with the lowest defence
// (the referee's choice for the Gharvs, AMB-35), the first by ID on a tie.
// why says why it attacks nobody.
func (w *world) gharvTarget(g *Char, caller string) (*Char, string) {
	st := w.st()
	if c := st.Chars[caller]; c != nil && c.Alive() && st.CanAttack(g, c) {
		return c, ""
	}
	var best *Char
	bestDef := 0
	var barred []string
	for _, c := range st.Living("") {
		if c.Side == Gharvs || !w.adjacent(g, c) {
			continue
		}
		if !st.CanAttack(g, c) {
			barred = append(barred, fmt.Sprintf("%s on %s", c.ID, c.At))
			continue
		}
		if f, _ := st.Values(c); best == nil || f.Defence < bestDef {
			best, bestDef = c, f.Defence
		}
	}
	if best != nil {
		return best, ""
	}
	if len(barred) > 0 {
		return nil, fmt.Sprintf("it cannot attack %s: a Gharv attacks no one on a location it could not enter (DN-GHARV-9)", list(barred))
	}
	return nil, "it is in contact with no one any more"
}

// gharvAttack resolves the attack of the Gharv gw.Order[gw.Next] from
// where it stands (DN-GHARV-4 … 10). It reports a pause.
func (w *world) gharvAttack(p *program, gw *gharvWork) bool {
	st := w.st()
	g := st.Chars[gw.Order[gw.Next]]
	if gw.Combat == nil {
		if !g.Standing() {
			return false
		}
		t, why := w.gharvTarget(g, gw.Called[g.ID])
		if t == nil {
			w.say(nil, "%s does not attack: %s.", g.ID, why)
			return false
		}
		if b := w.boatOf(t); b != nil {
			w.capsize(g, b)
			return false
		}
		cw := &combatWork{Side: Gharvs, Attackers: []string{g.ID}, Defenders: []string{t.ID}}
		w.coDefenders(cw) // special_krob.go: Lucifer beside Godiva (DN-SPEC-11, AMB-37)
		if !w.rollCombat(cw, &AttackOrder{}) {
			return false
		}
		// The Gharv's own advance is mandatory and the referee's
		// (DN-GHARV-8); the combat chapter's advance serves only the
		// characters' side when the Gharv is beaten back.
		cw.Advanced = true
		gw.Combat = cw
	}
	cw := gw.Combat
	if w.applyCombat(p, cw) {
		return true
	}
	switch {
	case len(cw.VacatedD) > 0:
		w.gharvAdvance(g, cw.VacatedD)
	case len(cw.VacatedA) > 0:
		return w.advance(p, cw)
	}
	return false
}

// gharvAdvance moves g into the first location its victims left empty
// (DN-GHARV-8: always, the advance is mandatory): free of living
// characters, touching g's location, one it may enter. It spends no MP.
func (w *world) gharvAdvance(g *Char, vacated []string) {
	st := w.st()
	if !g.Standing() {
		return
	}
	var empty []string
	for _, s := range vacated {
		l, err := locOn(st.board, s)
		if err != nil || w.occupied(g, l) {
			continue // a stunned victim still stands there: nothing is left empty
		}
		empty = append(empty, s)
		if !st.CanEnter(st.Kind(g), l) || !slices.ContainsFunc(st.Locs(g), func(x hex.Loc) bool { return st.Touch(x, l) }) {
			continue
		}
		from := g.At
		w.emit(&Moved{Unit: g.ID, Path: []string{from, s}, Kind: "advance"})
		w.say(nil, "%s advances from %s to %s, as a Gharv always does (DN-GHARV-8).", g.ID, from, s)
		return
	}
	if len(empty) > 0 {
		w.say(nil, "%s cannot advance into %s: it does not touch it or may not enter it (DN-GHARV-8).", g.ID, strings.Join(empty, ", "))
	}
}
