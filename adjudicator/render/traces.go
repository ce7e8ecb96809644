package render

import (
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// moveKinds are the traces drawn as paths (a unit going from hex to hex),
// with the style's PathTraces; every other kind is an action from hexes
// onto a target.
var moveKinds = []string{"move", "fly", "retreat", "advance", "charge", "displace"}

// drawAreas draws area markers (fog and the like) over the terrain: a veil
// on every hex within the radius, and a dashed outline round the area.
func (b *board) drawAreas() {
	u := b.u
	for _, mk := range b.areas {
		h, _ := b.parseHex(mk.At)
		in := map[hex.Hex]bool{}
		var hs []hex.Hex
		for _, o := range b.m.Layout.Within(h, mk.Radius) {
			if b.inView(o) {
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
				if !in[b.m.Layout.Neighbour(o, d)] {
					p, q := b.m.Layout.Corners(o, d)
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
// drawn: those the style gives a shape and a tag, and anything else as a
// tag of its kind at the foot of the hex.
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
			if ms, ok := b.st.marker[mk.Kind]; ok {
				b.used["marker:"+mk.Kind] = true
				if ms.Shape == "spiral" {
					b.c.line(spiral(c, 4*u, 31*u, 2.6), colour(ms.Colour), 2.4*u, true)
				}
				tags = append(tags, tg{markerTag(ms, mk.Label), colour(ms.TagFill), ink})
				continue
			}
			b.used["marker:other"] = true
			l := mk.Kind
			if mk.Label != "" {
				l += " " + mk.Label
			}
			tags = append(tags, tg{l, rgb(0xe6e6e6), ink})
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

// markerTag is the tag's text of a styled marker with label l.
func markerTag(ms adjudicator.MarkerStyle, l string) string {
	switch {
	case l == "":
		return ms.Tag
	case l[0] >= '0' && l[0] <= '9':
		return ms.Tag + l
	}
	return l
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

// traced is a trace of the View read for drawing.
type traced struct {
	t    adjudicator.Trace
	hs   []hex.Hex
	move bool
	step int     // its adjudication's number when the picture shows several; 0 when one
	fade float64 // how far its colours go toward white: older steps are paler
	n    int     // its number in the results list and on the map; 0 for none
	col  Colour  // its colour, faded
}

// planTraces reads the View's traces in the order they are drawn and
// listed: by Step (the earliest adjudication first, under the later ones),
// and within one adjudication the moves, then the attacks, each in View
// order. It numbers those whose result or attackers are drawn on the map.
func (b *board) planTraces() {
	for _, t := range b.v.Traces {
		if t.Step > 0 && !slices.Contains(b.steps, t.Step) {
			b.steps = append(b.steps, t.Step)
		}
	}
	sort.Ints(b.steps)
	for _, t := range b.v.Traces {
		hs, ok := b.tracePath(t)
		if !ok {
			continue
		}
		tr := traced{t: t, hs: hs, move: b.st.isPath(t.Kind), step: max(t.Step, 0)}
		if i := slices.Index(b.steps, tr.step); i >= 0 && len(b.steps) > 1 {
			tr.fade = 0.55 * float64(len(b.steps)-1-i) / float64(len(b.steps)-1)
		}
		b.traces = append(b.traces, tr)
	}
	// A trace without a Step among traces with one belongs to the last
	// adjudication.
	key := func(tr traced) int {
		if tr.step == 0 && len(b.steps) > 0 {
			return b.steps[len(b.steps)-1]
		}
		return tr.step
	}
	sort.SliceStable(b.traces, func(i, j int) bool {
		ki, kj := key(b.traces[i]), key(b.traces[j])
		if ki != kj {
			return ki < kj
		}
		return b.traces[i].move && !b.traces[j].move
	})
	n := 0
	for i := range b.traces {
		tr := &b.traces[i]
		if tr.move {
			tr.col = inkSoft
			if un, ok := b.unit(tr.t.Unit); ok {
				tr.col = b.style(un.Side).fill.mix(black, 0.15)
			}
			if len(tr.hs) >= 2 && tr.t.Result != "" {
				n++
				tr.n = n
			}
		} else {
			tr.col = traceStyleOf(tr.t.Kind).col
			if tr.t.Result != "" || len(b.attackers(tr.hs)) > 0 {
				n++
				tr.n = n
			}
		}
		if tr.move || tr.n > 0 {
			b.results = append(b.results, result{tr.n, tr.t, tr.col, key(*tr)})
		}
		tr.col = tr.col.mix(white, tr.fade)
	}
}

// attackers are the hexes a trace attacks from: its path but the target
// (the last hex).
func (b *board) attackers(hs []hex.Hex) []hex.Hex {
	target := hs[len(hs)-1]
	var from []hex.Hex
	for _, a := range hs[:len(hs)-1] {
		if a != target {
			from = append(from, a)
		}
	}
	return from
}

// drawMoves draws the paths units moved, under the counters: a line through
// the hex centres from a dot to an arrow, which stops at the edge of the
// counter in the last hex, or near the centre of an empty one (where the
// unit moved on in a later adjudication: the later path starts there).
func (b *board) drawMoves() {
	u := b.u
	for i := range b.traces {
		tr := &b.traces[i]
		if !tr.move || len(tr.hs) < 2 {
			continue
		}
		b.used["trace:move"] = true
		ps := make([]pt, len(tr.hs))
		for i, h := range tr.hs {
			ps[i] = b.centre(h)
		}
		last := ps[len(ps)-1]
		dir := last.sub(ps[len(ps)-2]).unit()
		stop := 26 * u
		if !b.occupied[tr.hs[len(tr.hs)-1]] {
			stop = 8 * u
		}
		tip := last.sub(dir.mul(stop))
		body := append(append([]pt{}, ps[:len(ps)-1]...), tip.sub(dir.mul(6*u)))
		dash := []float64(nil)
		if tr.t.Kind == "retreat" {
			dash = []float64{6 * u, 3 * u}
		}
		casing := white.alpha(0.85 - 0.5*tr.fade)
		b.c.line(body, casing, 7.5*u, true)
		b.c.arrowHead(tip.add(dir.mul(1.5*u)), dir, 13*u, 14*u, casing)
		b.c.line(body, tr.col, 3.8*u, true, dash...)
		b.c.arrowHead(tip, dir, 10*u, 10*u, tr.col)
		b.c.circle(ps[0], 4*u, tr.col, white, 1.4*u)
		b.moved++
		if tr.n > 0 {
			b.badge(tip.sub(dir.mul(13*u)).add(dir.perp().mul(9*u)), tr.n, tr.col)
		}
	}
}

// drawAttacks draws melee attacks, fire and spells over the counters: an
// arrow from each attacker's hex to the target (the last hex of the path),
// and the result beside the target.
func (b *board) drawAttacks() {
	u := b.u
	for i := range b.traces {
		tr := &b.traces[i]
		if tr.move {
			continue
		}
		st := traceStyleOf(tr.t.Kind)
		b.used["trace:"+tr.t.Kind] = true
		tc := b.centre(tr.hs[len(tr.hs)-1])
		from := b.attackers(tr.hs)
		if len(from) == 0 {
			// No attacker hex: ring the target.
			b.c.circle(tc, 30*u, Colour{}, tr.col, st.width*u)
			if tr.n > 0 {
				b.badge(tc.add(pt{24 * u, -22 * u}), tr.n, tr.col)
			}
		}
		casing := white.alpha(0.9 - 0.5*tr.fade)
		for k, a := range from {
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
			b.c.line([]pt{p, q}, casing, w+3*u, true)
			b.c.arrowHead(tip.add(dir.mul(1.5*u)), dir, 14*u, 15*u, casing)
			b.c.line([]pt{p, q}, tr.col, w, dash == nil, dash...)
			b.c.arrowHead(tip, dir, 11*u, 11*u, tr.col)
			if k == 0 && tr.n > 0 {
				b.badge(p.lerp(tip, 0.5).add(dir.perp().mul(10*u)), tr.n, tr.col)
			}
		}
	}
}

// drawStepBadges puts the number of its adjudication on every trace when
// the picture shows several, over the counters: on a move's first leg,
// short of the next hex's number (nearer its start when a result badge
// sits at the end of a one-leg move),
// beside an attack's arrow opposite its result, or at the corner of a
// ringed target.
func (b *board) drawStepBadges() {
	if len(b.steps) == 0 {
		return
	}
	u := b.u
	for _, tr := range b.traces {
		step := tr.step
		if step == 0 {
			step = b.steps[len(b.steps)-1]
		}
		var at pt
		switch {
		case tr.move && len(tr.hs) < 2:
			continue
		case tr.move:
			a, c := b.centre(tr.hs[0]), b.centre(tr.hs[1])
			f := 0.4 // clear of the next hex's number
			if len(tr.hs) == 2 && tr.n > 0 {
				f = 0.25
			}
			at = a.lerp(c, f)
		default:
			tc := b.centre(tr.hs[len(tr.hs)-1])
			from := b.attackers(tr.hs)
			if len(from) == 0 {
				at = tc.add(pt{-24 * u, -22 * u})
				break
			}
			ac := b.centre(from[0])
			dir := tc.sub(ac).unit()
			p, tip := ac.add(dir.mul(20*u)), tc.sub(dir.mul(21*u))
			at = p.lerp(tip, 0.5).sub(dir.perp().mul(10 * u))
		}
		b.used["steps"] = true
		b.stepBadge(at, step)
	}
}

// stepBadge marks adjudication n: a dark square with its number.
func (b *board) stepBadge(c pt, n int) {
	u := b.u
	s := itoa(n)
	w := math.Max(12*u, b.fs.width(s, 8.5*u, true)+5*u)
	b.c.poly(roundRect(c.X-w/2, c.Y-6*u, w, 12*u, 2*u), ink, white, 1.4*u)
	b.c.text(pt{c.X, c.Y + 3.1*u}, s, 8.5*u, true, middle, white)
}

// badge marks a numbered result on the map.
func (b *board) badge(c pt, n int, col Colour) {
	u := b.u
	b.c.circle(c, 7.5*u, col, white, 1.6*u)
	b.c.text(pt{c.X, c.Y + 3.2*u}, itoa(n), 9*u, true, middle, white)
}

// stepsNote says what the numbered squares mean.
const stepsNote = "Numbered squares: the adjudications since your last picture, in order, as your mail numbers them; older ones are drawn paler."

// result is one line of the results list.
type result struct {
	n    int // its badge number; 0 for a move without a result
	t    adjudicator.Trace
	col  Colour
	step int // its adjudication's number when the picture shows several
}

// resultsTitle is the title of the results list: the last adjudication,
// or every adjudication since the viewer's last picture.
func (b *board) resultsTitle() string {
	if len(b.steps) > 0 {
		return "Since your last picture"
	}
	return "Last adjudication"
}

// resultRows lists what the last adjudication did, in order; when the
// picture shows several, under the number of each.
func (b *board) resultRows(x, y, w float64) float64 {
	u := b.u
	size := 9.5 * u
	if len(b.steps) > 0 {
		for _, l := range b.wrap(stepsNote, 8.5*u, false, w) {
			b.c.text(pt{x, y + 9*u}, l, 8.5*u, false, start, inkSoft)
			y += 11 * u
		}
		y += 4 * u
	}
	step := 0
	for _, r := range b.results {
		if len(b.steps) > 0 && r.step != step {
			step = r.step
			b.stepBadge(pt{x + 8*u, y + 7*u}, step)
			label := "Adjudication " + itoa(step)
			if step == b.steps[len(b.steps)-1] {
				label += " (the latest)"
			}
			b.c.text(pt{x + 20*u, y + 10.5*u}, label, size, true, start, ink)
			y += 17 * u
		}
		t := r.t
		var s string
		if t.Unit != "" {
			s = t.Unit + " "
		}
		path := t.Path
		if b.st.isPath(t.Kind) {
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
