package hexmap

import (
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// boardsFS holds the test boards and an assembly file under scen/.
func boardsFS(t *testing.T, assembly string) fstest.MapFS {
	t.Helper()
	fsys := fstest.MapFS{"scen/descent.yaml": {Data: []byte(assembly)}}
	for _, n := range []string{"pit", "ledge"} {
		data, err := os.ReadFile("testdata/" + n + ".yaml")
		if err != nil {
			t.Fatal(err)
		}
		fsys["scen/"+n+".yaml"] = &fstest.MapFile{Data: data}
	}
	return fsys
}

// TestAssemblyFile reads an assembly file and builds the same map as
// Assemble given the same placements, with the entries' provenance kept.
func TestAssemblyFile(t *testing.T) {
	src := `name: descent
title: The descent
boards:
  - {board: pit, at: "0101", rule: T-9}
  - board: ledge
    name: east
    at: "0701"
    user: true
    note: as laid out on the table
`
	fsys := boardsFS(t, src)
	m, err := LoadAssembly(fsys, "scen/descent.yaml", &caveVocab)
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "descent" || m.Title != "The descent" || len(m.Placements()) != 2 || m.Placements()[1].Name != "east" {
		t.Fatalf("map %s %q, placements %+v", m.Name, m.Title, m.Placements())
	}
	if got := m.Where(hex.MustParse("0803")); got != "0803 (board The Ledge 0203)" {
		t.Errorf("Where = %q", got)
	}
	if _, ok := m.Point("east/door"); !ok {
		t.Error("the placement's name renames its points")
	}
	pit, ledge := loadTest(t, "pit"), loadTest(t, "ledge")
	want, err := Assemble("x", "descent", "The descent", []Placement{{Board: pit, Name: "pit", At: hex.MustParse("0101")}, {Board: ledge, Name: "east", At: hex.MustParse("0701")}})
	if err != nil {
		t.Fatal(err)
	}
	if Text(m, nil) != Text(want, nil) {
		t.Errorf("the file's map differs from Assemble's:\n%s\nwant\n%s", Text(m, nil), Text(want, nil))
	}
	a, err := ParseAssembly("descent.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if e := a.Boards[0]; e.Rule != "T-9" || e.User || e.Line != 4 {
		t.Errorf("entry 1: %+v", e)
	}
	if e := a.Boards[1]; !e.User || e.Assumed || e.Note != "as laid out on the table" || e.Line != 5 || e.Name != "east" {
		t.Errorf("entry 2: %+v", e)
	}
}

// TestAssemblyFileErrors: every problem names the file and the line of the
// entry that causes it.
func TestAssemblyFileErrors(t *testing.T) {
	head := "name: descent\nboards:\n"
	for _, c := range []struct {
		name, boards string
		want         []string
	}{
		{"unknown key", `  - {board: pit, at: "0101", half-turn: true}`,
			[]string{"descent.yaml:3:", `half-turn`, `half_turn`}},
		{"no boards", ``, []string{"descent.yaml: an assembly file needs boards:"}},
		{"no at", `  - {board: pit}`, []string{"descent.yaml:3:", "needs at:"}},
		{"bad hex", `  - {board: pit, at: "01x1"}`, []string{"descent.yaml:3:"}},
		{"path as a name", `  - {board: ../pit, at: "0101"}`, []string{"descent.yaml:3:", "not a board name"}},
		{"assumed and user", `  - {board: pit, at: "0101", assumed: true, user: true}`, []string{"descent.yaml:3:", "keep one"}},
		{"same name twice", "  - {board: pit, at: \"0101\"}\n  - {board: pit, at: \"0701\"}",
			[]string{"descent.yaml:4:", `already placed under the name "pit" (line 3)`}},
		{"missing board", "  - {board: pit, at: \"0101\"}\n  - {board: cellar, at: \"0701\"}",
			[]string{"descent.yaml:4:", "board cellar: no board file scen/cellar.yaml"}},
		{"overlap", "  - {board: pit, at: \"0101\"}\n\n  - {board: ledge, at: \"0601\"}",
			[]string{"descent.yaml:5:", "overlaps board pit (line 3) at 0601"}},
		{"off the grid", `  - {board: pit, at: "9801"}`, []string{"descent.yaml:3:", "off the 00-99 grid"}},
		{"join", "  - {board: pit, at: \"0101\"}\n  - {board: ledge, at: \"0701\", half_turn: true}",
			[]string{"descent.yaml:4:", "edge (X) meets board The Ledge's east edge (Y)", "arrows point", "(the other board is on line 3)"}},
	} {
		fsys := boardsFS(t, head+c.boards+"\n")
		_, err := LoadAssembly(fsys, "scen/descent.yaml", &caveVocab)
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		msg := strings.ReplaceAll(err.Error(), "scen/descent.yaml", "descent.yaml")
		t.Logf("%s: %s", c.name, msg)
		for _, w := range c.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: error %q does not say %q", c.name, msg, w)
			}
		}
	}
}

// TestAssemblyExits: exits: name what lies beyond a placed board's outer
// edges; EdgeRuns lists every outer edge with its hexes, and an exit on
// an edge that meets another board is refused at its line.
func TestAssemblyExits(t *testing.T) {
	src := `name: descent
boards:
  - {board: pit, at: "0101", exits: {west: the-road, north: the-hill}}
  - {board: ledge, at: "0701", exits: {east: the-ford}}
`
	m, err := LoadAssembly(boardsFS(t, src), "scen/descent.yaml", &caveVocab)
	if err != nil {
		t.Fatal(err)
	}
	runs := map[string]EdgeRun{}
	for _, r := range m.EdgeRuns() {
		runs[r.Name] = r
	}
	if len(runs) != 6 {
		t.Errorf("%d outer edges, want 6 (the boards meet at pit's east and ledge's west): %v", len(runs), runs)
	}
	if _, ok := runs["pit/east"]; ok {
		t.Error("pit's east edge meets ledge: it is no outer edge")
	}
	w := runs["pit/west"]
	if w.Label != "the-road" || w.Edge != West || len(w.Hexes) != 5 || w.Hexes[0] != hex.MustParse("0101") || w.Hexes[4] != hex.MustParse("0105") {
		t.Errorf("pit/west: %+v", w)
	}
	if n := runs["pit/north"]; n.Label != "the-hill" || len(n.Hexes) != 6 || n.Hexes[5] != hex.MustParse("0601") {
		t.Errorf("pit/north: %+v", n)
	}
	if e := runs["ledge/east"]; e.Label != "the-ford" || e.Hexes[0].Col != m.Bounds.MaxCol {
		t.Errorf("ledge/east: %+v", e)
	}
	if s := runs["ledge/south"]; s.Label != "" {
		t.Errorf("an edge no exit names leads nowhere: %+v", s)
	}
	one, err := LoadAssembly(boardsFS(t, "name: descent\nboards:\n  - {board: pit, at: \"0101\", exits: {south: down}}\n"), "scen/descent.yaml", &caveVocab)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range one.EdgeRuns() {
		names = append(names, r.Name+"="+r.Label)
	}
	if strings.Join(names, " ") != "north= east= south=down west=" {
		t.Errorf("a map of one board names its runs by edge: %v", names)
	}
	for _, c := range []struct{ boards, want string }{
		{`  - {board: pit, at: "0101", exits: {up: x}}`, `descent.yaml:3:`},
		{`  - {board: pit, at: "0101", exits: {north: ""}}`, `name what lies beyond it`},
		{"  - {board: pit, at: \"0101\", exits: {east: x}}\n  - {board: ledge, at: \"0701\"}", `the east edge of board pit meets another board`},
	} {
		_, err := LoadAssembly(boardsFS(t, "name: descent\nboards:\n"+c.boards+"\n"), "scen/descent.yaml", &caveVocab)
		if err == nil || !strings.Contains(strings.ReplaceAll(err.Error(), "scen/", ""), c.want) {
			t.Errorf("%q: error %v, want %q", c.boards, err, c.want)
		}
	}
}
