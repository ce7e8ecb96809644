package dragonnoir

import (
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// Spider webs in combat (A.9.5, DN-WEB-1 … 5), part of the combat chapter.
// An Adventurer next to a web in its combat step may tear it: that is its
// one attack of the turn (AMB-32). With no Krob on the web it advances onto
// it at once and the web is destroyed (DN-WEB-2); with a Krob on it, the
// Adventurers attack the Krob, and the web goes only if the Krob retreats
// or dies and an Adventurer advances onto it (DN-WEB-3, advance.go). With
// no advance a web stays (DN-WEB-4). Fireballs burn webs (DN-WEB-5): the
// magic chapter calls destroyWebAt.

// tearWeb is an attack order on a web (DN-WEB-1, -2, AMB-32).
func (w *world) tearWeb(o *AttackOrder) {
	st := w.st()
	a := st.Chars[o.Attackers[0]]
	l, err := locOn(st.board, o.Web)
	at := locString(st.board, l)
	switch {
	case err != nil || !st.Web(at):
		w.say(nil, "%s finds no web on %s.", a.ID, o.Web)
		return
	case len(o.Attackers) > 1:
		w.say(nil, "%s do not tear the web on %s: one Adventurer tears a web (DN-WEB-1); give each its own order.", list(o.Attackers), o.Web)
		return
	case a.Side != Adventurers || !a.Standing() || st.Is(flagAttacked, a.ID):
		w.say(nil, "%s cannot tear the web on %s: only an Adventurer on its feet that has not attacked this turn may (DN-WEB-1, AMB-32).", a.ID, o.Web)
		return
	case !slices.ContainsFunc(st.Locs(a), func(x hex.Loc) bool { return st.Touch(x, l) }) || !st.CanEnter(st.Kind(a), l):
		w.say(nil, "%s is not next to the web on %s, or could not step onto it (DN-WEB-1, DN-COMBAT-6).", a.ID, o.Web)
		return
	}
	for _, c := range st.At(l) {
		if c.Alive() && c.Side == Krobs {
			w.say(nil, "%s is on the web on %s: attack it; the web goes only if it retreats or dies and an Adventurer advances onto it (DN-WEB-3).", c.ID, o.Web)
			return
		}
		if c.Alive() {
			w.say(nil, "%s cannot tear the web on %s: %s stands there, and the tearing is an advance onto it (DN-WEB-2, DN-STACK-2).", a.ID, o.Web, c.ID)
			return
		}
	}
	w.emit(&Flagged{Flag: flagAttacked, IDs: []string{a.ID}})
	w.emit(&Moved{Unit: a.ID, Path: []string{a.At, at}, Kind: "advance"})
	w.say(nil, "%s tears the web on %s and advances onto it (DN-WEB-2, AMB-32: its attack of the turn).", a.ID, at)
	w.destroyWebAt(at, "DN-WEB-2")
}

// destroyWebAt destroys the web at location at (as players write it),
// saying so with rule, the rule that destroys it; false when no web is
// there. The magic chapter calls it for a fireball (DN-WEB-5,
// DN-KROB-14). It never moves anyone.
func (w *world) destroyWebAt(at, rule string) bool {
	if !w.st().Web(at) {
		return false
	}
	w.emit(&Webbed{At: at, Intact: false})
	w.say(nil, "The web on %s is destroyed (%s).", at, rule)
	return true
}
