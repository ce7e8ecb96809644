package render

import (
	"bytes"
	"image"
	"image/png"
	"syscall"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator/dragonrage/refpicture"
)

// cpuTime is the CPU time the test process has used, all threads.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkRenderEsirien45 draws Esirien with 45 counters on the map, a
// dragon with its damage panel, fog, a whirlwind and ten traces, from the
// View to the PNG bytes. It reports the PNG's size and the CPU time per
// picture (which, unlike ns/op, does not depend on what else the machine
// is doing).
func BenchmarkRenderEsirien45(b *testing.B) {
	m := loadMap(b, "esirien")
	v := refpicture.View()
	opt := scenarios[0].opt
	var size int
	c0 := cpuTime()
	for b.Loop() {
		pic, err := Board(m, v, opt)
		if err != nil {
			b.Fatal(err)
		}
		png, err := pic.PNG()
		if err != nil {
			b.Fatal(err)
		}
		size = len(png)
	}
	b.ReportMetric(float64(size), "PNG-bytes")
	b.ReportMetric(float64(cpuTime()-c0)/1e6/float64(b.N), "cpu-ms/op")
}

// BenchmarkBuildEsirien45 is the display list alone.
func BenchmarkBuildEsirien45(b *testing.B) {
	m := loadMap(b, "esirien")
	v := refpicture.View()
	for b.Loop() {
		if _, err := Board(m, v, scenarios[0].opt); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSVGEsirien45 writes the SVG of the same picture.
func BenchmarkSVGEsirien45(b *testing.B) {
	pic, err := Board(loadMap(b, "esirien"), refpicture.View(), scenarios[0].opt)
	if err != nil {
		b.Fatal(err)
	}
	var size int
	for b.Loop() {
		size = len(pic.SVG())
	}
	b.ReportMetric(float64(size), "SVG-bytes")
}

// esirienImages is the Esirien picture of the benchmarks, rasterised and
// quantised: what the PNG encoders are given.
func esirienImages(b *testing.B) (*Picture, *image.Paletted) {
	b.Helper()
	pic, err := Board(loadMap(b, "esirien"), refpicture.View(), scenarios[0].opt)
	if err != nil {
		b.Fatal(err)
	}
	return pic, quantize(pic.Image())
}

// stdPNG encodes img with Go's image/png at BestSpeed, the reference the
// picture's cost is measured against.
func stdPNG(b *testing.B, img image.Image) int {
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, img); err != nil {
		b.Fatal(err)
	}
	return buf.Len()
}

// versus times ours and image/png's alternately in one loop, so that both
// meet the same load, and reports each one's time and CPU time (all
// threads) per operation and their ratios: "ratio" (elapsed) and
// "cpu-ratio" above 1 mean ours costs more. Ours may use both processors;
// image/png uses one, so on a busy machine the two ratios differ.
func versus(b *testing.B, ours func() int, theirs func()) {
	var own, std, ownCPU, stdCPU time.Duration
	size := 0
	for b.Loop() {
		t0, c0 := time.Now(), cpuTime()
		size = ours()
		t1, c1 := time.Now(), cpuTime()
		theirs()
		t2, c2 := time.Now(), cpuTime()
		own, std = own+t1.Sub(t0), std+t2.Sub(t1)
		ownCPU, stdCPU = ownCPU+c1-c0, stdCPU+c2-c1
	}
	n := float64(b.N) * 1e6
	b.ReportMetric(float64(own)/n, "ours-ms/op")
	b.ReportMetric(float64(std)/n, "imagepng-ms/op")
	b.ReportMetric(float64(own)/float64(std), "ratio")
	b.ReportMetric(float64(ownCPU)/n, "ours-cpu-ms/op")
	b.ReportMetric(float64(stdCPU)/n, "imagepng-cpu-ms/op")
	b.ReportMetric(float64(ownCPU)/float64(stdCPU), "cpu-ratio")
	b.ReportMetric(float64(size), "PNG-bytes")
}

// BenchmarkEncodeVsImagePNG encodes the same paletted image (the Esirien
// picture's) with our PNG writer and with image/png at BestSpeed; it also
// reports image/png's size.
func BenchmarkEncodeVsImagePNG(b *testing.B) {
	_, img := esirienImages(b)
	b.ReportMetric(float64(stdPNG(b, img)), "imagepng-bytes")
	versus(b, func() int {
		out, err := encodePNG(img)
		if err != nil {
			b.Fatal(err)
		}
		return len(out)
	}, func() { stdPNG(b, img) })
}

// BenchmarkPictureVsImagePNG makes the whole picture, View to PNG bytes
// (display list, rasterising, quantising, encoding), against image/png
// encoding the resulting paletted image at BestSpeed. "warm" draws over
// the map layer kept from the picture before, as every picture of a game
// but the first does; "cold" forgets it before each picture.
func BenchmarkPictureVsImagePNG(b *testing.B) {
	for _, cold := range []bool{false, true} {
		name := "warm"
		if cold {
			name = "cold"
		}
		b.Run(name, func(b *testing.B) {
			m := loadMap(b, "esirien")
			v := refpicture.View()
			opt := scenarios[0].opt
			_, img := esirienImages(b)
			versus(b, func() int {
				if cold {
					layers.reset()
				}
				pic, err := Board(m, v, opt)
				if err != nil {
					b.Fatal(err)
				}
				out, err := pic.PNG()
				if err != nil {
					b.Fatal(err)
				}
				return len(out)
			}, func() { stdPNG(b, img) })
		})
	}
}
