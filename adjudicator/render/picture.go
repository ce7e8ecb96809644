package render

import "math"

// Colour is a non-premultiplied sRGB colour with alpha.
type Colour struct{ R, G, B, A uint8 }

func rgb(hex uint32) Colour {
	return Colour{uint8(hex >> 16), uint8(hex >> 8), uint8(hex), 0xff}
}

// alpha returns c with its opacity set to a (0..1).
func (c Colour) alpha(a float64) Colour {
	c.A = uint8(math.Round(a * 255))
	return c
}

// mix returns c blended toward o by t (0 = c, 1 = o).
func (c Colour) mix(o Colour, t float64) Colour {
	f := func(a, b uint8) uint8 { return uint8(math.Round(float64(a)*(1-t) + float64(b)*t)) }
	return Colour{f(c.R, o.R), f(c.G, o.G), f(c.B, o.B), c.A}
}

// pt is a point in picture pixels, y downward.
type pt struct{ X, Y float64 }

func (p pt) add(q pt) pt             { return pt{p.X + q.X, p.Y + q.Y} }
func (p pt) sub(q pt) pt             { return pt{p.X - q.X, p.Y - q.Y} }
func (p pt) mul(k float64) pt        { return pt{p.X * k, p.Y * k} }
func (p pt) len() float64            { return math.Hypot(p.X, p.Y) }
func (p pt) lerp(q pt, t float64) pt { return pt{p.X + (q.X-p.X)*t, p.Y + (q.Y-p.Y)*t} }

// unit returns p scaled to length 1 (or zero).
func (p pt) unit() pt {
	l := p.len()
	if l == 0 {
		return pt{}
	}
	return pt{p.X / l, p.Y / l}
}

// perp is p turned 90° (clockwise on screen).
func (p pt) perp() pt { return pt{-p.Y, p.X} }

type opKind uint8

const (
	opFill   opKind = iota // closed subpaths, filled (non-zero winding)
	opStroke               // open or closed polylines, stroked
	opCircle               // a circle, filled and/or stroked
	opText                 // one line of text
)

// Anchor says where a text's x coordinate is: at its start, middle or end.
type anchor uint8

const (
	start anchor = iota
	middle
	end
)

// op is one entry of the display list. Every coordinate is final: PNG and
// SVG only translate it into their own terms.
type op struct {
	kind   opKind
	paths  [][]pt // opFill: closed subpaths (holes wind the other way); opStroke: polylines
	closed bool   // opStroke: each polyline returns to its start
	fill   Colour // A == 0: no fill
	stroke Colour // A == 0: no stroke
	width  float64
	round  bool      // opStroke: round caps (joins are always round)
	dash   []float64 // opStroke: on, off, … lengths; nil for solid
	crisp  bool      // opFill: convex tiles, drawn without anti-aliasing in PNG

	c pt      // opCircle centre
	r float64 // opCircle radius

	text string // opText
	at   pt     // opText: baseline point
	size float64
	bold bool
	anc  anchor
}

// Picture is a board drawn once as a display list; PNG and SVG render it.
type Picture struct {
	// Width and Height are the picture's size in pixels.
	Width, Height int
	// Title is the picture's title (the header's first line).
	Title string
	// Warnings lists what in the View could not be drawn (a hex that is not
	// on the map, a trace with a malformed path). The rest is drawn.
	Warnings []string

	ops  []op
	base int // ops[:base] draw the map's layer, which rasterise may keep
}

// Ops is the number of entries in the display list (for tests and
// benchmarks).
func (p *Picture) Ops() int { return len(p.ops) }

// canvas accumulates the display list.
type canvas struct {
	ops []op
}

// signedArea is twice the polygon's signed area (positive: clockwise on
// screen, since y grows downward).
func signedArea(ps []pt) float64 {
	a := 0.0
	for i := range ps {
		j := (i + 1) % len(ps)
		a += ps[i].X*ps[j].Y - ps[j].X*ps[i].Y
	}
	return a
}

// orient returns ps winding clockwise (cw) or anticlockwise.
func orient(ps []pt, cw bool) []pt {
	if (signedArea(ps) >= 0) == cw {
		return ps
	}
	out := make([]pt, len(ps))
	for i, p := range ps {
		out[len(ps)-1-i] = p
	}
	return out
}

// poly fills (and optionally outlines) one polygon.
func (c *canvas) poly(ps []pt, fill, stroke Colour, width float64) {
	if fill.A > 0 {
		c.ops = append(c.ops, op{kind: opFill, paths: [][]pt{orient(ps, true)}, fill: fill})
	}
	if stroke.A > 0 && width > 0 {
		c.ops = append(c.ops, op{kind: opStroke, paths: [][]pt{ps}, closed: true, stroke: stroke, width: width})
	}
}

// fillAll fills several polygons as one shape (their union).
func (c *canvas) fillAll(polys [][]pt, fill Colour) {
	if len(polys) == 0 || fill.A == 0 {
		return
	}
	o := op{kind: opFill, fill: fill}
	for _, p := range polys {
		o.paths = append(o.paths, orient(p, true))
	}
	c.ops = append(c.ops, o)
}

// line strokes a polyline.
func (c *canvas) line(ps []pt, col Colour, width float64, round bool, dash ...float64) {
	if len(ps) < 2 || col.A == 0 {
		return
	}
	c.ops = append(c.ops, op{kind: opStroke, paths: [][]pt{ps}, stroke: col, width: width, round: round, dash: dash})
}

// lines strokes several polylines as one shape.
func (c *canvas) lines(pss [][]pt, col Colour, width float64, round bool) {
	if len(pss) == 0 || col.A == 0 {
		return
	}
	c.ops = append(c.ops, op{kind: opStroke, paths: pss, stroke: col, width: width, round: round})
}

// circle draws a circle, filled and/or outlined.
func (c *canvas) circle(ctr pt, r float64, fill, stroke Colour, width float64) {
	c.ops = append(c.ops, op{kind: opCircle, c: ctr, r: r, fill: fill, stroke: stroke, width: width})
}

// rect draws an axis-aligned rectangle (x, y: top left).
func (c *canvas) rect(x, y, w, h float64, fill, stroke Colour, width float64) {
	c.poly(rectPts(x, y, w, h), fill, stroke, width)
}

func rectPts(x, y, w, h float64) []pt {
	return []pt{{x, y}, {x + w, y}, {x + w, y + h}, {x, y + h}}
}

// roundRect returns a rectangle with rounded corners of radius r.
func roundRect(x, y, w, h, r float64) []pt {
	r = math.Min(r, math.Min(w, h)/2)
	var out []pt
	corner := func(cx, cy, a0 float64) {
		for i := 0; i <= 4; i++ {
			a := a0 + float64(i)*math.Pi/8
			out = append(out, pt{cx + r*math.Cos(a), cy + r*math.Sin(a)})
		}
	}
	corner(x+w-r, y+r, -math.Pi/2)
	corner(x+w-r, y+h-r, 0)
	corner(x+r, y+h-r, math.Pi/2)
	corner(x+r, y+r, math.Pi)
	return out
}

// text sets one line of text with its baseline at p.
func (c *canvas) text(p pt, s string, size float64, bold bool, anc anchor, col Colour) {
	if s == "" {
		return
	}
	c.ops = append(c.ops, op{kind: opText, at: p, text: s, size: size, bold: bold, anc: anc, fill: col})
}

// arrowHead fills a triangular head with its tip at tip, pointing along dir.
func (c *canvas) arrowHead(tip, dir pt, length, width float64, col Colour) {
	d := dir.unit()
	base := tip.sub(d.mul(length))
	n := d.perp().mul(width / 2)
	c.poly([]pt{tip, base.add(n), base.sub(n)}, col, Colour{}, 0)
}
