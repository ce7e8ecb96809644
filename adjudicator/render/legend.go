package render

import (
	"math"
	"sort"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// flow sets text and swatches along one line.
type flow struct {
	b    *board
	x, y float64 // pen position, y the baseline
	size float64
}

func (f *flow) text(s string, bold bool, col Colour) {
	f.b.c.text(pt{f.x, f.y}, s, f.size, bold, start, col)
	f.x += f.b.fs.width(s, f.size, bold)
}

func (f *flow) swatch(col Colour) {
	s := f.size * 0.8
	f.b.c.rect(f.x, f.y-s*0.9, s, s, col, ink, 0.8*f.b.u)
	f.x += s + f.size*0.3
}

func (f *flow) gap(k float64) { f.x += f.size * k }

func (f *flow) side(s adjudicator.Side, bold bool) {
	f.swatch(f.b.style(s).fill)
	f.text(string(s), bold, ink)
}

// header draws the title line and the state line across the top.
func (b *board) header(x, y, w float64) {
	u := b.u
	f := &flow{b: b, x: x, y: y + 19*u, size: 19 * u}
	f.text(b.title(), true, ink)
	if b.m.Status != "" && b.opt.Title == "" {
		f.size = 12 * u
		f.text("  ("+b.m.Status+" map)", false, inkSoft)
	}
	viewer := "referee's view: everything"
	if b.opt.Viewer != "" {
		viewer = "as seen by " + string(b.opt.Viewer)
	}
	b.c.text(pt{x + w, y + 19*u}, viewer, 12*u, false, end, inkSoft)

	f = &flow{b: b, x: x, y: y + 42*u, size: 14 * u}
	f.text("Turn "+itoa(b.v.Turn), true, ink)
	if b.v.Phase != "" {
		f.text("  ·  phase: ", false, inkSoft)
		f.text(b.v.Phase, true, ink)
	}
	if len(b.v.Score) > 0 {
		f.text("  ·  VP: ", false, inkSoft)
		for i, s := range b.scoreSides() {
			if i > 0 {
				f.text(", ", false, inkSoft)
			}
			f.side(s, false)
			f.text(" "+itoa(b.v.Score[s]), true, ink)
		}
	}
	switch {
	case b.v.Over:
		f.text("  ·  ", false, inkSoft)
		f.text("game over", true, okVerm)
		if b.v.Winner != "" {
			f.text(": winner ", false, inkSoft)
			f.side(b.v.Winner, true)
		}
		if b.v.Result != "" {
			f.text(" — "+b.v.Result, false, ink)
		}
	case len(b.opt.ToMove) > 0:
		f.text("  ·  to move: ", false, inkSoft)
		for i, s := range b.opt.ToMove {
			if i > 0 {
				f.text(", ", false, inkSoft)
			}
			f.side(s, true)
		}
	}
	b.c.line([]pt{{x, y + 50*u}, {x + w, y + 50*u}}, grid, 1*u, false)
}

// scoreSides are the sides with a score, in colour order.
func (b *board) scoreSides() []adjudicator.Side {
	var out []adjudicator.Side
	for _, s := range b.sides {
		if _, ok := b.v.Score[s]; ok {
			out = append(out, s)
		}
	}
	return out
}

// panelSections names the side panel's sections that have something to show.
func (b *board) panelSections() []string {
	var out []string
	if len(b.results) > 0 || b.moved > 0 {
		out = append(out, "Last adjudication")
	}
	for _, un := range b.units {
		if len(un.u.Damage) > 0 {
			out = append(out, "Damage")
			break
		}
	}
	for _, s := range b.stacks() {
		if len(s.units) > 1 {
			out = append(out, "Stacks")
			break
		}
	}
	for _, p := range b.units {
		if len(otherStatuses(p.u)) > 0 {
			out = append(out, "Status")
			break
		}
	}
	if len(b.offMap) > 0 {
		out = append(out, "Off the map")
	}
	if len(b.gone) > 0 {
		out = append(out, "Eliminated")
	}
	return out
}

// drawPanel draws the side panel at (x, y) and returns its bottom.
func (b *board) drawPanel(sections []string, x, y float64) float64 {
	u := b.u
	w := panelW * u
	line := 13 * u
	for _, sec := range sections {
		b.c.text(pt{x, y + 13*u}, sec, 13*u, true, start, ink)
		b.c.line([]pt{{x, y + 17*u}, {x + w, y + 17*u}}, grid, 0.8*u, false)
		y += 20 * u
		switch sec {
		case "Last adjudication":
			y = b.resultRows(x, y, w)
		case "Damage":
			for _, p := range b.units {
				if len(p.u.Damage) > 0 {
					y = b.damageRows(p, x, y, w)
				}
			}
		case "Stacks":
			for _, s := range b.stacks() {
				if len(s.units) < 2 {
					continue
				}
				b.c.text(pt{x, y + 10*u}, s.h.String(), 9.5*u, true, start, ink)
				for _, un := range s.units {
					f := &flow{b: b, x: x + 34*u, y: y + 10*u, size: 9.5 * u}
					f.swatch(b.style(un.Side).fill)
					f.text(unitLine(un), false, ink)
					y += line
				}
				y += 3 * u
			}
		case "Status":
			for _, p := range b.units {
				ss := otherStatuses(p.u)
				if len(ss) == 0 {
					continue
				}
				s := p.u.ID + " (" + p.u.Type + ") at " + p.h.String() + ": " + strings.Join(ss, ", ")
				for i, l := range b.wrap(s, 9.5*u, false, w-12*u) {
					f := &flow{b: b, x: x, y: y + 10*u, size: 9.5 * u}
					if i == 0 {
						f.swatch(b.style(p.u.Side).fill)
					} else {
						f.gap(1.1)
					}
					f.text(l, false, ink)
					y += line
				}
			}
		case "Off the map":
			// Grouped by side and place: "defender, off-map: INF ×8, CAV ×3".
			type group struct {
				side  adjudicator.Side
				where string
			}
			var order []group
			units := map[group][]adjudicator.UnitView{}
			for _, un := range b.offMap {
				g := group{un.Side, un.At}
				if g.where == "" {
					g.where = "not on the map"
				}
				if _, ok := units[g]; !ok {
					order = append(order, g)
				}
				units[g] = append(units[g], un)
			}
			for _, g := range order {
				var parts []string
				if us := units[g]; len(us) <= 3 {
					for _, un := range us {
						parts = append(parts, unitLine(un))
					}
				} else {
					parts = countTypes(us)
				}
				label := string(g.side)
				if label == "" {
					label = "neutral"
				}
				for i, l := range b.wrap(label+", "+g.where+": "+strings.Join(parts, ", "), 9.5*u, false, w-12*u) {
					f := &flow{b: b, x: x, y: y + 10*u, size: 9.5 * u}
					if i == 0 {
						f.swatch(b.style(g.side).fill)
					} else {
						f.gap(1.1)
					}
					f.text(l, false, ink)
					y += line
				}
			}
		case "Eliminated":
			for _, s := range append(append([]adjudicator.Side{}, b.sides...), "") {
				var us []adjudicator.UnitView
				for _, un := range b.gone {
					if un.Side == s {
						us = append(us, un)
					}
				}
				if len(us) == 0 {
					continue
				}
				label := string(s)
				if label == "" {
					label = "neutral"
				}
				for i, l := range b.wrap(label+": "+strings.Join(countTypes(us), ", "), 9.5*u, false, w-12*u) {
					f := &flow{b: b, x: x, y: y + 10*u, size: 9.5 * u}
					if i == 0 {
						f.swatch(b.style(s).fill)
					} else {
						f.gap(1.1)
					}
					f.text(l, false, ink)
					y += line
				}
			}
		}
		y += 10 * u
	}
	return y
}

// countTypes sums units up by type, in order of first appearance:
// "INF ×8", "CAV ×3", "HERO".
func countTypes(us []adjudicator.UnitView) []string {
	var names []string
	count := map[string]int{}
	for _, un := range us {
		if count[un.Type] == 0 {
			names = append(names, un.Type)
		}
		count[un.Type]++
	}
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = n
		if count[n] > 1 {
			out[i] += " ×" + itoa(count[n])
		}
	}
	return out
}

// otherStatuses are a unit's statuses that have no chip of their own.
func otherStatuses(un adjudicator.UnitView) []string {
	var out []string
	for _, s := range un.Status {
		if _, ok := statusChips[s]; !ok {
			out = append(out, s)
		}
	}
	return out
}

// unitLine is a unit as one line of text: type, printed values, id.
func unitLine(un adjudicator.UnitView) string {
	s := un.Type
	if un.Values != "" {
		s += " " + un.Values
	}
	if un.ID != "" && un.ID != un.Type {
		s += " (" + un.ID + ")"
	}
	if len(un.Status) > 0 {
		s += " " + strings.Join(un.Status, ", ")
	}
	return s
}

// damageRows draws one monster's damage track: a line per area and group,
// with a box per hit point (filled while left) and the count. A monster
// with a single track (a minor monster's body) takes one line.
func (b *board) damageRows(p placed, x, y, w float64) float64 {
	u := b.u
	un := p.u
	st := b.style(un.Side)
	if len(un.Damage) == 1 && un.Damage[0].Group == "" {
		f := &flow{b: b, x: x, y: y + 9*u, size: 9.5 * u}
		f.swatch(st.fill)
		name := un.Type + " " + un.ID
		f.text(name, true, ink)
		f.text(" "+p.h.String()+" "+un.Damage[0].Area, false, inkSoft)
		b.track(un.Damage[0], st.fill, math.Max(f.x+6*u, x+118*u), y+1*u, x+w)
		return y + 14*u
	}
	f := &flow{b: b, x: x, y: y + 11*u, size: 10.5 * u}
	f.swatch(st.fill)
	f.text(un.Type+" "+un.ID, true, ink)
	extra := " at " + p.h.String()
	if un.Facing != "" {
		extra += ", facing " + un.Facing
	}
	if un.Flying {
		extra += ", flying"
	}
	f.text(extra, false, inkSoft)
	y += 16 * u
	labelW := 92 * u
	for _, d := range un.Damage {
		l := d.Area
		if d.Group != "" {
			l += " · " + d.Group
		}
		b.c.text(pt{x + 4*u, y + 8*u}, l, b.fs.fit(l, 9*u, false, labelW-6*u), false, start, ink)
		b.track(d, st.fill, x+labelW, y, x+w)
		y += 12 * u
	}
	return y + 6*u
}

// track draws hit points from x0 (boxes, or a bar when too many) and the
// count "left/of" ending at x1.
func (b *board) track(d adjudicator.Damage, fill Colour, x0, y, x1 float64) {
	u := b.u
	box, gap := 7*u, 1.6*u
	room := x1 - x0 - 30*u
	left, of := max(0, min(d.Left, d.Of)), max(d.Of, 0)
	if n := int(room / (box + gap)); of <= n {
		var full, lost, cross [][]pt
		for i := 0; i < of; i++ {
			r := rectPts(x0+float64(i)*(box+gap), y, box, box)
			if i < left {
				full = append(full, r)
			} else {
				lost = append(lost, r)
				cross = append(cross, []pt{r[0], r[2]})
			}
		}
		b.c.fillAll(full, fill)
		b.c.fillAll(lost, white)
		outl := append(append([][]pt{}, full...), lost...)
		b.c.ops = append(b.c.ops, op{kind: opStroke, paths: outl, closed: true, stroke: ink, width: 0.9 * u})
		b.c.lines(cross, okVerm, 1.2*u, false)
	} else if of > 0 {
		b.c.rect(x0, y, room, box, white, ink, 0.9*u)
		b.c.rect(x0, y, room*float64(left)/float64(of), box, fill, Colour{}, 0)
	}
	b.c.text(pt{x1, y + 7*u}, itoa(left)+"/"+itoa(of), 9*u, true, end, ink)
}

// wrap breaks s into lines at most w wide.
func (b *board) wrap(s string, size float64, bold bool, w float64) []string {
	var out []string
	cur := ""
	for _, word := range strings.Fields(s) {
		try := word
		if cur != "" {
			try = cur + " " + word
		}
		if cur != "" && b.fs.width(try, size, bold) > w {
			out = append(out, cur)
			cur = word
			continue
		}
		cur = try
	}
	if cur != "" {
		out = append(out, cur)
	}
	return out
}

// legendItem is one entry of the legend: an icon drawn in a 30×22 unit box
// and a label.
type legendItem struct {
	label string
	icon  func(c pt) // c: the icon box's centre
}

// legend draws the legend from (x, y) in two columns across w and returns
// its bottom.
func (b *board) legend(x, y, w float64) float64 {
	u := b.u
	items := b.legendItems()
	if len(items) == 0 {
		return y
	}
	b.c.text(pt{x, y + 13*u}, "Legend", 13*u, true, start, ink)
	b.c.line([]pt{{x, y + 17*u}, {x + w, y + 17*u}}, grid, 0.8*u, false)
	y += 22 * u
	size := 8.5 * u
	colW := (w - 6*u) / 2
	for i := 0; i < len(items); i += 2 {
		rowH := 0.0
		for j := i; j < min(i+2, len(items)); j++ {
			cx := x + float64(j-i)*(colW+6*u)
			lines := b.wrap(items[j].label, size, false, colW-34*u)
			items[j].icon(pt{cx + 15*u, y + 11*u})
			for k, l := range lines {
				b.c.text(pt{cx + 34*u, y + 14*u + float64(k)*10*u - float64(len(lines)-1)*5*u}, l, size, false, start, ink)
			}
			rowH = math.Max(rowH, math.Max(26*u, float64(len(lines))*10*u+8*u))
		}
		y += rowH
	}
	return y
}

func (b *board) legendItems() []legendItem {
	u := b.u
	var items []legendItem
	add := func(key, label string, icon func(c pt)) {
		if key == "" || b.used[key] {
			items = append(items, legendItem{label, icon})
		}
	}
	miniHex := func(c pt, kind string) {
		k := 0.34
		var ps []pt
		for _, p := range [][2]float64{{-1, -1}, {1, -1}, {2, 0}, {1, 1}, {-1, 1}, {-2, 0}} {
			ps = append(ps, pt{c.X + p[0]*20*u*k, c.Y + p[1]*20*sqrt3*u*k})
		}
		b.terrainHex(c, ps, kind, k)
		b.c.poly(ps, Colour{}, grid, 0.8*u)
	}
	// Terrain, in the vocabulary's order, then any others by name.
	kinds := append([]string{}, b.m.Vocabulary.Terrain...)
	var extra []string
	for k := range b.used {
		if t, ok := strings.CutPrefix(k, "terrain:"); ok && !contains(kinds, t) {
			extra = append(extra, t)
		}
	}
	sort.Strings(extra)
	for _, k := range append(kinds, extra...) {
		add("terrain:"+k, k, func(c pt) { miniHex(c, k) })
	}
	add("flag:river", "land and river", func(c pt) {
		miniHex(c, "open")
		b.riverBand(c, 0.34)
	})
	seg := func(c pt) (pt, pt) { return pt{c.X - 13*u, c.Y}, pt{c.X + 13*u, c.Y} }
	side := func(key, label, kind string, tower, broken, open bool) {
		add(key, label, func(c pt) {
			p, q := seg(c)
			b.sideFeature(p, q, pt{0, -1}, kind, tower, broken, open, 0.85)
		})
	}
	side("side:wall", "wall", "wall", false, false, false)
	side("side:tower-wall", "tower wall", "tower-wall", false, false, false)
	side("side:broken-wall", "broken wall", "wall", false, true, false)
	side("side:palisade", "palisade", "palisade", false, false, false)
	side("side:breach", "breached palisade", "breach", false, false, false)
	side("side:gate", "gate", "gate", false, false, false)
	side("side:gate:open", "open gate", "gate", false, false, true)
	side("side:gate:broken", "broken gate", "gate", false, true, false)
	side("side:door", "door", "door", false, false, false)
	side("side:door:open", "open door", "door", false, false, true)
	side("side:door:broken", "broken door", "door", false, true, false)
	side("side:river", "river between hexes", "river", false, false, false)
	side("side:cliff", "cliff", "cliff", false, false, false)
	add("road", "road", func(c pt) {
		p, q := seg(c)
		b.c.line([]pt{p, q}, roadEdge, 7*u, true)
		b.c.line([]pt{p, q}, roadFill, 4.2*u, true)
	})
	for _, k := range []string{"wooden", "stone", "burned", "destroyed"} {
		label := k + " bridge"
		add("bridge:"+k, label, func(c pt) {
			p, q := seg(c)
			state := ""
			if k == "burned" || k == "destroyed" {
				state = k
			}
			b.bridge(p.add(pt{4 * u, 0}), q.sub(pt{4 * u, 0}), k, state, 0.8)
		})
	}
	add("vp", "VP hex and its value", func(c pt) { b.vpBadge(c, 3, false, 0.9) })
	add("vp:destroyed", "VP destroyed", func(c pt) { b.vpBadge(c, 3, true, 0.9) })
	var pks []string
	for k := range b.used {
		if p, ok := strings.CutPrefix(k, "point:"); ok {
			pks = append(pks, p)
		}
	}
	sort.Strings(pks)
	for _, k := range pks {
		st := pointStyleOf(k)
		add("point:"+k, k+" hex", func(c pt) { b.tag(c, st.label, st.fill, st.fg, 7.5*u) })
	}
	for _, s := range b.sides {
		label := string(s)
		if s == b.opt.Viewer {
			label += " (you)"
		}
		add("", label, func(c pt) {
			k := 0.5
			b.c.poly(roundRect(c.X-11*u, c.Y-9*u, 22*u, 19*u, 2*u), b.style(s).fill, ink, 1*u)
			_ = k
		})
	}
	for _, s := range b.sides {
		add("held:"+string(s), "entrance held by "+string(s), func(c pt) {
			p, q := seg(c)
			b.sideFeature(p.add(pt{-2 * u, 0}), q.add(pt{-2 * u, 0}), pt{0, -1}, "gate", false, false, false, 0.85)
			b.c.circle(pt{c.X + 9*u, c.Y}, 4.5*u, b.style(s).fill, ink, 1.2*u)
		})
	}
	add("stack", "+n: more units under the top one (see Stacks)", func(c pt) {
		b.c.circle(c, 7.5*u, white, ink, 1.2*u)
		b.c.text(pt{c.X, c.Y + 3*u}, "+2", 8*u, true, middle, ink)
	})
	for _, s := range knownStatuses {
		ch := chipFor(s)
		add("status:"+s, ch.meaning, func(c pt) { b.tag(c, ch.label, ch.fill, ch.fg, 7*u) })
	}
	add("status:other", "other status (see Status)", func(c pt) { b.tag(c, "SP 3", rgb(0xdddddd), ink, 7*u) })
	add("facing", "facing", func(c pt) {
		b.facingArrow(c.add(pt{-22 * u * 0.8, 0}), pt{1, 0}, b.style(b.firstSide()).fill, 0.8)
	})
	add("damage", "damage track: see Damage", func(c pt) {
		for i := 0; i < 3; i++ {
			fill := b.style(b.firstSide()).fill
			if i == 2 {
				fill = white
			}
			b.c.rect(c.X-12*u+float64(i)*8.5*u, c.Y-3.5*u, 7*u, 7*u, fill, ink, 0.9*u)
		}
	})
	add("ghost", "eliminated (ghost)", func(c pt) {
		b.c.rect(c.X-11*u, c.Y-9*u, 22*u, 19*u, rgb(0xdddddd), inkSoft, 1*u)
		b.c.lines([][]pt{{{c.X - 8*u, c.Y - 6*u}, {c.X + 8*u, c.Y + 7*u}}, {{c.X - 8*u, c.Y + 7*u}, {c.X + 8*u, c.Y - 6*u}}}, okVerm, 2*u, true)
	})
	add("trace:move", "moved", func(c pt) {
		col := b.style(b.firstSide()).fill.mix(black, 0.15)
		b.c.line([]pt{{c.X - 13*u, c.Y}, {c.X + 6*u, c.Y}}, col, 3.8*u, true)
		b.c.arrowHead(pt{c.X + 14*u, c.Y}, pt{1, 0}, 10*u, 10*u, col)
		b.c.circle(pt{c.X - 13*u, c.Y}, 4*u, col, white, 1.4*u)
	})
	var tks []string
	for k := range b.used {
		if t, ok := strings.CutPrefix(k, "trace:"); ok && t != "move" {
			tks = append(tks, t)
		}
	}
	sort.Strings(tks)
	for _, k := range tks {
		st := traceStyleOf(k)
		add("trace:"+k, st.label, func(c pt) {
			var dash []float64
			for _, d := range st.dash {
				dash = append(dash, d*u)
			}
			b.c.line([]pt{{c.X - 14*u, c.Y}, {c.X + 6*u, c.Y}}, st.col, st.width*u, dash == nil, dash...)
			b.c.arrowHead(pt{c.X + 15*u, c.Y}, pt{1, 0}, 11*u, 11*u, st.col)
		})
	}
	add("area:fog", "fog", func(c pt) {
		b.c.rect(c.X-14*u, c.Y-10*u, 28*u, 20*u, rgb(0xeeeeee), inkSoft, 1*u)
		b.c.ops = append(b.c.ops, op{kind: opStroke, paths: [][]pt{{{c.X - 10*u, c.Y - 3*u}, {c.X + 10*u, c.Y - 3*u}}, {{c.X - 10*u, c.Y + 4*u}, {c.X + 10*u, c.Y + 4*u}}}, stroke: rgb(0x6e6e6e), width: 1.6 * u, round: true, dash: []float64{4 * u, 3 * u}})
	})
	add("marker:whirlwind", "whirlwind (and its number)", func(c pt) {
		b.c.line(spiral(c, 1.5*u, 10*u, 2.2), rgb(0x9b3f86), 1.8*u, true)
	})
	add("marker:other", "other marker", func(c pt) { b.tag(c, "…", rgb(0xe6e6e6), ink, 7.5*u) })
	return items
}

// firstSide is the first side in colour order, for legend samples.
func (b *board) firstSide() adjudicator.Side {
	if len(b.sides) > 0 {
		return b.sides[0]
	}
	return ""
}
