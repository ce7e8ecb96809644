package dragonrage

import (
	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// reach returns the hexes unit u could end a move in, starting from hex
// from with mp movement points, and the fewest MP it takes to get to each.
// It passes through hexes it may only cross (an overrun) and stops only
// where it may stand; it never ends on a wooden bridge that would drown it
// (DR-TREX-2). Roads are not counted: callers that need road movement
// check it themselves.
func (w *world) reach(u *Unit, from hex.Hex, mp int) map[hex.Hex]int {
	cost := map[hex.Hex]int{from: 0}
	ends := map[hex.Hex]int{from: 0}
	frontier := []hex.Hex{from}
	for len(frontier) > 0 {
		var next []hex.Hex
		for _, a := range frontier {
			for _, b := range w.m.Neighbours(a) {
				var st step
				st.MP = 1
				if w.crossing(u, a, b, &st) != "" || w.entering(u, b, false, &st) != "" {
					continue
				}
				c := cost[a] + st.MP
				if old, seen := cost[b]; c > mp || (seen && old <= c) {
					continue
				}
				cost[b] = c
				next = append(next, b)
				var last step
				if w.entering(u, b, true, &last) == "" && !last.Drowns {
					ends[b] = c
				}
			}
		}
		frontier = next
	}
	return ends
}

// path returns a shortest path (the hexes entered, in order) for u from
// hex from to hex to, through hexes it may cross, with no MP limit; nil if
// there is none. Ties are broken by direction order (N first), so the path
// is the same every time.
func (w *world) path(u *Unit, from, to hex.Hex) []hex.Hex {
	prev := map[hex.Hex]hex.Hex{}
	seen := map[hex.Hex]bool{from: true}
	frontier := []hex.Hex{from}
	for len(frontier) > 0 && !seen[to] {
		var next []hex.Hex
		for _, a := range frontier {
			for _, b := range w.m.Neighbours(a) {
				if seen[b] {
					continue
				}
				var st step
				if w.crossing(u, a, b, &st) != "" || st.Smash != "" || w.entering(u, b, b == to, &st) != "" {
					continue
				}
				seen[b], prev[b] = true, a
				next = append(next, b)
			}
		}
		frontier = next
	}
	if !seen[to] || from == to {
		return nil
	}
	var out []hex.Hex
	for h := to; h != from; h = prev[h] {
		out = append([]hex.Hex{h}, out...)
	}
	return out
}
