package dragonrage_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/dragonrage"
)

// TestMajorSheetsMatchDigest compares the major monsters' record sheets of
// data/counters.yaml with Table DR-TABLE-MMT, the play aid the digest
// reproduces exactly (DR-MMT-1, DR-MAJOR-3): for each area, the number of
// groups, their attack strength, where they reach, where the area is
// attacked from, the to-hit roll and each group's hit points. Where the
// table and the prose disagree the prose decides (DR-MMT-1), as the
// digest's defaults say: those cells are listed in mmtProse.
func TestMajorSheetsMatchDigest(t *testing.T) {
	d, err := dragonrage.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	lines := readDigest(t)
	start := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, "Table DR-TABLE-MMT") })
	if start < 0 {
		t.Fatal("the digest has no Table DR-TABLE-MMT")
	}
	lines = lines[start:]
	for _, m := range []struct{ title, code string }{
		{"**DRAGON**", "DRAGON"}, {"**YOUNG DRAGON", "YDRAGON"}, {"**WYVERN", "WYVERN"}, {"**ROC**", "ROC"},
	} {
		typ := d.Types[m.code]
		if typ == nil || typ.Major == nil {
			t.Errorf("%s has no record sheet in data/counters.yaml", m.code)
			continue
		}
		rows := tableRows(t, lines, m.title)
		var areas []string
		for _, row := range rows {
			name := strings.ToLower(strings.Fields(row[0])[0])
			areas = append(areas, name)
			var area *dragonrage.Area
			for _, a := range typ.Major.Areas {
				if a.Name == name {
					area = a
				}
			}
			if area == nil {
				t.Errorf("%s: the table has a %s, the sheet has not", m.code, name)
				continue
			}
			key := m.code + " " + name
			groups, _ := strconv.Atoi(strings.TrimPrefix(row[2], "x"))
			if len(area.Groups) != groups {
				t.Errorf("%s: %d groups, the table says %s", key, len(area.Groups), row[2])
			}
			strength := 0
			if s := strings.TrimSuffix(row[3], "*"); s != "n/a" {
				strength, _ = strconv.Atoi(s)
			}
			if area.Strength != strength {
				t.Errorf("%s: strength %d, the table says %s", key, area.Strength, row[3])
			}
			if strings.HasSuffix(row[3], "*") && typ.Major.LeapLegs != 3 {
				t.Errorf("%s: the table's * (3 in a turn it bounds or lands) is not the sheet's leap-legs %d", key, typ.Major.LeapLegs)
			}
			hit, _ := strconv.Atoi(row[5])
			if area.Hit != hit {
				t.Errorf("%s: hit on %d, the table says %s", key, area.Hit, row[5])
			}
			hp := leadingInt(row[6])
			if p, ok := mmtProse[key+" hp"]; ok {
				hp = p.value
			}
			for i, g := range area.Groups {
				if g != hp {
					t.Errorf("%s: group %d has %d HP, the table says %s", key, i+1, g, row[6])
				}
			}
			attacks := positions(row[1])
			if p, ok := mmtProse[key+" attacks"]; ok {
				attacks = p.list
			}
			if !samePositions(area.Attacks, attacks) {
				t.Errorf("%s: reaches %v, the table's %q reads %v", key, area.Attacks, row[1], attacks)
			}
			from := positions(row[4])
			if p, ok := mmtProse[key+" from"]; ok {
				from = p.list
			}
			if !samePositions(area.From, from) {
				t.Errorf("%s: attacked from %v, the table's %q reads %v", key, area.From, row[4], from)
			}
		}
		if got := typ.Major.AreaNames(); !slices.Equal(got, areas) {
			t.Errorf("%s: the sheet's areas are %v, the table's %v", m.code, got, areas)
		}
	}
}

// TestDragonCombatTable checks the Dragon's sheet against the combat
// summary of FR's last page, Table DR-TABLE-DRAGON-COMBAT (DR-MMT-2):
// strength, to-hit and hit points per area ("2 each", "6 each").
func TestDragonCombatTable(t *testing.T) {
	d, err := dragonrage.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	m := d.Types["DRAGON"].Major
	rows := tableRows(t, readDigest(t), "**Table DR-TABLE-DRAGON-COMBAT")
	if len(rows) != len(m.Areas) {
		t.Fatalf("the table has %d areas, the sheet %d", len(rows), len(m.Areas))
	}
	for i, row := range rows {
		a := m.Areas[i]
		name := strings.ToLower(strings.Fields(row[0])[0])
		if a.Name != name {
			t.Errorf("area %d is %s on the sheet, %s in the table", i+1, a.Name, name)
		}
		if got, want := a.Strength, leadingInt(row[1]); got != want {
			t.Errorf("%s: strength %d, the table says %s", name, got, row[1])
		}
		if got, want := a.Hit, leadingInt(row[2]); got != want {
			t.Errorf("%s: to-hit %d, the table says %s", name, got, row[2])
		}
		for _, g := range a.Groups {
			if want := leadingInt(row[3]); g != want {
				t.Errorf("%s: a group of %d HP, the table says %s", name, g, row[3])
			}
		}
	}
}

// mmtProse are the cells of the table the prose overrides, each with the
// digest's default that says so.
var mmtProse = map[string]struct {
	value int
	list  []string
	rule  string
}{
	"DRAGON belly hp":  {value: 6, rule: "DR-AMB-1: the prose's 6, not the table's 8"},
	"ROC belly from":   {list: []string{"under"}, rule: "DR-AMB-16: underneath, as the prose says, not the table's everywhere"},
	"ROC legs attacks": {list: []string{"around", "under"}, rule: "DR-AMB-22: around and underneath, not above"},
}

// positions reads a cell of the table ("3 front hexes, Underneath, Above")
// as the sheet's position words (DR-HEX-8).
func positions(cell string) []string {
	en, _, _ := strings.Cut(cell, "(")
	en = strings.ToLower(strings.TrimSpace(en))
	var out []string
	for _, part := range strings.Split(en, ",") {
		switch p := strings.TrimSpace(part); p {
		case "3 front hexes":
			out = append(out, "front3")
		case "underneath", "underneath only":
			out = append(out, "under")
		case "above":
			out = append(out, "above")
		case "all hexes around":
			out = append(out, "around")
		case "directly in front":
			out = append(out, "front")
		case "4 side hexes":
			out = append(out, "sides")
		case "everywhere except directly behind":
			out = append(out, "not-behind")
		case "front":
			out = append(out, "front") // the Roc's wings: front and the four sides
		case "everywhere":
			out = append(out, "around", "under", "above")
		case "no attack", "":
		default:
			out = append(out, "?"+p)
		}
	}
	// "Front, 4 side hexes" is the sheet's front5.
	if slices.Contains(out, "front") && slices.Contains(out, "sides") {
		out = slices.DeleteFunc(out, func(s string) bool { return s == "front" || s == "sides" })
		out = append(out, "front5")
	}
	return out
}

func samePositions(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

func leadingInt(s string) int {
	s = strings.TrimLeft(s, "*")
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
	}
	return n
}
