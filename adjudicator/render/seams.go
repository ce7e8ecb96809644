package render

import (
	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// seamColour is the colour of the line where two assembled boards meet.
var seamColour = rgb(0x0b5f8a)

// drawSeams draws, on a map assembled from several boards
// (hexmap.Assemble), a dashed line along every hexside where two boards
// meet. A map of one board draws nothing.
func (b *board) drawSeams() {
	if len(b.m.Placements()) < 2 {
		return
	}
	var ls [][]pt
	for _, h := range b.shown() {
		oh, _ := b.m.Origin(h)
		for _, d := range hex.Directions {
			n := b.m.Layout.Neighbour(h, d)
			if !b.m.OnMap(n) || (b.inView(n) && n.Less(h)) {
				continue
			}
			if on, _ := b.m.Origin(n); on.Name != oh.Name {
				p, q := b.sidePts(b.m.Layout.Side(h, d))
				ls = append(ls, []pt{p, q})
			}
		}
	}
	if len(ls) == 0 {
		return
	}
	b.used["seam"] = true
	b.c.lines(ls, white, 4.6*b.u, true)
	b.c.ops = append(b.c.ops, op{kind: opStroke, paths: ls, stroke: seamColour, width: 2.2 * b.u, dash: []float64{6 * b.u, 3.5 * b.u}})
}

// boardRow is one line of the side panel's Boards section: a board of an
// assembled map, where it lies and how it is turned.
type boardRow struct {
	name, title string
	first, last hex.Hex // the corners of its hexes on the assembled map
	turned      bool
}

// boardRows lists the boards of an assembled map in placement order (none
// for a map of one board).
func (b *board) boardRows() []boardRow {
	ps := b.m.Placements()
	if len(ps) < 2 {
		return nil
	}
	var out []boardRow
	for _, p := range ps {
		r := boardRow{name: p.Name, title: p.Board.Title, turned: p.HalfTurn}
		if r.name == "" {
			r.name = p.Board.Name
		}
		if r.title == "" {
			r.title = p.Board.Name
		}
		found := false
		for _, h := range b.m.Hexes() {
			if o, ok := b.m.Origin(h); ok && o.Name == r.name {
				if !found {
					r.first, r.last, found = h, h, true
				}
				r.first = hex.New(min(r.first.Col, h.Col), min(r.first.Row, h.Row))
				r.last = hex.New(max(r.last.Col, h.Col), max(r.last.Row, h.Row))
			}
		}
		if found {
			out = append(out, r)
		}
	}
	return out
}

// boardLines are the Boards section's lines: "pit: The Pit, 0101–0605",
// "ledge: The Ledge, 0701–1005, turned 180°".
func (b *board) boardLines() []string {
	var out []string
	for _, r := range b.boardRows() {
		s := r.name + ": " + r.title + ", " + r.first.String() + "–" + r.last.String()
		if r.turned {
			s += ", turned 180°"
		}
		out = append(out, s)
	}
	return out
}
