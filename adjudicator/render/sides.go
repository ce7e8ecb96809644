package render

import (
	"slices"
	"sort"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
)

var brokenKinds = []string{"broken", "breach", "breached", "destroyed", "burned", "burnt"}

// sideState reads the markers on a hexside: broken, open, and the rest.
func sideState(ms []adjudicator.HexMark) (broken, open bool, other []adjudicator.HexMark) {
	for _, m := range ms {
		switch {
		case slices.Contains(brokenKinds, m.Kind):
			broken = true
		case m.Kind == "open" || m.Kind == "opened":
			open = true
		default:
			other = append(other, m)
		}
	}
	return
}

// drawSides draws the hexside features (walls, entrances, lines…), then the
// markers on hexsides that carry no feature.
func (b *board) drawSides() {
	done := map[hex.Hexside]bool{}
	for _, f := range b.m.Sides() {
		if x, y := f.Side.Hexes(); !b.inView(x) && !b.inView(y) {
			continue
		}
		p, q := b.sidePts(f.Side)
		broken, open, other := sideState(b.sideMark[f.Side])
		done[f.Side] = true
		out := b.outward(f, p, q)
		if off := b.levelOffset(f); off != (pt{}) {
			p, q = p.add(off), q.add(off)
		}
		b.sideFeature(p, q, out, f.Kind, f.HasTag("tower"), broken, open, 1)
		b.otherSideMarks(p, q, other)
	}
	var rest []hex.Hexside
	for s := range b.sideMark {
		if !done[s] {
			rest = append(rest, s)
		}
	}
	sort.Slice(rest, func(i, j int) bool { return rest[i].Less(rest[j]) })
	for _, s := range rest {
		p, q := b.sidePts(s)
		broken, open, other := sideState(b.sideMark[s])
		if broken {
			b.used[b.st.brokenSideKey()] = true
			b.breakMark(p.lerp(q, 0.5), 1)
		}
		if open {
			b.otherSideMarks(p, q, []adjudicator.HexMark{{Kind: "open"}})
		}
		b.otherSideMarks(p, q, other)
	}
}

// outward is the unit vector across the side away from its inside hex (or
// away from the first hex when it has none).
func (b *board) outward(f hexmap.Side, p, q pt) pt {
	a, c := f.Side.Hexes()
	in := a
	if f.Inside == c {
		in = c
	}
	mid := p.lerp(q, 0.5)
	return mid.sub(b.centre(in)).unit()
}

// sideFeature draws one hexside feature of kind from p to q, in the
// shape its style gives; out points away from the inside. It marks the
// legend entry "side:KIND:VARIANT" it needs (variant "", "tower", "open"
// or "broken").
func (b *board) sideFeature(p, q, out pt, kind string, tower, broken, open bool, k float64) {
	u := b.u * k
	d := q.sub(p)
	st, styled := b.st.side[kind]
	col := colour(st.Colour)
	broken = broken || st.Broken
	key := "side:" + kind + ":"
	switch st.Shape {
	case "wall":
		// A broken wall still shows in the legend as a wall.
		if tower {
			b.used[key+"tower"] = true
		} else {
			b.used[key] = true
		}
		if broken {
			b.used[key+"broken"] = true
			b.stubs(p, q, col, Colour{}, 6*u)
			b.breakMark(p.lerp(q, 0.5), k)
			return
		}
		if tower {
			b.c.line([]pt{p, q}, col, 8.5*u, true)
			b.c.line([]pt{p, q}, rgb(0xa8a198), 2.4*u, true)
			return
		}
		b.c.line([]pt{p, q}, col, 6*u, true)
		var ms [][]pt
		n := d.unit()
		for _, t := range []float64{0.3, 0.7} {
			m := p.lerp(q, t).add(out.mul(3.6 * u))
			a, c := m.sub(n.mul(2*u)), m.add(n.mul(2*u))
			o := out.mul(3 * u)
			ms = append(ms, []pt{a, c, c.add(o), a.add(o)})
		}
		b.c.fillAll(ms, col)
	case "palisade":
		b.used[key] = true
		if broken {
			b.used[key+"broken"] = true
			b.stubs(p, q, col, Colour{}, 3.6*u)
			b.breakMark(p.lerp(q, 0.5), k)
			return
		}
		b.c.line([]pt{p, q}, col, 3.6*u, true)
		var ls [][]pt
		nn := d.unit().perp().mul(4.5 * u)
		for t := 0.16; t < 0.9; t += 0.17 {
			m := p.lerp(q, t)
			ls = append(ls, []pt{m.add(nn), m.sub(nn)})
		}
		b.c.lines(ls, col, 1.7*u, true)
	case "entrance":
		switch {
		case broken:
			b.used[key+"broken"] = true
		case open:
			b.used[key+"open"] = true
		default:
			b.used[key] = true
		}
		if broken || open {
			b.stubs(p, q, col, ink, 6*u)
		} else {
			a, c := p.lerp(q, 0.1), p.lerp(q, 0.9)
			b.c.line([]pt{a, c}, ink, 8.6*u, false)
			b.c.line([]pt{a, c}, col, 6*u, false)
		}
		m := p.lerp(q, 0.5)
		box := 12 * u
		fill := white
		if tower {
			fill = rgb(0xfff4c2)
		}
		b.c.rect(m.X-box/2, m.Y-box/2, box, box, fill, col, 1.8*u)
		b.c.text(pt{m.X, m.Y + 3.6*u}, st.Letter, 10*u, true, middle, col)
		if broken {
			b.breakMark(m, k)
		}
	case "line":
		b.used[key] = true
		b.c.line([]pt{p, q}, col, 5*u, true)
	case "cliff":
		b.used[key] = true
		b.c.line([]pt{p, q}, col, 3*u, true)
		var ts [][]pt
		n := d.unit()
		for _, t := range []float64{0.25, 0.5, 0.75} {
			m := p.lerp(q, t)
			ts = append(ts, []pt{m.sub(n.mul(2.5 * u)), m.add(n.mul(2.5 * u)), m.add(out.mul(4 * u))})
		}
		b.c.fillAll(ts, col)
	default:
		if !styled {
			col = okPurple
		}
		b.used[key] = true
		b.c.line([]pt{p, q}, col, 4*u, true, 4*u, 3*u)
	}
}

// stubs draws the two ends of a side, leaving the middle open.
func (b *board) stubs(p, q pt, col, casing Colour, w float64) {
	ls := [][]pt{{p.lerp(q, 0.1), p.lerp(q, 0.36)}, {p.lerp(q, 0.64), p.lerp(q, 0.9)}}
	if casing.A > 0 {
		b.c.lines(ls, casing, w+2.6*b.u, false)
	}
	b.c.lines(ls, col, w, false)
}

// breakMark is a cross with a white casing: something broken here.
func (b *board) breakMark(m pt, k float64) {
	u := b.u * k
	r := 6.5 * u
	x := [][]pt{{m.add(pt{-r, -r}), m.add(pt{r, r})}, {m.add(pt{-r, r}), m.add(pt{r, -r})}}
	b.c.lines(x, white, 5*u, true)
	b.c.lines(x, ink, 2.6*u, true)
}

// otherSideMarks draws a hexside's other markers: who holds an entrance
// ("controlled-by-SIDE": a disc in the side's colour beside it), and a
// labelled tag for anything else.
func (b *board) otherSideMarks(p, q pt, ms []adjudicator.HexMark) {
	m := p.lerp(q, 0.5)
	along := q.sub(p).unit()
	i := 0
	for _, mk := range ms {
		if side, ok := strings.CutPrefix(mk.Kind, "controlled-by-"); ok {
			b.used["held:"+side] = true
			c := m.add(along.mul(11 * b.u))
			b.c.circle(c, 4.5*b.u, b.style(adjudicator.Side(side)).fill, ink, 1.2*b.u)
			continue
		}
		l := mk.Kind
		if mk.Label != "" {
			l += " " + mk.Label
		}
		b.used["marker:other"] = true
		b.tag(pt{m.X, m.Y + float64(i)*12*b.u}, l, rgb(0xeeeeee), ink, 7.5*b.u)
		i++
	}
}
