package render

import (
	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// levelLegend are the legend entries of levels, decks, multi-hex counters
// and board seams the picture drew. miniHex draws a small hex of terrain;
// seg gives the ends of a legend's hexside sample.
func (b *board) levelLegend(miniHex func(c pt, kind string), seg func(c pt) (pt, pt)) []legendItem {
	u := b.u
	var items []legendItem
	add := func(key, label string, icon func(c pt)) {
		if b.used[key] {
			items = append(items, legendItem{label, icon})
		}
	}
	k := 0.34
	mini := func(c pt) []pt {
		var ps []pt
		for _, p := range [][2]float64{{-1, -1}, {1, -1}, {2, 0}, {1, 1}, {-1, 1}, {-2, 0}} {
			ps = append(ps, pt{c.X + p[0]*20*u*k, c.Y + p[1]*20*sqrt3*u*k})
		}
		return ps
	}
	for _, l := range b.floorLevels() {
		label := "floor at level " + levelText(l)
		if l.IsHalf() {
			label += " (stairs, ramp)"
		}
		add("level:"+l.String(), label, func(c pt) {
			miniHex(c, b.st.first)
			if t := floorTint(l); t.A > 0 {
				b.c.poly(mini(c), t, Colour{}, 0)
			}
			if l != 0 {
				b.levelTag(c, l, 0.9)
			}
		})
	}
	add("contour", "drop between floors (ticks on the lower side; thick: a level or more)", func(c pt) {
		p, q := seg(c)
		b.c.line([]pt{p, q}, ink, 3*u, true)
		b.c.lines(b.contourTicks(p, q, pt{c.X, c.Y + 10*u}, 1), ink, 1.4*u, false)
	})
	add("ramp", "stairs or ramp: steps across it, chevrons toward the way up", func(c pt) {
		ps := mini(c)
		b.c.poly(ps, rgb(0xeeeeee), grid, 0.8*u)
		b.rampMarks(c, pt{0, -1}, nil, 0.4)
	})
	for _, kind := range b.usedKeys("deck:") {
		add("deck:"+kind, kind+" above the floor, its level on a tag", func(c pt) {
			p, q := seg(c)
			b.deckBand([][]pt{{p, q}}, 0.8)
			b.levelTag(c, hex.Levels(1), 0.8)
		})
	}
	add("side-level", "hexside feature standing only at the tagged level", func(c pt) {
		p, q := seg(c)
		b.c.line([]pt{p, q}, inkSoft, 3*u, true, 4*u, 3*u)
		b.levelTag(p.lerp(q, 0.22), hex.Levels(1), 0.8)
	})
	add("on-deck", "counter on a deck above the floor (its level tagged)", func(c pt) {
		b.c.poly(roundRect(c.X-11*u, c.Y-8*u, 22*u, 18*u, 2*u), b.style(b.firstSide()).fill, ink, 1*u)
		b.levelTag(pt{c.X - 10*u, c.Y - 8*u}, hex.Levels(1), 0.8)
	})
	add("footprint", "counter covering several hexes: front sides solid and thick, rear sides dashed", func(c pt) {
		st := b.style(b.firstSide())
		ps := mini(c)
		b.c.poly(ps, st.fill.alpha(0.38), Colour{}, 0)
		front := [][]pt{{ps[0], ps[1]}, {ps[1], ps[2]}, {ps[5], ps[0]}}
		rear := [][]pt{{ps[2], ps[3]}, {ps[3], ps[4]}, {ps[4], ps[5]}}
		b.c.ops = append(b.c.ops, op{kind: opStroke, paths: rear, stroke: ink, width: 1.6 * u, dash: []float64{3 * u, 2.5 * u}})
		b.c.lines(front, ink, 4.4*u, true)
		b.c.lines(front, st.fill, 2.2*u, true)
	})
	add("seam", "where two boards meet (see Boards)", func(c pt) {
		p, q := seg(c)
		b.c.line([]pt{p, q}, white, 4.6*u, true)
		b.c.line([]pt{p, q}, seamColour, 2.2*u, false, 6*u, 3.5*u)
	})
	return items
}
