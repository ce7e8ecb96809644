package render

import (
	"math"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// panelSections names the side panel's sections that have something to show.
func (b *board) panelSections() []string {
	var out []string
	if len(b.results) > 0 || b.moved > 0 {
		out = append(out, "results")
	}
	for _, un := range b.units {
		if len(un.u.Damage) > 0 {
			out = append(out, "Damage")
			break
		}
	}
	for _, s := range b.stacks() {
		if len(s.units) > 1 && !b.overview() {
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
	if len(b.boardRows()) > 0 {
		out = append(out, "Boards")
	}
	return out
}

// drawPanel draws the side panel at (x, y) and returns its bottom.
func (b *board) drawPanel(sections []string, x, y float64) float64 {
	u := b.u
	w := panelW * u
	line := 13 * u
	for _, sec := range sections {
		title := sec
		if sec == "results" {
			title = b.resultsTitle()
		}
		b.c.text(pt{x, y + 13*u}, title, 13*u, true, start, ink)
		b.c.line([]pt{{x, y + 17*u}, {x + w, y + 17*u}}, grid, 0.8*u, false)
		y += 20 * u
		switch sec {
		case "results":
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
				b.c.text(pt{x, y + 10*u}, s.where(), 9.5*u, true, start, ink)
				for _, un := range s.units {
					f := &flow{b: b, x: x + 34*u, y: y + 10*u, size: 9.5 * u}
					f.swatch(b.style(un.Side).fill)
					if un.Ready {
						f.ready()
					}
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
				ready bool
			}
			var order []group
			units := map[group][]adjudicator.UnitView{}
			for _, un := range b.offMap {
				g := group{un.Side, un.At, un.Ready}
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
						if g.ready {
							f.ready()
						}
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
		case "Boards":
			for _, l := range b.boardLines() {
				for i, t := range b.wrap(l, 9.5*u, false, w-12*u) {
					f := &flow{b: b, x: x, y: y + 10*u, size: 9.5 * u}
					if i > 0 {
						f.gap(1.1)
					}
					f.text(t, false, ink)
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
	if un.Type == Hidden {
		return "hidden stack of " + itoa(counters(un))
	}
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
