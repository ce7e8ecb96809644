package dragonrage

import (
	"fmt"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// Rules shared by melee and fire.

// isMonster reports whether a unit is a minor monster attacked by to-hit
// rolls and hit points (DR-MATK-13). The Elemental has no HP and is fought
// on the CRT like a normal unit (DR-SPELL-ELEM-4).
func (st *State) isMonster(u *Unit) bool {
	t := st.typ(u)
	return t.Kind == "minor" && t.HP > 0
}

// defence is the total defence strength of units in a hex (DR-MELEE-6,
// DR-MELEE-10).
func (w *world) defence(us []*Unit) int {
	total := 0
	for _, u := range us {
		total += w.st.typ(u).DefenceStrength()
	}
	return total
}

// heroWith reports whether an unwounded hero of u's side shares u's hex.
func (w *world) heroWith(u *Unit) bool {
	for _, x := range w.st.at(u.Hex) {
		if x.ID != u.ID && x.Side == u.Side && w.st.typ(x).Leads() && !x.Wounded {
			return true
		}
	}
	return false
}

// heroNear reports whether an unwounded hero of u's side is stacked with or
// adjacent to u: the aura against monsters (DR-HERO-2).
func (w *world) heroNear(u *Unit) bool { return w.heroBy(u, false) }

// heroBy reports whether a hero of u's side is stacked with or adjacent to
// u; wounded heroes count only when wounded is set. Militia follow any hero
// into an attack on a monster (DR-MIL-1: a wounded hero "acts like a normal
// hero", DR-HERO-5), but only an unwounded one gives the +1 (DR-HERO-2).
func (w *world) heroBy(u *Unit, wounded bool) bool {
	h := w.st.hexOf(u)
	for _, x := range w.st.alive(u.Side) {
		if !w.st.typ(x).Leads() || (x.Wounded && !wounded) || x.Hex == "" || x.ID == u.ID {
			continue
		}
		if xh := w.st.hexOf(x); xh == h || xh.Adjacent(h) {
			return true
		}
	}
	return false
}

// meleeStrength is u's attack strength, doubled by a stacked unwounded hero
// (DR-HERO-1; not the hero's own, DR-AMB-51).
func (w *world) meleeStrength(u *Unit) int {
	s := w.st.typ(u).Attack
	if !w.st.typ(u).Leads() && w.heroWith(u) {
		s *= 2
	}
	return s
}

// demoralized reports whether side started with heroes and all are dead
// (DR-MATK-16).
func (w *world) demoralized(side adjudicator.Side) bool {
	had, alive := false, false
	for _, u := range w.st.Units {
		if u.Side == side && w.st.typ(u).Leads() && !u.Pool {
			had = true
			alive = alive || !u.Gone
		}
	}
	return had && !alive
}

// kill applies a "destroyed" result to one unit: a hero or Elowyn not yet
// wounded is wounded instead (DR-HERO-5, DR-ELOWYN-5, DR-CRT-4).
func (w *world) kill(u *Unit, cause string) {
	if w.st.typ(u).TakesWound() && !u.Wounded {
		w.emit(&Wounded{Unit: u.ID})
		w.sayf("%s is wounded: %s (DR-HERO-5)", u.ID, cause)
		return
	}
	w.eliminate(u, cause)
}

// damage takes hit points from a monster and kills it when none are left
// (DR-MATK-13, DR-MINOR-1).
func (w *world) damage(u *Unit, points int, cause string) {
	w.emit(&Damaged{Unit: u.ID, Points: points})
	t := w.st.typ(u)
	left := t.HP - u.Damage
	w.sayf("%s takes %d damage (%s): %d of %d HP left", u.ID, points, cause, max(left, 0), t.HP)
	if left <= 0 {
		w.eliminate(u, "all its hit points are gone")
	}
}

// lineBlocked says why melee between a and b is not allowed by walls and
// towers, or "": no melee across a wall, or into or out of a tower, except
// through a smashed or opened entrance between them (DR-MELEE-9, DR-WALL-5,
// DR-TOWER-6).
func (w *world) meleeBlocked(a, b hex.Hex) string {
	f, has := w.feature(a, b)
	tower := w.m.Terrain(a) == "tower" || w.m.Terrain(b) == "tower"
	switch {
	case has && w.m.IsEntrance(f.Kind):
		e := w.entrance(f.Side.String())
		if e.Broken || (e.OpenUntil > 0 && e.OpenUntil >= w.st.Turn) {
			return ""
		}
		return fmt.Sprintf("the %s between %s and %s is closed: melee only through a smashed or opened entrance (DR-MELEE-9)", f.Kind, a, b)
	case has && w.m.IsBarrier(f.Kind):
		return fmt.Sprintf("a %s stands between %s and %s: no melee across walls (DR-WALL-5)", f.Kind, a, b)
	case tower:
		return fmt.Sprintf("no melee into or out of a tower except through a smashed or opened entrance (DR-TOWER-6)")
	}
	return ""
}
