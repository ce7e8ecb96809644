package hex

import (
	"fmt"
	"strconv"
	"strings"
)

// Hex is one cell of the grid, by column and row. The zero value is "0000",
// which is on no map of the games we know.
type Hex struct {
	Col, Row int
}

// New returns the hex at column c, row r.
func New(c, r int) Hex { return Hex{Col: c, Row: r} }

// String returns the four-digit CCRR name, e.g. "0606". A hex outside 00..99
// in either coordinate (it can only arise from arithmetic off the map) is
// written "(c,r)".
func (h Hex) String() string {
	if h.Col < 0 || h.Col > 99 || h.Row < 0 || h.Row > 99 {
		return fmt.Sprintf("(%d,%d)", h.Col, h.Row)
	}
	return fmt.Sprintf("%02d%02d", h.Col, h.Row)
}

// Less orders hexes by column, then row. It gives hexsides and sorted lists a
// stable order.
func (h Hex) Less(o Hex) bool {
	if h.Col != o.Col {
		return h.Col < o.Col
	}
	return h.Row < o.Row
}

// Parse reads a hex name of exactly four digits, "CCRR". Use it for data
// files, where a short name is more likely a typing slip than a shorthand.
func Parse(s string) (Hex, error) {
	if len(s) != 4 || !allDigits(s) {
		return Hex{}, fmt.Errorf("%q is not a hex: write four digits, column then row, e.g. \"0606\"", s)
	}
	c, _ := strconv.Atoi(s[:2])
	r, _ := strconv.Atoi(s[2:])
	return Hex{c, r}, nil
}

// ParseLenient reads a hex name as players write it: four digits, or three
// digits with the column's leading zero dropped ("109" is 0109, as the Dragon
// Rage rules themselves write it, DR-HEX-1). Surrounding spaces and a leading
// "hex"/"#" are ignored.
func ParseLenient(s string) (Hex, error) {
	t := strings.TrimSpace(s)
	t = strings.TrimPrefix(strings.TrimPrefix(strings.ToLower(t), "hex"), "#")
	t = strings.TrimSpace(strings.TrimPrefix(t, "."))
	if len(t) == 3 && allDigits(t) {
		t = "0" + t
	}
	h, err := Parse(t)
	if err != nil {
		return Hex{}, fmt.Errorf("%q is not a hex: write column then row, e.g. \"0606\" (or \"606\")", s)
	}
	return h, nil
}

// MustParse is Parse for constants in code and tests; it panics on a bad name.
func MustParse(s string) Hex {
	h, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return h
}

func allDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// even reports whether column c is even (such columns sit half a hex lower).
func even(c int) bool { return c%2 == 0 }
