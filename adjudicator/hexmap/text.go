package hexmap

import (
	"fmt"
	"sort"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// Text draws the map as a plain-text hex grid, for "umpire map show" and for
// mails. On a flat map each map row takes two lines: odd columns on the
// first, even columns (half a hex lower) on the second. On a pointy map each
// row is one line, the rows shifted half a hex right indented by two
// characters. Each hex is three characters:
//
//	1st  terrain letter, upper case when a road runs through the hex
//	2nd  G gate or D door on one of its sides, # any other barrier side
//	     (wall, palisade), B a bridge, else blank
//	3rd  its VP value, else blank
//
// overlay, if not nil, may return up to two characters for a hex (a unit
// code, a marker); they replace the 2nd and 3rd characters.
func Text(m *Map, overlay func(hex.Hex) string) string {
	var b strings.Builder
	if m.Title != "" {
		fmt.Fprintf(&b, "%s", m.Title)
	} else {
		b.WriteString(m.Name)
	}
	if m.Status != "" {
		fmt.Fprintf(&b, " (%s)", m.Status)
	}
	b.WriteString("\n")
	if m.Layout.Pointy() {
		pointyText(&b, m, overlay)
		b.WriteString(legend(m))
		return b.String()
	}
	bd := m.Bounds
	col := func(c int) int { return 4 + (c-bd.MinCol)*3 }
	width := col(bd.MaxCol) + 3
	header := []byte(strings.Repeat(" ", width))
	for c := bd.MinCol; c <= bd.MaxCol; c++ {
		copy(header[col(c):], fmt.Sprintf("%02d", c))
	}
	b.WriteString(strings.TrimRight(string(header), " ") + "\n")
	for r := bd.MinRow; r <= bd.MaxRow; r++ {
		for _, parity := range []int{1, 0} {
			line := []byte(strings.Repeat(" ", width))
			if parity == 1 {
				copy(line, fmt.Sprintf("%02d", r))
			}
			for c := bd.MinCol; c <= bd.MaxCol; c++ {
				if c%2 != parity {
					continue
				}
				if h := hex.New(c, r); m.OnMap(h) {
					copy(line[col(c):], cell(m, h, overlay))
				}
			}
			b.WriteString(strings.TrimRight(string(line), " ") + "\n")
		}
	}
	b.WriteString(legend(m))
	return b.String()
}

func cell(m *Map, h hex.Hex, overlay func(hex.Hex) string) string {
	l := m.Vocabulary.letter(m.Terrain(h))
	if m.Has(h, "road") {
		if u := strings.ToUpper(string(l))[0]; u != l {
			l = u
		} else {
			l = '='
		}
	} else {
		l = strings.ToLower(string(l))[0]
	}
	mark := byte(' ')
	if _, ok := m.bridges[h]; ok {
		mark = 'B'
	}
	for _, s := range m.Layout.Sides(h) {
		f, ok := m.sides[s]
		if !ok {
			continue
		}
		switch {
		case f.Kind == "gate":
			mark = 'G'
		case m.IsEntrance(f.Kind) && mark != 'G':
			mark = 'D'
		case m.IsBarrier(f.Kind) && mark == ' ':
			mark = '#'
		}
	}
	vp := byte(' ')
	if v := m.vp[h]; v > 0 && v < 10 {
		vp = byte('0' + v)
	} else if v >= 10 {
		vp = '+'
	}
	out := []byte{l, mark, vp}
	if overlay != nil {
		if o := overlay(h); o != "" {
			o = (o + "  ")[:2]
			out[1], out[2] = o[0], o[1]
		}
	}
	return string(out)
}

// pointyText draws a pointy map's rows, one line each, every hex four
// characters wide and shifted rows two characters to the right.
func pointyText(b *strings.Builder, m *Map, overlay func(hex.Hex) string) {
	bd := m.Bounds
	col := func(c int, shift bool) int {
		x := 4 + (c-bd.MinCol)*4
		if shift {
			x += 2
		}
		return x
	}
	width := col(bd.MaxCol, true) + 3
	header := []byte(strings.Repeat(" ", width))
	for c := bd.MinCol; c <= bd.MaxCol; c++ {
		copy(header[col(c, false):], fmt.Sprintf("%02d", c))
	}
	b.WriteString(strings.TrimRight(string(header), " ") + "\n")
	for r := bd.MinRow; r <= bd.MaxRow; r++ {
		line := []byte(strings.Repeat(" ", width))
		copy(line, fmt.Sprintf("%02d", r))
		// a row is shifted when its hexes sit right of the row above's
		shift := m.Layout.Centre(hex.New(0, r)).X == 1
		for c := bd.MinCol; c <= bd.MaxCol; c++ {
			if h := hex.New(c, r); m.OnMap(h) {
				copy(line[col(c, shift):], cell(m, h, overlay))
			}
		}
		b.WriteString(strings.TrimRight(string(line), " ") + "\n")
	}
}

func legend(m *Map) string {
	used := map[string]bool{}
	for _, h := range m.Hexes() {
		used[m.Terrain(h)] = true
	}
	var kinds []string
	for k := range used {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	parts := make([]string, 0, len(kinds))
	for _, k := range kinds {
		parts = append(parts, fmt.Sprintf("%c %s", m.Vocabulary.letter(k), k))
	}
	return "terrain: " + strings.Join(parts, ", ") +
		"\ncapital letter (or =): road; G gate, D door, # wall, B bridge; digit: VP\n"
}
