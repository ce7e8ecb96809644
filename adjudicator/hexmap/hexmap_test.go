package hexmap

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

const sample = `name: sample
title: Sample town
status: reconstructed
notes: a test map
bounds: {cols: [1, 6], rows: [1, 5]}
default: open
terrain:
  - {kind: forest, hexes: ["0101-0601"], assumed: true}
  - {kind: river, hexes: ["0302-0305"], rule: R-1}
  - {kind: tower, hexes: ["0503"]}
flags:
  - {flag: coast, hexes: ["0205"]}
vp:
  - {value: 3, hexes: ["0503"]}
  - {value: 1, hexes: ["0402:0403"]}
hexsides:
  - kind: wall
    sides: ["0402 NW", "0403 SW"]
  - {kind: gate, hexes: ["0402", "0401"], inside: "0402", rule: R-2, override: false}
roads:
  - {name: high street, path: ["0203", "0303", "0403"]}
bridges:
  - {hex: "0303", kind: stone, connects: ["0203", "0403"]}
zones:
  - {name: town, hexes: ["0402:0605"], except: ["0605"]}
points:
  - {name: west exit, kind: exit, hex: "0103"}
`

func TestParseSample(t *testing.T) {
	_, err := Parse("sample.yaml", []byte(sample), nil)
	if err == nil || !strings.Contains(err.Error(), `sample.yaml:19:`) || !strings.Contains(err.Error(), "unknown field \"override\"") {
		t.Fatalf("want an unknown-field error on line 20, got %v", err)
	}
	m, err := Parse("sample.yaml", []byte(strings.Replace(sample, ", override: false", "", 1)), nil)
	if err != nil {
		t.Fatal(err)
	}
	h := hex.MustParse
	if m.Terrain(h("0101")) != "forest" || m.Terrain(h("0202")) != "open" || m.Terrain(h("0909")) != "" {
		t.Error("terrain")
	}
	if !m.Has(h("0205"), "coast") || !m.Has(h("0303"), "road") || !m.Has(h("0303"), "bridge") || !m.Has(h("0303"), "river") {
		t.Error("Has")
	}
	if m.VP(h("0503")) != 3 || m.TotalVP() != 5 {
		t.Errorf("VP total %d", m.TotalVP())
	}
	if s, ok := m.HexsideBetween(h("0401"), h("0402")); !ok || s.Kind != "gate" || s.Inside != h("0402") || s.Rule != "R-2" {
		t.Errorf("gate %+v", s)
	}
	if s, ok := m.HexsideBetween(h("0402"), h("0302")); !ok || s.Kind != "wall" || s.Inside != h("0402") {
		t.Errorf("wall %+v", s)
	}
	if !m.Road(h("0203"), h("0303")) || m.Road(h("0203"), h("0403")) {
		t.Error("Road")
	}
	if !m.InZone(h("0604"), "town") || m.InZone(h("0605"), "town") || m.InZone(h("0604"), "nowhere") {
		t.Error("zone")
	}
	if len(m.Neighbours(h("0101"))) != 2 {
		t.Errorf("corner neighbours %v", m.Neighbours(h("0101")))
	}
	if ps := m.Points("exit"); len(ps) != 1 || ps[0].Hex != h("0103") {
		t.Error("points")
	}
	if !m.TerrainProvenance(h("0101")).Assumed || m.TerrainProvenance(h("0303")).Rule != "R-1" {
		t.Error("provenance")
	}
	txt := Text(m, func(x hex.Hex) string {
		if x == h("0202") {
			return "D1"
		}
		return ""
	})
	for _, want := range []string{"Sample town (reconstructed)", "fG", "oG1", "RB", "oD1", "O#1"} {
		if !strings.Contains(txt, want) {
			t.Errorf("Text lacks %q:\n%s", want, txt)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ from, to, want string }{
		{"kind: forest,", "kind: forrest,", `sample.yaml:8:12: unknown terrain "forrest" (did you mean "forest"?)`},
		{`"0302-0305"`, `"0302-0405"`, "must stay in one column or one row"},
		{`"0203", "0303", "0403"`, `"0203", "0403"`, "not adjacent"},
		{"{value: 1,", "{value: 0,", "must be 1 or more"},
		{`"0103"`, `"0903"`, "off the map"},
		{`kind: stone`, `kind: stne`, `did you mean "stone"`},
		{`"0403 SW"`, `"0403 W"`, `"W" is not a direction`},
		{`kind: tower, hexes: ["0503"]`, `kind: tower, hexes: ["0302"]`, "add \"override: true\""},
	} {
		src := strings.Replace(strings.Replace(sample, ", override: false", "", 1), tc.from, tc.to, 1)
		_, err := Parse("sample.yaml", []byte(src), nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s → %s: got %v, want %q", tc.from, tc.to, err, tc.want)
		}
		var es Errors
		if err != nil && !errors.As(err, &es) {
			t.Errorf("error is %T, want Errors", err)
		}
	}
}

func TestLoadFS(t *testing.T) {
	fsys := fstest.MapFS{"maps/s.yaml": {Data: []byte(strings.Replace(sample, ", override: false", "", 1))}}
	m, err := Load(fsys, "maps/s.yaml", &DefaultVocabulary)
	if err != nil || m.Name != "sample" {
		t.Fatal(err)
	}
	if _, err := Load(fsys, "maps/none.yaml", nil); err == nil {
		t.Error("missing file accepted")
	}
}
