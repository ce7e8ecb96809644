package render

import (
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
)

// Colours of a deck (a footbridge, a gallery) drawn over the floor.
var (
	deckFill  = rgb(0xe3cf9f)
	deckEdge  = rgb(0x3d2a12)
	deckPlank = rgb(0x8a6a3a)
)

// drawDecks draws each deck of the map as a band along its path, through
// the centres of its hexes, with cross planks and its level on a tag where
// it crosses a hexside near its middle. It draws over the floor and the
// hexsides under it are drawn over it (a wall under a footbridge still
// shows); the level tags of hexside features say which stand on the deck.
func (b *board) drawDecks() {
	for _, d := range b.m.Decks() {
		var runs [][]pt // the path's runs inside the picture
		var run []pt
		for _, h := range d.Path {
			if !b.inView(h) {
				if len(run) > 1 {
					runs = append(runs, run)
				}
				run = nil
				continue
			}
			run = append(run, b.centre(h))
		}
		if len(run) > 1 {
			runs = append(runs, run)
		}
		if len(runs) == 0 {
			continue
		}
		kind := d.Kind
		if kind == "" {
			kind = "deck"
		}
		b.used["deck:"+kind] = true
		b.deckBand(runs, 1)
		// The level tag, on the hexside crossed nearest the path's middle.
		best, mid := -1, float64(len(d.Path)-2)/2
		for i := 0; i+1 < len(d.Path); i++ {
			if b.inView(d.Path[i]) && b.inView(d.Path[i+1]) && (best < 0 || absf(float64(i)-mid) < absf(float64(best)-mid)) {
				best = i
			}
		}
		if best >= 0 {
			at := b.centre(d.Path[best]).lerp(b.centre(d.Path[best+1]), 0.5)
			b.levelTag(at, d.Level, 1)
		}
	}
}

// deckBand draws a deck along the polylines runs, at size k: a light
// band with dark edges and cross planks.
func (b *board) deckBand(runs [][]pt, k float64) {
	u := b.u * k
	b.c.lines(runs, deckEdge, 13*u, false)
	b.c.lines(runs, deckFill, 9.4*u, false)
	var planks [][]pt
	for _, r := range runs {
		for i := 0; i+1 < len(r); i++ {
			p, q := r[i], r[i+1]
			d := q.sub(p)
			l := d.len()
			n := d.unit().perp().mul(4.7 * u)
			for s := 2.5 * u; s < l; s += 5 * u {
				m := p.add(d.unit().mul(s))
				planks = append(planks, []pt{m.add(n), m.sub(n)})
			}
		}
	}
	b.c.lines(planks, deckPlank, 0.9*u, false)
}

func absf(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// drawSideLevels tags each hexside feature that stands only above both
// floors it separates (a railing along a deck) with its level, beside its
// middle, so that it is not read as standing on the floor.
func (b *board) drawSideLevels() {
	if !b.m.Leveled() {
		return
	}
	for _, f := range b.m.Sides() {
		x, y := f.Side.Hexes()
		if !f.OnLevel || (!b.inView(x) && !b.inView(y)) {
			continue
		}
		if f.Level <= b.m.Floor(x) && f.Level <= b.m.Floor(y) {
			continue
		}
		p, q := b.sidePts(f.Side)
		off := b.levelOffset(f)
		b.used["side-level"] = true
		b.levelTag(p.lerp(q, 0.22).add(off), f.Level, 0.9)
	}
}

// levelOffset is how far a hexside feature is drawn beside its hexside so
// that features of one hexside at different levels (a wall under a
// footbridge, a railing on it) both show: none for the lowest level; each
// higher one 5 units further toward the hexside's first hex. Features
// standing at every level, and hexsides with features at one level only,
// stay on the hexside.
func (b *board) levelOffset(f hexmap.Side) pt {
	if !f.OnLevel {
		return pt{}
	}
	var below []hex.Level
	for _, g := range b.m.Features(f.Side) {
		if g.OnLevel && g.Level < f.Level && !slices.Contains(below, g.Level) {
			below = append(below, g.Level)
		}
	}
	if len(below) == 0 {
		return pt{}
	}
	x, _ := f.Side.Hexes()
	p, q := b.sidePts(f.Side)
	toward := b.centre(x).sub(p.lerp(q, 0.5)).unit()
	return toward.mul(5 * b.u * float64(len(below)))
}
