package render

import (
	"math"
	"sort"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// moveKinds are the traces drawn as paths (a unit, or a marker, going from
// hex to hex); every other kind is an action from hexes onto a target.
var moveKinds = []string{"move", "fly", "retreat", "advance", "charge", "displace", "whirlwind"}

// drawAreas draws area markers (fog and the like) over the terrain: a veil
// on every hex within the radius, and a dashed outline round the area.
func (b *board) drawAreas() {
	u := b.u
	for _, mk := range b.areas {
		h, _ := b.parseHex(mk.At)
		in := map[hex.Hex]bool{}
		var hs []hex.Hex
		for _, o := range hex.Within(h, mk.Radius) {
			if b.m.OnMap(o) {
				in[o] = true
				hs = append(hs, o)
			}
		}
		veil, line := rgb(0xf0f0f0).alpha(0.45), inkSoft
		if mk.Kind != "fog" {
			veil, line = okPurple.alpha(0.18), rgb(0x9b3f86)
		}
		var polys, mist, edge [][]pt
		for _, o := range hs {
			polys = append(polys, b.hexPts(o))
			c := b.centre(o)
			if mk.Kind == "fog" {
				mist = append(mist, []pt{{c.X - 16*u, c.Y - 17*u}, {c.X + 16*u, c.Y - 17*u}}, []pt{{c.X - 12*u, c.Y + 29*u}, {c.X + 12*u, c.Y + 29*u}})
			}
			for _, d := range hex.Directions {
				if !in[o.Neighbour(d)] {
					p, q := hex.Corners(o, d)
					edge = append(edge, []pt{b.lattice(p), b.lattice(q)})
				}
			}
		}
		b.c.fillAll(polys, veil)
		if len(mist) > 0 {
			b.c.ops = append(b.c.ops, op{kind: opStroke, paths: mist, stroke: rgb(0x6e6e6e), width: 1.6 * u, round: true, dash: []float64{4 * u, 3 * u}})
		}
		b.c.ops = append(b.c.ops, op{kind: opStroke, paths: edge, stroke: line, width: 2.4 * u, round: true, dash: []float64{6 * u, 4 * u}})
		label := upper(mk.Kind)
		if mk.Label != "" {
			label += " " + mk.Label
		}
		c := b.centre(h)
		w := b.fs.width(label, 7.5*u, true) + 7.5*u*0.7
		b.tag(pt{c.X - 3*u - w/2, c.Y + 29.5*u}, label, rgb(0xe6e6e6), ink, 7.5*u)
	}
}

// drawHexMarkers draws the markers on single hexes that no other part has
// drawn: whirlwinds and anything else, as a tag at the foot of the hex.
func (b *board) drawHexMarkers() {
	var hs []hex.Hex
	for h, ms := range b.hexMarks {
		if len(ms) > 0 {
			hs = append(hs, h)
		}
	}
	sort.Slice(hs, func(i, j int) bool { return hs[i].Less(hs[j]) })
	u := b.u
	for _, h := range hs {
		c := b.centre(h)
		type tg struct {
			s        string
			fill, fg Colour
		}
		var tags []tg
		for _, mk := range b.hexMarks[h] {
			switch mk.Kind {
			case "whirlwind":
				b.used["marker:whirlwind"] = true
				b.c.line(spiral(c, 4*u, 31*u, 2.6), rgb(0x9b3f86), 2.4*u, true)
				l := "W"
				if mk.Label != "" {
					l = mk.Label
					if r := mk.Label[0]; r >= '0' && r <= '9' {
						l = "W" + mk.Label
					}
				}
				tags = append(tags, tg{l, okPurple, ink})
			default:
				b.used["marker:other"] = true
				l := mk.Kind
				if mk.Label != "" {
					l += " " + mk.Label
				}
				tags = append(tags, tg{l, rgb(0xe6e6e6), ink})
			}
		}
		total := 0.0
		ws := make([]float64, len(tags))
		for i, t := range tags {
			ws[i] = b.fs.width(t.s, 7.5*u, true) + 7.5*u*0.7
			total += ws[i] + 2*u
		}
		x := c.X - total/2
		for i, t := range tags {
			b.tag(pt{x + ws[i]/2, c.Y + 29.5*u}, t.s, t.fill, t.fg, 7.5*u)
			x += ws[i] + 2*u
		}
	}
}

// spiral winds out from radius r0 to r1 in turns turns.
func spiral(c pt, r0, r1, turns float64) []pt {
	n := int(turns * 36)
	out := make([]pt, 0, n+1)
	for i := 0; i <= n; i++ {
		t := float64(i) / float64(n)
		a := -math.Pi/2 + t*turns*2*math.Pi
		r := r0 + (r1-r0)*t
		out = append(out, pt{c.X + r*math.Cos(a), c.Y + r*math.Sin(a)})
	}
	return out
}

// unit finds the unit a trace names.
func (b *board) unit(id string) (adjudicator.UnitView, bool) {
	for _, u := range b.v.Units {
		if u.ID == id {
			return u, true
		}
	}
	return adjudicator.UnitView{}, false
}

// tracePath reads a trace's hexes; ok is false if one is not on the map.
func (b *board) tracePath(t adjudicator.Trace) ([]hex.Hex, bool) {
	var hs []hex.Hex
	for _, s := range t.Path {
		h, ok := b.parseHex(s)
		if !ok {
			b.warnf("%s trace of %s: %q is not a hex of %s", t.Kind, t.Unit, s, b.m.Name)
			return nil, false
		}
		hs = append(hs, h)
	}
	return hs, len(hs) > 0
}

// drawMoves draws the paths units moved, under the counters: a line through
// the hex centres from a dot to an arrow at the edge of the last hex.
func (b *board) drawMoves() {
	u := b.u
	for _, t := range b.v.Traces {
		if !contains(moveKinds, t.Kind) {
			continue
		}
		hs, ok := b.tracePath(t)
		if !ok {
			continue
		}
		col := inkSoft
		if un, ok := b.unit(t.Unit); ok {
			col = b.style(un.Side).fill.mix(black, 0.15)
		}
		if len(hs) < 2 {
			b.results = append(b.results, result{0, t, col}) // listed, nothing to draw
			continue
		}
		b.used["trace:move"] = true
		ps := make([]pt, len(hs))
		for i, h := range hs {
			ps[i] = b.centre(h)
		}
		last := ps[len(ps)-1]
		dir := last.sub(ps[len(ps)-2]).unit()
		tip := last.sub(dir.mul(26 * u))
		body := append(append([]pt{}, ps[:len(ps)-1]...), tip.sub(dir.mul(6*u)))
		dash := []float64(nil)
		if t.Kind == "retreat" {
			dash = []float64{6 * u, 3 * u}
		}
		b.c.line(body, white.alpha(0.85), 7.5*u, true)
		b.c.arrowHead(tip.add(dir.mul(1.5*u)), dir, 13*u, 14*u, white.alpha(0.85))
		b.c.line(body, col, 3.8*u, true, dash...)
		b.c.arrowHead(tip, dir, 10*u, 10*u, col)
		b.c.circle(ps[0], 4*u, col, white, 1.4*u)
		b.moved++
		if t.Result != "" {
			b.badge(tip.sub(dir.mul(13*u)).add(dir.perp().mul(9*u)), b.number(t, col), col)
		} else {
			b.results = append(b.results, result{0, t, col})
		}
	}
}

// drawAttacks draws melee attacks, fire and spells over the counters: an
// arrow from each attacker's hex to the target (the last hex of the path),
// and the result beside the target.
func (b *board) drawAttacks() {
	u := b.u
	for _, t := range b.v.Traces {
		if contains(moveKinds, t.Kind) {
			continue
		}
		hs, ok := b.tracePath(t)
		if !ok {
			continue
		}
		st := traceStyleOf(t.Kind)
		b.used["trace:"+t.Kind] = true
		target := hs[len(hs)-1]
		tc := b.centre(target)
		var from []hex.Hex
		for _, a := range hs[:len(hs)-1] {
			if a != target {
				from = append(from, a)
			}
		}
		n := 0
		if t.Result != "" || len(from) > 0 {
			n = b.number(t, st.col)
		}
		if len(from) == 0 {
			// No attacker hex: ring the target.
			b.c.circle(tc, 30*u, Colour{}, st.col, st.width*u)
			if n > 0 {
				b.badge(tc.add(pt{24 * u, -22 * u}), n, st.col)
			}
		}
		first := true
		for _, a := range from {
			ac := b.centre(a)
			dir := tc.sub(ac).unit()
			p := ac.add(dir.mul(20 * u)) // from the attacker's counter edge
			tip := tc.sub(dir.mul(21 * u))
			q := tip.sub(dir.mul(7 * u))
			w := st.width * u
			var dash []float64
			for _, d := range st.dash {
				dash = append(dash, d*u)
			}
			b.c.line([]pt{p, q}, white.alpha(0.9), w+3*u, true)
			b.c.arrowHead(tip.add(dir.mul(1.5*u)), dir, 14*u, 15*u, white.alpha(0.9))
			b.c.line([]pt{p, q}, st.col, w, dash == nil, dash...)
			b.c.arrowHead(tip, dir, 11*u, 11*u, st.col)
			if first && n > 0 {
				b.badge(p.lerp(tip, 0.5).add(dir.perp().mul(10*u)), n, st.col)
				first = false
			}
		}
	}
}

// badge marks a numbered result on the map.
func (b *board) badge(c pt, n int, col Colour) {
	u := b.u
	b.c.circle(c, 7.5*u, col, white, 1.6*u)
	b.c.text(pt{c.X, c.Y + 3.2*u}, itoa(n), 9*u, true, middle, white)
}

// result is one line of the "Last adjudication" list.
type result struct {
	n   int // its badge number; 0 for a move without a result
	t   adjudicator.Trace
	col Colour
}

// number gives a trace its badge number and lists it.
func (b *board) number(t adjudicator.Trace, col Colour) int {
	n := 0
	for _, r := range b.results {
		n = max(n, r.n)
	}
	n++
	b.results = append(b.results, result{n, t, col})
	return n
}

// resultRows lists what the last adjudication did, in order.
func (b *board) resultRows(x, y, w float64) float64 {
	u := b.u
	size := 9.5 * u
	for _, r := range b.results {
		t := r.t
		var s string
		if t.Unit != "" {
			s = t.Unit + " "
		}
		path := t.Path
		if contains(moveKinds, t.Kind) {
			if t.Kind != "move" {
				s += t.Kind + " "
			}
			if len(path) == 1 {
				path = append(path, path[0])
			}
			s += path[0] + " → " + path[len(path)-1]
		} else {
			s += t.Kind + " "
			if len(path) > 1 {
				s += strings.Join(path[:len(path)-1], ", ") + " → "
			}
			s += path[len(path)-1]
		}
		if t.Result != "" {
			s += ": " + t.Result
		}
		c := pt{x + 8*u, y + 7*u}
		if r.n > 0 {
			b.badge(c, r.n, r.col)
		} else {
			b.c.line([]pt{{c.X - 7*u, c.Y}, {c.X + 1*u, c.Y}}, r.col, 2.6*u, true)
			b.c.arrowHead(pt{c.X + 8*u, c.Y}, pt{1, 0}, 7*u, 7*u, r.col)
		}
		for i, l := range b.wrap(s, size, false, w-22*u) {
			b.c.text(pt{x + 20*u, y + 10.5*u + float64(i)*12*u}, l, size, false, start, ink)
			if i > 0 {
				y += 12 * u
			}
		}
		y += 17 * u
	}
	return y
}
