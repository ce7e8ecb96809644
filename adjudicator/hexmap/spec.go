package hexmap

import (
	"fmt"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// expand reads one hex spec:
//
//	"0606"       one hex
//	"1401-1413"  a run along one column (or, "0110-0510", along one row)
//	"0101:0305"  every hex with column 01..03 and row 01..05
func expand(s string) ([]hex.Hex, error) {
	if a, b, ok := strings.Cut(s, ":"); ok {
		h1, h2, err := pair(a, b, s)
		if err != nil {
			return nil, err
		}
		var out []hex.Hex
		for c := min(h1.Col, h2.Col); c <= max(h1.Col, h2.Col); c++ {
			for r := min(h1.Row, h2.Row); r <= max(h1.Row, h2.Row); r++ {
				out = append(out, hex.New(c, r))
			}
		}
		return out, nil
	}
	if a, b, ok := strings.Cut(s, "-"); ok {
		h1, h2, err := pair(a, b, s)
		if err != nil {
			return nil, err
		}
		var out []hex.Hex
		switch {
		case h1.Col == h2.Col:
			for r := min(h1.Row, h2.Row); r <= max(h1.Row, h2.Row); r++ {
				out = append(out, hex.New(h1.Col, r))
			}
		case h1.Row == h2.Row:
			for c := min(h1.Col, h2.Col); c <= max(h1.Col, h2.Col); c++ {
				out = append(out, hex.New(c, h1.Row))
			}
		default:
			return nil, fmt.Errorf("run %q must stay in one column or one row; use \"A:B\" for a block", s)
		}
		return out, nil
	}
	h, err := hex.Parse(strings.TrimSpace(s))
	if err != nil {
		return nil, err
	}
	return []hex.Hex{h}, nil
}

func pair(a, b, s string) (hex.Hex, hex.Hex, error) {
	h1, err1 := hex.Parse(strings.TrimSpace(a))
	h2, err2 := hex.Parse(strings.TrimSpace(b))
	if err1 != nil || err2 != nil {
		return hex.Hex{}, hex.Hex{}, fmt.Errorf("%q is not a hex range: write two four-digit hexes, e.g. \"1401-1413\" or \"0101:0305\"", s)
	}
	return h1, h2, nil
}

// sideRun reads "0707 NW N": hexsides of one hex in the listed directions
// of layout l ("2715 E NE" on a pointy map).
func sideRun(s string, l hex.Layout) (hex.Hex, []hex.Direction, error) {
	f := strings.Fields(s)
	if len(f) < 2 {
		eg := "0707 NW N"
		if l.Pointy() {
			eg = "0707 NW E"
		}
		return hex.Hex{}, nil, fmt.Errorf("%q: write a hex then one or more directions, e.g. %q", s, eg)
	}
	h, err := hex.Parse(f[0])
	if err != nil {
		return hex.Hex{}, nil, err
	}
	var ds []hex.Direction
	for _, t := range f[1:] {
		d, err := l.ParseDirection(t)
		if err != nil {
			return hex.Hex{}, nil, err
		}
		ds = append(ds, d)
	}
	return h, ds, nil
}
