package glory

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

// The Combat Results Table (DG-CRT, DG-GAP-1). Its cells are figures of
// the printed rulebook, not module data: they ship in data/crt.yaml, read
// once.

// CRT is the Combat Results Table.
type CRT struct {
	Columns []Odds // in the printed order, weakest first
	First   int    // the modified roll of the first row
	Rows    [][]Result
}

// Odds is one column: attacker strength A to defender strength D.
type Odds struct{ A, D int }

func (o Odds) String() string { return fmt.Sprintf("%d-%d", o.A, o.D) }

// Result is one side's part of a cell: E (every army eliminated), D (every
// army reduced), N more reductions, R (the survivors retreat).
type Result struct {
	E bool `json:"e,omitempty"`
	D bool `json:"d,omitempty"`
	R bool `json:"r,omitempty"`
	N int  `json:"n,omitempty"`
}

func (r Result) String() string {
	var b strings.Builder
	if r.E {
		b.WriteString("E")
	}
	if r.D {
		b.WriteString("D")
	}
	if r.N > 0 {
		b.WriteString(strconv.Itoa(r.N))
	}
	if r.R {
		b.WriteString("R")
	}
	if b.Len() == 0 {
		return "-"
	}
	return b.String()
}

// None reports whether the result does nothing.
func (r Result) None() bool { return !r.E && !r.D && !r.R && r.N == 0 }

type crtFile struct {
	Source  string   `yaml:"source"`
	Rule    string   `yaml:"rule"`
	Note    string   `yaml:"note"`
	Columns []string `yaml:"columns"`
	Rows    []struct {
		Roll  int      `yaml:"roll"`
		Cells []string `yaml:"cells"`
	} `yaml:"rows"`
}

var (
	crtOnce sync.Once
	crt     *CRT
	crtErr  error
)

// TheCRT is the printed table, read from data/crt.yaml.
func TheCRT() (*CRT, error) {
	crtOnce.Do(func() {
		b, err := dataFS.ReadFile("data/crt.yaml")
		if err != nil {
			crtErr = err
			return
		}
		crt, crtErr = parseCRT(b)
	})
	return crt, crtErr
}

func parseCRT(b []byte) (*CRT, error) {
	var f crtFile
	if err := yamlx.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("crt.yaml: %w", err)
	}
	t := &CRT{}
	for _, c := range f.Columns {
		o, err := parseOdds(c)
		if err != nil {
			return nil, fmt.Errorf("crt.yaml: column %q: %w", c, err)
		}
		if n := len(t.Columns); n > 0 && o.A*t.Columns[n-1].D <= t.Columns[n-1].A*o.D {
			return nil, fmt.Errorf("crt.yaml: column %s is not higher odds than %s", o, t.Columns[n-1])
		}
		t.Columns = append(t.Columns, o)
	}
	if len(t.Columns) == 0 || len(f.Rows) == 0 {
		return nil, fmt.Errorf("crt.yaml: the table needs columns and rows")
	}
	t.First = f.Rows[0].Roll
	for i, r := range f.Rows {
		if r.Roll != t.First+i {
			return nil, fmt.Errorf("crt.yaml: row %d is for roll %d, expected %d (rows go up by one)", i+1, r.Roll, t.First+i)
		}
		if len(r.Cells) != len(t.Columns) {
			return nil, fmt.Errorf("crt.yaml: row %d has %d cells for %d columns", r.Roll, len(r.Cells), len(t.Columns))
		}
		var row []Result
		for j, c := range r.Cells {
			att, def, ok := strings.Cut(c, "/")
			ra, err1 := parseResult(att)
			rd, err2 := parseResult(def)
			if !ok || err1 != nil || err2 != nil {
				return nil, fmt.Errorf("crt.yaml: row %d, column %s: %q is not attacker/defender results (1, 2, D, R, E, -)", r.Roll, t.Columns[j], c)
			}
			row = append(row, Result{}, Result{})
			row[len(row)-2], row[len(row)-1] = ra, rd
		}
		t.Rows = append(t.Rows, row)
	}
	return t, nil
}

func parseOdds(s string) (Odds, error) {
	a, d, ok := strings.Cut(s, "-")
	x, err1 := strconv.Atoi(a)
	y, err2 := strconv.Atoi(d)
	if !ok || err1 != nil || err2 != nil || x < 1 || y < 1 {
		return Odds{}, fmt.Errorf("write odds as A-D, e.g. 3-2")
	}
	return Odds{x, y}, nil
}

func parseResult(s string) (Result, error) {
	var r Result
	if s == "-" {
		return r, nil
	}
	if s == "" {
		return r, fmt.Errorf("empty result")
	}
	for _, c := range s {
		switch c {
		case 'E':
			r.E = true
		case 'D':
			r.D = true
		case 'R':
			r.R = true
		case '1', '2':
			r.N += int(c - '0')
		default:
			return r, fmt.Errorf("unknown result %q", c)
		}
	}
	return r, nil
}

// Column is the odds column of a combat of att against def strength
// points: the highest column whose ratio does not exceed att:def
// (DG-COMBAT-13, DG-AMB-47), the first column for odds below it and the
// last for odds above it (DG-AMB-48).
func (t *CRT) Column(att, def int) int {
	col := 0
	for i, o := range t.Columns {
		if def <= 0 || o.A*def <= att*o.D {
			col = i
		}
	}
	return col
}

// Row is the row read for a modified roll: the first or last for rolls
// beyond the table (DG-AMB-49).
func (t *CRT) Row(roll int) int {
	return min(max(roll-t.First, 0), len(t.Rows)-1)
}

// Cell is the attacker's and the defender's results.
func (t *CRT) Cell(col, roll int) (att, def Result) {
	r := t.Rows[t.Row(roll)]
	return r[2*col], r[2*col+1]
}

// RollOf is the modified roll a row stands for (its first row stands for
// every roll up to it, its last for every roll from it).
func (t *CRT) RollOf(row int) int { return t.First + row }
