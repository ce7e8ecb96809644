package render

import (
	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// drawFootprints draws each counter that covers several hexes
// (UnitView.Shape): its hexes shaded in its side's colour under one
// outline, the front sides of the outline thick and solid, the flank sides
// thin and solid, the rear sides dashed; then the counter itself once, in
// the covered hex nearest the middle, with the arrow of its front.
func (b *board) drawFootprints() {
	u := b.u
	for _, p := range b.units {
		if !p.multi {
			continue
		}
		b.used["footprint"] = true
		st := b.style(p.u.Side)
		hs := p.fp.Hexes()
		var cells [][]pt
		var mid pt
		for _, h := range hs {
			cells = append(cells, b.hexPts(h))
			mid = mid.add(b.centre(h))
		}
		mid = mid.mul(1 / float64(len(hs)))
		// The counter stands in the covered hex nearest the middle (the
		// first of those as near), where a counter of one hex would: its
		// hex numbers stay clear.
		at := b.centre(hs[0])
		for _, h := range hs[1:] {
			if c := b.centre(h); c.sub(mid).len() < at.sub(mid).len()-0.01*u {
				at = c
			}
		}
		b.c.fillAll(cells, st.fill.alpha(0.38))
		var front, flank, rear [][]pt
		for _, e := range p.fp.Outline() {
			a, c := b.sidePts(e.Side)
			switch {
			case e.Aspect&hex.AspectFront != 0:
				front = append(front, []pt{a, c})
			case e.Aspect&hex.AspectFlank != 0:
				flank = append(flank, []pt{a, c})
			default:
				rear = append(rear, []pt{a, c})
			}
		}
		b.c.ops = append(b.c.ops, op{kind: opStroke, paths: rear, stroke: ink, width: 2.2 * u, dash: []float64{5 * u, 3.5 * u}})
		b.c.lines(flank, ink, 2.2*u, true)
		b.c.lines(front, ink, 6.5*u, true)
		b.c.lines(front, st.fill, 3.6*u, true)
		b.counter(pt{at.X - counterW/2*u, at.Y + counterTop*u}, p.u, false)
		b.facingArrow(at, b.frontVec(p.fp), 1)
		b.used["facing"] = true
		if p.u.Ready {
			b.readyMark(pt{at.X + counterW/2*u, at.Y + (counterTop+counterH)*u}, 1)
		}
	}
}

// frontVec is the unit vector of a footprint's front: its facing, or
// between its facing and the next direction clockwise for a shape whose
// front looks between two hexsides (Triangle).
func (b *board) frontVec(f hex.Footprint) pt {
	var v pt
	for _, d := range hex.Directions {
		if f.Bearing(d) <= 1 {
			v = v.add(dirVec(b.m.Layout, d))
		}
	}
	return v.unit()
}
