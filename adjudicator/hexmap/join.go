package hexmap

import (
	"fmt"
	"sort"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// JoinErrors checks where the boards of an assembled map meet. Two boards
// are joined along a pair of edges where they share at least two hexsides
// (a single hexside where two corners touch is not a join, and is not
// checked). At each join both edges must carry the same label, or neither
// a label; and when both boards print an arrow, the arrows must point the
// same way once the boards are placed. A map read from one file has no
// joins.
func JoinErrors(m *Map) []error {
	type key struct {
		a, b         int
		edgeA, edgeB BoardEdge
	}
	index := map[string]int{}
	for i, p := range m.placed {
		index[p.name()] = i
	}
	count := map[key]int{}
	first := map[key][2]hex.Hex{}
	for _, g := range sortedKeys(m.origin) {
		oa := m.origin[g]
		for _, d := range hex.Directions {
			n := m.Layout.Neighbour(g, d)
			ob, ok := m.origin[n]
			if !ok || ob.Name == oa.Name || index[oa.Name] > index[ob.Name] {
				continue
			}
			pa, pb := m.placed[index[oa.Name]], m.placed[index[ob.Name]]
			k := key{index[oa.Name], index[ob.Name], localEdge(pa, oa.Hex, d), localEdge(pb, ob.Hex, d.Opposite())}
			if count[k] == 0 {
				first[k] = [2]hex.Hex{g, n}
			}
			count[k]++
		}
	}
	keys := make([]key, 0, len(count))
	for k := range count {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		x, y := keys[i], keys[j]
		if x.a != y.a {
			return x.a < y.a
		}
		if x.b != y.b {
			return x.b < y.b
		}
		if x.edgeA != y.edgeA {
			return x.edgeA < y.edgeA
		}
		return x.edgeB < y.edgeB
	})
	var out []error
	arrowChecked := map[[2]int]bool{}
	for _, k := range keys {
		if count[k] < 2 {
			continue
		}
		pa, pb := m.placed[k.a], m.placed[k.b]
		at := first[k]
		la, lb := pa.Board.EdgeLabel(k.edgeA), pb.Board.EdgeLabel(k.edgeB)
		if la != lb {
			out = append(out, ErrJoin{A: m.origin[at[0]], B: m.origin[at[1]], EdgeA: k.edgeA, EdgeB: k.edgeB, LabelA: la, LabelB: lb, At: at})
		}
		pair := [2]int{k.a, k.b}
		if arrowChecked[pair] {
			continue
		}
		arrowChecked[pair] = true
		xa, okA := pa.Board.Arrow()
		xb, okB := pb.Board.Arrow()
		if okA && okB && placedEdge(pa, xa) != placedEdge(pb, xb) {
			out = append(out, fmt.Errorf("boards %s and %s are joined at %s/%s but their arrows point %s and %s; turn one of them half round",
				pa.title(), pb.title(), at[0], at[1], placedEdge(pa, xa), placedEdge(pb, xb)))
		}
	}
	return out
}

// placedEdge is where a board's edge e lies once the board is placed.
func placedEdge(p Placement, e BoardEdge) BoardEdge {
	if p.HalfTurn {
		return e.Opposite()
	}
	return e
}

// localEdge says which edge of its own board hex h (a hex of the board, by
// its own name) lies on when it touches another board in direction d of the
// assembled map.
func localEdge(p Placement, h hex.Hex, d hex.Direction) BoardEdge {
	b := p.Board.Bounds
	if p.HalfTurn {
		d = d.Opposite()
	}
	if p.Board.Layout.Pointy() {
		switch d {
		case hex.PointyE:
			return East
		case hex.PointyW:
			return West
		case hex.PointyNE, hex.PointyNW:
			if h.Row == b.MinRow {
				return North
			}
			if d == hex.PointyNE {
				return East
			}
			return West
		default: // SE, SW
			if h.Row == b.MaxRow {
				return South
			}
			if d == hex.PointySE {
				return East
			}
			return West
		}
	}
	switch d {
	case hex.N:
		return North
	case hex.S:
		return South
	case hex.NE, hex.SE:
		if h.Col == b.MaxCol {
			return East
		}
		if d == hex.NE {
			return North
		}
		return South
	default: // NW, SW
		if h.Col == b.MinCol {
			return West
		}
		if d == hex.NW {
			return North
		}
		return South
	}
}
