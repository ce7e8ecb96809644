package dragonrage_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/dragonrage"
	"github.com/umpire-pbem/umpire/adjudicator/script/scripttest"
)

// digestPath is the rules digest, read in place from the shared folder next
// to the repository.
const digestPath = "../../../shared/rules/dragon-rage.md"

// readDigest returns the digest's lines, or skips the test when the shared
// folder is not there (a checkout on its own).
func readDigest(t *testing.T) []string {
	return scripttest.Digest(t, os.DirFS(filepath.Dir(digestPath)), filepath.Base(digestPath))
}

// tableRows returns the rows of the first markdown table after the line
// holding title, each as its trimmed cells (header and rule lines dropped).
func tableRows(t *testing.T, lines []string, title string) [][]string {
	t.Helper()
	start := -1
	for i, l := range lines {
		if strings.Contains(l, title) {
			start = i
			break
		}
	}
	if start < 0 {
		t.Fatalf("the digest has no %q", title)
	}
	var rows [][]string
	in := false
	for _, l := range lines[start+1:] {
		if !strings.HasPrefix(l, "|") {
			if in {
				break
			}
			continue
		}
		in = true
		cells := strings.Split(strings.Trim(l, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		if strings.HasPrefix(cells[0], "---") {
			continue
		}
		rows = append(rows, cells)
	}
	return rows[1:] // the header
}

// TestCRTMatchesDigest compares data/tables.yaml with DR-TABLE-CRT as the
// digest prints it, cell by cell.
func TestCRTMatchesDigest(t *testing.T) {
	lines := readDigest(t)
	d, err := dragonrage.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	rows := tableRows(t, lines, "Table DR-TABLE-CRT")
	if len(rows) != 30 {
		t.Fatalf("the digest's CRT has %d rows, expected 30", len(rows))
	}
	for i, row := range rows {
		att, err := strconv.Atoi(strings.Trim(row[0], "*"))
		if err != nil || att != i+1 {
			t.Fatalf("digest CRT row %d is headed %q", i+1, row[0])
		}
		if len(row) != 16 {
			t.Fatalf("digest CRT row %d has %d cells, expected 15 after the heading", att, len(row)-1)
		}
		for j, cell := range row[1:] {
			if got := d.CRT[i][j]; got != cell {
				t.Errorf("CRT %d v %d: data/tables.yaml has %q, the digest %q", att, j+1, got, cell)
			}
		}
	}
}

// cstKeys maps each row of DR-TABLE-CST (by the start of its English label)
// to the rows of data/tables.yaml that must carry it. Types the table rates
// "impossible" in every column have no row at all: cstAbsent lists those the
// scenarios use. Other major monsters smash by facing and MP (DR-SMASH-1,
// -2) and never climb: they have no row; the wyvern uses the table's
// (DR-AMB-18).
var cstKeys = []struct {
	label string
	keys  []string
}{
	{"Militia and infantry with Hero", []string{"MIL+HERO", "INF+HERO"}},
	{"Militia and infantry", []string{"MIL", "INF"}},
	{"Goblins", []string{"GOB"}},
	{"Orcs, Wargs", []string{"ORC", "WRG"}},
	{"Trolls", []string{"TRL"}},
	{"Giants, Wyverns", []string{"GIANT", "WYVERN"}},
	{"Sea serpents", []string{"SERP"}},
	{"Hero alone", []string{"HERO"}},
	{"Wizard alone, Elowyn, Others", nil},
}

var cstAbsent = []string{"WZD", "ELW", "CAV", "ARH", "BAL", "CAT", "TREX", "ELM"}

var rollRE = regexp.MustCompile(`^(\d+)\+?( \*)?$`)

// cstCell turns a printed cell into the data's form: "" impossible, "auto",
// or the roll needed; star reports the goblins' footnote mark.
func cstCell(t *testing.T, cell string) (v string, star bool) {
	t.Helper()
	switch {
	case cell == "impossible":
		return "", false
	case strings.HasPrefix(cell, "automatic"):
		return "auto", false
	}
	m := rollRE.FindStringSubmatch(cell)
	if m == nil {
		t.Fatalf("digest CST cell %q is not impossible, automatic or a roll", cell)
	}
	return m[1], m[2] != ""
}

// TestCSTMatchesDigest compares data/tables.yaml with DR-TABLE-CST, the
// Climbing & Smashing table, cell by cell.
func TestCSTMatchesDigest(t *testing.T) {
	lines := readDigest(t)
	d, err := dragonrage.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	rows := tableRows(t, lines, "Table DR-TABLE-CST")
	if len(rows) != len(cstKeys) {
		t.Fatalf("the digest's CST has %d rows, expected %d", len(rows), len(cstKeys))
	}
	seen := map[string]bool{}
	for _, row := range rows {
		if len(row) != 4 {
			t.Fatalf("digest CST row %q has %d cells, expected 4", row[0], len(row))
		}
		var keys []string
		found := false
		for _, k := range cstKeys {
			if strings.HasPrefix(row[0], k.label) {
				keys, found = k.keys, true
				break
			}
		}
		if !found {
			t.Fatalf("digest CST row %q is not one this test knows", row[0])
		}
		climb, star := cstCell(t, row[1])
		door, _ := cstCell(t, row[2])
		gate, _ := cstCell(t, row[3])
		if keys == nil && (climb != "" || door != "" || gate != "") {
			t.Errorf("digest CST row %q is no longer impossible throughout", row[0])
		}
		for _, k := range keys {
			seen[k] = true
			got, ok := d.CST[k]
			if !ok {
				t.Errorf("data/tables.yaml has no CST row %s (digest row %q)", k, row[0])
				continue
			}
			want := dragonrage.CSTRow{Climb: climb, Door: door, Gate: gate, NoClimbAdjacent: star}
			if got != want {
				t.Errorf("CST %s: data/tables.yaml has %+v, the digest row %q reads %+v", k, got, row[0], want)
			}
		}
	}
	for k := range d.CST {
		if !seen[k] {
			t.Errorf("data/tables.yaml has a CST row %s that no digest row gives", k)
		}
	}
	for _, k := range cstAbsent {
		if _, ok := d.CST[k]; ok {
			t.Errorf("data/tables.yaml has a CST row for %s, which the table rates impossible throughout", k)
		}
	}
}
