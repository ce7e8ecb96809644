package dragonrage

// How an Elemental moves (DR-SPELL-ELEM-5, -6, -9, -11): move.go asks these
// for a controlled one; an uncontrolled one moves by itself (elemental_wild.go).

import (
	"fmt"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// elementalBanned says why an Elemental may not enter h, or "": never a
// bridge, dock or water hex (DR-SPELL-ELEM-5).
func (w *world) elementalBanned(h hex.Hex) string {
	terr := w.m.Terrain(h)
	if w.m.Has(h, "bridge") || terr == "dock" || terr == "sea" || terr == "river" || w.m.Has(h, "river") {
		return fmt.Sprintf("%s is a bridge, dock or water hex: an Elemental never enters one (DR-SPELL-ELEM-5)", h)
	}
	return ""
}

// elementalStep says why an Elemental may not step from a to b, or "": it
// passes every door and gate, open or closed, but no wall or tower wall
// (DR-SPELL-ELEM-9), and no river.
func (w *world) elementalStep(a, b hex.Hex) string {
	if !w.m.OnMap(b) {
		return fmt.Sprintf("%s is not on the map", b)
	}
	if why := w.elementalBanned(b); why != "" {
		return why
	}
	f, has := w.feature(a, b)
	switch {
	case has && w.m.IsEntrance(f.Kind):
		return ""
	case has && w.m.IsBarrier(f.Kind):
		return fmt.Sprintf("a %s stands between %s and %s: an Elemental passes every door and gate but never a wall (DR-SPELL-ELEM-9)", f.Kind, a, b)
	case has:
		return fmt.Sprintf("the river runs between %s and %s (DR-SPELL-ELEM-5)", a, b)
	case w.m.Terrain(a) == "tower" || w.m.Terrain(b) == "tower":
		return "an Elemental enters and leaves a tower only through its doors and gates, never through its walls (DR-SPELL-ELEM-9)"
	}
	return ""
}

// elementalEnters checks a controlled Elemental entering h: it ignores
// other units (DR-SPELL-ELEM-6) but does not stop with its own side's, since
// it would have to attack them (DR-SPELL-ELEM-7); it destroys the VP of
// every hex it enters, for the invader whoever controls it
// (DR-SPELL-ELEM-11, DR-AMB-44).
func (w *world) elementalEnters(u *Unit, h hex.Hex, last bool, st *step) string {
	if why := w.elementalBanned(h); why != "" {
		return why
	}
	if last {
		for _, x := range w.st.at(h.String()) {
			if x.ID != u.ID && x.Side == u.Side {
				return fmt.Sprintf("%s is there: an Elemental that stops with another unit must attack it in the melee phase (DR-SPELL-ELEM-7), so it may not stop with its own side's units", x.ID)
			}
		}
	}
	if w.vpHex(h) > 0 {
		st.Destroys = true
	}
	return ""
}

// elementalReaches reports whether an Elemental could go from a to b in at
// most n steps.
func (w *world) elementalReaches(a, b hex.Hex, n int) bool {
	seen := map[hex.Hex]bool{a: true}
	front := []hex.Hex{a}
	for i := 0; i < n; i++ {
		var next []hex.Hex
		for _, h := range front {
			for _, x := range h.Neighbours() {
				if seen[x] || w.elementalStep(h, x) != "" {
					continue
				}
				if x == b {
					return true
				}
				seen[x] = true
				next = append(next, x)
			}
		}
		front = next
	}
	return false
}
