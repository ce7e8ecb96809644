package glory

import (
	"slices"
	"sort"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// Geo is the module map as the rules read it, worked out once per module:
// each hex's terrain, nation, fortification, port and coast, its
// neighbours, and the feature of each hexside. Hexes are named as players
// write them ("1204").
type Geo struct {
	layout  hex.Layout
	at      map[string]hex.Hex // each hex's coordinates, by name
	hexes   []string
	terrain map[string]string
	nation  map[string]string
	fort    map[string]string // fortress, fortified-city, dwarven-fortress
	port    map[string]bool
	capital map[string]string // hex → nation whose capital it is (printed)
	coastal map[string]bool   // a land hex next to a sea hex (DG-FLEET-1)
	near    map[string][]string
	sides   map[[2]string]Hexside
}

// Hexside is what is drawn between two hexes. A hexside may carry more than
// one feature (a river along a mountain ridge): Kinds lists them all, and
// Kind is the one that rules movement first — a deep river, then a
// mountain side, then a crossing (bridge, ford, pass), then a river.
type Hexside struct {
	Kind  string   // river, deep-river, ford, bridge, mountain, pass, or "" for none
	Kinds []string // every feature on the hexside, in that order
	Great bool     // a great river a fleet may sail along (DG-FLEET-2)
}

// sidePriority orders the features of one hexside.
var sidePriority = []string{"deep-river", "mountain", "bridge", "ford", "pass", "river"}

// Has reports whether the hexside carries feature k.
func (s Hexside) Has(k string) bool { return slices.Contains(s.Kinds, k) }

// River reports whether the hexside is a river of any kind (with a bridge or
// ford on it or not).
func (s Hexside) River() bool {
	return s.Has("river") || s.Has("deep-river") || s.Has("ford") || s.Has("bridge")
}

// Mountain reports whether the hexside is a mountain side (with or without
// a pass across it).
func (s Hexside) Mountain() bool { return s.Has("mountain") || s.Has("pass") }

func sideKey(a, b string) [2]string {
	if b < a {
		a, b = b, a
	}
	return [2]string{a, b}
}

func newGeo(d *Data) *Geo {
	m := d.Map
	g := &Geo{layout: m.Layout, at: map[string]hex.Hex{}, terrain: map[string]string{}, nation: map[string]string{}, fort: map[string]string{}, port: map[string]bool{},
		capital: map[string]string{}, coastal: map[string]bool{}, near: map[string][]string{}, sides: map[[2]string]Hexside{}}
	for _, h := range m.Hexes() {
		s := h.String()
		g.hexes = append(g.hexes, s)
		g.at[s] = h
		g.terrain[s] = m.Terrain(h)
		for _, n := range m.Neighbours(h) {
			g.near[s] = append(g.near[s], n.String())
		}
	}
	for _, z := range m.Zones() {
		if d.Nations[z.Name] == nil {
			continue
		}
		for _, h := range m.Hexes() {
			if z.Has(h) {
				g.nation[h.String()] = z.Name
			}
		}
	}
	for _, p := range m.Points("") {
		switch p.Kind {
		case "fortress", "fortified-city", "dwarven-fortress":
			g.fort[p.Hex.String()] = p.Kind
		}
		if p.Is("port") {
			g.port[p.Hex.String()] = true
		}
	}
	for _, n := range d.Nations {
		if n.Capital != "" {
			g.capital[n.Capital] = n.ID
		}
	}
	for _, f := range m.Sides() {
		a, b := f.Side.Hexes()
		k := sideKey(a.String(), b.String())
		hs := g.sides[k]
		if !hs.Has(f.Kind) {
			hs.Kinds = append(hs.Kinds, f.Kind)
		}
		hs.Great = hs.Great || f.HasTag("great-river")
		slices.SortFunc(hs.Kinds, func(x, y string) int { return slices.Index(sidePriority, x) - slices.Index(sidePriority, y) })
		hs.Kind = hs.Kinds[0]
		g.sides[k] = hs
	}
	for _, h := range g.hexes {
		if g.Land(h) {
			for _, n := range g.near[h] {
				if g.Sea(n) {
					g.coastal[h] = true
				}
			}
		}
	}
	return g
}

// Hexes lists every hex of the map in order.
func (g *Geo) Hexes() []string { return g.hexes }

// OnMap reports whether h is a hex of the map.
func (g *Geo) OnMap(h string) bool { _, ok := g.terrain[h]; return ok }

// Terrain is h's terrain kind.
func (g *Geo) Terrain(h string) string { return g.terrain[h] }

// Sea reports whether h is a sea hex (the Maelstrom's hexes included).
func (g *Geo) Sea(h string) bool { t := g.terrain[h]; return t == "sea" || t == "maelstrom" }

// Maelstrom reports whether h is part of the Maelstrom (DG-MAEL-2).
func (g *Geo) Maelstrom(h string) bool { return g.terrain[h] == "maelstrom" }

// Land reports whether h is a land hex (coastal hexes included).
func (g *Geo) Land(h string) bool { return g.OnMap(h) && !g.Sea(h) }

// Coastal reports whether h is a land hex next to the sea.
func (g *Geo) Coastal(h string) bool { return g.coastal[h] }

// Port reports whether h is a port.
func (g *Geo) Port(h string) bool { return g.port[h] }

// Nation is the nation whose territory h is, or "".
func (g *Geo) Nation(h string) string { return g.nation[h] }

// Fort is h's fortification: fortress, fortified-city, dwarven-fortress or "".
func (g *Geo) Fort(h string) string { return g.fort[h] }

// Forts lists the fortresses and fortified cities (dwarven fortresses
// included) of nation n, in order (DG-CONQ-2).
func (g *Geo) Forts(n string) []string {
	var out []string
	for h := range g.fort {
		if g.nation[h] == n {
			out = append(out, h)
		}
	}
	sort.Strings(out)
	return out
}

// PrintedCapital is the nation whose capital the map prints at h.
func (g *Geo) PrintedCapital(h string) string { return g.capital[h] }

// Near lists h's neighbours on the map.
func (g *Geo) Near(h string) []string { return g.near[h] }

// Adjacent reports whether a and b are neighbours on the grid.
func (g *Geo) Adjacent(a, b string) bool { return slices.Contains(g.near[a], b) }

// Side is the feature between neighbours a and b.
func (g *Geo) Side(a, b string) Hexside { return g.sides[sideKey(a, b)] }

// Distance counts the hexes from a to b, ignoring terrain (0 when a is b;
// -1 when b cannot be reached on the map). Between two hexes of the map it
// is the grid's distance, worked out from their coordinates; a hex off the
// map is looked for step by step.
func (g *Geo) Distance(a, b string) int {
	if a == b {
		return 0
	}
	if ha, ok := g.at[a]; ok {
		if hb, ok := g.at[b]; ok {
			return g.layout.Distance(ha, hb)
		}
	}
	seen := map[string]bool{a: true}
	front := []string{a}
	for d := 1; len(front) > 0; d++ {
		var next []string
		for _, h := range front {
			for _, n := range g.near[h] {
				if n == b {
					return d
				}
				if !seen[n] {
					seen[n] = true
					next = append(next, n)
				}
			}
		}
		front = next
	}
	return -1
}

// Ring lists the hexes at exactly distance r from h, in order.
func (g *Geo) Ring(h string, r int) []string {
	seen := map[string]bool{h: true}
	front := []string{h}
	for d := 0; d < r && len(front) > 0; d++ {
		var next []string
		for _, x := range front {
			for _, n := range g.near[x] {
				if !seen[n] {
					seen[n] = true
					next = append(next, n)
				}
			}
		}
		front = next
	}
	sort.Strings(front)
	return front
}

// hexName normalises a hex as the map writes it.
func hexName(h hex.Hex) string { return h.String() }
