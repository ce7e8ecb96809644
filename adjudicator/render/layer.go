package render

import (
	"hash/fnv"
	"math"
	"slices"
	"sync"
)

// layerCache keeps the rasterised map layers of the last few pictures: the
// terrain, grid, roads, walls and edge of a map (board.drawLayer), the same
// for every picture of a game until a gate breaks or a bridge burns, and
// most of the work of drawing one. A layer is found by its display list,
// compared entry by entry, so a kept layer is used only for a picture that
// would draw exactly the same pixels: the output never depends on what was
// drawn before.
type layerCache struct {
	sync.Mutex
	kept []*layer // the most recently used last
}

type layer struct {
	w, h int
	sum  uint64
	ops  []op
	pix  []uint8
}

// A few layers are kept, each at most maxLayerBytes (a map of 25 by 16
// hexes at scale 1 is 8.9 MB): pictures of two maps, with and without setup
// zones.
const (
	maxLayers     = 3
	maxLayerBytes = 12 << 20
)

var layers layerCache

// find returns the pixels of the layer drawn by ops on a w×h picture (sum
// is opsSum's), or nil. They must not be changed.
func (c *layerCache) find(sum uint64, w, h int, ops []op) []uint8 {
	c.Lock()
	defer c.Unlock()
	for i, l := range c.kept {
		if l.sum == sum && l.w == w && l.h == h && opsEqual(l.ops, ops) {
			c.kept = append(append(c.kept[:i:i], c.kept[i+1:]...), l)
			return l.pix
		}
	}
	return nil
}

// keep remembers pix, which no one changes any more, as the layer drawn by
// ops on a w×h picture (sum is opsSum's).
func (c *layerCache) keep(sum uint64, w, h int, ops []op, pix []uint8) {
	if len(pix) > maxLayerBytes {
		return
	}
	l := &layer{w: w, h: h, sum: sum, ops: slices.Clone(ops), pix: pix}
	c.Lock()
	defer c.Unlock()
	for _, o := range c.kept {
		if o.sum == l.sum && o.w == w && o.h == h && opsEqual(o.ops, ops) {
			return // kept meanwhile by another picture
		}
	}
	if len(c.kept) == maxLayers {
		c.kept = slices.Delete(c.kept, 0, 1)
	}
	c.kept = append(c.kept, l)
}

// reset forgets every layer (for tests).
func (c *layerCache) reset() {
	c.Lock()
	c.kept = nil
	c.Unlock()
}

// opsSum is a hash of a display list and a picture size, to find a kept
// layer quickly; opsEqual decides.
func opsSum(w, h int, ops []op) uint64 {
	f := fnv.New64a()
	var buf []byte
	num := func(v float64) {
		b := math.Float64bits(v)
		buf = append(buf, byte(b), byte(b>>8), byte(b>>16), byte(b>>24), byte(b>>32), byte(b>>40), byte(b>>48), byte(b>>56))
	}
	col := func(c Colour) { buf = append(buf, c.R, c.G, c.B, c.A) }
	flag := func(b bool) {
		if b {
			buf = append(buf, 1)
		} else {
			buf = append(buf, 0)
		}
	}
	num(float64(w))
	num(float64(h))
	for i := range ops {
		o := &ops[i]
		buf = append(buf, byte(o.kind), byte(o.anc))
		flag(o.closed)
		flag(o.round)
		flag(o.crisp)
		flag(o.bold)
		col(o.fill)
		col(o.stroke)
		num(o.width)
		num(o.r)
		num(o.c.X)
		num(o.c.Y)
		num(o.at.X)
		num(o.at.Y)
		num(o.size)
		buf = append(buf, o.text...)
		num(float64(len(o.dash)))
		for _, d := range o.dash {
			num(d)
		}
		num(float64(len(o.paths)))
		for _, p := range o.paths {
			num(float64(len(p)))
			for _, q := range p {
				num(q.X)
				num(q.Y)
			}
		}
		f.Write(buf)
		buf = buf[:0]
	}
	return f.Sum64()
}

// opsEqual reports whether two display lists draw the same.
func opsEqual(a, b []op) bool {
	return slices.EqualFunc(a, b, func(x, y op) bool {
		return x.kind == y.kind && x.closed == y.closed && x.round == y.round && x.crisp == y.crisp &&
			x.fill == y.fill && x.stroke == y.stroke && x.width == y.width && slices.Equal(x.dash, y.dash) &&
			x.c == y.c && x.r == y.r && x.text == y.text && x.at == y.at && x.size == y.size && x.bold == y.bold && x.anc == y.anc &&
			slices.EqualFunc(x.paths, y.paths, func(p, q []pt) bool { return slices.Equal(p, q) })
	})
}
