package hex

import (
	"fmt"
	"strconv"
	"strings"
)

// Level is a height on a map with several levels, counted in half-levels so
// that arithmetic stays exact: 0 is the ground level, 2 is one level up
// (+1), −2 one level down (−1), and the odd values are the half levels of
// stairs and ramps (1 is +½, between 0 and +1). Use Levels(n) for a whole
// level n; never store a level as a float.
type Level int

// Half is half a level, the height of a stairs step; Storey is one whole
// level.
const (
	Half   Level = 1
	Storey Level = 2
)

// Levels returns whole level n: Levels(1) is +1, Levels(-1) is −1.
func Levels(n int) Level { return Level(2 * n) }

// IsHalf reports whether l lies halfway between two whole levels (a stairs
// or ramp hex).
func (l Level) IsHalf() bool { return mod2(int(l)) == 1 }

// Whole returns the whole level l is, or false for a half level.
func (l Level) Whole() (int, bool) {
	if l.IsHalf() {
		return 0, false
	}
	return int(l) / 2, true
}

// Below and Above are the whole levels a half level joins (for a whole
// level, both are the level itself).
func (l Level) Below() Level { return l - Level(mod2(int(l))) }

// Above is the whole level just above a half level; see Below.
func (l Level) Above() Level { return l + Level(mod2(int(l))) }

// String writes the level as map files do: "0", "+1", "-1", "+1/2",
// "-3/2".
func (l Level) String() string {
	if l == 0 {
		return "0"
	}
	sign := "+"
	n := int(l)
	if n < 0 {
		sign, n = "-", -n
	}
	if n%2 == 1 {
		return fmt.Sprintf("%s%d/2", sign, n)
	}
	return fmt.Sprintf("%s%d", sign, n/2)
}

// ParseLevel reads a level as String writes it; a whole level may drop its
// "+" ("1"), and a half level may be written with a decimal point ("-0.5",
// "+1.5"). Anything finer than a half level is refused.
func ParseLevel(s string) (Level, error) {
	t := strings.TrimSpace(s)
	bad := fmt.Errorf("%q is not a level: write 0, +1, -1, or a half level such as +1/2 or -1/2", s)
	neg := strings.HasPrefix(t, "-")
	body := t
	if neg || strings.HasPrefix(t, "+") {
		body = t[1:]
	}
	if body == "" || strings.ContainsAny(body, "+- ") {
		return 0, bad
	}
	var halves int
	switch {
	case strings.HasSuffix(body, "/2"):
		n, err := strconv.Atoi(strings.TrimSuffix(body, "/2"))
		if err != nil || n%2 == 0 {
			return 0, bad
		}
		halves = n
	case strings.HasSuffix(body, ".5"):
		n, err := strconv.Atoi(strings.TrimSuffix(body, ".5"))
		if err != nil {
			return 0, bad
		}
		halves = 2*n + 1
	default:
		body = strings.TrimSuffix(body, ".0")
		n, err := strconv.Atoi(body)
		if err != nil {
			return 0, bad
		}
		halves = 2 * n
	}
	if halves > 198 {
		return 0, fmt.Errorf("%q is not a level: a map has at most 99 levels up or down", s)
	}
	if neg {
		halves = -halves
	}
	return Level(halves), nil
}

// Loc is a location: a hex and the level within it. One hex holds more than
// one location when a structure stands above its floor (a footbridge at +1
// over a hex whose floor is 0: two locations, one above the other).
type Loc struct {
	Hex   Hex
	Level Level
}

// At returns the location at level l of hex h.
func At(h Hex, l Level) Loc { return Loc{Hex: h, Level: l} }

// String writes "0304" at level 0 and "0304@+1", "0304@-1/2" elsewhere.
func (l Loc) String() string {
	if l.Level == 0 {
		return l.Hex.String()
	}
	return l.Hex.String() + "@" + l.Level.String()
}

// Less orders locations by hex, then from the lowest level up.
func (l Loc) Less(o Loc) bool {
	if l.Hex != o.Hex {
		return l.Hex.Less(o.Hex)
	}
	return l.Level < o.Level
}

// ParseLoc reads "0304" or "0304@+1". It reports whether a level was
// written: a bare hex means "the hex's floor", which only a map knows, so
// the level returned for it (0) is a default the caller may replace.
func ParseLoc(s string) (Loc, bool, error) {
	hs, ls, leveled := strings.Cut(strings.TrimSpace(s), "@")
	h, err := Parse(strings.TrimSpace(hs))
	if err != nil {
		return Loc{}, false, fmt.Errorf("%q is not a location: write a hex, or a hex and a level, e.g. \"0304\" or \"0304@+1\"", s)
	}
	if !leveled {
		return Loc{Hex: h}, false, nil
	}
	l, err := ParseLevel(ls)
	if err != nil {
		return Loc{}, false, err
	}
	return Loc{Hex: h, Level: l}, true, nil
}
