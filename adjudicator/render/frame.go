package render

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// Mode is what part of the map a picture shows, and how.
type Mode uint8

const (
	// Full is the whole map with every counter: the zero value, the
	// picture of a small board.
	Full Mode = iota
	// Crop is the region where things happened: every hex of the View's
	// traces and of Options.Focus, Options.Margin hexes around them, and
	// the rest of the map rows and columns between, with counters at
	// Options.Scale. Units and markers outside it are left out (the
	// Overview shows them). With no trace and no focus hex, a Crop is an
	// Overview.
	Crop
	// Overview is the whole map drawn small (Options.MapScale), with a
	// disc per side and hex giving how many counters stand there in place
	// of the counters.
	Overview
)

// String names the mode: "full", "crop" or "overview".
func (m Mode) String() string {
	switch m {
	case Crop:
		return "crop"
	case Overview:
		return "overview"
	}
	return "full"
}

// Hidden is the Type of a unit the viewer sees but cannot identify (an
// enemy stack under the fog of war): its Values give how many counters it
// holds ("3"). It is drawn as a blank counter in its side's colour with
// that number, and nothing else of it is ever drawn: no ID, status, facing
// or damage.
const Hidden = "hidden"

// The largest map area a Crop draws at full scale, in pixels, and how far
// below Scale a larger region may shrink it.
const (
	maxCropArea = 2_400_000
	minCropK    = 0.6
)

// frame settles the picture's mode: a Crop's region and map scale, an
// Overview's map scale.
func (b *board) frame() error {
	switch b.opt.Mode {
	case Full:
		return nil
	case Crop, Overview:
	default:
		return fmt.Errorf("render: unknown picture mode %d", b.opt.Mode)
	}
	if b.opt.MapScale < 0 || b.opt.MapScale > 4 {
		return fmt.Errorf("render: map scale %g is out of range (0 to 4)", b.opt.MapScale)
	}
	if b.opt.Mode == Crop {
		if b.cropRegion() {
			return nil
		}
		b.opt.Mode = Overview
		b.warnf("nothing to crop to (no trace, no focus hex): drawn as an overview")
	}
	k := b.opt.MapScale
	if k == 0 {
		k = 0.4
	}
	b.mapU = b.u * k
	return nil
}

// cropRegion finds a Crop's hexes: the box of columns and rows around the
// traces' and focus hexes, grown by the margin. It reports false when
// there is nothing to focus on.
func (b *board) cropRegion() bool {
	var focus []hex.Hex
	add := func(s string) {
		if h, err := hex.Parse(strings.TrimSpace(s)); err == nil && b.m.OnMap(h) {
			focus = append(focus, h)
		}
	}
	for _, t := range b.v.Traces {
		for _, s := range t.Path {
			add(s)
		}
	}
	for _, s := range b.opt.Focus {
		add(s)
	}
	if len(focus) == 0 {
		return false
	}
	margin := b.opt.Margin
	if margin <= 0 {
		margin = 2
	}
	minC, maxC, minR, maxR := math.MaxInt, math.MinInt, math.MaxInt, math.MinInt
	for _, f := range focus {
		for _, h := range b.m.Layout.Within(f, margin) {
			minC, maxC = min(minC, h.Col), max(maxC, h.Col)
			minR, maxR = min(minR, h.Row), max(maxR, h.Row)
		}
	}
	b.region = map[hex.Hex]bool{}
	for _, h := range b.m.Hexes() {
		if h.Col >= minC && h.Col <= maxC && h.Row >= minR && h.Row <= maxR {
			b.region[h] = true
		}
	}
	// A very large region is drawn smaller, down to minCropK of Scale.
	cols, rows := float64(maxC-minC+1), float64(maxR-minR+1)
	w, h := cols*3*20*b.u, rows*2*sqrt3*20*b.u // flat: 3 units of 20 per column
	if b.m.Layout.Pointy() {
		w, h = cols*2*sqrt3*20*b.u, rows*3*20*b.u
	}
	if area := w * h; area > maxCropArea {
		k := math.Max(minCropK, math.Sqrt(maxCropArea/area))
		b.mapU = b.u * k
	}
	return true
}

// inView reports whether h is drawn: on the map and, in a Crop, in its
// region.
func (b *board) inView(h hex.Hex) bool {
	if b.region != nil {
		return b.region[h]
	}
	return b.m.OnMap(h)
}

// shown is every hex the picture draws, by column then row.
func (b *board) shown() []hex.Hex {
	if b.region == nil {
		return b.m.Hexes()
	}
	var out []hex.Hex
	for _, h := range b.m.Hexes() {
		if b.region[h] {
			out = append(out, h)
		}
	}
	return out
}

// overview reports whether the picture is an Overview.
func (b *board) overview() bool { return b.opt.Mode == Overview }

// counters is how many counters a unit stands for: a hidden stack's
// Values, 1 for any other unit.
func counters(un adjudicator.UnitView) int {
	if un.Type == Hidden {
		if n, err := strconv.Atoi(strings.TrimSpace(un.Values)); err == nil && n > 0 {
			return n
		}
	}
	return 1
}

// drawSummaries draws an Overview's stacks: in each hex with units, a disc
// per side in the side's colour with the number of its counters there,
// the sides in colour order, side by side.
func (b *board) drawSummaries() {
	u := b.u
	for _, s := range b.hexStacks() {
		c := b.centre(s.h)
		n := map[adjudicator.Side]int{}
		var order []adjudicator.Side
		for _, un := range s.units {
			if n[un.Side] == 0 {
				order = append(order, un.Side)
			}
			n[un.Side] += counters(un)
		}
		if len(order) == 0 {
			continue
		}
		b.used["summary"] = true
		order = b.colourOrder(order)
		rr := 0.72 * b.A()
		switch len(order) {
		case 1:
		case 2:
			rr = 0.5 * b.A()
		default:
			rr = 0.36 * b.A()
		}
		for i, sd := range order {
			at := pt{c.X + (float64(i)-float64(len(order)-1)/2)*2.05*rr, c.Y}
			st := b.style(sd)
			b.c.circle(at, rr, st.fill, ink, 0.9*u)
			num := itoa(n[sd])
			b.c.text(at.add(pt{0, rr * 0.4}), num, b.fs.fit(num, rr*1.15, true, 1.6*rr), true, middle, st.text)
		}
	}
}

// hexStacks groups every unit on the map by hex, whatever its location in
// the hex and however many hexes its counter covers (at its anchor), hexes
// by column then row, units in View order: an Overview's stacks.
func (b *board) hexStacks() []stack {
	idx := map[hex.Hex]int{}
	var out []stack
	for _, p := range b.units {
		i, ok := idx[p.h]
		if !ok {
			i = len(out)
			idx[p.h] = i
			out = append(out, stack{h: p.h})
		}
		out[i].units = append(out[i].units, p.u)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].h.Less(out[j].h) })
	return out
}

// colourOrder sorts sides in the picture's colour order.
func (b *board) colourOrder(ss []adjudicator.Side) []adjudicator.Side {
	var out []adjudicator.Side
	for _, s := range b.sides {
		for _, t := range ss {
			if s == t {
				out = append(out, s)
			}
		}
	}
	for _, t := range ss {
		found := false
		for _, s := range out {
			found = found || s == t
		}
		if !found {
			out = append(out, t)
		}
	}
	return out
}

// hiddenCounter draws a hidden stack: a blank counter in its side's colour
// with the number of counters, nothing else.
func (b *board) hiddenCounter(tl pt, un adjudicator.UnitView) {
	u := b.u
	w, h := counterW*u, counterH*u
	st := b.style(un.Side)
	b.used["hidden"] = true
	b.c.poly(roundRect(tl.X+1.8*u, tl.Y+1.8*u, w, h, 3*u), black.alpha(0.35), Colour{}, 0)
	body := roundRect(tl.X, tl.Y, w, h, 3*u)
	b.c.poly(body, st.fill, ink, 1.2*u)
	num := itoa(counters(un))
	b.c.text(pt{tl.X + w/2, tl.Y + h/2 + 6*u}, num, 17*u, true, middle, st.text)
}

// overviewNumber prints the number of every fifth hex of every fifth row
// (0505, 0510, … 1005 …) in an Overview, small, where hexes are too small
// to number them all.
func (b *board) overviewNumber(h hex.Hex) {
	if h.Col%5 != 0 || h.Row%5 != 0 {
		return
	}
	c := b.centre(h)
	size := 7.5 * b.tu
	b.c.text(pt{c.X, c.Y - 0.45*b.A()}, h.String(), size, false, middle, ink.alpha(0.78))
}
