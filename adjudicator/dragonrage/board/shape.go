package board

import (
	"fmt"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
)

// minBounds are the extents the rules' hex numbers imply (DR-HEX-12), and
// maxGoal the highest VP goal of a fixed scenario on each map (DR-SCEN-E1:
// 19, with EN's 20 for a great victory; DR-SCEN-N3: 23).
var minBounds = map[string][2]int{"esirien": {25, 16}, "nurkott": {24, 17}}
var maxGoal = map[string]int{"esirien": 20, "nurkott": 23}

// starts are where invaders come onto the map: the invader setup zone
// (Esirien) or the entry points (Nurkott).
func starts(m *hexmap.Map) []hex.Hex {
	var out []hex.Hex
	if z, ok := m.Zone("invader-setup"); ok {
		out = append(out, z.Hexes...)
	}
	for _, p := range m.Points("entry") {
		out = append(out, p.Hex)
	}
	return out
}

func (c *checker) shape() {
	m := c.m
	if b, ok := minBounds[m.Name]; ok && (m.Bounds.MaxCol < b[0] || m.Bounds.MaxRow < b[1] || m.Bounds.MinCol > 1 || m.Bounds.MinRow > 1) {
		c.add("bounds", "DR-HEX-12", "the map must reach at least column %02d and row %02d from 0101", b[0], b[1])
	}
	c.vp()
	c.connected()
	c.roads()
	c.enclosure()
}

func (c *checker) vp() {
	m := c.m
	for _, x := range m.VPHexes() {
		if v := m.VP(x); v < 1 || v > 5 {
			c.add(x.String(), "DR-MAP-16", "VP value %d: printed values are 1 to 5", v)
		}
		if !land(m, x) {
			c.add(x.String(), "DR-VP-1", "a VP hex must be a city hex units can enter")
		}
	}
	g, ok := maxGoal[m.Name]
	if !ok {
		return
	}
	if t := m.TotalVP(); t < 2*g || t > 3*g {
		c.add("vp", "DR-GAP-13", "total VP %d: want between %d and %d so the highest goal (%d) is reachable but hard", t, 2*g, 3*g, g)
	}
}

func (c *checker) connected() {
	m := c.m
	st := starts(m)
	if len(st) == 0 {
		c.add("zones", "DR-SCEN-4", "no invader setup zone or entry points")
		return
	}
	seen := reach(m, st)
	var lost []hex.Hex
	for _, x := range m.Hexes() {
		if land(m, x) && !seen[x] {
			lost = append(lost, x)
		}
	}
	if len(lost) > 0 {
		c.add(lost[0].String(), "DR-GAP-14", "%d land hexes cannot be reached from the invader edges or entries (first: %v)", len(lost), head(lost))
	}
	for _, p := range m.Points("exit") {
		if !seen[p.Hex] {
			c.add(p.Hex.String(), "DR-ROAD-6", "exit %q cannot be reached", p.Name)
		}
		if !onEdge(m, p.Hex) || !m.Has(p.Hex, "road") {
			c.add(p.Hex.String(), "DR-ROAD-6", "exit %q must be a road hex on the map edge", p.Name)
		}
	}
}

func head(hs []hex.Hex) []hex.Hex {
	if len(hs) > 8 {
		return hs[:8]
	}
	return hs
}

// roads: every link is a legal step and the road net is one piece.
func (c *checker) roads() {
	m := c.m
	adj := map[hex.Hex][]hex.Hex{}
	for _, r := range m.Roads() {
		for i := 1; i < len(r.Path); i++ {
			a, b := r.Path[i-1], r.Path[i]
			if !passable(m, a, b) {
				c.add(fmt.Sprintf("%s/%s", a, b), "DR-ROAD-1", "road %q crosses a wall, water or a tower side with no entrance", r.Name)
			}
			adj[a], adj[b] = append(adj[a], b), append(adj[b], a)
		}
		for _, x := range r.Path {
			if m.Terrain(x) == "tower" && m.Name == "esirien" && !slices.Contains([]string{"0914", "1310", "1511"}, x.String()) {
				c.add(x.String(), "DR-ROAD-3", "the road enters no tower but 0914, 1310 and 1511")
			}
		}
	}
	var first hex.Hex
	for x := range adj {
		if first == (hex.Hex{}) || x.Less(first) {
			first = x
		}
	}
	seen := map[hex.Hex]bool{first: true}
	queue := []hex.Hex{first}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		for _, n := range adj[x] {
			if !seen[n] {
				seen[n] = true
				queue = append(queue, n)
			}
		}
	}
	if len(adj) > 0 && len(seen) != len(adj) {
		c.add("roads", "DR-ROAD-1", "the roads are not all connected (%d of %d road hexes reached from %s)", len(seen), len(adj), first)
	}
}

// enclosure: the inside-walls zone is closed by barriers, entrances and
// towers; every barrier and entrance faces the zone or a tower.
func (c *checker) enclosure() {
	m := c.m
	z, ok := m.Zone("inside-walls")
	if !ok || len(z.Hexes) == 0 {
		c.add("zones", "DR-WIN-4", "the map needs a non-empty inside-walls zone")
		return
	}
	for _, x := range z.Hexes {
		for _, d := range hex.Directions {
			n := x.Neighbour(d)
			if z.Has(n) {
				continue
			}
			f, has := m.HexsideBetween(x, n)
			closed := m.Terrain(x) == "tower" || (has && (m.IsBarrier(f.Kind) || m.IsEntrance(f.Kind)))
			if !closed {
				c.add(x.Side(d).String(), "DR-WALL-1", "gap in the wall: %s (inside) meets %s (outside) with no wall, entrance or tower", x, n)
			}
		}
	}
	for _, f := range m.Sides() {
		a, b := f.Side.Hexes()
		if !(m.IsBarrier(f.Kind) || m.IsEntrance(f.Kind)) {
			continue
		}
		tower := m.Terrain(a) == "tower" || m.Terrain(b) == "tower"
		if !tower && z.Has(a) == z.Has(b) {
			c.add(f.Side.String(), "DR-WALL-1", "%s does not separate the inside of the walls from the outside", f.Kind)
		}
		if f.Inside != (hex.Hex{}) && !z.Has(f.Inside) && m.Terrain(f.Inside) != "tower" {
			c.add(f.Side.String(), "DR-ENTR-5", "%s's inside hex %s is not inside the walls", f.Kind, f.Inside)
		}
	}
}
