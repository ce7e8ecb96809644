package render

import (
	"math"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// The Go fonts (Bigelow & Holmes, BSD-style licence of the Go project).
var fonts = sync.OnceValue(func() [2]*opentype.Font {
	parse := func(b []byte) *opentype.Font {
		f, err := opentype.Parse(b)
		if err != nil {
			panic("render: embedded Go font: " + err.Error()) // the bytes are compiled in
		}
		return f
	}
	return [2]*opentype.Font{parse(goregular.TTF), parse(gobold.TTF)}
})

// faceKey names a face: a weight and a size in 1/64 pixel.
type faceKey struct {
	bold bool
	size fixed.Int26_6
}

// faces is a cache of font faces. A face is not safe for concurrent use, so
// each build and each PNG rendering keeps its own.
type faces map[faceKey]font.Face

func (fs faces) face(size float64, bold bool) font.Face {
	k := faceKey{bold, fixed.Int26_6(math.Round(size * 64))}
	if f, ok := fs[k]; ok {
		return f
	}
	i := 0
	if bold {
		i = 1
	}
	f, err := opentype.NewFace(fonts()[i], &opentype.FaceOptions{Size: float64(k.size) / 64, DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		panic("render: font face: " + err.Error()) // only fails on a bad size
	}
	fs[k] = f
	return f
}

// width measures s in pixels.
func (fs faces) width(s string, size float64, bold bool) float64 {
	return float64(font.MeasureString(fs.face(size, bold), s)) / 64
}

// fit returns the largest size not above size at which s is at most w wide.
func (fs faces) fit(s string, size float64, bold bool, w float64) float64 {
	if tw := fs.width(s, size, bold); tw > w && tw > 0 {
		return math.Floor(size*w/tw*4) / 4
	}
	return size
}
