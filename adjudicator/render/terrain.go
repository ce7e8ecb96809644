package render

import (
	"math"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// drawTerrain fills every hex with its terrain's colour and pattern.
func (b *board) drawTerrain() {
	for _, h := range b.shown() {
		kind := b.m.Terrain(h)
		b.used["terrain:"+kind] = true
		b.terrainHex(b.centre(h), b.hexPts(h), kind, 1)
		for _, f := range b.m.Flags(h) {
			for _, fs := range b.st.flags {
				if fs.Kind == f && kind != fs.Band {
					b.used["flag:"+f] = true
					b.band(b.centre(h), fs.Band, 1)
				}
			}
		}
	}
}

// terrainHex draws one hex of terrain kind centred on c with corners ps, at
// size k (1 on the map, smaller in the legend).
func (b *board) terrainHex(c pt, ps []pt, kind string, k float64) {
	st := b.st.terrainStyleOf(kind)
	b.c.ops = append(b.c.ops, op{kind: opFill, paths: [][]pt{orient(ps, true)}, fill: st.fill, crisp: k == 1})
	if k == 1 && b.overview() {
		return // an Overview's hexes are too small for patterns
	}
	u := b.u * k
	at := func(x, y float64) pt { return pt{c.X + x*u, c.Y + y*u} }
	switch st.pattern {
	case "trees":
		for _, p := range [][2]float64{{-27, -6}, {27, -6}, {-16, 20}, {16, 20}, {-17, -21}, {17, -21}, {0, 27}} {
			b.c.circle(at(p[0], p[1]), 4.6*u, st.mark, Colour{}, 0)
		}
	case "waves":
		b.c.lines([][]pt{wave(at(0, -15), 24*u, 2.2*u, 7*u), wave(at(0, 17), 24*u, 2.2*u, 7*u)}, st.mark, 1.5*u, true)
	case "sea":
		b.c.lines([][]pt{wave(at(0, -18), 20*u, 2.2*u, 7*u), wave(at(0, 0), 30*u, 2.2*u, 7*u), wave(at(0, 18), 20*u, 2.2*u, 7*u)}, st.mark, 1.6*u, true)
	case "planks":
		var ls [][]pt
		for x := -32.0; x <= 32; x += 7 {
			hh := b.halfHeight(x*b.u) / b.u // in units
			if hh < 3 {
				continue
			}
			top := -hh + 1.5
			if math.Abs(x) < 16 {
				top = max(top, -19) // leave the hex number clear
			}
			ls = append(ls, []pt{at(x, top), at(x, hh-1.5)})
		}
		b.c.lines(ls, st.mark, 1.2*u, false)
	case "stones":
		b.c.line(wave(at(0, -17), 22*u, 2*u, 7*u), waterLine, 1.4*u, true)
		for _, x := range []float64{-21, -7, 7, 21} {
			b.c.circle(at(x, 27), 3.4*u, st.mark, Colour{}, 0)
		}
	case "rings":
		b.c.circle(c, 27*u, Colour{}, st.mark, 5*u)
		b.c.circle(c, 21.5*u, Colour{}, st.mark, 1.2*u)
	case "hills":
		for _, p := range [][2]float64{{-22, -14}, {22, -14}, {0, 28}} {
			b.c.line(arc(at(p[0], p[1]), 6*u, math.Pi, 2*math.Pi), st.mark, 1.6*u, true)
		}
	case "houses":
		for _, p := range [][2]float64{{-26, -6}, {26, -6}, {-14, 24}, {14, 24}} {
			b.c.rect(c.X+(p[0]-3.5)*u, c.Y+(p[1]-3.5)*u, 7*u, 7*u, st.mark, Colour{}, 0)
		}
	case "tufts":
		var ls [][]pt
		for _, p := range [][2]float64{{-26, -6}, {26, -6}, {-14, 24}, {14, 24}} {
			for _, dx := range []float64{-2.5, 0, 2.5} {
				ls = append(ls, []pt{at(p[0]+dx, p[1]+3), at(p[0]+dx*1.6, p[1]-3)})
			}
		}
		b.c.lines(ls, st.mark, 1.2*u, true)
	case "letter":
		b.c.text(at(0, 29), kind, 7*u, false, middle, st.mark)
	}
}

// band is a strip of terrain kind (its fill and a wave in its mark) drawn
// along the foot of a hex that carries a flag: a land hex that is also
// river.
func (b *board) band(c pt, kind string, k float64) {
	u := b.u * k
	x0 := 40 - 14/sqrt3
	ps := []pt{{c.X - x0*u, c.Y + 14*u}, {c.X + x0*u, c.Y + 14*u}, {c.X + 20*u, c.Y + 20*sqrt3*u}, {c.X - 20*u, c.Y + 20*sqrt3*u}}
	if b.m.Layout.Pointy() && k == 1 { // the foot of a pointy hex is a corner
		a := 20 * sqrt3
		ps = []pt{{c.X - a*u, c.Y + 14*u}, {c.X + a*u, c.Y + 14*u}, {c.X + a*u, c.Y + 20*u}, {c.X, c.Y + 40*u}, {c.X - a*u, c.Y + 20*u}}
	}
	st := b.st.terrainStyleOf(kind)
	b.c.poly(ps, st.fill, Colour{}, 0)
	b.c.line(wave(pt{c.X, c.Y + 24*u}, 20*u, 2*u, 7*u), st.mark, 1.4*u, true)
}

// wave is a sine line centred on c, half-length l, amplitude a, period p.
func wave(c pt, l, a, p float64) []pt {
	var out []pt
	n := int(math.Ceil(2 * l / (p / 6)))
	for i := 0; i <= n; i++ {
		x := -l + 2*l*float64(i)/float64(n)
		out = append(out, pt{c.X + x, c.Y + a*math.Sin(2*math.Pi*x/p)})
	}
	return out
}

// arc is the arc of the circle (c, r) from angle a0 to a1.
func arc(c pt, r, a0, a1 float64) []pt {
	n := max(4, int(math.Ceil(math.Abs(a1-a0)*r/3)))
	out := make([]pt, 0, n+1)
	for i := 0; i <= n; i++ {
		a := a0 + (a1-a0)*float64(i)/float64(n)
		out = append(out, pt{c.X + r*math.Cos(a), c.Y + r*math.Sin(a)})
	}
	return out
}

// drawGrid outlines every hex, each side once.
func (b *board) drawGrid() {
	var ls [][]pt
	for _, h := range b.shown() {
		for _, d := range hex.Directions {
			n := b.m.Layout.Neighbour(h, d)
			if b.m.OnMap(n) && n.Less(h) {
				continue // drawn with n
			}
			p, q := b.m.Layout.Corners(h, d)
			ls = append(ls, []pt{b.lattice(p), b.lattice(q)})
		}
	}
	b.c.lines(ls, grid.alpha(0.8), 0.9*b.u, false)
}

// drawEdge draws the map's edge: every side whose neighbour is off the map.
func (b *board) drawEdge() {
	var ls [][]pt
	for _, h := range b.shown() {
		for _, d := range hex.Directions {
			if !b.m.OnMap(b.m.Layout.Neighbour(h, d)) {
				p, q := b.m.Layout.Corners(h, d)
				ls = append(ls, []pt{b.lattice(p), b.lattice(q)})
			}
		}
	}
	b.c.lines(ls, ink, 2.6*b.u, true)
}

// drawRoads draws each road as a cased line through the hex centres.
func (b *board) drawRoads() {
	var ls [][]pt
	for _, r := range b.m.Roads() {
		var l []pt
		for _, h := range r.Path {
			if !b.inView(h) { // a Crop draws the road's runs inside it
				if len(l) > 1 {
					ls = append(ls, l)
				}
				l = nil
				continue
			}
			l = append(l, b.centre(h))
		}
		if len(l) > 1 {
			ls = append(ls, l)
		}
	}
	if len(ls) == 0 {
		return
	}
	b.used["road"] = true
	b.c.lines(ls, roadEdge, 7*b.u, true)
	b.c.lines(ls, roadFill, 4.2*b.u, true)
}

// sideMid is the middle of the side between h and n, or n's centre when
// they are not adjacent.
func (b *board) sideMid(h, n hex.Hex) pt {
	if s, ok := b.m.Layout.SideBetween(h, n); ok {
		p, q := b.sidePts(s)
		return p.lerp(q, 0.5)
	}
	return b.centre(n)
}

var (
	burnedKinds    = []string{"burned", "burnt", "bridge-burned"}
	destroyedKinds = []string{"bridge-destroyed", "destroyed"}
)

// drawBridges draws each bridge as a deck from bank to bank.
func (b *board) drawBridges() {
	for _, br := range b.m.Bridges() {
		if !b.inView(br.Hex) {
			continue
		}
		p := b.sideMid(br.Hex, br.Connects[0])
		q := b.sideMid(br.Hex, br.Connects[1])
		state := ""
		switch {
		case b.takeMark(br.Hex, burnedKinds...):
			state = "burned"
		case b.takeMark(br.Hex, destroyedKinds...):
			state = "destroyed"
		}
		b.bridge(p, q, br.Kind, state, 1)
	}
}

// bridge draws a deck from p to q (both extended a little past the banks);
// state is "", "burned" or "destroyed".
func (b *board) bridge(p, q pt, kind, state string, k float64) {
	u := b.u * k
	d := q.sub(p).unit()
	p, q = p.sub(d.mul(3*u)), q.add(d.mul(3*u))
	n := d.perp().mul(7.5 * u)
	deck := func(a, c pt, fill Colour) {
		b.c.poly([]pt{a.add(n), c.add(n), c.sub(n), a.sub(n)}, fill, Colour{}, 0)
	}
	rails := func(a, c pt, col Colour, w float64) {
		b.c.lines([][]pt{{a.add(n), c.add(n)}, {a.sub(n), c.sub(n)}}, col, w, false)
	}
	switch state {
	case "burned", "destroyed":
		b.used["bridge:"+state] = true
		m1, m2 := p.lerp(q, 0.38), p.lerp(q, 0.62)
		ruin := rgb(0x3a3330)
		if state == "destroyed" {
			ruin = rgb(0x8c8780)
		}
		deck(p, m1, ruin)
		deck(m2, q, ruin)
		rails(p, m1, black, 2*u)
		rails(m2, q, black, 2*u)
		if state == "destroyed" {
			b.breakMark(p.lerp(q, 0.5), k)
			return
		}
		var flames [][]pt
		for _, m := range []pt{m1, m2} {
			for _, t := range []float64{-0.6, 0, 0.6} {
				base := m.add(n.mul(t))
				flames = append(flames, []pt{base.add(pt{-2.6 * u, 1.5 * u}), base.add(pt{2.6 * u, 1.5 * u}), base.add(pt{0, -7 * u})})
			}
		}
		b.c.fillAll(flames, okOrange)
	default:
		switch kind {
		case "stone":
			b.used["bridge:stone"] = true
			deck(p, q, rgb(0xb9b4ab))
			var ls [][]pt
			for t := 0.25; t < 0.8; t += 0.25 {
				m := p.lerp(q, t)
				ls = append(ls, []pt{m.add(n.mul(0.5)), m.sub(n.mul(0.5))})
			}
			b.c.lines(ls, rgb(0x77726a), 1*u, false)
			rails(p, q, rgb(0x2f2f2f), 3.4*u)
		default:
			b.used["bridge:"+kind] = true
			deck(p, q, rgb(0xb07a44))
			var ls [][]pt
			l := q.sub(p).len()
			for s := 3 * u; s < l-u; s += 3.6 * u {
				m := p.add(d.mul(s))
				ls = append(ls, []pt{m.add(n), m.sub(n)})
			}
			b.c.lines(ls, rgb(0x5c3d1e), 0.9*u, false)
			rails(p, q, rgb(0x4a2f14), 2*u)
		}
	}
}

// takeMark reports whether h carries a marker of one of the kinds, and
// marks it drawn so drawHexMarkers leaves it out.
func (b *board) takeMark(h hex.Hex, kinds ...string) bool {
	found := false
	ms := b.hexMarks[h]
	keep := ms[:0:0]
	for _, m := range ms {
		if slices.Contains(kinds, m.Kind) {
			found = true
			continue
		}
		keep = append(keep, m)
	}
	b.hexMarks[h] = keep
	return found
}

// tag is a small rounded label centred on c.
func (b *board) tag(c pt, s string, fill, fg Colour, size float64) (w float64) {
	w = b.fs.width(s, size, true) + size*0.7
	h := size * 1.45
	b.c.poly(roundRect(c.X-w/2, c.Y-h/2, w, h, h*0.3), fill, ink, 0.8*b.u)
	b.c.text(pt{c.X, c.Y + size*0.36}, s, size, true, middle, fg)
	return w
}

// The hex numbers' size and baseline, in units from the hex centre.
const (
	hexNumSize = 8.5
	hexNumY    = -24.0
)

// drawHexNumbers prints each hex's CCRR number at its top.
func (b *board) drawHexNumbers() {
	col := ink.alpha(0.78)
	for _, h := range b.shown() {
		if b.overview() {
			b.overviewNumber(h)
			continue
		}
		c := b.centre(h)
		b.c.text(pt{c.X, c.Y + hexNumY*b.u}, h.String(), hexNumSize*b.u, false, middle, col)
	}
}

var vpDestroyedKinds = []string{"vp-destroyed", "destroyed", "razed", "burned", "burnt"}

// drawVP draws the VP badge of each VP hex, crossed out once destroyed.
func (b *board) drawVP() {
	seen := map[hex.Hex]bool{}
	for _, h := range b.m.VPHexes() {
		seen[h] = true
		if !b.inView(h) {
			continue
		}
		b.vpBadge(b.centre(h).add(pt{-28 * b.u, 2 * b.u}), b.m.VP(h), b.takeMark(h, vpDestroyedKinds...), 1)
	}
	// A destroyed marker on a hex the map gives no value.
	for _, h := range b.shown() {
		if !seen[h] && b.takeMark(h, "vp-destroyed") {
			b.vpBadge(b.centre(h).add(pt{-28 * b.u, 2 * b.u}), 0, true, 1)
		}
	}
}

func (b *board) vpBadge(c pt, v int, destroyed bool, k float64) {
	u := b.u * k
	s := "–"
	if v > 0 {
		s = itoa(v)
	}
	if destroyed {
		b.used["vp:destroyed"] = true
		b.c.circle(c, 8*u, rgb(0xd0d0d0), ink, 1.3*u)
		b.c.text(pt{c.X, c.Y + 3.6*u}, s, 10*u, true, middle, rgb(0x6a6a6a))
		b.breakMark(c, k*0.9)
		return
	}
	b.used["vp"] = true
	b.c.circle(c, 8*u, okYellow, ink, 1.3*u)
	b.c.text(pt{c.X, c.Y + 3.6*u}, s, 10*u, true, middle, ink)
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	neg := n < 0
	if neg {
		n = -n
	}
	var d []byte
	for n > 0 {
		d = append([]byte{byte('0' + n%10)}, d...)
		n /= 10
	}
	if neg {
		d = append([]byte{'-'}, d...)
	}
	return string(d)
}

// drawPoints tags the named hexes (entries, exits, …) at their right-hand
// corner.
func (b *board) drawPoints() {
	byHex := map[hex.Hex][]string{}
	var order []hex.Hex
	for _, p := range b.m.Points("") {
		if !b.inView(p.Hex) {
			continue
		}
		if _, ok := byHex[p.Hex]; !ok {
			order = append(order, p.Hex)
		}
		if !slices.Contains(byHex[p.Hex], p.Kind) {
			byHex[p.Hex] = append(byHex[p.Hex], p.Kind)
		}
	}
	for _, h := range order {
		ks := byHex[h]
		c := b.centre(h)
		for i, k := range ks {
			st := b.st.pointStyleOf(k)
			b.used["point:"+k] = true
			y := c.Y + 2*b.u + (float64(i)-float64(len(ks)-1)/2)*12*b.u
			b.tag(pt{c.X + 27*b.u, y}, st.label, st.fill, st.fg, 7.5*b.u)
		}
	}
}
