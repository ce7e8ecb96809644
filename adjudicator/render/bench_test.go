package render

import (
	"syscall"
	"testing"
	"time"
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
	v := esirienView()
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
	v := esirienView()
	for b.Loop() {
		if _, err := Board(m, v, scenarios[0].opt); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSVGEsirien45 writes the SVG of the same picture.
func BenchmarkSVGEsirien45(b *testing.B) {
	pic, err := Board(loadMap(b, "esirien"), esirienView(), scenarios[0].opt)
	if err != nil {
		b.Fatal(err)
	}
	var size int
	for b.Loop() {
		size = len(pic.SVG())
	}
	b.ReportMetric(float64(size), "SVG-bytes")
}
