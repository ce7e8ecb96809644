package hexmap

import (
	"slices"
	"sort"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// Provenance says where a fact comes from: the rule that states it, or that
// it was assumed when the map was reconstructed.
type Provenance struct {
	Rule    string // rule ID stating the fact, e.g. "MAP-5"; "" if none
	Assumed bool   // invented to complete a reconstruction
}

// Bounds are the first and last column and row on the map (inclusive).
type Bounds struct {
	MinCol, MaxCol, MinRow, MaxRow int
}

// Contains reports whether h lies within the bounds.
func (b Bounds) Contains(h hex.Hex) bool {
	return h.Col >= b.MinCol && h.Col <= b.MaxCol && h.Row >= b.MinRow && h.Row <= b.MaxRow
}

// Side is a feature drawn on a hexside: a wall, gate, door, palisade, …
type Side struct {
	Side   hex.Hexside
	Kind   string
	Inside hex.Hex // the inside hex for walls and entrances; zero if none
	Tags   []string
	// OnLevel says the feature exists only at Level (a railing along a
	// deck, a wall under it); otherwise it stands at every level.
	OnLevel bool
	Level   hex.Level
	Provenance
}

// HasTag reports whether the feature carries tag t.
func (s Side) HasTag(t string) bool { return slices.Contains(s.Tags, t) }

// Road is a named road, a path of adjacent hexes; consecutive hexes are
// connected by the road.
type Road struct {
	Name string
	Path []hex.Hex
	Provenance
}

// Bridge is a bridge hex and the two bank hexes it connects.
type Bridge struct {
	Hex      hex.Hex
	Kind     string
	Connects [2]hex.Hex
	Provenance
}

// Zone is a named set of hexes: a setup area, "inside-walls", a camp, a
// nation. Zones of one Group do not overlap: a hex is in at most one of
// them (a nation's territory, say, with Group "nation").
type Zone struct {
	Name, Title string
	Group       string
	Hexes       []hex.Hex // sorted
	set         map[hex.Hex]bool
	Provenance
}

// Has reports whether h is in the zone.
func (z *Zone) Has(h hex.Hex) bool { return z.set[h] }

// Point is a named hex with a role: an entry, an exit, a reinforcement hex,
// a city. Tags are further roles of the same hex (a city that is also a
// port and a capital: Kind "city", Tags "port", "capital").
type Point struct {
	Name string
	Kind string
	Hex  hex.Hex
	Tags []string
	Provenance
}

// Is reports whether the point is of kind k or carries tag k.
func (p Point) Is(k string) bool { return p.Kind == k || slices.Contains(p.Tags, k) }

// Map is a loaded hex map. It is read-only once loaded.
type Map struct {
	Name, Title, Status, Notes string
	Bounds                     Bounds
	Default                    string // terrain of hexes not listed
	Vocabulary                 *Vocabulary
	// Layout is the grid the map is drawn on (the file's layout: key):
	// which hexes touch, the directions of "HEX DIR" hexside runs, how the
	// renderer draws it. The zero value is hex.Flat.
	Layout hex.Layout

	void      map[hex.Hex]bool
	terrain   map[hex.Hex]string
	tprov     map[hex.Hex]Provenance
	flags     map[hex.Hex][]string
	vp        map[hex.Hex]int
	vprov     map[hex.Hex]Provenance
	sides     map[hex.Hexside]Side
	extra     map[hex.Hexside][]Side // further features of a hexside (Vocabulary.StackSides)
	roads     []Road
	roadLinks map[hex.Hexside]bool
	roadHexes map[hex.Hex]bool
	bridges   map[hex.Hex]Bridge
	zones     map[string]*Zone
	zoneOrder []string
	points    []Point

	levels   // floors, ramps and decks (levels.go)
	assembly // where each hex of an assembled map comes from (assemble.go)

	// runs caches EdgeRuns once the map is built (edges.go); nil for a
	// map made by hand, which computes them each time.
	runs *edgeCache
}

// OnMap reports whether h is a hex of the map: within the bounds and not
// covered by the legend or turn track (the file's "void" list).
func (m *Map) OnMap(h hex.Hex) bool { return m.Bounds.Contains(h) && !m.void[h] }

// Hexes returns every hex of the map, by column then row.
func (m *Map) Hexes() []hex.Hex {
	var out []hex.Hex
	for c := m.Bounds.MinCol; c <= m.Bounds.MaxCol; c++ {
		for r := m.Bounds.MinRow; r <= m.Bounds.MaxRow; r++ {
			if h := hex.New(c, r); m.OnMap(h) {
				out = append(out, h)
			}
		}
	}
	return out
}

// Terrain returns the base terrain of h, or "" off the map.
func (m *Map) Terrain(h hex.Hex) string {
	if !m.OnMap(h) {
		return ""
	}
	if t, ok := m.terrain[h]; ok {
		return t
	}
	return m.Default
}

// TerrainProvenance says whether h's terrain is stated or assumed.
func (m *Map) TerrainProvenance(h hex.Hex) Provenance { return m.tprov[h] }

// Flags returns the extra marks of h (sorted).
func (m *Map) Flags(h hex.Hex) []string { return m.flags[h] }

// Has reports whether h is of kind k: its base terrain is k, it carries flag
// k, or k is "road" and a road runs through it, or k is "bridge" and it holds
// one.
func (m *Map) Has(h hex.Hex, k string) bool {
	if !m.OnMap(h) {
		return false
	}
	switch {
	case m.Terrain(h) == k, slices.Contains(m.flags[h], k):
		return true
	case k == "road":
		return m.roadHexes[h]
	case k == "bridge":
		_, ok := m.bridges[h]
		return ok
	}
	return false
}

// VP returns the victory points printed in h (0 if none).
func (m *Map) VP(h hex.Hex) int { return m.vp[h] }

// VPProvenance says whether h's VP value is stated or assumed.
func (m *Map) VPProvenance(h hex.Hex) Provenance { return m.vprov[h] }

// VPHexes returns the hexes with a VP value, sorted.
func (m *Map) VPHexes() []hex.Hex { return sortedKeys(m.vp) }

// TotalVP is the sum of every VP value on the map.
func (m *Map) TotalVP() int {
	t := 0
	for _, v := range m.vp {
		t += v
	}
	return t
}

// HexsideBetween returns the feature drawn on the hexside between a and b
// (the first one given, when the vocabulary lets a hexside carry several).
func (m *Map) HexsideBetween(a, b hex.Hex) (Side, bool) {
	s, ok := m.Layout.SideBetween(a, b)
	if !ok {
		return Side{}, false
	}
	f, ok := m.sides[s]
	return f, ok
}

// SideBetween is the hexside between a and b on the map's layout, or false
// when they are not adjacent.
func (m *Map) SideBetween(a, b hex.Hex) (hex.Hexside, bool) { return m.Layout.SideBetween(a, b) }

// Features returns every feature drawn on hexside s, in file order (more
// than one only when the vocabulary lets hexsides carry several).
func (m *Map) Features(s hex.Hexside) []Side {
	f, ok := m.sides[s]
	if !ok {
		return nil
	}
	return append([]Side{f}, m.extra[s]...)
}

// FeaturesBetween returns every feature on the hexside between a and b.
func (m *Map) FeaturesBetween(a, b hex.Hex) []Side {
	s, ok := m.Layout.SideBetween(a, b)
	if !ok {
		return nil
	}
	return m.Features(s)
}

// SideIs reports whether the hexside between a and b carries a feature of
// kind k, or a feature tagged k (a "great-river" tag on a river, say).
func (m *Map) SideIs(a, b hex.Hex, k string) bool {
	for _, f := range m.FeaturesBetween(a, b) {
		if f.Kind == k || f.HasTag(k) {
			return true
		}
	}
	return false
}

// Feature returns the feature drawn on hexside s.
func (m *Map) Feature(s hex.Hexside) (Side, bool) {
	f, ok := m.sides[s]
	return f, ok
}

// Sides returns every hexside feature, ordered by hexside (the features of
// one hexside in file order).
func (m *Map) Sides() []Side {
	out := make([]Side, 0, len(m.sides))
	for _, s := range m.sides {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Side.Less(out[j].Side) })
	if len(m.extra) == 0 {
		return out
	}
	all := make([]Side, 0, len(out))
	for _, s := range out {
		all = append(all, s)
		all = append(all, m.extra[s.Side]...)
	}
	return all
}

// Road reports whether a road runs directly from a to b (adjacent hexes).
func (m *Map) Road(a, b hex.Hex) bool {
	s, ok := m.Layout.SideBetween(a, b)
	return ok && m.roadLinks[s]
}

// Roads returns the roads in file order.
func (m *Map) Roads() []Road { return m.roads }

// Bridge returns the bridge in h.
func (m *Map) Bridge(h hex.Hex) (Bridge, bool) {
	b, ok := m.bridges[h]
	return b, ok
}

// Bridges returns every bridge, ordered by hex.
func (m *Map) Bridges() []Bridge {
	var out []Bridge
	for _, h := range sortedKeys(m.bridges) {
		out = append(out, m.bridges[h])
	}
	return out
}

// Zone returns the named zone.
func (m *Map) Zone(name string) (*Zone, bool) {
	z, ok := m.zones[name]
	return z, ok
}

// Zones returns the zones in file order.
func (m *Map) Zones() []*Zone {
	out := make([]*Zone, 0, len(m.zoneOrder))
	for _, n := range m.zoneOrder {
		out = append(out, m.zones[n])
	}
	return out
}

// InZone reports whether h is in the named zone (false for an unknown zone).
func (m *Map) InZone(h hex.Hex, zone string) bool {
	z, ok := m.zones[zone]
	return ok && z.Has(h)
}

// Points returns the named hexes of kind k or tagged k ("" for all), in
// file order.
func (m *Map) Points(k string) []Point {
	var out []Point
	for _, p := range m.points {
		if k == "" || p.Is(k) {
			out = append(out, p)
		}
	}
	return out
}

// PointsAt returns the named hexes at h, in file order.
func (m *Map) PointsAt(h hex.Hex) []Point {
	var out []Point
	for _, p := range m.points {
		if p.Hex == h {
			out = append(out, p)
		}
	}
	return out
}

// Point returns the named hex called name.
func (m *Map) Point(name string) (Point, bool) {
	for _, p := range m.points {
		if p.Name == name {
			return p, true
		}
	}
	return Point{}, false
}

// ZoneOf returns the zone of group g that holds h (a hex is in at most one
// zone of a group), or false.
func (m *Map) ZoneOf(h hex.Hex, g string) (*Zone, bool) {
	for _, n := range m.zoneOrder {
		if z := m.zones[n]; z.Group == g && z.Has(h) {
			return z, true
		}
	}
	return nil, false
}

// ZonesOf returns the zones of group g, in file order.
func (m *Map) ZonesOf(g string) []*Zone {
	var out []*Zone
	for _, n := range m.zoneOrder {
		if z := m.zones[n]; z.Group == g {
			out = append(out, z)
		}
	}
	return out
}

// Neighbours returns h's neighbours that are on the map, in direction order.
func (m *Map) Neighbours(h hex.Hex) []hex.Hex {
	var out []hex.Hex
	for _, n := range m.Layout.Neighbours(h) {
		if m.OnMap(n) {
			out = append(out, n)
		}
	}
	return out
}

// IsBarrier reports whether a feature of kind k is a barrier in this map's
// vocabulary (a wall or palisade); IsEntrance whether it is an opening.
func (m *Map) IsBarrier(k string) bool { return slices.Contains(m.Vocabulary.Barriers, k) }

// IsEntrance reports whether a feature of kind k is an entrance (gate, door).
func (m *Map) IsEntrance(k string) bool { return slices.Contains(m.Vocabulary.Entrances, k) }

func sortedKeys[V any](m map[hex.Hex]V) []hex.Hex {
	out := make([]hex.Hex, 0, len(m))
	for h := range m {
		out = append(out, h)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Less(out[j]) })
	return out
}
