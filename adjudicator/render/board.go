package render

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
)

// Options say how to draw a board.
type Options struct {
	// Game is the game's id, shown in the header.
	Game string
	// Title replaces the header's first line when not empty.
	Title string
	// Viewer is the side the picture is for ("" for the referee), shown in
	// the header. The View must already be filtered for it.
	Viewer adjudicator.Side
	// ToMove are the sides whose orders are due, shown in the header.
	ToMove []adjudicator.Side
	// Sides fixes which side gets which colour, in palette order (blue,
	// orange, purple, green, …). Sides not listed follow, sorted by name.
	// Pass the ruleset's sides so colours never change during a game.
	Sides []adjudicator.Side
	// Scale multiplies every size; 0 means 1, where a hex is 80 pixels
	// from corner to corner.
	Scale float64
	// Style is how the ruleset draws its terrain, flags, named hexes,
	// hexside features and markers (adjudicator.HexMaps); nil, or a kind
	// it leaves out, is drawn plainly.
	Style *adjudicator.PictureStyle

	// Mode is what part of the map the picture shows, and how: Full (the
	// zero value: the whole map, every counter), Crop (the region where
	// things happened, counters at Scale) or Overview (the whole map,
	// small, a disc per side and hex in place of counters). Crop and
	// Overview keep a big map's pictures readable and small.
	Mode Mode
	// Focus are hexes (CCRR) a Crop must show besides every hex of the
	// View's traces: say, the hexes of the units that moved or fought.
	Focus []string
	// Margin is how many hexes a Crop shows around its focus; 0 means 2.
	Margin int
	// MapScale is the size of the map in an Overview, relative to Scale
	// (the header, panel and legend keep Scale); 0 means 0.4. In a Crop,
	// the map is drawn smaller than Scale only when the region is very
	// large (never below 0.6 of it).
	MapScale float64
}

const (
	sqrt3  = 1.7320508075688772
	panelW = 250 // the side panel's width, in units
)

// board is one picture being built.
type board struct {
	m      *hexmap.Map
	v      adjudicator.View
	opt    Options
	st     *style
	u      float64          // one size unit in pixels (the scale); mapU while the map is drawn
	tu     float64          // one size unit of the header, panel and legend
	mapU   float64          // one size unit of the map and what is drawn on it
	s      float64          // one lattice unit of package hex in pixels (x)
	region map[hex.Hex]bool // a Crop's hexes; nil: the whole map
	ox     float64          // pixel position of lattice point (0, 0)
	oy     float64
	fs     faces
	c      canvas

	sides []adjudicator.Side
	warn  []string

	mapX, mapY, mapW, mapH float64 // the map's pixel box
	width, height          int
	base                   int // the display list's entries of the map's layer (drawLayer)

	// read from the View
	units    []placed // units on map hexes, in View order
	ghosts   []placed // eliminated units still shown where they fell
	offMap   []adjudicator.UnitView
	gone     []adjudicator.UnitView // eliminated, not on the map
	hexMarks map[hex.Hex][]adjudicator.HexMark
	sideMark map[hex.Hexside][]adjudicator.HexMark
	areas    []adjudicator.HexMark // fog and other area markers
	zones    []zone                // named zones (setup zones), in View order
	used     map[string]bool       // legend entries needed
	occupied map[hex.Hex]bool      // hexes with a counter (a unit or a ghost)
	tops     map[hex.Hex]pt        // where each stack's top counter is (drawUnits)
	traces   []traced              // the traces, in drawing order (planTraces)
	steps    []int                 // the traces' Steps above 0, in order
	results  []result              // the traces listed in the side panel
	moved    int                   // move traces drawn
}

// placed is a unit on a map hex: on its floor, or on a deck above it (lv,
// deck), and covering one hex or several (fp, multi).
type placed struct {
	u     adjudicator.UnitView
	h     hex.Hex
	lv    hex.Level     // the location's level (the floor's when the unit gives none)
	deck  bool          // lv is a deck above the floor
	fp    hex.Footprint // the hexes it covers, when multi
	multi bool          // a counter of several hexes (UnitView.Shape)
}

// Board draws the map m with the View v on it. v must already be filtered
// for the viewer: everything in it may appear. Entries of v that cannot be
// placed (a hex not on m) are left out and listed in Picture.Warnings.
func Board(m *hexmap.Map, v adjudicator.View, opt Options) (*Picture, error) {
	b, err := build(m, v, opt)
	if err != nil {
		return nil, err
	}
	return &Picture{Width: b.width, Height: b.height, Title: b.title(), Warnings: b.warn, ops: b.c.ops, base: b.base}, nil
}

// build lays the board out and draws its display list.
func build(m *hexmap.Map, v adjudicator.View, opt Options) (*board, error) {
	if m == nil {
		return nil, errors.New("render: no map")
	}
	if len(m.Hexes()) == 0 {
		return nil, fmt.Errorf("render: map %q has no hexes", m.Name)
	}
	if opt.Scale <= 0 {
		opt.Scale = 1
	}
	if opt.Scale > 8 {
		return nil, fmt.Errorf("render: scale %g is too large (at most 8)", opt.Scale)
	}
	b := &board{m: m, v: v, opt: opt, st: newStyle(opt.Style), u: opt.Scale, fs: faces{}, used: map[string]bool{}}
	b.tu, b.mapU = b.u, b.u
	if err := b.frame(); err != nil {
		return nil, err
	}
	b.s = 20 * b.mapU
	b.sides = sideOrder(opt.Sides, v)
	b.readView()
	b.planTraces()
	b.layout()
	return b, nil
}

// parseHex reads a hex of the map; ok is false for "", "off-map", a region
// or a hex not on the map.
func (b *board) parseHex(s string) (hex.Hex, bool) {
	h, err := hex.Parse(strings.TrimSpace(s))
	if err != nil || !b.m.OnMap(h) {
		return hex.Hex{}, false
	}
	return h, true
}

func (b *board) warnf(format string, args ...any) {
	b.warn = append(b.warn, fmt.Sprintf(format, args...))
}

func (b *board) readView() {
	b.hexMarks = map[hex.Hex][]adjudicator.HexMark{}
	b.sideMark = map[hex.Hexside][]adjudicator.HexMark{}
	b.occupied = map[hex.Hex]bool{}
	for _, u := range b.v.Units {
		if u.Type == Hidden {
			// A stack the viewer sees but cannot identify: keep nothing
			// but where it is, whose it is and how many counters.
			u = adjudicator.UnitView{Side: u.Side, Type: Hidden, At: u.At, Values: u.Values, Gone: u.Gone}
		}
		h, ok := b.parseHex(u.At)
		if ok && !b.inView(h) {
			continue // on the map, outside the crop
		}
		switch {
		case u.Gone && ok:
			b.ghosts = append(b.ghosts, b.place(u, h, false))
			b.occupied[h] = true
			b.used["ghost"] = true
		case u.Gone:
			b.gone = append(b.gone, u)
		case ok:
			p := b.place(u, h, true)
			b.units = append(b.units, p)
			b.occupied[h] = true
			if p.multi {
				for _, c := range p.fp.Hexes() {
					b.occupied[c] = true
				}
			}
		default:
			if looksLikeHex(u.At) {
				b.warnf("unit %s is at %s, which is not a hex of %s", u.ID, u.At, b.m.Name)
			}
			b.offMap = append(b.offMap, u)
		}
	}
	for _, mk := range b.v.Hexes {
		if a, c, ok := strings.Cut(mk.At, "/"); ok {
			ha, oka := b.parseHex(a)
			hc, okc := b.parseHex(c)
			s, adj := b.m.Layout.SideBetween(ha, hc)
			if !oka || !okc || !adj {
				b.warnf("marker %s at %s: not a hexside of %s", mk.Kind, mk.At, b.m.Name)
				continue
			}
			b.sideMark[s] = append(b.sideMark[s], mk)
			continue
		}
		h, ok := b.parseHex(mk.At)
		if !ok {
			b.warnf("marker %s at %s: not a hex of %s", mk.Kind, mk.At, b.m.Name)
			continue
		}
		if !b.inView(h) {
			continue
		}
		if b.addZoneMark(mk, h) {
			continue
		}
		if mk.Radius > 0 || mk.Kind == "fog" {
			b.areas = append(b.areas, mk)
			b.used["area:"+mk.Kind] = true
			continue
		}
		b.hexMarks[h] = append(b.hexMarks[h], mk)
	}
}

func looksLikeHex(s string) bool {
	_, err := hex.Parse(strings.TrimSpace(s))
	return err == nil
}

// centre is the pixel centre of h.
func (b *board) centre(h hex.Hex) pt { return b.lattice(b.m.Layout.Centre(h)) }

// lattice is the pixel position of a point of the layout's exact plane: the
// flat plane's y and the pointy plane's x are stretched by √3.
func (b *board) lattice(p hex.Point) pt {
	if b.m.Layout.Pointy() {
		return pt{b.ox + b.s*sqrt3*float64(p.X), b.oy + b.s*float64(p.Y)}
	}
	return pt{b.ox + b.s*float64(p.X), b.oy + b.s*sqrt3*float64(p.Y)}
}

// kx and ky are the pixels of one step of the layout's plane along x and y.
func (b *board) kx() float64 {
	if b.m.Layout.Pointy() {
		return b.s * sqrt3
	}
	return b.s
}

func (b *board) ky() float64 {
	if b.m.Layout.Pointy() {
		return b.s
	}
	return b.s * sqrt3
}

// hexPts are the six corners of h, clockwise from the NW end of its north
// side.
func (b *board) hexPts(h hex.Hex) []pt {
	out := make([]pt, 0, 6)
	for _, d := range hex.Directions {
		p, _ := b.m.Layout.Corners(h, d)
		out = append(out, b.lattice(p))
	}
	return out
}

// sidePts are the two ends of hexside s.
func (b *board) sidePts(s hex.Hexside) (pt, pt) {
	p, q := b.m.Layout.SideEnds(s)
	return b.lattice(p), b.lattice(q)
}

// R is the distance from a hex's centre to a corner; A to a side's middle.
func (b *board) R() float64 { return 2 * b.s }
func (b *board) A() float64 { return b.s * sqrt3 }

// halfHeight is how far above and below the centre a hex reaches at
// horizontal offset x.
func (b *board) halfHeight(x float64) float64 {
	x = math.Abs(x)
	if b.m.Layout.Pointy() {
		if x > b.A() {
			return 0
		}
		return b.R() - x/sqrt3
	}
	if x <= b.s {
		return b.A()
	}
	return math.Max(0, sqrt3*(b.R()-x))
}

// layout places the header, the map, the side panel and the legend, then
// draws them.
func (b *board) layout() {
	if b.tu == 0 { // a board made without build: one scale for all
		b.tu, b.mapU = b.u, b.u
	}
	u := b.u
	minX, maxX, minY, maxY := math.MaxInt, math.MinInt, math.MaxInt, math.MinInt
	ex, ey := 2, 1 // how far corners reach from the centre in the plane
	if b.m.Layout.Pointy() {
		ex, ey = 1, 2
	}
	for _, h := range b.shown() {
		p := b.m.Layout.Centre(h)
		minX, maxX = min(minX, p.X-ex), max(maxX, p.X+ex)
		minY, maxY = min(minY, p.Y-ey), max(maxY, p.Y+ey)
	}
	margin := 14 * u
	headerH := 54 * u
	b.mapX, b.mapY = margin, margin+headerH
	b.mapW = b.kx() * float64(maxX-minX)
	b.mapH = b.ky() * float64(maxY-minY)
	b.ox = b.mapX - b.kx()*float64(minX)
	b.oy = b.mapY - b.ky()*float64(minY)

	b.width = int(math.Ceil(b.mapX + b.mapW + 18*u + panelW*u + margin))
	panelX := b.mapX + b.mapW + 18*u

	// Background first: everything else is drawn over it.
	bg := len(b.c.ops)
	b.c.rect(0, 0, 1, 1, paper, Colour{}, 0) // resized below, once the height is known

	// The map's layer: what changes seldom during a game, drawn first so
	// that the rasteriser can keep it (layerCache). The header does not
	// overlap the map, so it may come after.
	b.u = b.mapU
	b.drawLayer()
	b.base = len(b.c.ops)
	b.u = b.tu
	b.header(margin, margin, float64(b.width)-2*margin)
	b.u = b.mapU
	b.drawMap()
	b.u = b.tu
	bottom := b.drawPanel(b.panelSections(), panelX, b.mapY)
	bottom = b.legend(panelX, bottom+4*u, panelW*u)
	bottom = math.Max(bottom, b.mapY+b.mapH)
	b.height = int(math.Ceil(bottom + margin))
	b.c.ops[bg].paths[0] = rectPts(0, 0, float64(b.width), float64(b.height))
}

// drawLayer draws the map's layer: terrain, floor levels, grid, level
// contours, zones, roads, bridges, decks, hexsides, board seams, the edge
// and the hex numbers. Levels, decks and seams draw nothing on a flat map
// of one board.
func (b *board) drawLayer() {
	b.drawTerrain()
	b.drawFloors()
	b.drawGrid()
	b.drawContours()
	b.drawZones()
	b.drawRoads()
	b.drawBridges()
	b.drawDecks()
	b.drawSides()
	b.drawSideLevels()
	b.drawSeams()
	b.drawEdge()
	b.drawHexNumbers()
	b.drawLevelLabels()
}

// drawMap draws what stands on the map's layer.
func (b *board) drawMap() {
	b.drawVP()
	b.drawPoints()
	b.drawZoneLabels()
	b.drawAreas()
	b.drawHexMarkers()
	b.drawMoves()
	if !b.overview() {
		b.drawFootprints()
	}
	if b.overview() {
		b.drawSummaries()
	} else {
		b.drawUnits()
	}
	b.drawAttacks()
	b.drawStepBadges()
	if !b.overview() {
		b.drawHexTabs()
	}
}

// title is the header's first line.
func (b *board) title() string {
	if b.opt.Title != "" {
		return b.opt.Title
	}
	name := b.m.Title
	if name == "" {
		name = b.m.Name
	}
	if b.opt.Game != "" {
		return "Game " + b.opt.Game + " — " + name
	}
	return name
}
