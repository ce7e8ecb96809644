package hexmap

import (
	"fmt"
	"sort"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// Placement puts one board (a map read from its own file) on an assembled
// map.
type Placement struct {
	// Board is the board's map.
	Board *Map
	// Name names the placement in zone and point names ("pit/entry") and
	// must be unique among the placements; empty means the board's name.
	Name string
	// At is where the board's first hex (first column, first row) lands;
	// with HalfTurn, where its last hex (last column, last row) lands, as
	// that is the hex then at the top left.
	At hex.Hex
	// HalfTurn turns the board 180° before placing it. It is the only
	// rotation offered: a rectangular board of hexes stays a rectangle of
	// the same grid only when turned by a half turn.
	HalfTurn bool
	// Exits says what lies beyond outer edges of the board, by the edge as
	// it lies on the assembled map (after any half turn): a word of the
	// game's, such as the region a path leads to (Map.EdgeRuns).
	Exits map[BoardEdge]string
}

func (p Placement) name() string {
	if p.Name != "" {
		return p.Name
	}
	return p.Board.Name
}

func (p Placement) title() string {
	if p.Board.Title != "" {
		return p.Board.Title
	}
	return p.Board.Name
}

func (p Placement) motion() hex.Motion {
	b := p.Board.Bounds
	from := hex.New(b.MinCol, b.MinRow)
	if p.HalfTurn {
		from = hex.New(b.MaxCol, b.MaxRow)
	}
	return hex.Motion{Layout: p.Board.Layout, From: from, To: p.At, HalfTurn: p.HalfTurn}
}

// Assemble builds one map from several boards, each moved (and maybe
// turned) as its placement says, so that every query of Map and the
// renderer work on the whole as on one file. Every board hex appears once,
// under its new name, and remembers its origin (Origin, Where). Zones,
// points and decks are renamed "placement/name". Hexes of the bounding
// rectangle that no board covers are void.
//
// It refuses boards of different layouts or vocabularies, boards that
// overlap, boards pushed off the 00–99 grid, and joins whose edge labels
// differ (see JoinErrors). All problems are returned together, as Errors
// naming file.
func Assemble(file, name, title string, ps []Placement) (*Map, error) {
	c := &collector{file: file}
	if len(ps) == 0 {
		c.top("an assembled map needs at least one board")
		return nil, c.errs
	}
	first := ps[0].Board
	m := &Map{
		Name: name, Title: title, Default: first.Default, Vocabulary: first.Vocabulary, Layout: first.Layout,
		terrain: map[hex.Hex]string{}, void: map[hex.Hex]bool{}, tprov: map[hex.Hex]Provenance{},
		flags: map[hex.Hex][]string{}, vp: map[hex.Hex]int{}, vprov: map[hex.Hex]Provenance{},
		sides: map[hex.Hexside]Side{}, extra: map[hex.Hexside][]Side{}, roadLinks: map[hex.Hexside]bool{},
		roadHexes: map[hex.Hex]bool{}, bridges: map[hex.Hex]Bridge{}, zones: map[string]*Zone{},
		runs: &edgeCache{},
	}
	m.origin = map[hex.Hex]Origin{}
	names := map[string]bool{}
	for _, p := range ps {
		switch {
		case p.Board == nil:
			c.top("a placement has no board")
			return nil, c.errs
		case p.Board.Layout != m.Layout:
			c.top("board %s is drawn on a %s layout and board %s on a %s one; boards of one map share a layout", p.title(), p.Board.Layout, first.Name, m.Layout)
		case p.Board.Vocabulary != m.Vocabulary:
			c.top("board %s uses another vocabulary than board %s; load every board through the same ruleset", p.title(), first.Name)
		case names[p.name()]:
			c.top("two boards are placed under the name %q; give each placement its own name", p.name())
		}
		names[p.name()] = true
	}
	if len(c.errs) > 0 {
		return nil, c.errs
	}
	for _, p := range ps {
		placeHexes(m, p, c)
	}
	if len(c.errs) > 0 {
		return nil, c.errs
	}
	for _, p := range ps {
		placeFeatures(m, p)
	}
	m.Bounds = boundsOf(m.origin)
	for _, h := range (&Map{Bounds: m.Bounds}).Hexes() {
		if _, ok := m.origin[h]; !ok {
			m.void[h] = true
		}
	}
	m.placed = append([]Placement(nil), ps...)
	for _, e := range JoinErrors(m) {
		c.top("%s", e)
	}
	if len(c.errs) > 0 {
		return nil, c.errs
	}
	return m, nil
}

// placeHexes moves a board's hexes and what stands in them.
func placeHexes(m *Map, p Placement, c *collector) {
	b, mv := p.Board, p.motion()
	for _, h := range b.Hexes() {
		g := mv.Hex(h)
		if g.Col < 0 || g.Col > 99 || g.Row < 0 || g.Row > 99 {
			c.top("board %s placed at %s: its hex %s would land at %s, off the 00-99 grid; place it further in", p.title(), p.At, h, g)
			return
		}
		if o, dup := m.origin[g]; dup {
			c.top("boards %s and %s overlap at %s (%s %s, %s %s); move one of them", o.Board, p.title(), g, o.Board, o.Hex, p.title(), h)
			return
		}
		m.origin[g] = Origin{Name: p.name(), Board: p.title(), Hex: h}
		m.terrain[g] = b.Terrain(h)
		if pr, ok := b.tprov[h]; ok {
			m.tprov[g] = pr
		}
		if fl := b.Flags(h); len(fl) > 0 {
			m.flags[g] = append([]string(nil), fl...)
		}
		if v := b.VP(h); v > 0 {
			m.vp[g], m.vprov[g] = v, b.vprov[h]
		}
		if l, ok := b.floor[h]; ok {
			if m.floor == nil {
				m.floor, m.fprov, m.ramps = map[hex.Hex]hex.Level{}, map[hex.Hex]Provenance{}, map[hex.Hex]Ramp{}
			}
			m.floor[g], m.fprov[g] = l, b.fprov[h]
		}
		if r, ok := b.ramps[h]; ok {
			m.ramps[g] = Ramp{Hex: g, Level: r.Level, Up: moveDirs(mv, r.Up), Down: moveDirs(mv, r.Down), Provenance: r.Provenance}
		}
		if br, ok := b.bridges[h]; ok {
			m.bridges[g] = Bridge{Hex: g, Kind: br.Kind, Connects: [2]hex.Hex{mv.Hex(br.Connects[0]), mv.Hex(br.Connects[1])}, Provenance: br.Provenance}
		}
	}
}

// placeFeatures moves a board's hexsides, roads, zones, points and decks.
func placeFeatures(m *Map, p Placement) {
	b, mv, pre := p.Board, p.motion(), p.name()+"/"
	for _, s := range b.Sides() {
		s.Side = mv.Side(s.Side)
		if s.Inside != (hex.Hex{}) {
			s.Inside = mv.Hex(s.Inside)
		}
		if _, ok := m.sides[s.Side]; ok {
			m.extra[s.Side] = append(m.extra[s.Side], s)
		} else {
			m.sides[s.Side] = s
		}
	}
	for _, r := range b.roads {
		r.Path = moveHexes(mv, r.Path)
		for i, h := range r.Path {
			m.roadHexes[h] = true
			if i > 0 {
				s, _ := m.Layout.SideBetween(r.Path[i-1], h)
				m.roadLinks[s] = true
			}
		}
		m.roads = append(m.roads, r)
	}
	for _, z := range b.Zones() {
		nz := &Zone{Name: pre + z.Name, Title: z.Title, Group: z.Group, Hexes: moveHexes(mv, z.Hexes), set: map[hex.Hex]bool{}, Provenance: z.Provenance}
		sort.Slice(nz.Hexes, func(i, j int) bool { return nz.Hexes[i].Less(nz.Hexes[j]) })
		for _, h := range nz.Hexes {
			nz.set[h] = true
		}
		m.zones[nz.Name] = nz
		m.zoneOrder = append(m.zoneOrder, nz.Name)
	}
	for _, pt := range b.points {
		pt.Name, pt.Hex = pre+pt.Name, mv.Hex(pt.Hex)
		m.points = append(m.points, pt)
	}
	for _, d := range b.decks {
		d.Name, d.Path = pre+d.Name, moveHexes(mv, d.Path)
		(&parser{m: m, c: &collector{}}).addDeck(word{}, d)
	}
}

func moveHexes(mv hex.Motion, hs []hex.Hex) []hex.Hex {
	out := make([]hex.Hex, len(hs))
	for i, h := range hs {
		out[i] = mv.Hex(h)
	}
	return out
}

func moveDirs(mv hex.Motion, ds []hex.Direction) []hex.Direction {
	var out []hex.Direction
	for _, d := range ds {
		out = append(out, mv.Dir(d))
	}
	return out
}

func boundsOf(hs map[hex.Hex]Origin) Bounds {
	b := Bounds{MinCol: 99, MinRow: 99}
	for h := range hs {
		b.MinCol, b.MaxCol = min(b.MinCol, h.Col), max(b.MaxCol, h.Col)
		b.MinRow, b.MaxRow = min(b.MinRow, h.Row), max(b.MaxRow, h.Row)
	}
	return b
}

// ErrJoin is a board edge meeting another board's edge with a different
// label: the two hexes that touch there, each with its origin.
type ErrJoin struct {
	A, B         Origin
	EdgeA, EdgeB BoardEdge
	LabelA       string
	LabelB       string
	At           [2]hex.Hex // the first pair of touching hexes, on the assembled map
}

func (e ErrJoin) Error() string {
	la, lb := e.LabelA, e.LabelB
	if la == "" {
		la = "unlabelled"
	}
	if lb == "" {
		lb = "unlabelled"
	}
	return fmt.Sprintf("board %s's %s edge (%s) meets board %s's %s edge (%s) at %s/%s; an edge labelled X joins only an edge labelled X: turn or move one board",
		e.A.Board, e.EdgeA, la, e.B.Board, e.EdgeB, lb, e.At[0], e.At[1])
}
