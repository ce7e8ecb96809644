package hex

import "testing"

func TestParseLevel(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Level
		bad  bool
	}{
		{"0", 0, false}, {"+1", 2, false}, {"1", 2, false}, {"-1", -2, false},
		{"+1/2", 1, false}, {"-1/2", -1, false}, {"+3/2", 3, false}, {"-0.5", -1, false},
		{"1.5", 3, false}, {"+2.0", 4, false}, {" -2 ", -4, false},
		{"", 0, true}, {"+", 0, true}, {"2/2", 0, true}, {"1/3", 0, true}, {"0.25", 0, true},
		{"+-1", 0, true}, {"one", 0, true}, {"100", 0, true}, {"1 /2", 0, true},
	} {
		got, err := ParseLevel(c.in)
		if c.bad {
			if err == nil {
				t.Errorf("ParseLevel(%q) = %v, want an error", c.in, got)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("ParseLevel(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
}

func TestLevelRoundTrip(t *testing.T) {
	for l := Level(-12); l <= 12; l++ {
		got, err := ParseLevel(l.String())
		if err != nil || got != l {
			t.Errorf("%d writes %q, which reads back as %v, %v", int(l), l.String(), got, err)
		}
		if l.IsHalf() != (l.Below() != l.Above()) {
			t.Errorf("%v: IsHalf %v but Below %v Above %v", l, l.IsHalf(), l.Below(), l.Above())
		}
		if l.IsHalf() && (l.Above()-l.Below() != Storey || l.Below()+Half != l) {
			t.Errorf("%v: a half level sits between %v and %v", l, l.Below(), l.Above())
		}
		if w, ok := l.Whole(); ok != !l.IsHalf() || (ok && Levels(w) != l) {
			t.Errorf("%v: Whole = %d, %v", l, w, ok)
		}
	}
	if Levels(-1).String() != "-1" || Level(1).String() != "+1/2" || Level(-3).String() != "-3/2" {
		t.Error("level names")
	}
}

func TestLoc(t *testing.T) {
	for _, c := range []struct {
		in      string
		want    Loc
		leveled bool
		bad     bool
	}{
		{"0304", At(New(3, 4), 0), false, false},
		{"0304@+1", At(New(3, 4), 2), true, false},
		{"0304@-1/2", At(New(3, 4), -1), true, false},
		{" 0304 @ 0 ", At(New(3, 4), 0), true, false},
		{"304@1", Loc{}, false, true},
		{"0304@", Loc{}, false, true},
		{"0304@x", Loc{}, false, true},
	} {
		got, leveled, err := ParseLoc(c.in)
		if c.bad != (err != nil) || got != c.want || leveled != c.leveled {
			t.Errorf("ParseLoc(%q) = %v, %v, %v", c.in, got, leveled, err)
		}
		if err == nil && c.leveled {
			if back, _, _ := ParseLoc(got.String()); back != got {
				t.Errorf("%v does not read back", got)
			}
		}
	}
	a, b := At(New(3, 4), 2), At(New(3, 4), 0)
	if !b.Less(a) || a.Less(b) || !At(New(2, 9), 4).Less(b) {
		t.Error("Loc.Less")
	}
	if a.String() != "0304@+1" || b.String() != "0304" {
		t.Error("Loc.String", a, b)
	}
}
