package render

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"hash/adler32"
	"hash/crc32"
	"image"
	"sync"
)

// zparts is how many parts of the image are compressed concurrently: few,
// since each part starts without the previous one's history. Fixed, so that
// the bytes never depend on the machine.
const zparts = 4

// zlevel is the deflate level: 4 is the first of compress/flate's levels
// with lazy matching, which finds the long matches of rows that repeat the
// one above; a picture comes out about a tenth smaller than at level 1 for
// half as much time again.
const zlevel = 4

// flaters keeps deflate compressors (a new one allocates about a megabyte);
// Reset makes a kept one compress exactly as a new one.
var flaters = sync.Pool{New: func() any {
	w, err := flate.NewWriter(nil, zlevel)
	if err != nil {
		panic(err) // only for a bad level
	}
	return w
}}

// encodePNG writes a paletted image as a PNG file: signature, IHDR, PLTE,
// one IDAT and IEND. The zlib stream's deflate data is made of zparts
// horizontal parts, compressed concurrently: every part but the last ends with a sync
// flush, so the parts join into one valid stream (no back-reference crosses
// a join). Each row is filtered with "none", which suits flat colours.
func encodePNG(img *image.Paletted) ([]byte, error) {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	parts := make([][]byte, zparts)
	errs := make([]error, zparts)
	sums := make([]uint32, zparts)
	lens := make([]int, zparts)
	parallelN(zparts, func(_, i int) {
		y0, y1 := h*i/zparts, h*(i+1)/zparts
		var buf bytes.Buffer
		buf.Grow((w + 1) * (y1 - y0) / 8)
		zw := flaters.Get().(*flate.Writer)
		defer flaters.Put(zw)
		zw.Reset(&buf)
		sum := adler32.New()
		var err error
		filter := []byte{0}
		for y := y0; y < y1 && err == nil; y++ {
			row := img.Pix[y*img.Stride : y*img.Stride+w]
			sum.Write(filter)
			sum.Write(row)
			if _, err = zw.Write(filter); err == nil {
				_, err = zw.Write(row)
			}
		}
		sums[i], lens[i] = sum.Sum32(), (w+1)*(y1-y0)
		if err == nil {
			if i == len(parts)-1 {
				err = zw.Close()
			} else {
				err = zw.Flush()
			}
		}
		parts[i], errs[i] = buf.Bytes(), err
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	sum := sums[0]
	for i := 1; i < zparts; i++ {
		sum = adler32Combine(sum, sums[i], lens[i])
	}

	var out bytes.Buffer
	out.WriteString("\x89PNG\r\n\x1a\n")
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = 8, 3 // 8 bits per sample, paletted
	chunk(&out, "IHDR", ihdr[:])
	plte := make([]byte, 0, 3*len(img.Palette))
	for _, c := range img.Palette {
		r, g, b, _ := c.RGBA()
		plte = append(plte, uint8(r>>8), uint8(g>>8), uint8(b>>8))
	}
	chunk(&out, "PLTE", plte)
	n := 2 + 4
	for _, p := range parts {
		n += len(p)
	}
	idat := make([]byte, 0, n)
	idat = append(idat, 0x78, 0x5e) // zlib header: deflate, 32K window, a fast level
	for _, p := range parts {
		idat = append(idat, p...)
	}
	idat = binary.BigEndian.AppendUint32(idat, sum)
	chunk(&out, "IDAT", idat)
	chunk(&out, "IEND", nil)
	return out.Bytes(), nil
}

func chunk(out *bytes.Buffer, kind string, data []byte) {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(data)))
	out.Write(n[:])
	crc := crc32.NewIEEE()
	crc.Write([]byte(kind))
	crc.Write(data)
	out.WriteString(kind)
	out.Write(data)
	binary.BigEndian.PutUint32(n[:], crc.Sum32())
	out.Write(n[:])
}

// adler32Combine is the Adler-32 of the concatenation of two byte strings,
// from their checksums and the second one's length.
func adler32Combine(a, b uint32, lenB int) uint32 {
	const mod = 65521
	rem := uint32(lenB % mod)
	s1a, s2a := a&0xffff, a>>16
	s1b, s2b := b&0xffff, b>>16
	s1 := (s1a + s1b + mod - 1) % mod
	s2 := (s2a + s2b + rem*s1a%mod + 2*mod - rem) % mod
	return s2<<16 | s1
}
