package render

import (
	"cmp"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// legendItem is one entry of the legend: an icon drawn in a 30×22 unit box
// and a label.
type legendItem struct {
	label string
	icon  func(c pt) // c: the icon box's centre
}

// legend draws the legend from (x, y) in two columns across w and returns
// its bottom.
func (b *board) legend(x, y, w float64) float64 {
	return b.drawLegend(b.legendItems(), x, y, w)
}

// drawLegend draws items as the legend, from (x, y) in two columns across
// w, and returns its bottom.
func (b *board) drawLegend(items []legendItem, x, y, w float64) float64 {
	u := b.u
	if len(items) == 0 {
		return y
	}
	b.c.text(pt{x, y + 13*u}, "Legend", 13*u, true, start, ink)
	b.c.line([]pt{{x, y + 17*u}, {x + w, y + 17*u}}, grid, 0.8*u, false)
	y += 22 * u
	size := 8.5 * u
	colW := (w - 6*u) / 2
	for i := 0; i < len(items); i += 2 {
		// A row is as high as its longer label; icons and labels are
		// centred on the row's middle.
		rowH := 26 * u
		var lines [2][]string
		for j := i; j < min(i+2, len(items)); j++ {
			lines[j-i] = b.wrap(items[j].label, size, false, colW-34*u)
			rowH = math.Max(rowH, float64(len(lines[j-i]))*10*u+8*u)
		}
		mid := y + rowH/2 - 2*u
		for j := i; j < min(i+2, len(items)); j++ {
			cx := x + float64(j-i)*(colW+6*u)
			ls := lines[j-i]
			items[j].icon(pt{cx + 15*u, mid})
			for k, l := range ls {
				b.c.text(pt{cx + 34*u, mid + 3*u + float64(k)*10*u - float64(len(ls)-1)*5*u}, l, size, false, start, ink)
			}
		}
		y += rowH
	}
	return y
}

// legendList gathers legend entries: one with a key is listed only when
// the picture drew what the key names (board.used), one without always.
type legendList struct {
	used  map[string]bool
	items []legendItem
}

func (l *legendList) add(key, label string, icon func(c pt)) {
	if key == "" || l.used[key] {
		l.items = append(l.items, legendItem{label, icon})
	}
}

// usedKeys lists, sorted, what follows prefix in the keys of the legend
// entries the picture drew: usedKeys("trace:") the kinds of trace.
func (b *board) usedKeys(prefix string) []string {
	var out []string
	for k := range b.used {
		if rest, ok := strings.CutPrefix(k, prefix); ok {
			out = append(out, rest)
		}
	}
	sort.Strings(out)
	return out
}

// sideLabel is side s's label in the legend: "(you)" follows the viewer's.
func (b *board) sideLabel(s adjudicator.Side) string {
	if s == b.opt.Viewer {
		return string(s) + " (you)"
	}
	return string(s)
}

// traceLegend adds to l an entry for each kind of trace drawn but moves:
// a sample line in the trace's style, with its arrowhead.
func (b *board) traceLegend(l *legendList) {
	u := b.u
	for _, k := range b.usedKeys("trace:") {
		if k == "move" {
			continue
		}
		st := traceStyleOf(k)
		l.add("trace:"+k, st.label, func(c pt) {
			var dash []float64
			for _, d := range st.dash {
				dash = append(dash, d*u)
			}
			b.c.line([]pt{{c.X - 14*u, c.Y}, {c.X + 6*u, c.Y}}, st.col, st.width*u, dash == nil, dash...)
			b.c.arrowHead(pt{c.X + 15*u, c.Y}, pt{1, 0}, 11*u, 11*u, st.col)
		})
	}
}

func (b *board) legendItems() []legendItem {
	u := b.u
	l := &legendList{used: b.used}
	add := l.add
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
		if t, ok := strings.CutPrefix(k, "terrain:"); ok && !slices.Contains(kinds, t) {
			extra = append(extra, t)
		}
	}
	sort.Strings(extra)
	for _, k := range append(kinds, extra...) {
		add("terrain:"+k, k, func(c pt) { miniHex(c, k) })
	}
	for _, f := range b.st.flags {
		add("flag:"+f.Kind, cmp.Or(f.Legend, f.Kind), func(c pt) {
			miniHex(c, b.st.first)
			b.band(c, f.Band, 0.34)
		})
	}
	seg := func(c pt) (pt, pt) { return pt{c.X - 13*u, c.Y}, pt{c.X + 13*u, c.Y} }
	// Hexside features in the style's order, each in the variants drawn
	// ("", tower, open, broken); kinds the style leaves out follow, by
	// name. Entries with the same words share a line.
	said := map[string]bool{}
	side := func(kind, variant, label string) {
		key := "side:" + kind + ":" + variant
		if !b.used[key] || said[label] {
			return
		}
		said[label] = true
		add(key, label, func(c pt) {
			p, q := seg(c)
			b.sideFeature(p, q, pt{0, -1}, kind, variant == "tower", variant == "broken", variant == "open", 0.85)
		})
	}
	for _, d := range b.st.sides {
		for _, v := range []string{"", "tower", "open", "broken"} {
			side(d.Kind, v, sideLegend(d, v))
		}
	}
	var unstyled []string
	for k := range b.used {
		if rest, ok := strings.CutPrefix(k, "side:"); ok {
			if kind, _, _ := strings.Cut(rest, ":"); kind != "" {
				if _, styled := b.st.side[kind]; !styled && !slices.Contains(unstyled, kind) {
					unstyled = append(unstyled, kind)
				}
			}
		}
	}
	sort.Strings(unstyled)
	for _, kind := range unstyled {
		side(kind, "", kind)
	}
	add("side::broken", "broken hexside", func(c pt) { b.breakMark(c, 0.85) })
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
	l.items = append(l.items, b.levelLegend(miniHex, seg)...)
	for _, z := range b.zones {
		add("zone:"+z.name, "zone "+z.name, b.zoneLegend(z))
	}
	add("vp", "VP hex and its value", func(c pt) { b.vpBadge(c, 3, false, 0.9) })
	add("vp:destroyed", "VP destroyed", func(c pt) { b.vpBadge(c, 3, true, 0.9) })
	for _, k := range b.usedKeys("point:") {
		st := b.st.pointStyleOf(k)
		add("point:"+k, k+" hex", func(c pt) { b.tag(c, st.label, st.fill, st.fg, 7.5*u) })
	}
	for _, s := range b.sides {
		add("", b.sideLabel(s), func(c pt) {
			b.c.poly(roundRect(c.X-11*u, c.Y-9*u, 22*u, 19*u, 2*u), b.style(s).fill, ink, 1*u)
		})
	}
	for _, s := range b.sides {
		add("held:"+string(s), "entrance held by "+string(s), func(c pt) {
			p, q := seg(c)
			b.sideFeature(p.add(pt{-2 * u, 0}), q.add(pt{-2 * u, 0}), pt{0, -1}, "gate", false, false, false, 0.85)
			b.c.circle(pt{c.X + 9*u, c.Y}, 4.5*u, b.style(s).fill, ink, 1.2*u)
		})
	}
	add("hextab", "the hex number, over a counter", func(c pt) {
		b.hexTab(c.sub(pt{0, (hexNumY - 2.75) * u}), "0707")
	})
	add("ready", "may still act this phase (in a stack: one of its units, see Stacks)", func(c pt) { b.readyMark(c, 1) })
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
		b.facingArrow(c.add(pt{-22 * u * 0.8, 0}), pt{1, 0}, 0.8)
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
	add("steps", "adjudication n since your last picture (older: paler)", func(c pt) { b.stepBadge(c, 1) })
	add("trace:move", "moved", func(c pt) {
		col := b.style(b.firstSide()).fill.mix(black, 0.15)
		b.c.line([]pt{{c.X - 13*u, c.Y}, {c.X + 6*u, c.Y}}, col, 3.8*u, true)
		b.c.arrowHead(pt{c.X + 14*u, c.Y}, pt{1, 0}, 10*u, 10*u, col)
		b.c.circle(pt{c.X - 13*u, c.Y}, 4*u, col, white, 1.4*u)
	})
	b.traceLegend(l)
	add("area:fog", "fog", func(c pt) {
		b.c.rect(c.X-14*u, c.Y-10*u, 28*u, 20*u, rgb(0xeeeeee), inkSoft, 1*u)
		b.c.ops = append(b.c.ops, op{kind: opStroke, paths: [][]pt{{{c.X - 10*u, c.Y - 3*u}, {c.X + 10*u, c.Y - 3*u}}, {{c.X - 10*u, c.Y + 4*u}, {c.X + 10*u, c.Y + 4*u}}}, stroke: rgb(0x6e6e6e), width: 1.6 * u, round: true, dash: []float64{4 * u, 3 * u}})
	})
	for _, ms := range b.st.markers {
		add("marker:"+ms.Kind, cmp.Or(ms.Legend, ms.Kind), func(c pt) {
			if ms.Shape == "spiral" {
				b.c.line(spiral(c, 1.5*u, 10*u, 2.2), colour(ms.Colour), 1.8*u, true)
				return
			}
			b.tag(c, ms.Tag, colour(ms.TagFill), ink, 7.5*u)
		})
	}
	add("marker:other", "other marker", func(c pt) { b.tag(c, "…", rgb(0xe6e6e6), ink, 7.5*u) })
	return l.items
}

// firstSide is the first side in colour order, for legend samples.
func (b *board) firstSide() adjudicator.Side {
	if len(b.sides) > 0 {
		return b.sides[0]
	}
	return ""
}
