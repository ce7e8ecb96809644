package hex

import "testing"

func r(n, d int) Ratio { return Ratio{n, d} }

func TestTraceSpansStraightDown(t *testing.T) {
	a, b := MustParse("0301"), MustParse("0303")
	sides := TraceSideSpans(a, b)
	if len(sides) != 2 {
		t.Fatalf("sides %+v", sides)
	}
	for i, want := range []Ratio{r(1, 4), r(3, 4)} {
		if sides[i].Touch != Cross || sides[i].From != want || sides[i].To != want {
			t.Errorf("side %d: %+v, want a crossing at %v", i, sides[i], want)
		}
	}
	want := map[Hex][2]Ratio{a: {r(0, 1), r(1, 4)}, MustParse("0302"): {r(1, 4), r(3, 4)}, b: {r(3, 4), r(1, 1)}}
	n := 0
	for _, hs := range TraceHexSpans(a, b) {
		if hs.Touch != Cross {
			continue
		}
		n++
		if w := want[hs.Hex]; hs.From != w[0] || hs.To != w[1] {
			t.Errorf("%v: %v..%v, want %v..%v", hs.Hex, hs.From, hs.To, w[0], w[1])
		}
	}
	if n != 3 {
		t.Errorf("%d hexes crossed", n)
	}
	if got := HeightAt(0, Levels(1), r(1, 4)); got != r(1, 2) || got.CmpLevel(Half) != -1 || got.CmpLevel(0) != 1 {
		t.Errorf("height a quarter of the way up one level: %v half-levels", got)
	}
	if got := HeightAt(Levels(-1), Levels(-1), r(1, 3)); got.CmpLevel(Levels(-1)) != 0 {
		t.Errorf("a level line stays level: %v", got)
	}
}

// TestTraceSpansAgree: the spans report exactly the touches of TraceSides
// and TraceHexes, every span lies within [0, 1], crossings and corners are
// points, and the hexes crossed cover the line from 0 to 1 without a gap.
func TestTraceSpansAgree(t *testing.T) {
	zero, one := r(0, 1), r(1, 1)
	for _, pair := range [][2]string{{"0101", "0505"}, {"0202", "0902"}, {"0606", "0301"}, {"0404", "0707"}, {"0101", "0704"}, {"0510", "0202"}} {
		a, b := MustParse(pair[0]), MustParse(pair[1])
		plain := TraceSides(a, b)
		spans := TraceSideSpans(a, b)
		if len(plain) != len(spans) {
			t.Fatalf("%v: %d sides, %d spans", pair, len(plain), len(spans))
		}
		for i, s := range spans {
			if s.SideTouch != plain[i] || s.From.Cmp(s.To) > 0 || s.From.Cmp(zero) < 0 || s.To.Cmp(one) > 0 {
				t.Fatalf("%v: span %+v", pair, s)
			}
			if s.Touch != Along && s.From != s.To {
				t.Fatalf("%v: a %v touch spans %v..%v", pair, s.Touch, s.From, s.To)
			}
		}
		reach := zero
		for range 50 {
			moved := false
			for _, hs := range TraceHexSpans(a, b) {
				if hs.Touch == Cross && hs.From.Cmp(reach) <= 0 && hs.To.Cmp(reach) > 0 {
					reach, moved = hs.To, true
				}
			}
			if !moved {
				break
			}
		}
		if reach != one {
			t.Errorf("%v: the hexes crossed cover the line only up to %v", pair, reach)
		}
		if len(TraceHexSpans(a, b)) != len(TraceHexes(a, b)) {
			t.Errorf("%v: hex spans and TraceHexes disagree", pair)
		}
	}
}
