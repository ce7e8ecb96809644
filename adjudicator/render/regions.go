package render

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
)

// Pictures of a map of regions (adjudicator.RegionGraph): a schematic
// plan, not a board. Each region is a box placed by its X and Y on the
// plan, filled after its kind, with its name, a small sample of its kind's
// pattern and, listed inside, what the viewer knows stands there, in the
// sides' colours; a fogged region is greyed and hatched with a "?". Paths
// are lines between the boxes (a road's double line, a dotted exit, a
// dashed line for any other kind), the last adjudication's moves arrows
// from box to box. The header, the legend, the text, the palette and the
// PNG and SVG writers are the hex pictures' own.

// The plan's layout, in size units.
const (
	planW       = 820.0 // the plan's box
	planH       = 600.0
	regionBoxW  = 132.0 // a region's box
	regionName  = 10.0  // the region's name
	regionItem  = 8.5   // an item's line
	regionLine  = 11.5  // an item line's height
	regionMarkS = 6.5   // a mark's tag
	maxRegionH  = 900.0 // the picture's height at most
)

// maxItemLines is how many items a box lists; the rest are counted.
const maxItemLines = 8

// regionKinds are the renderer's styles of common kinds of region, used
// when neither the graph nor the ruleset's PictureStyle styles them.
var regionKinds = []adjudicator.TerrainStyle{
	{Kind: "plain", Fill: 0xeee6c4, Pattern: "tufts", Mark: 0x8c9a5b},
	{Kind: "forest", Fill: 0xb9d7a8, Pattern: "trees", Mark: 0x3f7a3a},
	{Kind: "hills", Fill: 0xe2cfa4, Pattern: "hills", Mark: 0x8a6a3a},
	{Kind: "mountain", Fill: 0xcdbfae, Pattern: "hills", Mark: 0x5d4c3b},
	{Kind: "marsh", Fill: 0xc9dccf, Pattern: "tufts", Mark: 0x4f7a5f},
	{Kind: "water", Fill: 0xbcdcf0, Pattern: "waves", Mark: 0x1f5f96},
	{Kind: "fort", Fill: 0xd9d4cc, Pattern: "houses", Mark: 0x4a4a4a},
	{Kind: "town", Fill: 0xe8dcc8, Pattern: "houses", Mark: 0x8a5a3a},
	{Kind: "village", Fill: 0xe8dcc8, Pattern: "houses", Mark: 0x8a5a3a},
	{Kind: "cave", Fill: 0xd4cbbf, Pattern: "rings", Mark: 0x6b6257},
	{Kind: "framed", Fill: 0xf4ecd2},
	{Kind: "exit", Fill: 0xffffff},
}

var (
	planPaper = rgb(0xfbf8ef)
	fogFill   = rgb(0xe4e4e4)
	fogHatch  = rgb(0xb4b4b4)
	pathInk   = rgb(0x5e554a)
)

// regionBox is one region laid out.
type regionBox struct {
	n          adjudicator.RegionNode
	c          pt // the centre
	x, y, w, h float64
	name       []string // the name's lines
	items      []itemLine
	more       int        // items not listed
	marks      [][]string // the marks, in rows
}

// itemLine is one item as its box lists it.
type itemLine struct {
	it   adjudicator.RegionItem
	from string // the region it arrived from, by name; "" at the centre
	via  string // the path it arrived by
}

// regionPic is a map of regions being drawn.
type regionPic struct {
	*board
	g     adjudicator.RegionGraph
	boxes []regionBox
	at    map[string]int // region ID → its box
	paths map[string]adjudicator.RegionPath
	kinds *style
}

// Regions draws the map of regions g as opt.Viewer sees it, with the
// header of v (turn, phase, score, the game's end) and opt.ToMove. Like a
// View, g must already be filtered for the viewer: everything in it is
// drawn. Of opt, Game, Title, Viewer, ToMove, Sides and Scale count as for
// Board, and Style's terrain styles the kinds of region the graph's Kinds
// leave out; the rest is for hex maps. Entries of g that cannot be drawn
// (g.Problems) are left out and listed in Picture.Warnings.
//
// At scale 1 the picture is 1116 pixels wide and at most 900 high.
func Regions(g adjudicator.RegionGraph, v adjudicator.View, opt Options) (*Picture, error) {
	if len(g.Regions) == 0 {
		return nil, fmt.Errorf("render: the map of regions %q has no region", g.Title)
	}
	if opt.Scale <= 0 {
		opt.Scale = 1
	}
	if opt.Scale > 8 {
		return nil, fmt.Errorf("render: scale %g is too large (at most 8)", opt.Scale)
	}
	if opt.Title == "" {
		opt.Title = cmp.Or(g.Title, "Map of regions")
		if opt.Game != "" {
			opt.Title = "Game " + opt.Game + " — " + opt.Title
		}
	}
	kinds := slices.Clone(g.Kinds)
	if opt.Style != nil {
		kinds = append(kinds, opt.Style.Terrain...)
	}
	kinds = append(kinds, regionKinds...)
	b := &board{m: &hexmap.Map{}, v: v, opt: opt, u: opt.Scale, fs: faces{}, used: map[string]bool{}}
	b.tu, b.mapU = b.u, b.u
	b.st = newStyle(&adjudicator.PictureStyle{Terrain: kinds})
	r := &regionPic{board: b, g: g, at: map[string]int{}, paths: map[string]adjudicator.RegionPath{}, kinds: b.st}
	for _, p := range g.Problems() {
		b.warnf("%s", p)
	}
	b.sides = sideOrder(opt.Sides, r.sidesView())
	r.layout()
	return &Picture{Width: b.width, Height: b.height, Title: opt.Title, Warnings: b.warn, ops: b.c.ops, base: b.base}, nil
}

// sidesView is a View holding one unit of every side g shows, for the
// colour order.
func (r *regionPic) sidesView() adjudicator.View {
	var v adjudicator.View
	for _, n := range r.g.Regions {
		for _, it := range n.Items {
			v.Units = append(v.Units, adjudicator.UnitView{Side: it.Side})
		}
	}
	for _, t := range r.g.Traces {
		v.Units = append(v.Units, adjudicator.UnitView{Side: t.Side})
	}
	v.Score, v.Winner = r.v.Score, r.v.Winner
	return v
}

// GameRegions draws g's map of regions as viewer sees it, with the header's
// "to move" taken from what the game waits for and the colours from the
// ruleset's sides: the picture the results mails carry for a game on a
// map of regions. ok is false when there is none to draw (the ruleset does
// not implement adjudicator.RegionMaps, or has no map for this state).
// since, when not nil, replaces the graph's traces (the last
// adjudication's) with those of every adjudication since the viewer's last
// picture, each with its Step.
func GameRegions(g *game.Game, viewer adjudicator.Side, scale float64, since []adjudicator.RegionTrace) (pic *Picture, ok bool, err error) {
	rm, ok := g.Rules.(adjudicator.RegionMaps)
	if !ok {
		return nil, false, nil
	}
	graph, ok := rm.RegionGraph(g.State, viewer)
	if !ok {
		return nil, false, nil
	}
	if since != nil {
		graph.Traces = since
	}
	var due []adjudicator.Side
	for _, r := range g.Due() {
		if !slices.Contains(due, r.Side) {
			due = append(due, r.Side)
		}
	}
	opt := Options{Game: g.ID, Viewer: viewer, ToMove: due, Sides: g.Rules.Info().Sides, Scale: scale}
	if hm, ok := g.Rules.(adjudicator.HexMaps); ok {
		opt.Style = hm.PictureStyle()
	}
	pic, err = Regions(graph, g.View(viewer), opt)
	return pic, true, err
}

// layout places the boxes, then draws the picture.
func (r *regionPic) layout() {
	b, u := r.board, r.u
	margin, headerH := 14*u, 54*u
	px, py := margin, margin+headerH+4*u
	pw, ph := planW*u, planH*u
	panelX := px + pw + 18*u
	b.width = int(math.Ceil(panelX + panelW*u + margin))
	maxH := maxRegionH * u

	for _, n := range r.g.Regions {
		if _, dup := r.at[n.ID]; dup || n.ID == "" {
			continue
		}
		r.at[n.ID] = len(r.boxes)
		r.boxes = append(r.boxes, regionBox{n: n})
	}
	for _, p := range r.g.Paths {
		if r.has(p.A) && r.has(p.B) && p.A != p.B {
			r.paths[p.PathID()] = p
		}
	}
	bw := regionBoxW * u
	for i := range r.boxes {
		x := &r.boxes[i]
		x.w = bw
		r.fill(x)
		cx := px + bw/2 + 6*u + float64(clamp(x.n.X))/100*(pw-bw-12*u)
		cy := py + 30*u + float64(clamp(x.n.Y))/100*(ph-60*u)
		x.x = cx - bw/2
		x.y = math.Max(py+4*u, math.Min(cy-x.h/2, py+ph-4*u-x.h))
		x.c = pt{cx, x.y + x.h/2}
	}

	bg := len(b.c.ops)
	b.c.rect(0, 0, 1, 1, paper, Colour{}, 0) // resized once the height is known
	b.c.rect(px, py, pw, ph, planPaper, grid, 1*u)
	r.drawPaths()
	for i := range r.boxes {
		r.drawBox(&r.boxes[i])
	}
	b.base = len(b.c.ops)
	b.header(margin, margin, float64(b.width)-2*margin)
	for i := range r.boxes {
		r.drawItems(&r.boxes[i])
	}
	r.drawTraces()
	bottom := r.drawRegionPanel(panelX, py, maxH-margin)
	bottom = math.Min(math.Max(bottom, py+ph), maxH-margin)
	b.height = int(math.Ceil(bottom + margin))
	b.c.ops[bg].paths[0] = rectPts(0, 0, float64(b.width), float64(b.height))
}

func clamp(n int) int { return max(0, min(100, n)) }

func (r *regionPic) has(id string) bool {
	_, ok := r.at[id]
	return ok
}

func (r *regionPic) box(id string) *regionBox { return &r.boxes[r.at[id]] }

// fill lays out what box x lists, and sets its height.
func (r *regionPic) fill(x *regionBox) {
	u := r.u
	x.name = r.wrap(cmp.Or(x.n.Name, x.n.ID), regionName*u, true, x.w-32*u)
	if len(x.name) > 2 {
		x.name = []string{x.name[0], x.name[1] + "…"}
	}
	for i, it := range x.n.Items {
		if i == maxItemLines-1 && len(x.n.Items) > maxItemLines {
			x.more = len(x.n.Items) - i
			break
		}
		l := itemLine{it: it}
		if it.At != "" {
			// One that comes from nowhere is listed at the centre
			// (g.Problems warns of it).
			if from, via := r.arrival(x.n.ID, it.At); via != "" {
				l.from, l.via = from, via
				r.used["arrived"] = true
			}
		}
		x.items = append(x.items, l)
	}
	var row []string
	rowW := 0.0
	for _, m := range x.n.Marks {
		w := r.fs.width(m, regionMarkS*u, true) + regionMarkS*u*0.7 + 3*u
		if len(row) > 0 && rowW+w > x.w-8*u {
			x.marks = append(x.marks, row)
			row, rowW = nil, 0
		}
		row, rowW = append(row, m), rowW+w
	}
	if len(row) > 0 {
		x.marks = append(x.marks, row)
	}
	lines := len(x.items)
	if x.more > 0 {
		lines++
	}
	x.h = 8*u + float64(len(x.name))*12*u + float64(lines)*regionLine*u + float64(len(x.marks))*11*u + 4*u
	x.h = math.Max(x.h, 34*u)
}

// arrival is where an item at "at" in region id came from: the region at
// the other end of the path named at, or the region at itself, by name,
// with the path's ID; "" when no path joins them.
func (r *regionPic) arrival(id, at string) (from, via string) {
	if p, ok := r.paths[at]; ok && (p.A == id || p.B == id) {
		o := p.A
		if o == id {
			o = p.B
		}
		return cmp.Or(r.box(o).n.Name, o), at
	}
	for _, p := range r.sortedPaths() {
		if (p.A == id && p.B == at) || (p.B == id && p.A == at) {
			return cmp.Or(r.box(at).n.Name, at), p.PathID()
		}
	}
	return "", ""
}

// drawPaths draws the paths between the boxes' centres (the boxes cover
// their ends), and their labels.
func (r *regionPic) drawPaths() {
	u := r.u
	var labels []adjudicator.RegionPath
	for _, p := range r.sortedPaths() {
		a, c := r.box(p.A).c, r.box(p.B).c
		r.used["path:"+p.Kind] = true
		r.pathLine([]pt{a, c}, p.Kind, 1)
		if p.Label != "" {
			labels = append(labels, p)
		}
	}
	for _, p := range labels {
		m := r.box(p.A).c.lerp(r.box(p.B).c, 0.5)
		r.tag(m, p.Label, white, ink, 7*u)
	}
}

// sortedPaths are the paths drawn, in the graph's order.
func (r *regionPic) sortedPaths() []adjudicator.RegionPath {
	var out []adjudicator.RegionPath
	seen := map[string]bool{}
	for _, p := range r.g.Paths {
		id := p.PathID()
		if q, ok := r.paths[id]; ok && !seen[id] && q == p {
			seen[id] = true
			out = append(out, p)
		}
	}
	return out
}

// pathLine strokes a path of kind along ps at size k.
func (r *regionPic) pathLine(ps []pt, kind string, k float64) {
	u := r.u * k
	switch kind {
	case "":
		r.c.line(ps, pathInk, 2.6*u, true)
	case "road":
		r.c.line(ps, roadEdge, 7*u, true)
		r.c.line(ps, roadFill, 4.2*u, true)
	case "exit":
		r.c.line(ps, pathInk, 2.8*u, true, 0.1*u, 5.5*u)
	default:
		r.c.line(ps, pathInk, 2.4*u, false, 9*u, 5*u)
	}
}

// pathLegend is the legend's words for a kind of path.
func pathLegend(kind string) string {
	switch kind {
	case "":
		return "path"
	case "road":
		return "road"
	case "exit":
		return "way off the map"
	}
	return kind + " path"
}

// boxFill is the fill of a region of kind: its style's, paler.
func (r *regionPic) boxFill(kind string) Colour {
	if kind == "" {
		return rgb(0xf7f2df)
	}
	return r.kinds.terrainStyleOf(kind).fill.mix(white, 0.35)
}

// drawBox draws a region's box: its fill (or fog), outline, kind sample
// and name.
func (r *regionPic) drawBox(x *regionBox) {
	u := r.u
	ps := roundRect(x.x, x.y, x.w, x.h, 5*u)
	n := x.n
	fill := r.boxFill(n.Kind)
	if n.Fog {
		fill = fogFill
		r.used["fog"] = true
	}
	if n.Kind != "" {
		r.used["kind:"+n.Kind] = true
	}
	r.c.poly(ps, fill, Colour{}, 0)
	if n.Fog {
		r.c.lines(hatch(x.x, x.y, x.w, x.h, 8*u, 3*u), fogHatch, 1.1*u, false)
	}
	switch n.Kind {
	case "exit":
		r.c.ops = append(r.c.ops, op{kind: opStroke, paths: [][]pt{ps}, closed: true, stroke: ink, width: 1.3 * u, dash: []float64{5 * u, 3 * u}})
	case "framed":
		r.c.poly(ps, Colour{}, ink, 2.2*u)
		r.c.poly(roundRect(x.x+3.5*u, x.y+3.5*u, x.w-7*u, x.h-7*u, 3*u), Colour{}, ink, 0.8*u)
	default:
		r.c.poly(ps, Colour{}, ink, 1.3*u)
	}
	corner := pt{x.x + x.w - 14*u, x.y + 12*u}
	switch {
	case n.Fog:
		r.c.text(pt{corner.X, corner.Y + 6*u}, "?", 17*u, true, middle, inkSoft)
	case n.Kind != "" && r.kinds.terrainStyleOf(n.Kind).pattern != "" && r.kinds.terrainStyleOf(n.Kind).pattern != "letter":
		r.miniHex(corner, n.Kind, 0.3)
	}
	col := ink
	if n.Fog {
		col = inkSoft
	}
	for i, l := range x.name {
		size := r.fs.fit(l, regionName*u, true, x.w-32*u)
		r.c.text(pt{x.x + 6*u, x.y + 14*u + float64(i)*12*u}, l, size, true, start, col)
	}
}

// miniHex is a small hex of a kind's fill and pattern centred on c.
func (r *regionPic) miniHex(c pt, kind string, k float64) {
	u := r.u
	var ps []pt
	for _, p := range [][2]float64{{-1, -1}, {1, -1}, {2, 0}, {1, 1}, {-1, 1}, {-2, 0}} {
		ps = append(ps, pt{c.X + p[0]*20*u*k, c.Y + p[1]*20*sqrt3*u*k})
	}
	r.terrainHex(c, ps, kind, k)
	r.c.poly(ps, Colour{}, grid, 0.8*u)
}

// hatch are the diagonal lines, step apart, that cross the rectangle
// (x, y, w, h) inset by in.
func hatch(x, y, w, h, step, in float64) [][]pt {
	x0, y0, x1, y1 := x+in, y+in, x+w-in, y+h-in
	var out [][]pt
	// Lines x - y = d, from the bottom-left corner's d to the top-right's.
	for d := x0 - y1 + step/2; d < x1-y0; d += step {
		// Where the line meets the rectangle: x in [x0, x1], y = x - d in [y0, y1].
		xa, xb := math.Max(x0, y0+d), math.Min(x1, y1+d)
		if xb-xa < 1 {
			continue
		}
		out = append(out, []pt{{xa, xa - d}, {xb, xb - d}})
	}
	return out
}

// drawItems lists what stands in a region, and its marks.
func (r *regionPic) drawItems(x *regionBox) {
	u := r.u
	y := x.y + 8*u + float64(len(x.name))*12*u
	for _, l := range x.items {
		y += regionLine * u
		r.itemLine(x, l, y)
	}
	if x.more > 0 {
		y += regionLine * u
		r.c.text(pt{x.x + 16*u, y - 2.5*u}, "+"+itoa(x.more)+" more", regionItem*u, false, start, inkSoft)
	}
	for _, row := range x.marks {
		y += 11 * u
		cx := x.x + 6*u
		for _, m := range row {
			w := r.fs.width(m, regionMarkS*u, true) + regionMarkS*u*0.7
			r.tag(pt{cx + w/2, y - 3*u}, m, rgb(0xeeeeee), ink, regionMarkS*u)
			cx += w + 3*u
		}
		r.used["mark"] = true
	}
}

// itemLine draws one item, its baseline at y: a swatch in its side's
// colour, its label, where it arrived from and its status chips.
func (r *regionPic) itemLine(x *regionBox, l itemLine, y float64) {
	u := r.u
	sw := 7 * u
	fill := r.style(l.it.Side).fill
	if l.it.Side == "" {
		r.used["side:none"] = true
	}
	r.c.rect(x.x+6*u, y-2.5*u-sw, sw, sw, fill, ink, 0.8*u)
	text := l.it.Label
	if l.from != "" {
		text += " ← " + l.from
	}
	room := x.w - 20*u
	var chips []statusChip
	chipsW := 0.0
	for _, s := range l.it.Status {
		ch := chipFor(s)
		chips = append(chips, ch)
		chipsW += r.fs.width(ch.label, 6.5*u, true) + 6.5*u*0.7 + 2*u
		r.used["status:"+s] = true
	}
	size := r.fs.fit(text, regionItem*u, false, math.Max(room-chipsW, room/2))
	size = math.Max(size, 5.5*u)
	tx := x.x + 16*u
	r.c.text(pt{tx, y - 2.5*u}, text, size, false, start, ink)
	cx := tx + r.fs.width(text, size, false) + 3*u
	for _, ch := range chips {
		w := r.fs.width(ch.label, 6.5*u, true) + 6.5*u*0.7
		r.tag(pt{cx + w/2, y - 5*u}, ch.label, ch.fill, ch.fg, 6.5*u)
		cx += w + 2*u
	}
	if l.via != "" {
		// A disc on the path it arrived by, where the path meets the box.
		p := r.paths[l.via]
		o := p.A
		if o == x.n.ID {
			o = p.B
		}
		if e, ok := boxExit(x, x.c, r.box(o).c); ok {
			d := r.box(o).c.sub(x.c).unit()
			r.c.circle(e.add(d.mul(6*u)), 4.5*u, fill, ink, 1*u)
		}
	}
}

// boxExit is where the segment from c (inside x) to q leaves the box x.
func boxExit(x *regionBox, c, q pt) (pt, bool) {
	d := q.sub(c)
	t := math.Inf(1)
	if d.X > 0 {
		t = math.Min(t, (x.x+x.w-c.X)/d.X)
	} else if d.X < 0 {
		t = math.Min(t, (x.x-c.X)/d.X)
	}
	if d.Y > 0 {
		t = math.Min(t, (x.y+x.h-c.Y)/d.Y)
	} else if d.Y < 0 {
		t = math.Min(t, (x.y-c.Y)/d.Y)
	}
	if math.IsInf(t, 1) || t >= 1 {
		return pt{}, false // q is inside the box
	}
	return c.add(d.mul(t)), true
}

// drawTraces draws the traces as arrows from box to box, older steps
// paler and numbered.
func (r *regionPic) drawTraces() {
	u := r.u
	last := 0
	for _, t := range r.g.Traces {
		last = max(last, t.Step)
	}
	for _, t := range r.g.Traces {
		if len(t.Path) < 2 || slices.ContainsFunc(t.Path, func(id string) bool { return !r.has(id) }) {
			continue
		}
		kind := cmp.Or(t.Kind, "move")
		r.used["trace:"+kind] = true
		col := r.style(t.Side).fill.mix(black, 0.15)
		width := 3.6
		var dash []float64
		if kind != "move" {
			st := traceStyleOf(kind)
			col, width = st.col, st.width
			for _, d := range st.dash {
				dash = append(dash, d*u)
			}
		}
		if t.Step > 0 && t.Step < last {
			col = col.mix(white, 0.45)
		}
		for i := 0; i+1 < len(t.Path); i++ {
			a, c := r.box(t.Path[i]), r.box(t.Path[i+1])
			if a == c {
				continue
			}
			p, ok1 := boxExit(a, a.c, c.c)
			q, ok2 := boxExit(c, c.c, a.c)
			if !ok1 || !ok2 || q.sub(p).len() < 14*u {
				continue // the boxes overlap: no room for an arrow
			}
			d := q.sub(p).unit()
			off := d.perp().mul(5 * u)
			p, q = p.add(off).add(d.mul(2*u)), q.add(off).sub(d.mul(2*u))
			r.c.line([]pt{p, q.sub(d.mul(8 * u))}, col, width*u, dash == nil, dash...)
			r.c.arrowHead(q, d, 11*u, 11*u, col)
			if i == 0 {
				m := p.lerp(q, 0.5)
				if t.Step > 0 {
					// The badge on the arrow, the label beside it.
					r.used["steps"] = true
					r.stepBadge(m, t.Step)
					bw := math.Max(12*u, r.fs.width(itoa(t.Step), 8.5*u, true)+5*u)
					m = m.add(pt{bw/2 + 2*u + (r.fs.width(t.Label, 7*u, true)+7*u*0.7)/2, 0})
				}
				if t.Label != "" {
					r.tag(m, t.Label, white, col.mix(black, 0.2), 7*u)
				}
			}
		}
	}
}

// drawRegionPanel draws the legend, the graph's legend lines and notes at
// (x, y), never below limit, and returns the bottom.
func (r *regionPic) drawRegionPanel(x, y, limit float64) float64 {
	u := r.u
	w := panelW * u
	y = r.drawLegend(r.regionLegend(), x, y, w)
	section := func(title string, lines []string) {
		if len(lines) == 0 || y > limit-40*u {
			return
		}
		y += 6 * u
		r.c.text(pt{x, y + 13*u}, title, 13*u, true, start, ink)
		r.c.line([]pt{{x, y + 17*u}, {x + w, y + 17*u}}, grid, 0.8*u, false)
		y += 22 * u
		for i, l := range lines {
			for _, s := range r.wrap(l, 8.5*u, false, w) {
				if y+10*u > limit-12*u {
					r.c.text(pt{x, y + 8*u}, "… ("+itoa(len(lines)-i)+" more lines: see the mail)", 8.5*u, false, start, inkSoft)
					y = limit
					return
				}
				r.c.text(pt{x, y + 8*u}, s, 8.5*u, false, start, ink)
				y += 10.5 * u
			}
			y += 2 * u
		}
	}
	steps := []string(nil)
	if r.used["steps"] {
		steps = []string{stepsNote}
	}
	section("Key", append(slices.Clone(r.g.Legend), steps...))
	section("Notes", r.g.Notes)
	return y
}

// regionLegend are the legend's entries for what the picture shows.
func (r *regionPic) regionLegend() []legendItem {
	u := r.u
	l := &legendList{used: r.used}
	add := l.add
	for _, s := range r.sides {
		add("", r.sideLabel(s), func(c pt) { r.c.rect(c.X-6*u, c.Y-6*u, 12*u, 12*u, r.style(s).fill, ink, 1*u) })
	}
	add("side:none", "no side's", func(c pt) { r.c.rect(c.X-6*u, c.Y-6*u, 12*u, 12*u, neutralSide.fill, ink, 1*u) })
	mini := func(kind string, fog bool) func(c pt) {
		return func(c pt) {
			fill := r.boxFill(kind)
			if fog {
				fill = fogFill
			}
			ps := roundRect(c.X-14*u, c.Y-10*u, 28*u, 20*u, 3*u)
			r.c.poly(ps, fill, Colour{}, 0)
			if fog {
				r.c.lines(hatch(c.X-14*u, c.Y-10*u, 28*u, 20*u, 6*u, 1.5*u), fogHatch, 1*u, false)
				r.c.text(pt{c.X, c.Y + 4.5*u}, "?", 12*u, true, middle, inkSoft)
			} else if st := r.kinds.terrainStyleOf(kind); st.pattern != "" && st.pattern != "letter" {
				r.miniHex(c, kind, 0.2)
			}
			switch kind {
			case "exit":
				r.c.ops = append(r.c.ops, op{kind: opStroke, paths: [][]pt{ps}, closed: true, stroke: ink, width: 1 * u, dash: []float64{4 * u, 2.5 * u}})
			case "framed":
				r.c.poly(ps, Colour{}, ink, 1.8*u)
				r.c.poly(roundRect(c.X-11.5*u, c.Y-7.5*u, 23*u, 15*u, 2*u), Colour{}, ink, 0.7*u)
			default:
				r.c.poly(ps, Colour{}, ink, 1*u)
			}
		}
	}
	for _, k := range r.usedKeys("kind:") {
		add("kind:"+k, k, mini(k, false))
	}
	add("fog", "fog: not seen now (what is listed is what you know)", mini("", true))
	for _, k := range r.usedKeys("path:") {
		add("path:"+k, pathLegend(k), func(c pt) { r.pathLine([]pt{{c.X - 14*u, c.Y}, {c.X + 14*u, c.Y}}, k, 0.9) })
	}
	add("arrived", "← region: arrived by the path from there (the disc: at that edge)", func(c pt) {
		r.pathLine([]pt{{c.X - 14*u, c.Y}, {c.X + 14*u, c.Y}}, "", 0.9)
		r.c.circle(c, 4.5*u, r.style(r.firstSide()).fill, ink, 1*u)
	})
	add("mark", "a mark on the region", func(c pt) { r.tag(c, "mark", rgb(0xeeeeee), ink, regionMarkS*u) })
	add("trace:move", "moved", func(c pt) {
		col := r.style(r.firstSide()).fill.mix(black, 0.15)
		r.c.line([]pt{{c.X - 14*u, c.Y}, {c.X + 6*u, c.Y}}, col, 3.6*u, true)
		r.c.arrowHead(pt{c.X + 14*u, c.Y}, pt{1, 0}, 10*u, 10*u, col)
	})
	r.traceLegend(l)
	add("steps", "adjudication n since your last picture (older: paler)", func(c pt) { r.stepBadge(c, 1) })
	for _, s := range r.usedKeys("status:") {
		ch := chipFor(s)
		add("status:"+s, cmp.Or(ch.meaning, s), func(c pt) { r.tag(c, ch.label, ch.fill, ch.fg, 7*u) })
	}
	return l.items
}
