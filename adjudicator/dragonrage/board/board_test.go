package board

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
)

func TestEmbeddedMapsPass(t *testing.T) {
	for _, name := range Names {
		m, err := Load(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range Check(m) {
			t.Errorf("%s: %v", name, p)
		}
		if m.Status != "reconstructed" {
			t.Errorf("%s: status %q", name, m.Status)
		}
		if txt := hexmap.Text(m, nil); !strings.Contains(txt, m.Title) {
			t.Errorf("%s: Text lacks the title", name)
		}
	}
	if _, err := Load("atlantis"); err == nil {
		t.Error("unknown map accepted")
	}
}

func TestHeadersSayReconstructed(t *testing.T) {
	for _, name := range Names {
		data, err := fs.ReadFile(Maps(), name+".yaml")
		if err != nil {
			t.Fatal(err)
		}
		head := string(data[:400])
		if !strings.Contains(head, "RECONSTRUCTED") || !strings.Contains(string(data), "ASSUMED") {
			t.Errorf("%s.yaml: header must say RECONSTRUCTED and what is assumed", name)
		}
	}
}

// broken loads a copy of an embedded map with one text replaced.
func broken(t *testing.T, name, from, to string) *hexmap.Map {
	t.Helper()
	data, err := fs.ReadFile(Maps(), name+".yaml")
	if err != nil {
		t.Fatal(err)
	}
	src := string(data)
	if !strings.Contains(src, from) {
		t.Fatalf("%s.yaml lacks %q", name, from)
	}
	fsys := fstest.MapFS{name + ".yaml": {Data: []byte(strings.Replace(src, from, to, 1))}}
	m, err := LoadFS(fsys, name)
	if err != nil {
		t.Fatalf("%s: %v", to, err)
	}
	return m
}

func TestBrokenCopiesReported(t *testing.T) {
	for _, tc := range []struct {
		name, from, to, rule, where string
	}{
		// the west wall gate turned into plain wall
		{"esirien", `{kind: gate, hexes: ["0707", "0606"]`, `{kind: wall, hexes: ["0707", "0606"]`, "DR-WALL-3", "0606/0707"},
		// a dock made open ground
		{"esirien", `{kind: dock, hexes: ["0815", `, `{kind: dock, hexes: [`, "DR-MAP-6", "0815"},
		// the citadel devalued
		{"esirien", `{value: 5, hexes: ["1910"]`, `{value: 4, hexes: ["1910"]`, "DR-ELOWYN-7", "1910"},
		// the stone bridge made wooden
		{"esirien", `{hex: "1410", kind: stone`, `{hex: "1410", kind: wooden`, "DR-BRIDGE-2", "1410"},
		// an exit dropped
		{"esirien", `{name: west road, kind: exit, hex: "0110"`, `{name: west road, kind: entry, hex: "0110"`, "DR-ELOWYN-8", "0110"},
		// a hole in the wall: the first wall run loses its sides
		{"esirien", `"0707 N NE SW",`, `"0707 N NE",`, "DR-WALL-1", "0607/0707"},
		// a VP value off the printed scale
		{"esirien", `{value: 3, hexes: ["1011", "1812"]`, `{value: 7, hexes: ["1011", "1812"]`, "DR-MAP-16", "1011"},
		// Nurkott: the bank between 0708 and 0709 forgotten
		{"nurkott", `{kind: river, hexes: ["0708", "0709"], rule: DR-MAP-11}`, `{kind: river, hexes: ["0807", "0907"]}`, "DR-MAP-11", "0708/0709"},
		// Nurkott: a door turned into a gate
		{"nurkott", "  - kind: door\n", "  - kind: gate\n", "DR-MAP-9", "map"},
		// Nurkott: an entry moved inland
		{"nurkott", `{name: west entry, kind: entry, hex: "0202"`, `{name: west entry, kind: entry, hex: "0404"`, "DR-SCEN-9", "0202"},
		// Nurkott: a goblin camp inside the palisade
		{"nurkott", `hexes: ["1804:1905"]`, `hexes: ["1206"]`, "DR-SCEN-8", "zone goblin-camp-2"},
	} {
		m := broken(t, tc.name, tc.from, tc.to)
		found := false
		for _, p := range Check(m) {
			if p.Rule == tc.rule && strings.Contains(p.Where, tc.where) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: %q → %q: want a %s problem at %s, got %v", tc.name, tc.from, tc.to, tc.rule, tc.where, Check(m))
		}
	}
}

func TestQueries(t *testing.T) {
	m, err := Load("esirien")
	if err != nil {
		t.Fatal(err)
	}
	if !m.Road(h("1310"), h("1410")) || !m.Road(h("1410"), h("1511")) {
		t.Error("the road crosses the stone bridge between the towers")
	}
	if f, ok := m.HexsideBetween(h("0707"), h("0606")); !ok || f.Inside != h("0707") || f.Rule != "DR-WALL-3" {
		t.Errorf("west gate: %+v", f)
	}
	if !m.InZone(h("1910"), "inside-walls") || m.InZone(h("1410"), "inside-walls") || !m.InZone(h("1410"), "defender-setup") {
		t.Error("zones")
	}
	if !m.TerrainProvenance(h("0101")).Assumed && m.OnMap(h("0101")) {
		t.Error("forest should be marked assumed")
	}
	n, err := Load("nurkott")
	if err != nil {
		t.Fatal(err)
	}
	if !n.Has(h("0709"), "river") || n.Terrain(h("0709")) != "open" || n.Has(h("0708"), "river") {
		t.Error("mixed hexes")
	}
}
