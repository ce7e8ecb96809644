package hex

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Shape is the outline of a counter that covers one or more hexes, drawn
// for a counter facing direction 0 and then turned with it. Each cell is a
// path of steps from the anchor hex, each step a direction relative to the
// facing (0 = straight ahead, 1 = ahead-right, … 5 = ahead-left); the
// anchor is the empty path. A Shape is comparable, and so is a Footprint.
type Shape struct {
	// Name is the shape's name in data files ("triangle").
	Name string
	// cells: the paths, each a string of direction digits, separated by
	// commas ("" is the anchor alone, ",0,1" the anchor and two cells).
	cells string
	// skew: the shape's own axis lies half a direction clockwise of its
	// facing. A triangle of hexes is symmetric only about the lines
	// through hex corners, never about a line through hexside middles, so
	// it cannot look straight at a hexside.
	skew bool
}

// The shapes the package knows. A game may make others with NewShape.
var (
	// Single is one hex: an ordinary counter.
	Single = Shape{Name: "single", cells: ""}
	// Pair is two hexes in a row: the anchor at the rear and the hex
	// straight ahead of it (a boat, a cart).
	Pair = Shape{Name: "pair", cells: ",0"}
	// Triangle is three hexes that all touch: the anchor at the rear and
	// the two hexes ahead (direction 0) and ahead-right (1) of it, side by
	// side. Its front looks between its facing and the next direction
	// clockwise (see Footprint.Bearing).
	Triangle = Shape{Name: "triangle", cells: ",0,1", skew: true}
	// Rosette is seven hexes: the anchor in the middle and its six
	// neighbours.
	Rosette = Shape{Name: "rosette", cells: ",0,1,2,3,4,5"}
)

// Shapes lists the package's shapes, smallest first.
var Shapes = []Shape{Single, Pair, Triangle, Rosette}

// ParseShape reads the name of one of Shapes.
func ParseShape(s string) (Shape, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	var names []string
	for _, sh := range Shapes {
		if sh.Name == t {
			return sh, nil
		}
		names = append(names, sh.Name)
	}
	return Shape{}, fmt.Errorf("%q is not a counter shape: use %s", s, strings.Join(names, ", "))
}

// NewShape makes a shape from cells given as paths of relative directions
// (the first cell must be the anchor, the empty path). skew says the
// shape's axis lies half a direction clockwise of its facing, as a
// triangle's does. It refuses cells that repeat a hex or do not form one
// connected piece.
func NewShape(name string, skew bool, cells ...[]Direction) (Shape, error) {
	if len(cells) == 0 || len(cells[0]) != 0 {
		return Shape{}, fmt.Errorf("shape %q: the first cell must be the anchor (no steps)", name)
	}
	paths := make([]string, len(cells))
	for i, path := range cells {
		for _, d := range path {
			paths[i] += strconv.Itoa(int(d.norm()))
		}
	}
	sh := Shape{Name: name, cells: strings.Join(paths, ","), skew: skew}
	hs := Footprint{Shape: sh, Anchor: New(50, 50)}.Hexes()
	seen := map[Hex]bool{}
	for i, h := range hs {
		if seen[h] {
			return Shape{}, fmt.Errorf("shape %q: cell %d is the same hex as an earlier one", name, i+1)
		}
		seen[h] = true
	}
	if !Connected(Flat, hs) {
		return Shape{}, fmt.Errorf("shape %q: its cells are not one connected piece", name)
	}
	return sh, nil
}

// Size is the number of hexes the shape covers.
func (s Shape) Size() int { return strings.Count(s.cells, ",") + 1 }

// Connected reports whether the hexes form one piece, each reachable from
// the first through adjacent hexes of the set (on layout l). No hexes is
// not connected.
func Connected(l Layout, hs []Hex) bool {
	if len(hs) == 0 {
		return false
	}
	in := map[Hex]bool{}
	for _, h := range hs {
		in[h] = true
	}
	seen := map[Hex]bool{hs[0]: true}
	todo := []Hex{hs[0]}
	for len(todo) > 0 {
		h := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		for _, n := range l.Neighbours(h) {
			if in[n] && !seen[n] {
				seen[n] = true
				todo = append(todo, n)
			}
		}
	}
	return len(seen) == len(in)
}

// Footprint is where a counter of some shape stands: its anchor hex and its
// facing, on a layout. It is a value; moving or turning it returns a new
// one. It knows nothing of terrain: whether the hexes are open to it is the
// caller's question (see Fits).
type Footprint struct {
	Shape  Shape
	Anchor Hex
	Facing Direction
	Layout Layout
}

// Hexes returns the hexes covered, the anchor first, then in the shape's
// cell order.
func (f Footprint) Hexes() []Hex {
	out := make([]Hex, 0, f.Shape.Size())
	for path := range strings.SplitSeq(f.Shape.cells, ",") {
		h := f.Anchor
		for _, step := range path {
			h = f.Layout.Neighbour(h, f.Facing.Rotate(int(step-'0')))
		}
		out = append(out, h)
	}
	return out
}

// Covers reports whether h is one of the footprint's hexes.
func (f Footprint) Covers(h Hex) bool {
	for _, c := range f.Hexes() {
		if c == h {
			return true
		}
	}
	return false
}

// Fits reports whether every hex of the footprint passes open (a map's
// "on the map and enterable", say).
func (f Footprint) Fits(open func(Hex) bool) bool {
	for _, h := range f.Hexes() {
		if !open(h) {
			return false
		}
	}
	return true
}

// Turn returns the footprint turned n hexsides about its anchor, clockwise
// for positive n.
func (f Footprint) Turn(n int) Footprint {
	f.Facing = f.Facing.Rotate(n)
	return f
}

// Face returns the footprint turned about its anchor to face d.
func (f Footprint) Face(d Direction) Footprint {
	f.Facing = d.norm()
	return f
}

// MoveTo returns the footprint with its anchor on h, facing the same way.
func (f Footprint) MoveTo(h Hex) Footprint {
	f.Anchor = h
	return f
}

// Step returns the footprint shifted one hex in direction d, facing the
// same way.
func (f Footprint) Step(d Direction) Footprint {
	f.Anchor = f.Layout.Neighbour(f.Anchor, d)
	return f
}

// Bearing is the angle between the footprint's front and direction d, in
// steps of 30°, from 0 (straight ahead) to 6 (straight behind), turning
// either way. For a shape whose axis is skewed (Triangle) it is odd for
// every direction.
func (f Footprint) Bearing(d Direction) int {
	head := 2 * int(f.Facing.norm())
	if f.Shape.skew {
		head++
	}
	diff := ((2*int(d.norm())-head)%12 + 12) % 12
	return min(diff, 12-diff)
}

// Aspect is which part of a footprint a hexside of its outline is on.
type Aspect uint8

// The aspects, as bits so that a hex touching several outline sides can
// carry several.
const (
	// AspectFront: the side faces less than 90° from the footprint's front.
	AspectFront Aspect = 1 << iota
	// AspectFlank: exactly 90° (only a skewed shape has such sides).
	AspectFlank
	// AspectRear: more than 90°, facing backwards.
	AspectRear
)

// String names the aspects set: "front", "flank", "rear", "front+flank".
func (a Aspect) String() string {
	var parts []string
	for _, x := range []struct {
		a Aspect
		s string
	}{{AspectFront, "front"}, {AspectFlank, "flank"}, {AspectRear, "rear"}} {
		if a&x.a != 0 {
			parts = append(parts, x.s)
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "+")
}

// AspectOf is the aspect of an outline side that looks in direction d: by
// Bearing, below 3 front, 3 flank, above 3 rear. A game whose counters
// split front and rear otherwise uses Bearing itself.
func (f Footprint) AspectOf(d Direction) Aspect {
	switch b := f.Bearing(d); {
	case b < 3:
		return AspectFront
	case b == 3:
		return AspectFlank
	}
	return AspectRear
}

// Edge is one hexside of a footprint's outline: between a covered hex
// (Inner) and an uncovered one (Outer), looking in direction Dir from Inner.
type Edge struct {
	Side         Hexside
	Inner, Outer Hex
	Dir          Direction
	Aspect       Aspect
}

// Outline returns the hexsides between the footprint and the hexes around
// it, by inner hex in cell order, then by direction.
func (f Footprint) Outline() []Edge {
	hs := f.Hexes()
	in := map[Hex]bool{}
	for _, h := range hs {
		in[h] = true
	}
	var out []Edge
	for _, h := range hs {
		for _, d := range Directions {
			o := f.Layout.Neighbour(h, d)
			if in[o] {
				continue
			}
			out = append(out, Edge{Side: f.Layout.Side(h, d), Inner: h, Outer: o, Dir: d, Aspect: f.AspectOf(d)})
		}
	}
	return out
}

// Contact is a hex next to a footprint: the outline sides it shares with
// it, and the aspects of those sides together. A hex can touch a front and
// a rear side at once (Aspect then has both bits); which counts is the
// game's rule.
type Contact struct {
	Hex    Hex
	Edges  []Edge
	Aspect Aspect
}

// Around returns the hexes next to the footprint, ordered by hex.
func (f Footprint) Around() []Contact {
	by := map[Hex]*Contact{}
	for _, e := range f.Outline() {
		c := by[e.Outer]
		if c == nil {
			c = &Contact{Hex: e.Outer}
			by[e.Outer] = c
		}
		c.Edges = append(c.Edges, e)
		c.Aspect |= e.Aspect
	}
	out := make([]Contact, 0, len(by))
	for _, c := range by {
		out = append(out, *c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Hex.Less(out[j].Hex) })
	return out
}

// ContactOf returns how h touches the footprint, or false when h is not
// next to it (a covered hex is not next to it).
func (f Footprint) ContactOf(h Hex) (Contact, bool) {
	for _, c := range f.Around() {
		if c.Hex == h {
			return c, true
		}
	}
	return Contact{}, false
}

// String writes "triangle at 0506 facing N".
func (f Footprint) String() string {
	return fmt.Sprintf("%s at %s facing %s", f.Shape.Name, f.Anchor, f.Layout.DirName(f.Facing))
}
