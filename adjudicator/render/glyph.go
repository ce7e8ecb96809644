package render

import (
	"image"
	"math"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
)

// glyphKey names one rasterised glyph: a face, a rune and the pen's
// horizontal position within a pixel, in quarters.
type glyphKey struct {
	face faceKey
	r    rune
	frac uint8
}

// glyphMask is a rasterised glyph, positioned relative to the pen on the
// baseline at a whole pixel.
type glyphMask struct {
	at   image.Point
	mask *image.Alpha
}

// glyphs caches rasterised glyphs across pictures. A glyph is a pure
// function of its key, so sharing the cache cannot change any output.
var glyphs = struct {
	sync.Mutex
	m map[glyphKey]glyphMask
}{m: map[glyphKey]glyphMask{}}

const maxGlyphs = 20000

func (r *raster) glyph(f font.Face, k glyphKey) (glyphMask, bool) {
	glyphs.Lock()
	g, ok := glyphs.m[k]
	glyphs.Unlock()
	if ok {
		return g, g.mask != nil
	}
	dr, mask, mp, _, ok := f.Glyph(fixed.Point26_6{X: fixed.Int26_6(k.frac) * 16}, k.r)
	if ok && !dr.Empty() {
		a := image.NewAlpha(image.Rect(0, 0, dr.Dx(), dr.Dy()))
		for y := 0; y < dr.Dy(); y++ {
			for x := 0; x < dr.Dx(); x++ {
				a.Pix[y*a.Stride+x] = mask.(*image.Alpha).AlphaAt(mp.X+x, mp.Y+y).A
			}
		}
		g = glyphMask{at: dr.Min, mask: a}
	}
	glyphs.Lock()
	if len(glyphs.m) < maxGlyphs {
		glyphs.m[k] = g
	}
	glyphs.Unlock()
	return g, g.mask != nil
}

// text draws one line of text: pen positions are those font.MeasureString
// assumes (advances and kerning), rounded to a quarter pixel across and a
// whole pixel down.
func (r *raster) text(o *op) {
	f := r.fs.face(o.size, o.bold)
	fk := faceKey{o.bold, fixed.Int26_6(math.Round(o.size * 64))}
	x := o.at.X
	switch o.anc {
	case middle:
		x -= float64(font.MeasureString(f, o.text)) / 128
	case end:
		x -= float64(font.MeasureString(f, o.text)) / 64
	}
	dot := fixed.Int26_6(math.Round(x * 64))
	y := int(math.Round(o.at.Y))
	prev := rune(-1)
	for _, c := range o.text {
		if prev >= 0 {
			dot += f.Kern(prev, c)
		}
		q := (int(dot&63) + 8) / 16
		ix := int(dot >> 6)
		if q == 4 {
			ix, q = ix+1, 0
		}
		if g, ok := r.glyph(f, glyphKey{fk, c, uint8(q)}); ok {
			r.blit(g.mask, image.Pt(ix+g.at.X, y+g.at.Y), o.fill)
		}
		adv, _ := f.GlyphAdvance(c)
		dot += adv
		prev = c
	}
}

// blit composites a mask at p, clipped to the image.
func (r *raster) blit(m *image.Alpha, p image.Point, c Colour) {
	dst := m.Rect.Add(p).Intersect(r.img.Bounds())
	if dst.Empty() {
		return
	}
	sub := m.SubImage(dst.Sub(p)).(*image.Alpha)
	sub = &image.Alpha{Pix: sub.Pix, Stride: sub.Stride, Rect: image.Rect(0, 0, dst.Dx(), dst.Dy())}
	composite(r.img, dst.Min, sub, c)
}
