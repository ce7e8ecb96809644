package render

import (
	"math"
	"slices"
	"sort"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// Counter size and position in units, relative to the hex centre.
const (
	counterW   = 44.0
	counterH   = 38.0
	counterTop = -13.0 // the counter's top edge, below the hex number
)

// style returns the counter colours of side s.
func (b *board) style(s adjudicator.Side) sideStyle {
	for i, o := range b.sides {
		if o == s {
			return sidePalette[i%len(sidePalette)]
		}
	}
	return neutralSide
}

// stack is what stands in one location: a hex's floor, or a deck above it
// (on a flat map, one hex).
type stack struct {
	h      hex.Hex
	lv     hex.Level // the location's level
	deck   bool      // the location is a deck above the floor
	units  []adjudicator.UnitView
	ghosts []adjudicator.UnitView
}

// where names the stack's location: "0304" on the floor, "0304@+1" on a
// deck.
func (s stack) where() string {
	if s.deck {
		return hex.At(s.h, s.lv).String()
	}
	return s.h.String()
}

// stacks groups the placed units by location, hexes by column then row
// and the floor before the decks above it, units in View order. Counters
// covering several hexes are not in any stack (drawFootprints).
func (b *board) stacks() []stack {
	type key struct {
		h    hex.Hex
		lv   hex.Level
		deck bool
	}
	idx := map[key]int{}
	var out []stack
	get := func(p placed) *stack {
		k := key{p.h, p.lv, p.deck}
		i, ok := idx[k]
		if !ok {
			i = len(out)
			idx[k] = i
			out = append(out, stack{h: p.h, lv: p.lv, deck: p.deck})
		}
		return &out[i]
	}
	for _, p := range b.units {
		if p.multi {
			continue
		}
		s := get(p)
		s.units = append(s.units, p.u)
	}
	for _, p := range b.ghosts {
		s := get(p)
		s.ghosts = append(s.ghosts, p.u)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].h != out[j].h {
			return out[i].h.Less(out[j].h)
		}
		return !out[i].deck && out[j].deck || out[i].deck == out[j].deck && out[i].lv < out[j].lv
	})
	return out
}

// drawUnits draws every stack: eliminated units ghosted underneath, then
// the counters, the top one last, with a "+n" for a stack of three or
// more and the ready mark when a unit of the stack may still act.
func (b *board) drawUnits() {
	u0 := b.u
	defer func() { b.u = u0 }()
	b.tops = map[hex.Hex]pt{}
	below, decked := b.floorTaken(), b.deckTaken()
	for _, s := range b.stacks() {
		u := u0
		c := b.centre(s.h)
		tl := pt{c.X - counterW/2*u, c.Y + counterTop*u} // top-left of the top counter
		switch {
		case s.deck && below[s.h]:
			// Over a floor that holds a counter too: both smaller, the
			// deck's up and to the right, so that both read.
			u = u0 * deckK
			tl = pt{c.X - 3*u0, c.Y - 14*u0}
		case !s.deck && s.lv == b.m.Floor(s.h) && decked[s.h]:
			u = u0 * deckK
			tl = pt{c.X - 30*u0, c.Y - 2*u0}
		}
		b.u = u
		n := len(s.units)
		if len(s.ghosts) > 0 {
			off := pt{}
			if n > 0 {
				off = pt{-7 * u, -5 * u}
			}
			b.counter(tl.add(off), s.ghosts[0], true)
		}
		if n == 0 {
			continue
		}
		// Layers under the top counter peek out up and to the right.
		layers := min(n-1, 2)
		shift := pt{-2 * u * float64(layers), 2 * u * float64(layers)}
		for i := layers; i >= 1; i-- {
			b.counter(tl.add(shift).add(pt{4.5 * u * float64(i), -4.5 * u * float64(i)}), s.units[i], false)
		}
		top := tl.add(shift)
		if !s.deck {
			b.tops[s.h] = top
		}
		b.counter(top, s.units[0], false)
		if s.units[0].Type != Hidden && !s.deck {
			b.facing(c, s.units[0])
		}
		if s.deck {
			b.used["on-deck"] = true
			b.levelTag(top.add(pt{1 * u, 0}), s.lv, 1)
		}
		if n >= 3 {
			b.used["stack"] = true
			at := top.add(pt{0, counterH * u})
			b.c.circle(at, 7.5*u, white, ink, 1.2*u)
			b.c.text(at.add(pt{0, 3 * u}), "+"+itoa(n-1), 8*u, true, middle, ink)
		}
		for _, un := range s.units {
			if un.Ready {
				b.readyMark(top.add(pt{counterW * u, counterH * u}), 1)
				break
			}
		}
	}
}

// drawHexTabs prints again the number of every hex holding a counter (a
// unit or a ghost), where the layer printed it, on a white tab drawn over
// everything else on the map, so that no counter, arrow, badge or marker
// hides it.
func (b *board) drawHexTabs() {
	var hs []hex.Hex
	for _, s := range b.stacks() {
		hs = append(hs, s.h)
	}
	for _, p := range b.units {
		if p.multi {
			hs = append(hs, p.fp.Hexes()...)
		}
	}
	slices.SortStableFunc(hs, func(a, c hex.Hex) int {
		if a.Less(c) {
			return -1
		}
		if c.Less(a) {
			return 1
		}
		return 0
	})
	for _, h := range slices.Compact(hs) {
		if !b.inView(h) {
			continue
		}
		b.used["hextab"] = true
		b.hexTab(b.centre(h), h.String())
	}
}

// deckK is the size of the counters of a hex that holds counters both on
// its floor and on a deck above it.
const deckK = 0.8

// deckTaken are the hexes with a counter on a deck above the floor.
func (b *board) deckTaken() map[hex.Hex]bool {
	out := map[hex.Hex]bool{}
	for _, ps := range [][]placed{b.units, b.ghosts} {
		for _, p := range ps {
			if p.deck && !p.multi {
				out[p.h] = true
			}
		}
	}
	return out
}

// floorTaken are the hexes whose floor holds a counter: a stack, a ghost,
// or a counter covering several hexes.
func (b *board) floorTaken() map[hex.Hex]bool {
	out := map[hex.Hex]bool{}
	for _, ps := range [][]placed{b.units, b.ghosts} {
		for _, p := range ps {
			switch {
			case p.multi:
				for _, h := range p.fp.Hexes() {
					out[h] = true
				}
			case !p.deck:
				out[p.h] = true
			}
		}
	}
	return out
}

// hexTab draws hex number num on a tab over where drawHexNumbers prints it
// in the hex centred on c.
func (b *board) hexTab(c pt, num string) {
	u := b.u
	w := b.fs.width(num, hexNumSize*u, false) + 6*u
	b.c.poly(roundRect(c.X-w/2, c.Y+hexNumY*u-8.5*u, w, 11.5*u, 2.5*u), white, ink, 0.9*u)
	b.c.text(pt{c.X, c.Y + hexNumY*u}, num, hexNumSize*u, false, middle, ink)
}

// readyMark is the mark of a unit that may still act this phase: a yellow
// disc with a dark "play" triangle, centred on c (a counter's bottom-right
// corner), at size k.
func (b *board) readyMark(c pt, k float64) {
	u := b.u * k
	b.used["ready"] = true
	b.c.circle(c, 6.5*u, okYellow, ink, 1.2*u)
	b.c.poly([]pt{{c.X - 2.6*u, c.Y - 3.8*u}, {c.X + 4.2*u, c.Y}, {c.X - 2.6*u, c.Y + 3.8*u}}, ink, Colour{}, 0)
}

// counter draws one unit's counter with its top-left corner at tl; ghost
// draws it faded and crossed out (eliminated).
func (b *board) counter(tl pt, un adjudicator.UnitView, ghost bool) {
	if un.Type == Hidden && !ghost {
		b.hiddenCounter(tl, un)
		return
	}
	u := b.u
	w, h := counterW*u, counterH*u
	st := b.style(un.Side)
	fill, fg, edge := st.fill, st.text, ink
	if ghost {
		b.used["ghost"] = true
		fill, fg, edge = st.fill.mix(white, 0.65), inkSoft, inkSoft
	} else {
		b.c.poly(roundRect(tl.X+1.8*u, tl.Y+1.8*u, w, h, 3*u), black.alpha(0.35), Colour{}, 0)
	}
	body := roundRect(tl.X, tl.Y, w, h, 3*u)
	b.c.poly(body, fill, Colour{}, 0)
	if ghost {
		b.c.ops = append(b.c.ops, op{kind: opStroke, paths: [][]pt{body}, closed: true, stroke: edge, width: 1.2 * u, dash: []float64{3 * u, 2 * u}})
	} else {
		b.c.poly(body, Colour{}, edge, 1.2*u)
	}
	cx := tl.X + w/2
	inner := w - 4*u
	code := un.Type
	if code == "" {
		code = "?"
	}
	b.c.text(pt{cx, tl.Y + 12.5*u}, code, b.fs.fit(code, 11*u, true, inner), true, middle, fg)
	if un.Values != "" {
		b.c.text(pt{cx, tl.Y + 24*u}, un.Values, b.fs.fit(un.Values, 9.5*u, false, inner), false, middle, fg)
	}
	if un.ID != "" {
		b.c.text(pt{cx, tl.Y + 34*u}, un.ID, b.fs.fit(un.ID, 7.5*u, false, inner), false, middle, fg)
	}
	if ghost {
		r := 0.36
		x := [][]pt{{pt{cx - w*r, tl.Y + 3*u}, pt{cx + w*r, tl.Y + h - 3*u}}, {pt{cx - w*r, tl.Y + h - 3*u}, pt{cx + w*r, tl.Y + 3*u}}}
		b.c.lines(x, okVerm.alpha(0.85), 2.6*u, true)
		return
	}
	// Status chips sit on the top edge, from the right.
	var chips []statusChip
	for _, s := range un.Status {
		chips = append(chips, chipFor(s))
	}
	if un.Flying && !slices.Contains(un.Status, "flying") {
		chips = append(chips, chipFor("flying"))
	}
	x := tl.X + w + 2*u
	for _, ch := range chips {
		if ch.meaning != "" {
			b.used["status:"+ch.meaning] = true
		} else {
			b.used["status:other"] = true
		}
		cw := b.fs.width(ch.label, 7*u, true) + 5*u
		x -= cw
		b.c.poly(roundRect(x, tl.Y-5*u, cw, 10*u, 2.5*u), ch.fill, ink, 0.8*u)
		b.c.text(pt{x + cw/2, tl.Y + 2.5*u}, ch.label, 7*u, true, middle, ch.fg)
		x -= 1.5 * u
	}
	if len(un.Damage) > 0 {
		b.used["damage"] = true
	}
}

// dirVec is the unit vector from a hex centre toward its neighbour in d on
// layout l.
func dirVec(l hex.Layout, d hex.Direction) pt {
	if l.Pointy() {
		a := (l.Angle(d) - 90) * math.Pi / 180
		return pt{math.Cos(a), math.Sin(a)}
	}
	a := -math.Pi/2 + float64(d)*math.Pi/3
	if d == hex.N || d == hex.S {
		return pt{0, math.Sin(a)}
	}
	return pt{math.Cos(a), math.Sin(a)}
}

// facing draws the arrow of a unit that faces a hexside.
func (b *board) facing(c pt, un adjudicator.UnitView) {
	if un.Facing == "" {
		return
	}
	d, err := b.m.Layout.ParseDirection(un.Facing)
	if err != nil {
		b.warnf("unit %s faces %q, which is not a direction", un.ID, un.Facing)
		return
	}
	b.used["facing"] = true
	v := dirVec(b.m.Layout, d)
	b.facingArrow(c, v, 1)
}

// facingArrow points from a hex centre c along v, at size k.
func (b *board) facingArrow(c, v pt, k float64) {
	u := b.u * k
	tip := c.add(v.mul(34.5 * u))
	base := c.add(v.mul(21 * u))
	n := v.perp().mul(6.5 * u)
	// Dark with a white rim, between the counter and the hexside it faces:
	// it shows on the counter's corner, on its side's colour and on any
	// terrain.
	b.c.poly([]pt{tip, base.add(n), base.sub(n)}, ink, white, 1.6*u)
}
