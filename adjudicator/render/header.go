package render

import "github.com/umpire-pbem/umpire/adjudicator"

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

// ready sets the mark of units that may still act this phase.
func (f *flow) ready() {
	k := f.size / 9.5 / f.b.u * 0.8
	f.b.readyMark(pt{f.x + 6.5*f.b.u*k, f.y - f.size*0.35}, k)
	f.x += 13*f.b.u*k + f.size*0.3
}

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
