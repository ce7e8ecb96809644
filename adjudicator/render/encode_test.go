package render

import (
	"bytes"
	"hash/adler32"
	"image"
	"image/color"
	"image/png"
	"testing"
)

func TestAdler32Combine(t *testing.T) {
	data := bytes.Repeat([]byte("umpire referees hex-and-counter wargames "), 5000)
	for _, cut := range []int{0, 1, 17, 65521, 100000, len(data)} {
		a, b := data[:cut], data[cut:]
		got := adler32Combine(adler32.Checksum(a), adler32.Checksum(b), len(b))
		if want := adler32.Checksum(data); got != want {
			t.Errorf("cut %d: combined %08x, want %08x", cut, got, want)
		}
	}
}

// TestEncodePNG checks the hand-made PNG against the standard decoder.
func TestEncodePNG(t *testing.T) {
	for _, size := range []image.Point{{1, 1}, {3, 1}, {1, 3}, {37, 29}, {640, 480}} {
		pal := color.Palette{color.RGBA{255, 255, 255, 255}, color.RGBA{0, 114, 178, 255}, color.RGBA{230, 159, 0, 255}}
		img := image.NewPaletted(image.Rect(0, 0, size.X, size.Y), pal)
		for i := range img.Pix {
			img.Pix[i] = uint8((i*7 + i/13) % 3)
		}
		b, err := encodePNG(img)
		if err != nil {
			t.Fatal(err)
		}
		got, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%v: %v", size, err)
		}
		if got.Bounds() != img.Bounds() {
			t.Fatalf("%v: decoded bounds %v", size, got.Bounds())
		}
		for y := 0; y < size.Y; y++ {
			for x := 0; x < size.X; x++ {
				if got.At(x, y) != img.At(x, y) {
					t.Fatalf("%v: pixel (%d, %d) is %v, want %v", size, x, y, got.At(x, y), img.At(x, y))
				}
			}
		}
	}
}

// TestFinder: the fast nearest-colour search agrees with a plain scan.
func TestFinder(t *testing.T) {
	x := uint32(12345)
	rnd := func() uint32 { x = x*1664525 + 1013904223; return x >> 8 }
	var pal color.Palette
	for i := 0; i < 256; i++ {
		c := rnd()
		pal = append(pal, color.RGBA{uint8(c), uint8(c >> 8), uint8(c >> 16), 0xff})
	}
	pal[7] = pal[3] // equals: the first wins
	f := newFinder(pal)
	for n := 0; n < 20000; n++ {
		c := rnd() & 0xffffff
		best, bi := 1<<62, 0
		for i, p := range pal {
			q := p.(color.RGBA)
			if d := dist(c, uint32(q.R)|uint32(q.G)<<8|uint32(q.B)<<16); d < best {
				best, bi = d, i
			}
		}
		if got := f.nearest(c); int(got) != bi {
			t.Fatalf("nearest(%06x) = %d, want %d", c, got, bi)
		}
	}
}
