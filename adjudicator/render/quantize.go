package render

import (
	"encoding/binary"
	"image"
	"image/color"
	"sort"
	"sync"
)

// quantize turns an opaque RGBA picture into a paletted one. A board is
// mostly flat colours with anti-aliased edges between them, so the 256
// most frequent colours (ties broken by value, for determinism) are kept
// exactly and every other colour goes to the nearest of them; edges lose a
// little smoothness, flat areas nothing. It is fast: runs of one colour cost
// one comparison a pixel, and the nearest colour is searched once per
// 8×8×8 colour cell.
func quantize(img *image.RGBA) *image.Paletted {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	// Count colours in bands concurrently, each worker in a table of its
	// own, then merge the counts (sums: the same whoever counted what).
	tables := make([]*colourTable, workers())
	parallel(func(wk, i int) {
		if tables[wk] == nil {
			tables[wk] = tablePool.Get().(*colourTable)
		}
		t := tables[wk]
		// Every other row is enough to find the frequent colours.
		y0 := h * i / bands
		for y := y0 + y0&1; y < h*(i+1)/bands; y += 2 {
			row := img.Pix[y*img.Stride : y*img.Stride+4*w]
			for x := 0; x < w; {
				c := rgbAt(row, 4*x)
				e := runEnd(row, x, w, c)
				t.add(c, e-x)
				x = e
			}
		}
	})
	var t *colourTable
	for _, o := range tables {
		if o == nil {
			continue
		}
		if t == nil {
			t = o
			continue
		}
		for i, k := range o.keys {
			if k != 0 {
				t.add(k, o.counts[i])
			}
		}
	}
	type entry struct {
		c uint32
		n int
	}
	var all []entry
	// Only frequent colours can make the palette: keep those seen at least
	// min times, lowering min until there are enough candidates.
	for min := 64; ; min /= 2 {
		all = all[:0]
		for i, k := range t.keys {
			if k != 0 && (t.counts[i] >= min || min <= 1) {
				all = append(all, entry{k, t.counts[i]})
			}
		}
		if len(all) >= 2048 || min <= 1 {
			break
		}
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].n != all[j].n {
			return all[i].n > all[j].n
		}
		return all[i].c < all[j].c
	})
	// The most frequent colours first, skipping any too close to one
	// already taken (anti-aliasing makes many near twins), so that rare but
	// distinct colours (a chip, a flame) keep an entry of their own; then,
	// if room is left, the twins skipped.
	var chosen, twins []entry
	for _, e := range all {
		if len(chosen) == 256 {
			break
		}
		near := false
		for _, c := range chosen {
			if dist(c.c, e.c) < 9*64 {
				near = true
				break
			}
		}
		if near {
			twins = append(twins, e)
		} else {
			chosen = append(chosen, e)
		}
	}
	all = append(chosen, twins[:min(len(twins), 256-len(chosen))]...)
	pal := make(color.Palette, len(all))
	for i, e := range all {
		pal[i] = color.RGBA{uint8(e.c), uint8(e.c >> 8), uint8(e.c >> 16), 0xff}
	}
	// Every colour counted gets its palette index: its own entry, else the
	// nearest entry to its cell. Colours of rows not counted are looked up
	// the same way, through a cell cache of each band's own.
	t.index = make([]uint8, len(t.keys))
	inPal := make([]bool, len(t.keys))
	for i, e := range all {
		s, _ := t.slot(e.c)
		t.index[s], inPal[s] = uint8(i), true
	}
	nf := newFinder(pal)
	var cells [1 << 15]int16
	for i, k := range t.keys {
		if k != 0 && !inPal[i] {
			t.index[i] = nf.cell(&cells, k)
		}
	}
	out := image.NewPaletted(image.Rect(0, 0, w, h), pal)
	cellsOf := make([]*[1 << 15]int16, workers())
	parallel(func(wk, i int) {
		if cellsOf[wk] == nil {
			cellsOf[wk] = new([1 << 15]int16)
		}
		cells := cellsOf[wk]
		// A small direct-mapped memo in front of the table: along a row,
		// colours change among a few (an edge's anti-aliasing).
		var memo [1024]struct {
			c uint32
			i uint8
		}
		index := func(c uint32) uint8 {
			m := &memo[(c*2654435761)>>22]
			if m.c == c {
				return m.i
			}
			var i uint8
			if s, ok := t.slot(c); ok {
				i = t.index[s]
			} else {
				i = nf.cell(cells, c)
			}
			m.c, m.i = c, i
			return i
		}
		for y := h * i / bands; y < h*(i+1)/bands; y++ {
			row := img.Pix[y*img.Stride : y*img.Stride+4*w]
			dst := out.Pix[y*out.Stride : y*out.Stride+w]
			for x := 0; x < w; {
				c := rgbAt(row, 4*x)
				e := runEnd(row, x, w, c)
				pi := index(c)
				for k := x; k < e; k++ {
					dst[k] = pi
				}
				x = e
			}
		}
	})
	for _, t := range tables {
		if t != nil {
			t.reset()
			tablePool.Put(t)
		}
	}
	return out
}

// runEnd is where the run of colour c that starts at pixel x of row (w
// pixels wide) ends, comparing two pixels at a time.
func runEnd(row []uint8, x, w int, c uint32) int {
	pair := uint64(c) | uint64(c)<<32
	e := x + 1
	for e+2 <= w && binary.LittleEndian.Uint64(row[4*e:]) == pair {
		e += 2
	}
	if e < w && rgbAt(row, 4*e) == c {
		e++
	}
	return e
}

// rgbAt reads the pixel at byte i as 0xAABBGGRR; the picture is opaque, so
// the value is never 0, which the colour table uses for "empty".
func rgbAt(row []uint8, i int) uint32 { return binary.LittleEndian.Uint32(row[i:]) }

// finder finds the nearest palette entry quickly: entries sorted by green,
// searched outward from c's green until green alone is too far.
type finder struct {
	pal []uint32 // 0xBBGGRR
	byG []int    // indexes into pal, by green then index
	gs  []int    // green of byG[i]
}

func newFinder(pal color.Palette) *finder {
	f := &finder{pal: make([]uint32, len(pal))}
	for i, p := range pal {
		q := p.(color.RGBA)
		f.pal[i] = uint32(q.R) | uint32(q.G)<<8 | uint32(q.B)<<16
		f.byG = append(f.byG, i)
	}
	sort.Slice(f.byG, func(a, b int) bool {
		ga, gb := f.pal[f.byG[a]]>>8&0xff, f.pal[f.byG[b]]>>8&0xff
		if ga != gb {
			return ga < gb
		}
		return f.byG[a] < f.byG[b]
	})
	for _, i := range f.byG {
		f.gs = append(f.gs, int(f.pal[i]>>8&0xff))
	}
	return f
}

// cell is the palette entry nearest to the centre of c's cell (5 bits a
// channel), remembered in cells (entry + 1; 0 is unknown). Using the
// cell's centre, not c, makes the answer the same whichever colour of the
// cell comes first.
func (f *finder) cell(cells *[1 << 15]int16, c uint32) uint8 {
	cell := (c>>3&31)<<10 | (c>>11&31)<<5 | (c >> 19 & 31)
	if cells[cell] == 0 {
		cells[cell] = int16(f.nearest(c&0xf8f8f8|0x040404)) + 1
	}
	return uint8(cells[cell] - 1)
}

// nearest is the palette entry closest to c by dist; of equals, the first.
func (f *finder) nearest(c uint32) uint8 {
	g := int(c >> 8 & 0xff)
	best, bi := 1<<62, 0
	try := func(k int) {
		i := f.byG[k]
		if d := dist(c, f.pal[i]); d < best || d == best && i < bi {
			best, bi = d, i
		}
	}
	k := sort.SearchInts(f.gs, g)
	for lo, hi := k-1, k; lo >= 0 || hi < len(f.gs); {
		moved := false
		if hi < len(f.gs) {
			if dg := f.gs[hi] - g; 4*dg*dg <= best {
				try(hi)
				hi++
				moved = true
			} else {
				hi = len(f.gs)
			}
		}
		if lo >= 0 {
			if dg := g - f.gs[lo]; 4*dg*dg <= best {
				try(lo)
				lo--
				moved = true
			} else {
				lo = -1
			}
		}
		if !moved {
			break
		}
	}
	return uint8(bi)
}

// dist is the squared distance between two colours, weighted roughly for
// the eye.
func dist(a, b uint32) int {
	dr := int(a&0xff) - int(b&0xff)
	dg := int(a>>8&0xff) - int(b>>8&0xff)
	db := int(a>>16&0xff) - int(b>>16&0xff)
	return 3*dr*dr + 4*dg*dg + 2*db*db
}

// colourTable is an open-addressing count of colours (0 is no colour).
type colourTable struct {
	keys   []uint32
	counts []int
	index  []uint8 // palette index per slot, once the palette is made
	n      int
}

// slot is where colour c is, or false when it was never added.
func (t *colourTable) slot(c uint32) (uint32, bool) {
	mask := uint32(len(t.keys) - 1)
	for i := (c * 2654435761) & mask; ; i = (i + 1) & mask {
		switch t.keys[i] {
		case c:
			return i, true
		case 0:
			return i, false
		}
	}
}

func newColourTable() *colourTable {
	return &colourTable{keys: make([]uint32, 1<<16), counts: make([]int, 1<<16)}
}

// tablePool keeps colour tables, emptied, between pictures.
var tablePool = sync.Pool{New: func() any { return newColourTable() }}

// reset empties t for another picture.
func (t *colourTable) reset() {
	clear(t.keys)
	clear(t.counts)
	t.index, t.n = nil, 0
}

func (t *colourTable) add(c uint32, n int) {
	if n == 0 {
		return
	}
	if 4*(t.n+1) > 3*len(t.keys) {
		old, oc := t.keys, t.counts
		t.keys, t.counts, t.n = make([]uint32, 2*len(old)), make([]int, 2*len(old)), 0
		for i, k := range old {
			if k != 0 {
				t.add(k, oc[i])
			}
		}
	}
	k := c
	mask := uint32(len(t.keys) - 1)
	for i := (k * 2654435761) & mask; ; i = (i + 1) & mask {
		switch t.keys[i] {
		case k:
			t.counts[i] += n
			return
		case 0:
			t.keys[i], t.counts[i] = k, n
			t.n++
			return
		}
	}
}
