package hexmap

import (
	"sort"
	"sync"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// EdgeRun is one outer edge of a board on a map: the hexes along it, from
// which a counter steps off the map, and what lies beyond it (the Exits
// of its placement; "" when nothing is said: it leads nowhere).
type EdgeRun struct {
	// Name names the run: "north", "east", "south" or "west" on a map of
	// one board; "PLACEMENT/north" … on a map of several.
	Name      string
	Placement string    // the placement's name; "" on a map read from one file
	Edge      BoardEdge // as the edge lies on the map
	Hexes     []hex.Hex // the map's hexes along it, sorted
	Label     string
}

// EdgeRuns lists the outer edges of the map's boards, board by board in
// the order placed, north, east, south, west: the edges beyond which no
// hex of the map lies. A map read from one file has its four edges.
// The list is shared: callers must not change it.
func (m *Map) EdgeRuns() []EdgeRun {
	if m.runs == nil {
		return m.edgeRuns()
	}
	m.runs.once.Do(func() { m.runs.list = m.edgeRuns() })
	return m.runs.list
}

// edgeCache holds a built map's edge runs, computed at the first call: a
// ruleset may ask for them for every hex it checks.
type edgeCache struct {
	once sync.Once
	list []EdgeRun
}

func (m *Map) edgeRuns() []EdgeRun {
	if len(m.placed) == 0 {
		var out []EdgeRun
		for e := North; e <= West; e++ {
			if hs := m.runHexes(m.Bounds, e); len(hs) > 0 {
				out = append(out, EdgeRun{Name: e.String(), Edge: e, Hexes: hs})
			}
		}
		return out
	}
	var out []EdgeRun
	for _, p := range m.placed {
		mv := p.motion()
		var hs []hex.Hex
		for _, h := range p.Board.Hexes() {
			hs = append(hs, mv.Hex(h))
		}
		b := Bounds{MinCol: 99, MinRow: 99}
		for _, h := range hs {
			b.MinCol, b.MaxCol = min(b.MinCol, h.Col), max(b.MaxCol, h.Col)
			b.MinRow, b.MaxRow = min(b.MinRow, h.Row), max(b.MaxRow, h.Row)
		}
		for e := North; e <= West; e++ {
			run := m.runHexes(b, e)
			if len(run) == 0 || !m.outer(b, e, run) {
				continue
			}
			name := e.String()
			if len(m.placed) > 1 {
				name = p.name() + "/" + name
			}
			out = append(out, EdgeRun{Name: name, Placement: p.name(), Edge: e, Hexes: run, Label: p.Exits[e]})
		}
	}
	return out
}

// runHexes are the map's hexes along edge e of the rectangle b.
func (m *Map) runHexes(b Bounds, e BoardEdge) []hex.Hex {
	var out []hex.Hex
	for _, h := range (&Map{Bounds: b}).Hexes() {
		on := false
		switch e {
		case North:
			on = h.Row == b.MinRow
		case East:
			on = h.Col == b.MaxCol
		case South:
			on = h.Row == b.MaxRow
		case West:
			on = h.Col == b.MinCol
		}
		if on && m.OnMap(h) {
			out = append(out, h)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Less(out[j]) })
	return out
}

// outer reports whether no hex of the map lies beyond edge e of the
// rectangle b next to run.
func (m *Map) outer(b Bounds, e BoardEdge, run []hex.Hex) bool {
	for _, h := range run {
		for _, n := range m.Layout.Neighbours(h) {
			beyond := false
			switch e {
			case North:
				beyond = n.Row < b.MinRow
			case East:
				beyond = n.Col > b.MaxCol
			case South:
				beyond = n.Row > b.MaxRow
			case West:
				beyond = n.Col < b.MinCol
			}
			if beyond && m.OnMap(n) {
				return false
			}
		}
	}
	return true
}

// sortedEdges lists the edges of exits in the order north, east, south,
// west.
func sortedEdges(exits map[BoardEdge]string) []BoardEdge {
	var out []BoardEdge
	for e := North; e <= West; e++ {
		if _, ok := exits[e]; ok {
			out = append(out, e)
		}
	}
	return out
}
