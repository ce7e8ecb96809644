package hex

import (
	"fmt"
	"strings"
)

// Direction is one of the six directions from a hex to a neighbour, numbered
// clockwise from north. It doubles as a major monster's facing (DR-HEX-8).
type Direction int

// The six directions, clockwise (DR-HEX-2, DR-HEX-8).
const (
	N Direction = iota
	NE
	SE
	S
	SW
	NW
)

// Directions lists the six directions in clockwise order from N.
var Directions = [6]Direction{N, NE, SE, S, SW, NW}

var dirNames = [6]string{"N", "NE", "SE", "S", "SW", "NW"}

// String returns "N", "NE", … ; an out-of-range value is normalised first.
func (d Direction) String() string { return dirNames[d.norm()] }

func (d Direction) norm() Direction { return ((d % 6) + 6) % 6 }

// Rotate turns d by n hexsides, clockwise for positive n (each step is 60°,
// DR-HEX-9).
func (d Direction) Rotate(n int) Direction { return (d + Direction(n)).norm() }

// Right is one 60° turn clockwise.
func (d Direction) Right() Direction { return d.Rotate(1) }

// Left is one 60° turn anticlockwise.
func (d Direction) Left() Direction { return d.Rotate(-1) }

// Opposite is the direction pointing the other way.
func (d Direction) Opposite() Direction { return d.Rotate(3) }

// ParseDirection reads "N", "ne", "Se", … (French "O" for west is not used:
// the grid has no W or E direction).
func ParseDirection(s string) (Direction, error) {
	u := strings.ToUpper(strings.TrimSpace(s))
	for i, n := range dirNames {
		if u == n {
			return Direction(i), nil
		}
	}
	return 0, fmt.Errorf("%q is not a direction: use N, NE, SE, S, SW or NW", s)
}
