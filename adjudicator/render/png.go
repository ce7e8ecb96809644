package render

import (
	"encoding/binary"
	"image"
	"image/draw"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"golang.org/x/image/vector"
)

// PNG renders the picture as an 8-bit paletted PNG. The palette is made
// from the picture's own colours (see quantize); compression settings are
// fixed, so identical pictures give identical bytes.
func (p *Picture) PNG() ([]byte, error) {
	buf := rgbaPool.Get().(*[]uint8)
	defer rgbaPool.Put(buf)
	if n := 4 * p.Width * p.Height; cap(*buf) < n {
		*buf = make([]uint8, n)
	}
	img := &image.RGBA{Pix: (*buf)[:4*p.Width*p.Height], Stride: 4 * p.Width, Rect: image.Rect(0, 0, p.Width, p.Height)}
	p.rasterise(img)
	return encodePNG(quantize(img))
}

// rgbaPool keeps the RGBA buffers PNG draws into (each is overwritten
// whole by the background before use).
var rgbaPool = sync.Pool{New: func() any { return new([]uint8) }}

// Image rasterises the display list onto a new opaque RGBA image.
func (p *Picture) Image() *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, p.Width, p.Height))
	p.rasterise(img)
	return img
}

// bands is how many horizontal bands the picture is drawn in. Each band
// runs the entries of the display list that reach its rows, clipped to
// them, while its pixels stay in the processor's cache; the bands are drawn
// concurrently. The number is fixed, not the number of processors, so that
// the output never depends on the machine.
const bands = 16

// workers is how many goroutines share the bands.
func workers() int { return min(runtime.GOMAXPROCS(0), bands) }

// parallel runs f(i) for every band i on a few goroutines, each with its
// own worker number w.
func parallel(f func(w, i int)) { parallelN(bands, f) }

// parallelN runs f(i) for i in [0, n) on a few goroutines.
func parallelN(n int, f func(w, i int)) {
	var next atomic.Int32
	var wg sync.WaitGroup
	for w := range workers() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				f(w, i)
			}
		}()
	}
	wg.Wait()
}

// rasterise draws the display list onto img. The map's layer (ops[:base])
// comes from layerCache when a picture drew the same layer before; else it
// is drawn, kept, and the rest drawn over it in the same pass.
func (p *Picture) rasterise(img *image.RGBA) {
	if p.base == 0 {
		p.paint(img, nil, p.ops, 0, nil)
		return
	}
	base := p.ops[:p.base]
	sum := opsSum(p.Width, p.Height, base)
	if layer := layers.find(sum, p.Width, p.Height, base); layer != nil {
		p.paint(img, layer, p.ops[p.base:], 0, nil)
		return
	}
	var save []uint8
	if len(img.Pix) <= maxLayerBytes {
		save = make([]uint8, len(img.Pix))
	}
	p.paint(img, nil, p.ops, p.base, save)
	if save != nil {
		layers.keep(sum, p.Width, p.Height, base, save)
	}
}

// paint draws ops onto img band by band. Each band starts from its rows of
// from when given, else from the background (ops[0] when it is an opaque
// fill, which then is not drawn again). When save is given, each band's
// pixels are copied into it once ops[:split] are drawn.
func (p *Picture) paint(img *image.RGBA, from []uint8, ops []op, split int, save []uint8) {
	bg := paper
	if from == nil && len(ops) > 0 && ops[0].kind == opFill && ops[0].fill.A == 0xff {
		// The background: filled directly.
		bg = ops[0].fill
		ops, split = ops[1:], max(split-1, 0)
	}
	top, bottom := make([]float64, len(ops)), make([]float64, len(ops))
	for i := range ops {
		top[i], bottom[i] = ops[i].rows()
	}
	rs := make([]*raster, workers())
	parallel(func(w, i int) {
		band := image.Rect(0, p.Height*i/bands, p.Width, p.Height*(i+1)/bands)
		if band.Empty() {
			return
		}
		off0, off1 := img.PixOffset(0, band.Min.Y), img.PixOffset(0, band.Max.Y)
		if from != nil {
			copy(img.Pix[off0:off1], from[off0:off1])
		} else {
			fillRGBA(img.Pix[off0:off1], bg)
		}
		if rs[w] == nil {
			rs[w] = &raster{fs: faces{}}
		}
		r := rs[w]
		r.img = img.SubImage(band).(*image.RGBA)
		y0, y1 := float64(band.Min.Y), float64(band.Max.Y)
		for i := range ops {
			if i == split && save != nil {
				copy(save[off0:off1], img.Pix[off0:off1])
			}
			if bottom[i] >= y0 && top[i] <= y1 {
				r.draw(&ops[i])
			}
		}
		if split >= len(ops) && save != nil {
			copy(save[off0:off1], img.Pix[off0:off1])
		}
	})
}

// rows is the span of rows an entry may paint, generously.
func (o *op) rows() (top, bottom float64) {
	switch o.kind {
	case opCircle:
		return o.c.Y - o.r - o.width, o.c.Y + o.r + o.width
	case opText:
		return o.at.Y - 1.5*o.size - 2, o.at.Y + 0.6*o.size + 2
	}
	top, bottom = math.Inf(1), math.Inf(-1)
	for _, p := range o.paths {
		for _, q := range p {
			top, bottom = math.Min(top, q.Y), math.Max(bottom, q.Y)
		}
	}
	return top - o.width - 2, bottom + o.width + 2
}

// raster draws display list entries onto an RGBA image whose pixels are all
// opaque (the display list starts with an opaque background).
type raster struct {
	img   *image.RGBA
	z     vector.Rasterizer
	mask  []uint8
	fs    faces
	polys [][]pt // scratch
	pts   arena  // scratch
}

// arena hands out point slices from one buffer, emptied for each entry of
// the display list, so that stroking does not allocate.
type arena struct{ buf []pt }

func (a *arena) take(n int) []pt {
	if len(a.buf)+n > cap(a.buf) {
		a.buf = make([]pt, 0, max(2*cap(a.buf), n, 4096))
	}
	l := len(a.buf)
	a.buf = a.buf[:l+n]
	return a.buf[l : l+n : l+n]
}

func (r *raster) draw(o *op) {
	r.pts.buf = r.pts.buf[:0]
	switch o.kind {
	case opFill:
		if o.crisp && o.fill.A == 0xff {
			for _, p := range o.paths {
				r.fillConvex(p, o.fill)
			}
			return
		}
		r.polys = r.polys[:0]
		for _, p := range o.paths {
			if r.reaches(p, 0) {
				r.polys = append(r.polys, p)
			}
		}
		r.fill(r.polys, o.fill)
	case opStroke:
		r.polys = r.polys[:0]
		for _, l := range o.paths {
			if !r.reaches(l, o.width) {
				continue
			}
			if o.closed && len(l) > 1 {
				l = append(append([]pt{}, l...), l[0])
			}
			for _, piece := range dashes(l, o.dash) {
				r.polys = strokePolys(r.polys, &r.pts, piece, o.width, o.round || o.closed && o.dash == nil)
			}
		}
		r.fill(r.polys, o.stroke)
	case opCircle:
		if o.fill.A > 0 {
			r.fill([][]pt{circlePts(&r.pts, o.c, o.r, true)}, o.fill)
		}
		if o.stroke.A > 0 && o.width > 0 {
			r.fill([][]pt{circlePts(&r.pts, o.c, o.r+o.width/2, true), circlePts(&r.pts, o.c, math.Max(0, o.r-o.width/2), false)}, o.stroke)
		}
	case opText:
		r.text(o)
	}
}

type box struct{ x0, y0, x1, y1 float64 }

func bounds(p []pt) box {
	b := box{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
	for _, q := range p {
		b.x0, b.y0 = math.Min(b.x0, q.X), math.Min(b.y0, q.Y)
		b.x1, b.y1 = math.Max(b.x1, q.X), math.Max(b.y1, q.Y)
	}
	return b
}

func (b box) union(o box) box {
	return box{math.Min(b.x0, o.x0), math.Min(b.y0, o.y0), math.Max(b.x1, o.x1), math.Max(b.y1, o.y1)}
}

func (b box) area() float64 { return (b.x1 - b.x0 + 2) * (b.y1 - b.y0 + 2) }

// fill fills the union of polys (all wound the same way; holes the other
// way) with c. Polygons far apart (a grid, the roads) are rasterised in
// groups, each over its own bounding box, so that no pass covers the whole
// picture for a few lines. Neighbouring polygons stay in one group, so a
// translucent stroke is not darkened where its pieces overlap.
func (r *raster) fill(polys [][]pt, c Colour) {
	if len(polys) == 0 || c.A == 0 {
		return
	}
	i := 0
	for i < len(polys) {
		g := bounds(polys[i])
		sum := g.area()
		j := i + 1
		for ; j < len(polys); j++ {
			b := bounds(polys[j])
			u := g.union(b)
			if u.area() > 1.5*(sum+b.area())+1024 {
				break
			}
			g, sum = u, sum+b.area()
		}
		r.fillGroup(polys[i:j], g, c)
		i = j
	}
}

func (r *raster) fillGroup(polys [][]pt, g box, c Colour) {
	bx := image.Rect(int(math.Floor(g.x0)), int(math.Floor(g.y0)), int(math.Ceil(g.x1)), int(math.Ceil(g.y1))).Intersect(r.img.Bounds())
	if bx.Empty() {
		return
	}
	w, h := bx.Dx(), bx.Dy()
	r.z.Reset(w, h)
	r.z.DrawOp = draw.Src
	ox, oy := float64(bx.Min.X), float64(bx.Min.Y)
	for _, p := range polys {
		if len(p) < 3 {
			continue
		}
		r.z.MoveTo(float32(p[0].X-ox), float32(p[0].Y-oy))
		for _, q := range p[1:] {
			r.z.LineTo(float32(q.X-ox), float32(q.Y-oy))
		}
		r.z.ClosePath()
	}
	if cap(r.mask) < w*h {
		r.mask = make([]uint8, w*h)
	}
	m := &image.Alpha{Pix: r.mask[:w*h], Stride: w, Rect: image.Rect(0, 0, w, h)}
	r.z.Draw(m, m.Rect, image.Opaque, image.Point{})
	composite(r.img, bx.Min, m, c)
}

// fillConvex fills a convex polygon without anti-aliasing: a pixel is in
// when its centre is. Hexes of terrain tile the map this way with neither
// gaps nor seams (the grid is drawn over their edges).
func (r *raster) fillConvex(p []pt, c Colour) {
	b := bounds(p)
	bd := r.img.Bounds()
	y0 := max(bd.Min.Y, int(math.Floor(b.y0)))
	y1 := min(bd.Max.Y, int(math.Ceil(b.y1)))
	var solid [4]uint8
	solid[0], solid[1], solid[2], solid[3] = c.R, c.G, c.B, 0xff
	if b.x1 < float64(bd.Min.X) || b.x0 > float64(bd.Max.X) {
		return
	}
	for y := y0; y < y1; y++ {
		yc := float64(y) + 0.5
		lo, hi := math.Inf(1), math.Inf(-1)
		for i := range p {
			a, q := p[i], p[(i+1)%len(p)]
			if (a.Y <= yc) == (q.Y <= yc) {
				continue
			}
			x := a.X + (yc-a.Y)*(q.X-a.X)/(q.Y-a.Y)
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
		if lo > hi {
			continue
		}
		x0 := max(bd.Min.X, int(math.Ceil(lo-0.5)))
		x1 := min(bd.Max.X, int(math.Ceil(hi-0.5)))
		if x0 >= x1 {
			continue
		}
		row := r.img.Pix[r.img.PixOffset(x0, y):r.img.PixOffset(x1, y)]
		copy(row, solid[:])
		for n := 4; n < len(row); n *= 2 {
			copy(row[n:], row[:n])
		}
	}
}

// reaches reports whether the points of l, widened by w, reach the rows of
// r's band.
func (r *raster) reaches(l []pt, w float64) bool {
	b := r.img.Rect
	y0, y1 := float64(b.Min.Y)-w-2, float64(b.Max.Y)+w+2
	above, below := true, true
	for _, p := range l {
		above = above && p.Y < y0
		below = below && p.Y > y1
		if !above && !below {
			return true
		}
	}
	return false
}

// fillRGBA sets every pixel of pix to c, doubling the filled part.
func fillRGBA(pix []uint8, c Colour) {
	if len(pix) < 4 {
		return
	}
	pix[0], pix[1], pix[2], pix[3] = c.R, c.G, c.B, c.A
	for n := 4; n < len(pix); n *= 2 {
		copy(pix[n:], pix[:n])
	}
}

// eighths rounds a coverage to the nearest of eight levels (0, 1/7 … 1).
// Edges drawn with eight levels look as smooth as with 256 at this size,
// and the picture has far fewer distinct colours: it quantises better and
// compresses by about an eighth more.
var eighths = func() (t [256]uint8) {
	for i := range t {
		level := (i*7 + 127) / 255 // 0 … 7
		t[i] = uint8((level*255 + 3) / 7)
	}
	return t
}()

// composite paints colour c through mask m onto dst at offset at, the
// mask's coverage rounded to eighths. dst is opaque and stays so.
func composite(dst *image.RGBA, at image.Point, m *image.Alpha, c Colour) {
	sr, sg, sb, sa := uint32(c.R), uint32(c.G), uint32(c.B), uint32(c.A)
	w, h := m.Rect.Dx(), m.Rect.Dy()
	var solid []uint8 // c repeated, for runs of full coverage
	if c.A == 0xff {
		solid = make([]uint8, 4*w)
		fillRGBA(solid, c)
	}
	for y := 0; y < h; y++ {
		row := m.Pix[y*m.Stride : y*m.Stride+w]
		pix := dst.Pix[dst.PixOffset(at.X, at.Y+y):]
		pix = pix[:4*w]
		for x := 0; x < w; x++ {
			a := eighths[row[x]]
			if a == 0 {
				// Skip empty mask eight pixels at a time.
				for x+8 < w && binary.LittleEndian.Uint64(row[x+1:]) == 0 {
					x += 8
				}
				continue
			}
			if a == 0xff && solid != nil {
				e := x + 1
				for e < w && eighths[row[e]] == 0xff {
					e++
				}
				copy(pix[4*x:4*e], solid)
				x = e - 1
				continue
			}
			i := 4 * x
			e := mul255(uint32(a), sa) // coverage times opacity
			k := 255 - e
			pix[i] = uint8(mul255(sr, e) + mul255(uint32(pix[i]), k))
			pix[i+1] = uint8(mul255(sg, e) + mul255(uint32(pix[i+1]), k))
			pix[i+2] = uint8(mul255(sb, e) + mul255(uint32(pix[i+2]), k))
			pix[i+3] = 0xff
		}
	}
}

// mul255 is x·y/255 rounded, for x, y in 0..255, without a division.
func mul255(x, y uint32) uint32 {
	t := x*y + 128
	return (t + t>>8) >> 8
}

// circlePts approximates a circle by a polygon fine enough at this size.
func circlePts(a *arena, c pt, rad float64, cw bool) []pt {
	n := int(math.Ceil(2 * math.Pi * rad / 3)) // sides of 3 pixels: off by under 0.3
	n = max(8, min(n, 72))
	out := a.take(n)
	for i := range out {
		a := 2 * math.Pi * float64(i) / float64(n)
		if !cw {
			a = -a
		}
		out[i] = pt{c.X + rad*math.Cos(a), c.Y + rad*math.Sin(a)}
	}
	return out
}

// dashes cuts a polyline into its dashes (on, off, on, off… lengths,
// restarting at the polyline's start, as SVG's stroke-dasharray does).
func dashes(l []pt, pattern []float64) [][]pt {
	total := 0.0
	for _, d := range pattern {
		total += d
	}
	if len(pattern) == 0 || total <= 0 || len(l) < 2 {
		return [][]pt{l}
	}
	var out [][]pt
	i, left, on := 0, pattern[0], true
	cur := []pt{l[0]}
	for s := 1; s < len(l); s++ {
		a, b := l[s-1], l[s]
		seg := b.sub(a).len()
		pos := 0.0
		for seg-pos > left {
			pos += left
			p := a.lerp(b, pos/seg)
			if on {
				out = append(out, append(cur, p))
				cur = nil
			} else {
				cur = []pt{p}
			}
			on = !on
			i = (i + 1) % len(pattern)
			left = pattern[i]
		}
		left -= seg - pos
		if on {
			cur = append(cur, b)
		}
	}
	if on && len(cur) > 1 {
		out = append(out, cur)
	}
	return out
}

// turn is the sine of the angle a polyline turns at b (0 when straight).
func turn(a, b, c pt) float64 {
	u, v := b.sub(a).unit(), c.sub(b).unit()
	s := u.X*v.Y - u.Y*v.X
	if u.X*v.X+u.Y*v.Y < 0 {
		return 1 // turns back
	}
	return math.Abs(s)
}

// strokePolys appends the polygons covering the stroke of polyline l: one
// quadrilateral per segment, a disc at each joint (round joins) and, with
// round caps, at both ends. All wind clockwise so their union fills once.
func strokePolys(out [][]pt, ar *arena, l []pt, w float64, round bool) [][]pt {
	h := w / 2
	joins := w >= 2.5 // thinner lines show no gap at their joints
	for i := 1; i < len(l); i++ {
		a, b := l[i-1], l[i]
		d := b.sub(a)
		if d.len() == 0 {
			continue
		}
		n := d.unit().perp().mul(h)
		q := ar.take(4)
		q[0], q[1], q[2], q[3] = a.add(n), b.add(n), b.sub(n), a.sub(n)
		if signedArea(q) < 0 {
			q[0], q[1], q[2], q[3] = q[3], q[2], q[1], q[0]
		}
		out = append(out, q)
		// A round join, unless the line turns too little to leave a gap.
		if joins && i < len(l)-1 && turn(a, b, l[i+1])*h > 0.15 {
			out = append(out, circlePts(ar, b, h, true))
		}
	}
	if joins && round && len(l) > 1 {
		out = append(out, circlePts(ar, l[0], h, true), circlePts(ar, l[len(l)-1], h, true))
	}
	return out
}
