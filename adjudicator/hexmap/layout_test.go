package hexmap

import (
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

var pointyVocab = Vocabulary{
	Terrain:    []string{"grassland", "mountain", "ocean", "forest"},
	Sides:      []string{"river", "deep-river", "ford", "bridge", "mountain", "pass"},
	Points:     []string{"city", "fortress", "fortified-city"},
	PointTags:  []string{"port", "capital"},
	StackSides: true,
}

const pointySample = `name: continent
layout: pointy-odd
bounds: {cols: [0, 9], rows: [0, 7]}
default: grassland
terrain:
  - {kind: ocean, hexes: ["0000-0900"], rule: X-1}
  - {kind: mountain, hexes: ["0403", "0404"], assumed: true}
hexsides:
  - {kind: river, sides: ["0202 E SE", "0303 W"], tags: [great-river], rule: X-2}
  - {kind: ford, hexes: ["0505", "0605"]}
  - {kind: mountain, hexes: ["0202", "0302"]}
zones:
  - {name: east, group: nation, hexes: ["0501:0907"]}
  - {name: west, group: nation, hexes: ["0001:0407"]}
  - {name: coast, hexes: ["0001-0901"]}
points:
  - {name: capital city, kind: city, hex: "0201", tags: [port, capital], rule: X-3}
  - {name: keep, kind: fortress, hex: "0604", assumed: true}
roads:
  - {name: east road, path: ["0505", "0606", "0607"]}
`

func TestPointyMap(t *testing.T) {
	m, err := Parse("continent.yaml", []byte(pointySample), &pointyVocab)
	if err != nil {
		t.Fatal(err)
	}
	h := hex.MustParse
	if m.Layout != hex.PointyOdd {
		t.Fatalf("layout %v", m.Layout)
	}
	// Row 5 is shifted right on pointy-odd: 0505's SE neighbour is 0606.
	if !m.Road(h("0505"), h("0606")) {
		t.Error("road along a pointy-odd diagonal")
	}
	// 0202 E is the side 0202/0302, which also holds a mountain ridge.
	fs := m.FeaturesBetween(h("0302"), h("0202"))
	if len(fs) != 2 || fs[0].Kind != "river" || fs[1].Kind != "mountain" || fs[0].Inside != h("0202") {
		t.Errorf("0202/0302 features %+v", fs)
	}
	if s, ok := m.HexsideBetween(h("0202"), h("0302")); !ok || s.Kind != "river" || s.Rule != "X-2" {
		t.Errorf("HexsideBetween %+v", s)
	}
	// 0202 SE on an even row is 0203; 0303 W is 0203/0303.
	for _, pair := range [][2]string{{"0202", "0203"}, {"0303", "0203"}} {
		if !m.SideIs(h(pair[0]), h(pair[1]), "great-river") || !m.SideIs(h(pair[0]), h(pair[1]), "river") {
			t.Errorf("%s/%s is not a great river", pair[0], pair[1])
		}
	}
	if !m.SideIs(h("0605"), h("0505"), "ford") || m.SideIs(h("0605"), h("0505"), "river") {
		t.Error("ford")
	}
	if len(m.Sides()) != 5 {
		t.Errorf("%d hexside features", len(m.Sides()))
	}
	if z, ok := m.ZoneOf(h("0703"), "nation"); !ok || z.Name != "east" {
		t.Errorf("ZoneOf 0703: %v", z)
	}
	if _, ok := m.ZoneOf(h("0500"), "nation"); ok {
		t.Error("0500 is in no nation")
	}
	if len(m.ZonesOf("nation")) != 2 {
		t.Error("ZonesOf")
	}
	if ps := m.Points("port"); len(ps) != 1 || ps[0].Name != "capital city" || !ps[0].Is("capital") || ps[0].Is("fortress") {
		t.Errorf("ports %+v", ps)
	}
	if p, ok := m.Point("keep"); !ok || !p.Assumed || len(m.PointsAt(h("0604"))) != 1 {
		t.Error("Point")
	}
	if n := m.Neighbours(h("0000")); len(n) != 2 { // E and SE (row 0 is not shifted: SE is 0001)
		t.Errorf("corner neighbours %v", n)
	}
	txt := Text(m, nil)
	lines := strings.Split(txt, "\n")
	// row 00 unshifted, row 01 shifted two characters right
	if !strings.HasPrefix(lines[2], "00  o") || !strings.HasPrefix(lines[3], "01    g") {
		t.Errorf("pointy text:\n%s", txt)
	}
}

func TestPointyMapErrors(t *testing.T) {
	for _, tc := range []struct{ from, to, want string }{
		{"layout: pointy-odd", "layout: pointy", `"pointy" is not a hex layout`},
		{`"0202 E SE"`, `"0202 N SE"`, "not a direction of a pointy-topped map"},
		{`hexes: ["0505", "0605"]`, `hexes: ["0505", "0406"]`, "hexes 0505 and 0406 are not adjacent"},
		{`"0001:0407"`, `"0001:0507"`, `hex 0501 is already in zone "east" of group "nation"`},
		{"tags: [port, capital]", "tags: [port, capitol]", `unknown point tag "capitol" (did you mean "capital"?)`},
		{`{kind: mountain, hexes: ["0202", "0302"]}`, `{kind: river, hexes: ["0202", "0302"]}`, "hexside 0202/0302 already has a river"},
	} {
		src := strings.Replace(pointySample, tc.from, tc.to, 1)
		_, err := Parse("continent.yaml", []byte(src), &pointyVocab)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s → %s: got %v, want %q", tc.from, tc.to, err, tc.want)
		}
	}
	// Without StackSides a second feature on a hexside is an error, and a
	// vocabulary without point tags refuses them.
	v := pointyVocab
	v.StackSides, v.PointTags = false, nil
	_, err := Parse("continent.yaml", []byte(pointySample), &v)
	if err == nil || !strings.Contains(err.Error(), "already has a river") || !strings.Contains(err.Error(), "gives points no tags") {
		t.Errorf("got %v", err)
	}
}
