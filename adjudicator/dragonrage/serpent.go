package dragonrage

import (
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
)

// The sea serpent (§17.2). Where it may be (sea, river, empty docks) is in
// terrain.go's cannotStand; where it sets up or enters is in setupphase.go
// and move.go (DR-SERP-11, DR-AMB-14).

// swimsUnder handles a serpent entering a bridge hex that holds other
// units: it swims beneath them (DR-SERP-2). It reports whether the rule
// applies, and if so why the serpent may not enter, or "".
func (w *world) swimsUnder(u *Unit, h hex.Hex, last bool) (bool, string) {
	if !w.st.typ(u).Swims() || w.bridgeState(h) == "" || w.bridgeState(h) == "burned" {
		return false, ""
	}
	var others []*Unit
	for _, x := range w.st.at(h.String()) {
		if x.ID != u.ID {
			others = append(others, x)
		}
	}
	if len(others) == 0 {
		return false, ""
	}
	for _, x := range others {
		if w.st.typ(x).IsMonster() {
			return true, fmt.Sprintf("%s is there, and a sea serpent may not enter a river hex holding another monster (DR-SERP-2)", x.ID)
		}
	}
	if last {
		return true, fmt.Sprintf("a sea serpent swims under the bridge past %s but may not stop beneath it (DR-SERP-2; units of both sides never share a hex, DR-STACK-1)", unitIDs(others))
	}
	return true, ""
}

// land reports whether h has land in it: any terrain but sea and river, or
// a hex of land and river (DR-MAP-10).
func (w *world) land(h hex.Hex) bool {
	t := w.m.Terrain(h)
	return t != "sea" && t != "river"
}

// wet reports whether h is sea or river, wholly or in part.
func (w *world) wet(h hex.Hex) bool {
	t := w.m.Terrain(h)
	return t == "sea" || t == "river" || w.m.Has(h, "river")
}

// coastal reports whether a serpent in h can be fired on: a dock, or a
// water hex next to land or with land in it (DR-SERP-10; "coastal" is
// undefined, DR-GAP-16's default).
func (w *world) coastal(h hex.Hex) bool {
	if w.m.Terrain(h) == "dock" || w.land(h) {
		return true
	}
	for _, n := range w.m.Neighbours(h) {
		if w.land(n) {
			return true
		}
	}
	return false
}

// submerged says why the units in hex t cannot be fired on, or "": a sea
// serpent out in open water is under it (DR-SERP-10).
func (w *world) submerged(t hex.Hex) string {
	for _, x := range w.st.at(t.String()) {
		if w.st.typ(x).Swims() && !w.coastal(t) {
			return fmt.Sprintf("%s in %s is under water: a sea serpent can be fired on only in a coastal or dock hex (DR-SERP-10, DR-GAP-16)", x.ID, t)
		}
	}
	return ""
}

// serpentMelee adjusts the melee rules for a serpent attacking from a into
// t, given why the walls would block the attack ("" if they do not): it
// attacks only hexes by the sea or river (DR-SERP-5), strikes towers along
// the shore (DR-SERP-6) and attacks through the palisades it breached
// (DR-SERP-7), but never across a wall (DR-SERP-6).
func (w *world) serpentMelee(u *Unit, a, t hex.Hex, blocked string) string {
	if !w.st.typ(u).Swims() {
		return blocked
	}
	touches := w.wet(t)
	for _, n := range w.m.Neighbours(t) {
		touches = touches || w.wet(n)
	}
	if !touches {
		return fmt.Sprintf("%s is not by the sea or the river: a sea serpent attacks only hexes next to the water (DR-SERP-5)", t)
	}
	if blocked == "" {
		return ""
	}
	f, has := w.feature(a, t)
	switch {
	case has && w.breached(f):
		return ""
	case !has && (w.m.Terrain(t) == "tower" || w.m.Terrain(a) == "tower"):
		return "" // it strikes towers along the shore (DR-SERP-6)
	}
	return blocked
}

// breached reports whether f is a palisade a serpent has broken through
// (DR-SERP-7).
func (w *world) breached(f hexmap.Side) bool {
	return f.Kind == "palisade" && w.entrance(f.Side.String()).Broken
}

// smashable reports whether u may try to smash the feature f: a door or
// gate, or at Nurkott a palisade for a sea serpent, which breaks it as a
// red gate (DR-SERP-7).
func (w *world) smashable(u *Unit, f hexmap.Side) bool {
	return w.m.IsEntrance(f.Kind) || (f.Kind == "palisade" && w.st.typ(u).Swims())
}

// checkVPAttack checks a serpent's "attack" on an empty VP hex in the
// invader's melee phase (DR-SERP-8, DR-VP-10).
func (w *world) checkVPAttack(side adjudicator.Side, a *Attack, f map[string]*yaml.Node, used map[string]bool, earlier []*Attack) error {
	t, _ := hex.Parse(a.At)
	switch {
	case w.m.VP(t) == 0:
		return adjudicator.Errorf(f["attack"], codeIllegalMove, "there is no enemy unit in %s", t)
	case w.vpHex(t) == 0:
		return adjudicator.Errorf(f["attack"], codeCannot, "%s is empty and its VP are already destroyed (DR-VP-2)", t)
	case w.doorVP(t):
		return adjudicator.Errorf(f["attack"], codeCannot, "%s is a Nurkott VP hex with a door: it falls only when its door is smashed (DR-VP-12, DR-AMB-31)", t)
	case side != Invader || f["with"] == nil:
		return adjudicator.Errorf(f["attack"], codeIllegalMove, "%s is empty: only an invader sea serpent \"attacks\" an empty VP hex, e.g. \"- attack: %s\" with \"with: [SERP-1]\" (DR-SERP-8)", t, t)
	}
	for _, k := range []string{"fire", "target", "open"} {
		if f[k] != nil {
			return adjudicator.Errorf(f["@"+k], codeCannot, "%s is empty: a serpent's attack on a VP hex takes no %q (DR-SERP-8)", t, k)
		}
	}
	for _, e := range earlier {
		if e.At == a.At {
			return adjudicator.Errorf(f["attack"], codeTwice, "%s is already attacked by an earlier order: one attack destroys it (DR-SERP-8)", t)
		}
	}
	us, err := w.unitList(f["with"], side)
	if err != nil {
		return err
	}
	if len(us) != 1 || !w.st.typ(us[0]).Swims() {
		return adjudicator.Errorf(f["with"], codeCannot, "%s is empty: only a sea serpent destroys a VP hex by attacking it, and one is enough (DR-SERP-8); other units destroy VP hexes as they move (DR-VP-4 to DR-VP-6)", t)
	}
	u := us[0]
	if used[u.ID] {
		return adjudicator.Errorf(f["with"], codeTwice, "%s attacks twice; each unit attacks once a turn (DR-MELEE-8)", u.ID)
	}
	used[u.ID] = true
	if code, why := w.checkAttacker(u, t, false); why != "" {
		return adjudicator.Errorf(f["with"], code, "%s", why)
	}
	a.With = []string{u.ID}
	return nil
}

// vpAttack resolves a serpent's attack on an empty VP hex: it succeeds
// automatically and is its attack for the turn (DR-SERP-8). It reports
// whether a was such an attack.
func (w *world) vpAttack(a *Attack) bool {
	if len(a.With) != 1 || len(a.Fire) > 0 || len(w.st.at(a.At)) > 0 {
		return false
	}
	u := w.st.unit(a.With[0])
	if !w.st.typ(u).Swims() {
		return false
	}
	t, _ := hex.Parse(a.At)
	if u.Gone {
		return true
	}
	if _, why := w.checkAttacker(u, t, false); why != "" {
		w.sayf("%s does not attack %s: %s", u.ID, a.At, why)
		return true
	}
	w.emit(&Flagged{Unit: u.ID, Attacked: true})
	w.trace("melee", u.ID, []string{u.Hex, a.At}, "destroyed")
	w.destroyVP(t, u, u.ID+" attacks the empty hex (DR-SERP-8)")
	return true
}

// serpentCanAttackVP reports whether one of side's serpents could attack an
// empty VP hex, so that the melee phase is not passed (DR-SERP-8).
func (w *world) serpentCanAttackVP(side adjudicator.Side) bool {
	for _, u := range w.st.alive(side) {
		if !w.st.typ(u).Swims() || u.Hex == "" || u.Attacked || u.NoAttack {
			continue
		}
		for _, n := range w.m.Neighbours(w.st.hexOf(u)) {
			if len(w.st.at(n.String())) == 0 && w.vpHex(n) > 0 && !w.doorVP(n) {
				if _, why := w.checkAttacker(u, n, false); why == "" {
					return true
				}
			}
		}
	}
	return false
}
