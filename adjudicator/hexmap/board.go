package hexmap

import (
	"fmt"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// BoardEdge is one of the four sides of a rectangular board: the first row
// (North), the last column (East), the last row (South), the first column
// (West).
type BoardEdge int

// The four board edges, clockwise.
const (
	North BoardEdge = iota
	East
	South
	West
)

var edgeNames = [4]string{"north", "east", "south", "west"}

// String returns "north", "east", "south" or "west".
func (e BoardEdge) String() string { return edgeNames[((e%4)+4)%4] }

// Opposite is the edge across the board.
func (e BoardEdge) Opposite() BoardEdge { return (e + 2) % 4 }

// ParseBoardEdge reads an edge name.
func ParseBoardEdge(s string) (BoardEdge, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	for i, n := range edgeNames {
		if t == n {
			return BoardEdge(i), nil
		}
	}
	return 0, fmt.Errorf("%q is not a board edge: use north, east, south or west", s)
}

// assembly is what a board says of its edges, and what an assembled map
// remembers of its boards.
type assembly struct {
	edges    [4]string // label of each BoardEdge, "" if none
	edgeProv Provenance
	arrow    BoardEdge // the way the board's printed arrow points
	hasArrow bool
	origin   map[hex.Hex]Origin
	placed   []Placement
}

// EdgeLabel is the label printed on edge e of a board ("" if none): a side
// labelled X joins only a side labelled X.
func (m *Map) EdgeLabel(e BoardEdge) string { return m.edges[((e%4)+4)%4] }

// EdgeProvenance says whether the edge labels are stated or assumed.
func (m *Map) EdgeProvenance() Provenance { return m.edgeProv }

// Arrow is the edge the board's printed arrow points to, if it has one:
// joined boards must show their arrows pointing the same way.
func (m *Map) Arrow() (BoardEdge, bool) { return m.arrow, m.hasArrow }

// Origin is where a hex of an assembled map comes from: which board, placed
// under which name, and the hex's own name on that board.
type Origin struct {
	Name  string  // the placement's name, e.g. "pit"
	Board string  // the board's title (its name if it has none)
	Hex   hex.Hex // the hex as printed on the board
}

// String writes "board The Pit 0304".
func (o Origin) String() string { return fmt.Sprintf("board %s %s", o.Board, o.Hex) }

// Origin returns where h comes from on an assembled map; a map read from
// one file has no origins.
func (m *Map) Origin(h hex.Hex) (Origin, bool) {
	o, ok := m.origin[h]
	return o, ok
}

// Where names h for a message: "0812 (board The Pit 0304)" on an
// assembled map, plain "0812" otherwise.
func (m *Map) Where(h hex.Hex) string {
	if o, ok := m.origin[h]; ok {
		return fmt.Sprintf("%s (%s)", h, o)
	}
	return h.String()
}

// Placements returns how an assembled map's boards were placed, in the
// order given (none for a map read from one file).
func (m *Map) Placements() []Placement { return m.placed }
