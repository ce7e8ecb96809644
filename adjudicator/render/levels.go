package render

import (
	"math"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// Levels are drawn in the map's layer, and only on a map that has them
// (hexmap.Map.Leveled): a flat map's picture is unchanged.
//
//   - Each hex's floor is tinted by its level, darker a step per level
//     below 0, lighter a step per level above (floorTint), and tagged with
//     its level at its foot ("+1", "−1", "−½") when it is not 0.
//   - A hexside between two floors that do not connect (a drop, a cliff
//     edge) is a contour: a dark line, thicker for a drop of more than a
//     level, with ticks on the lower side.
//   - A ramp (a floor at a half level: stairs, a slope) is hatched with
//     steps across its way up and a chevron toward each side leading up.

// floorTint is the veil over a hex whose floor is at level l: black a step
// per level below 0, white a step per level above, none at 0.
func floorTint(l hex.Level) Colour {
	switch {
	case l < 0:
		return black.alpha(math.Min(0.07*float64(-l), 0.42))
	case l > 0:
		return white.alpha(math.Min(0.13*float64(l), 0.6))
	}
	return Colour{}
}

// drawFloors tints every hex of the picture by its floor's level, and
// hatches the ramps.
func (b *board) drawFloors() {
	if !b.m.Leveled() {
		return
	}
	for _, h := range b.shown() {
		l := b.m.Floor(h)
		b.used["level:"+l.String()] = true
		if t := floorTint(l); t.A > 0 {
			b.c.ops = append(b.c.ops, op{kind: opFill, paths: [][]pt{orient(b.hexPts(h), true)}, fill: t})
		}
		if r, ok := b.m.Ramp(h); ok {
			b.used["ramp"] = true
			b.rampMarks(b.centre(h), b.rampUp(r.Up, r.Down), r.Up, 1)
		}
	}
}

// rampUp is the way up a ramp, as a unit vector: toward its up sides and
// away from its down sides; straight up the page (north) when it names
// neither.
func (b *board) rampUp(up, down []hex.Direction) pt {
	var v pt
	for _, d := range up {
		v = v.add(dirVec(b.m.Layout, d))
	}
	for _, d := range down {
		v = v.sub(dirVec(b.m.Layout, d))
	}
	if v.len() < 1e-9 {
		return pt{0, -1}
	}
	return v.unit()
}

// rampMarks draws a ramp's steps across the way up v, inside the hex
// centred on c, and a chevron toward each of the up sides, at size k.
func (b *board) rampMarks(c, v pt, up []hex.Direction, k float64) {
	u := b.u * k
	r := 0.72 * 20 * sqrt3 * u // the steps stay well inside the hex
	across := v.perp()
	var steps [][]pt
	for t := -r + 5*u; t < r-2*u; t += 6.5 * u {
		half := math.Sqrt(math.Max(r*r-t*t, 0)) * 0.92
		m := c.add(v.mul(t))
		steps = append(steps, []pt{m.sub(across.mul(half)), m.add(across.mul(half))})
	}
	b.c.lines(steps, ink.alpha(0.42), 1.3*u, false)
	var chev [][]pt
	for _, d := range up {
		w := dirVec(b.m.Layout, d)
		tip := c.add(w.mul(0.7 * r))
		back := tip.sub(w.mul(6 * u))
		n := w.perp().mul(6 * u)
		chev = append(chev, []pt{back.add(n), tip, back.sub(n)})
	}
	if len(up) == 0 { // no up side named: one chevron up the hatch
		tip := c.add(v.mul(0.7 * r))
		back := tip.sub(v.mul(6 * u))
		n := across.mul(6 * u)
		chev = append(chev, []pt{back.add(n), tip, back.sub(n)})
	}
	b.c.lines(chev, white, 4.4*u, true)
	b.c.lines(chev, ink, 2.2*u, true)
}

// drawContours draws the hexsides between floors that do not connect: a
// dark line, thicker across a whole level or more, with three ticks on the
// lower side.
func (b *board) drawContours() {
	if !b.m.Leveled() {
		return
	}
	var thin, thick, ticks [][]pt
	for _, h := range b.shown() {
		for _, d := range hex.Directions {
			n := b.m.Layout.Neighbour(h, d)
			if !b.m.OnMap(n) || (b.inView(n) && n.Less(h)) {
				continue // off the map, or drawn with n
			}
			lh, ln := b.m.Floor(h), b.m.Floor(n)
			if lh == ln || b.m.Connects(b.m.FloorLoc(h), b.m.FloorLoc(n)) {
				continue
			}
			b.used["contour"] = true
			p, q := b.sidePts(b.m.Layout.Side(h, d))
			if abs(int(lh-ln)) >= int(hex.Storey) {
				thick = append(thick, []pt{p, q})
			} else {
				thin = append(thin, []pt{p, q})
			}
			low := n
			if lh < ln {
				low = h
			}
			ticks = append(ticks, b.contourTicks(p, q, b.centre(low), 1)...)
		}
	}
	b.c.lines(thin, ink, 1.8*b.u, true)
	b.c.lines(thick, ink, 3*b.u, true)
	b.c.lines(ticks, ink, 1.4*b.u, false)
}

// contourTicks are three short ticks from the side p–q toward low, the
// centre of the lower hex, at size k.
func (b *board) contourTicks(p, q, low pt, k float64) [][]pt {
	u := b.u * k
	m := p.lerp(q, 0.5)
	down := low.sub(m).unit()
	var out [][]pt
	for _, t := range []float64{0.25, 0.5, 0.75} {
		a := p.lerp(q, t)
		out = append(out, []pt{a, a.add(down.mul(5 * u))})
	}
	return out
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// drawLevelLabels tags each hex whose floor is not at level 0 with its
// level, at its foot.
func (b *board) drawLevelLabels() {
	if !b.m.Leveled() || b.overview() {
		return
	}
	for _, h := range b.shown() {
		if l := b.m.Floor(h); l != 0 {
			c := b.centre(h)
			b.levelTag(pt{c.X, c.Y + 29.5*b.u}, l, 1)
		}
	}
}

// levelTag is a small white tag with a level, centred on c, at size k.
func (b *board) levelTag(c pt, l hex.Level, k float64) {
	u := b.u * k
	b.tag(c, levelText(l), white.alpha(0.92), ink, 7*u)
}

// floorLevels are the floor levels the picture shows, highest first.
func (b *board) floorLevels() []hex.Level {
	var out []hex.Level
	for _, h := range b.shown() {
		if l := b.m.Floor(h); !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	slices.Sort(out)
	slices.Reverse(out)
	return out
}
