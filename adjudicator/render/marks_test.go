package render

import (
	"math"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	drboard "github.com/umpire-pbem/umpire/adjudicator/dragonrage/board"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage/refpicture"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// buildView lays out v on its map at scale 1 and fails on a warning.
func buildView(t *testing.T, v adjudicator.View, opt Options) *board {
	t.Helper()
	b, err := build(loadMap(t, v.Map), v, opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range b.warn {
		t.Errorf("warning: %s", w)
	}
	return b
}

// reach is a generous box round what o may paint.
func (o *op) reach() box {
	switch o.kind {
	case opCircle:
		r := o.r + o.width/2
		return box{o.c.X - r, o.c.Y - r, o.c.X + r, o.c.Y + r}
	case opText:
		w := 0.7 * o.size * float64(len([]rune(o.text)))
		return box{o.at.X - w, o.at.Y - o.size, o.at.X + w, o.at.Y + 0.3*o.size}
	}
	bx := box{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
	for _, p := range o.paths {
		bx = bx.union(bounds(p))
	}
	h := o.width / 2
	return box{bx.x0 - h, bx.y0 - h, bx.x1 + h, bx.y1 + h}
}

// textBox is the box of a line of text (middle-anchored): its measured
// width, from the digits' top to a descender's depth.
func textBox(b *board, o *op) box {
	w := b.fs.width(o.text, o.size, o.bold)
	return box{o.at.X - w/2, o.at.Y - 0.75*o.size, o.at.X + w/2, o.at.Y + 0.25*o.size}
}

func (a box) meets(b box) bool { return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1 }

func (a box) holds(p pt) bool { return p.X >= a.x0 && p.X <= a.x1 && p.Y >= a.y0 && p.Y <= a.y1 }

// numbersNear are the display list entries printing hex h's number
// within its hex.
func numbersNear(b *board, h hex.Hex) []int {
	var out []int
	c := b.centre(h)
	for i, o := range b.c.ops {
		if o.kind == opText && o.text == h.String() && o.at.sub(c).len() < b.A() {
			out = append(out, i)
		}
	}
	return out
}

// TestHexNumbersOnCounters: every hex holding a counter (a unit, a stack,
// a ghost) has its number printed again on a white tab over the layer's
// number, and nothing drawn later covers it; an empty hex has its number
// once, in the layer.
func TestHexNumbersOnCounters(t *testing.T) {
	v := refpicture.View() // arrows end on counters, a stack of three, ghosts
	b := buildView(t, v, scenarios[0].opt)
	n := 0
	for h := range b.occupied {
		n++
		got := numbersNear(b, h)
		if len(got) != 2 || got[0] >= b.base || got[1] < b.base {
			t.Errorf("hex %s has its number at %v (the layer ends at %d)", h, got, b.base)
			continue
		}
		i := got[1]
		num := b.c.ops[i]
		tab := b.c.ops[i-2] // the tab's fill, then its outline, then the number
		if tab.kind != opFill || tab.fill != white || !bounds(tab.paths[0]).holds(num.at) {
			t.Errorf("hex %s: the number is not on a white tab", h)
			continue
		}
		box := num.reach()
		tb := bounds(tab.paths[0])
		if under := textBox(b, &b.c.ops[got[0]]); under.x0 < tb.x0 || under.x1 > tb.x1 || under.y0 < tb.y0 || under.y1 > tb.y1 {
			t.Errorf("hex %s: the tab %v does not cover the layer's number %v", h, tb, under)
		}
		for j := i + 1; j < len(b.c.ops); j++ {
			if o := &b.c.ops[j]; o.reach().meets(box) {
				t.Errorf("hex %s: its number is covered by entry %d (%v %q)", h, j, o.kind, o.text)
			}
		}
	}
	if n < 40 {
		t.Fatalf("only %d occupied hexes", n)
	}
	for _, s := range []string{"1212", "0808", "1305"} {
		h, _ := hex.Parse(s)
		if b.occupied[h] || !b.m.OnMap(h) {
			t.Fatalf("%s is occupied or not on the map", s)
		}
		if got := numbersNear(b, h); len(got) != 1 || got[0] >= b.base {
			t.Errorf("empty hex %s has its number at %v", s, got)
		}
	}
	if !strings.Contains(string((&Picture{ops: b.c.ops}).SVG()), ">the hex number, over a") {
		t.Error("the legend does not explain the tab")
	}
}

// readyMarks are the centres of the ready marks drawn at size k (1: the
// map and the legend; 0.8: the lines of the Stacks list).
func readyMarks(b *board, k float64) []pt {
	var out []pt
	for _, o := range b.c.ops {
		if o.kind == opCircle && o.fill == okYellow && o.stroke == ink && math.Abs(o.r-6.5*b.u*k) < 1e-9 {
			out = append(out, o.c)
		}
	}
	return out
}

// TestReadyMarks: a stack with a unit that may still act has the mark at
// its top counter's bottom right corner, a stack without has none, a
// ready unit under the top one is marked in the Stacks list, and the
// legend explains the mark only when it is used.
func TestReadyMarks(t *testing.T) {
	v := refpicture.View()
	b := buildView(t, v, scenarios[0].opt)
	marks := readyMarks(b, 1)
	on := func(p pt) bool {
		for _, m := range marks {
			if m.sub(p).len() < 0.5 {
				return true
			}
		}
		return false
	}
	want, listed := 0, 0
	for _, s := range b.stacks() {
		if len(s.units) == 0 {
			continue
		}
		ready := false
		for _, un := range s.units {
			ready = ready || un.Ready
		}
		corner := b.tops[s.h].add(pt{counterW * b.u, counterH * b.u})
		if on(corner) != ready {
			t.Errorf("hex %s: ready %v, marked %v", s.h, ready, on(corner))
		}
		if ready {
			want++
		}
		for _, un := range s.units {
			if un.Ready && len(s.units) > 1 {
				listed++ // its line in Stacks
			}
		}
	}
	if want < 5 || listed < 2 {
		t.Fatalf("the scenario has only %d stacks ready, %d ready units in stacks", want, listed)
	}
	if got := len(marks); got != want+1 { // and the legend's
		t.Errorf("%d ready marks, want %d on the map and one in the legend", got, want)
	}
	if got := len(readyMarks(b, 0.8)); got != listed {
		t.Errorf("%d ready marks in the Stacks list, want %d", got, listed)
	}
	svg := string((&Picture{ops: b.c.ops}).SVG())
	if !strings.Contains(svg, ">may still act this phase") {
		t.Error("the legend does not explain the ready mark")
	}
	for i := range v.Units {
		v.Units[i].Ready = false
	}
	b = buildView(t, v, scenarios[0].opt)
	if n := len(readyMarks(b, 1)) + len(readyMarks(b, 0.8)); n != 0 {
		t.Errorf("no unit is ready, but %d marks are drawn", n)
	}
	if strings.Contains(string((&Picture{ops: b.c.ops}).SVG()), "may still act") {
		t.Error("the legend explains a mark the picture does not use")
	}
}

// stepsView: unit mover goes 0604 → 0606 in adjudication 1 and on to 0608
// in adjudication 2, where an archer shoots at it.
func stepsView(step1, step2 int) adjudicator.View {
	return adjudicator.View{
		Map: "esirien", Turn: 2, Phase: "defender melee",
		Units: refpicture.Units(`
invader ORC mover 0608 3-3-5
defender ARH archer 0810 1-2-4(5)
`),
		Traces: []adjudicator.Trace{
			{Kind: "move", Unit: "mover", Path: []string{"0604", "0605", "0606"}, Step: step1},
			{Kind: "fire", Unit: "archer", Path: []string{"0810", "0608"}, Result: "missed", Step: step2},
			{Kind: "move", Unit: "mover", Path: []string{"0606", "0607", "0608"}, Step: step2},
		},
	}
}

// moveLines are the entries stroking move paths on the map, in drawing
// order.
func moveLines(b *board) []op {
	var out []op
	for _, o := range b.c.ops {
		if o.kind == opStroke && o.width == 3.8*b.u && o.stroke.A == 0xff && len(o.paths) == 1 && o.paths[0][0].X < b.mapX+b.mapW {
			out = append(out, o)
		}
	}
	return out
}

// stepBadges are the numbers on step badges and their centres.
func stepBadges(b *board) (nums []string, at []pt, idx []int) {
	for i, o := range b.c.ops {
		if o.kind == opText && o.bold && o.size == 8.5*b.u && o.fill == white && b.c.ops[i-2].fill == ink {
			nums = append(nums, o.text)
			at = append(at, o.at.sub(pt{0, 3.1 * b.u}))
			idx = append(idx, i)
		}
	}
	return
}

func lightness(c Colour) int { return int(c.R) + int(c.G) + int(c.B) }

// TestSteps: traces of several adjudications are drawn in order, the
// older paler, each with its adjudication's number, the paths of a unit
// that moved in both joined; the side panel and the legend say what the
// numbers are. With one adjudication (Step 0) none of this appears.
func TestSteps(t *testing.T) {
	hexAt := func(b *board, s string) pt {
		h, _ := hex.Parse(s)
		return b.centre(h)
	}
	b := buildView(t, stepsView(1, 2), Options{Style: drboard.Style, Viewer: "invader"})
	lines := moveLines(b)
	if len(lines) != 2 {
		t.Fatalf("%d move lines", len(lines))
	}
	old, last := lines[0], lines[1]
	if old.paths[0][0] != hexAt(b, "0604") || last.paths[0][0] != hexAt(b, "0606") {
		t.Fatalf("the paths are drawn out of order: from %v, then from %v", old.paths[0][0], last.paths[0][0])
	}
	if lightness(old.stroke) <= lightness(last.stroke)+60 {
		t.Errorf("adjudication 1's path %v is not paler than adjudication 2's %v", old.stroke, last.stroke)
	}
	// Joined: the first path's arrow points into 0606, close to where the
	// second path starts, since nobody stands there now.
	var tip pt
	found := false
	for _, o := range b.c.ops {
		if o.kind == opFill && o.fill == old.stroke && len(o.paths[0]) == 3 {
			tip, found = o.paths[0][0], true // arrowHead lists the tip first
		}
	}
	if !found {
		t.Fatal("no arrow head on adjudication 1's path")
	}
	if d := tip.sub(hexAt(b, "0606")).len(); d > 10*b.u {
		t.Errorf("adjudication 1's arrow stops %.1f px from where adjudication 2's path starts", d)
	}
	// The numbers: on each move's first leg, and beside the fire arrow,
	// drawn over the counters.
	nums, at, idx := stepBadges(b)
	lastCounter := 0
	for i, o := range b.c.ops {
		if o.kind == opText && o.text == "mover" {
			lastCounter = i
		}
	}
	want := map[string]pt{}
	for _, leg := range []struct{ n, a, c string }{{"1", "0604", "0605"}, {"2", "0606", "0607"}} {
		want[leg.n+leg.a] = hexAt(b, leg.a).lerp(hexAt(b, leg.c), 0.4)
	}
	got := map[string]int{}
	for i, n := range nums {
		got[n]++
		if idx[i] < lastCounter {
			t.Errorf("step badge %s is drawn under the counters", n)
		}
		for k, p := range want {
			if strings.HasPrefix(k, n) && p.sub(at[i]).len() < 1 {
				delete(want, k)
			}
		}
	}
	// 1 on the map, 2 on the map twice (move and fire), each once more in
	// the side panel, and the legend's sample 1.
	if got["1"] != 3 || got["2"] != 3 {
		t.Errorf("step badges %v", got)
	}
	for k := range want {
		t.Errorf("no step badge %s on the first leg of its move", k)
	}
	svg := string((&Picture{ops: b.c.ops}).SVG())
	for _, s := range []string{">Since your last picture<", ">Adjudication 1<", ">Adjudication 2 (the latest)<", ">Numbered squares: ", ">adjudication n since"} {
		if !strings.Contains(svg, s) {
			t.Errorf("%q is not in the picture", s)
		}
	}

	// One adjudication: no numbers, nothing paler, the usual title.
	b = buildView(t, stepsView(0, 0), Options{Style: drboard.Style, Viewer: "invader"})
	if nums, _, _ := stepBadges(b); len(nums) != 0 {
		t.Errorf("step badges %v in a picture of one adjudication", nums)
	}
	lines = moveLines(b)
	if len(lines) != 2 || lines[0].stroke != lines[1].stroke {
		t.Errorf("the moves of one adjudication differ in colour")
	}
	svg = string((&Picture{ops: b.c.ops}).SVG())
	if !strings.Contains(svg, ">Last adjudication<") || strings.Contains(svg, "Since your last picture") || strings.Contains(svg, "Numbered squares") {
		t.Error("a picture of one adjudication is titled as several")
	}
}
