package board

import (
	"github.com/umpire-pbem/umpire/adjudicator/hex"
	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
)

// passable reports whether a land unit may step from a to b, treating every
// entrance as usable (it can be controlled or smashed) and every barrier
// without one as closed (climbing aside). Used by the map checks only: the
// movement rules proper live in the game engine.
func passable(m *hexmap.Map, a, b hex.Hex) bool {
	if !land(m, a) || !land(m, b) {
		return false
	}
	f, has := m.HexsideBetween(a, b)
	if has && (m.IsBarrier(f.Kind) || f.Kind == "river") {
		return false
	}
	entrance := has && m.IsEntrance(f.Kind)
	if (m.Terrain(a) == "tower" || m.Terrain(b) == "tower") && !entrance {
		return false // DR-TOWER-1: towers only through an entrance
	}
	for _, x := range [2]hex.Hex{a, b} {
		if br, ok := m.Bridge(x); ok {
			o := a
			if x == a {
				o = b
			}
			if o != br.Connects[0] && o != br.Connects[1] {
				return false // DR-TERR-4: only across the banks' hexsides
			}
		}
	}
	return true
}

// reach returns every hex reachable from the starts by passable steps.
func reach(m *hexmap.Map, starts []hex.Hex) map[hex.Hex]bool {
	seen := map[hex.Hex]bool{}
	var queue []hex.Hex
	for _, s := range starts {
		if land(m, s) && !seen[s] {
			seen[s] = true
			queue = append(queue, s)
		}
	}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		for _, n := range m.Neighbours(x) {
			if !seen[n] && passable(m, x, n) {
				seen[n] = true
				queue = append(queue, n)
			}
		}
	}
	return seen
}
