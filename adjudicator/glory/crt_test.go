package glory

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// foundCRT is the table transcribed from the rulebook scan, kept outside the
// repository (../shared/data/found, read in place, never copied).
var foundCRT = filepath.Join("..", "..", "..", "shared", "data", "found", "dragons_of_glory", "crt.csv")

// TestCRTMatchesTheRulebook checks every cell of data/crt.yaml against the
// transcription of the printed table.
func TestCRTMatchesTheRulebook(t *testing.T) {
	f, err := os.Open(foundCRT)
	if err != nil {
		t.Skipf("the rulebook's table is not at hand (%v): the cells of data/crt.yaml are not checked against it", err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comma = ';'
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	tab, err := TheCRT()
	if err != nil {
		t.Fatal(err)
	}
	head := recs[0][1:]
	if len(head) != len(tab.Columns) {
		t.Fatalf("%d columns, the rulebook has %d", len(tab.Columns), len(head))
	}
	for i, c := range head {
		if got := strings.ReplaceAll(c, ":", "-"); tab.Columns[i].String() != got {
			t.Errorf("column %d is %s, the rulebook's is %s", i+1, tab.Columns[i], c)
		}
	}
	if len(recs)-1 != len(tab.Rows) {
		t.Errorf("%d rows, the rulebook has %d", len(tab.Rows), len(recs)-1)
	}
	cells := 0
	for _, rec := range recs[1:] {
		roll, err := strconv.Atoi(rec[0])
		if err != nil {
			t.Fatalf("row %q: %v", rec[0], err)
		}
		if tab.Row(roll) != roll-tab.First {
			t.Errorf("no row for roll %d", roll)
			continue
		}
		for j, want := range rec[1:] {
			a, d := tab.Cell(j, roll)
			if got := a.String() + "/" + d.String(); got != want {
				t.Errorf("roll %d, column %s: %s, the rulebook prints %s", roll, tab.Columns[j], got, want)
			}
			cells++
		}
	}
	if cells != 220 {
		t.Errorf("checked %d cells, expected 22 rows of 10", cells)
	}
}

// TestCRTReading: the odds and rows of the rules' own examples.
func TestCRTReading(t *testing.T) {
	tab, err := TheCRT()
	if err != nil {
		t.Fatal(err)
	}
	col := func(a, d int) string { return tab.Columns[tab.Column(a, d)].String() }
	for _, c := range []struct {
		a, d int
		want string
	}{
		{20, 10, "2-1"}, {23, 10, "2-1"}, {29, 10, "2-1"}, // DG-COMBAT-13's example
		{10, 15, "2-3"}, {10, 25, "1-3"}, {1, 30, "1-3"}, {70, 10, "6-1"}, {10, 10, "1-1"}, {14, 10, "1-1"}, {15, 10, "3-2"},
	} {
		if got := col(c.a, c.d); got != c.want {
			t.Errorf("%d against %d reads column %s, expected %s", c.a, c.d, got, c.want)
		}
	}
	// DG-COMBAT-15's example: a modified -3 at 1-1 is E/1.
	a, d := tab.Cell(tab.Column(10, 10), -3)
	if a.String()+"/"+d.String() != "E/1" {
		t.Errorf("1-1 at -3 is %s/%s, the rules' example says E/1", a, d)
	}
	// Rows beyond the table are read at its ends (DG-AMB-49).
	if x, y := tab.Cell(0, -40); x != tab.Rows[0][0] || y != tab.Rows[0][1] {
		t.Error("a roll of -40 does not read the first row")
	}
	if x, _ := tab.Cell(9, 99); x != tab.Rows[len(tab.Rows)-1][18] {
		t.Error("a roll of 99 does not read the last row")
	}
	if _, err := parseCRT([]byte("columns: [\"1-1\", \"1-2\"]\nrows: [{roll: 1, cells: [\"E/-\", \"E/-\"]}]\nsource: rule\n")); err == nil {
		t.Error("columns out of order were accepted")
	}
	if _, err := parseCRT([]byte("columns: [\"1-1\"]\nrows: [{roll: 1, cells: [\"X/-\"]}]\nsource: rule\n")); err == nil {
		t.Error("an unknown result was accepted")
	}
}
