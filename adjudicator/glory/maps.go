package glory

import (
	"fmt"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
)

// Dragons of Glory is played on the map of its module: the demonstration
// map for the builtin module, a group's imported or corrected map
// otherwise. The command line, the results mails and the renderer reach
// it through adjudicator.HexMaps and GameBoards.
var (
	_ adjudicator.HexMaps    = ruleset{}
	_ adjudicator.GameBoards = ruleset{}
)

// MapNames lists the builtin modules' maps.
func (ruleset) MapNames() []string { return builtins.List() }

// Map loads a builtin module's map.
func (ruleset) Map(name string) (*hexmap.Map, error) {
	m, ok := ruleset{}.BuiltinModule(name)
	if !ok {
		return nil, fmt.Errorf("Dragons of Glory has no builtin map %q; it has %v", name, builtins.List())
	}
	d, err := LoadModule(m)
	if err != nil {
		return nil, err
	}
	return d.Map, nil
}

// ParseMap reads a map file in the Dragons of Glory vocabulary.
func (ruleset) ParseMap(file string, data []byte) (*hexmap.Map, error) {
	return hexmap.Parse(file, data, &vocabulary)
}

// CheckMap checks the map facts the rules need of any map: every nation
// that can be conquered has a fortress or fortified city (DG-CONQ-2),
// fortifications and ports stand on land, ports on the coast, the
// Maelstrom touches open sea (DG-MAEL-2), great rivers are rivers.
func (ruleset) CheckMap(m *hexmap.Map) []adjudicator.MapProblem {
	var out []adjudicator.MapProblem
	bad := func(where, rule, format string, args ...any) {
		out = append(out, adjudicator.MapProblem{Where: where, Rule: rule, Message: fmt.Sprintf(format, args...)})
	}
	sea := func(t string) bool { return t == "sea" || t == "maelstrom" }
	for _, p := range m.Points("") {
		t := m.Terrain(p.Hex)
		switch p.Kind {
		case "fortress", "fortified-city", "dwarven-fortress", "city":
			if sea(t) {
				bad(p.Hex.String(), "DG-CONQ-2", "%s %s stands on %s", p.Kind, p.Name, t)
			}
		}
		if p.Is("port") {
			coast := false
			for _, n := range m.Neighbours(p.Hex) {
				coast = coast || sea(m.Terrain(n))
			}
			if sea(t) || !coast {
				bad(p.Hex.String(), "DG-SEA-2", "port %s is not a land hex on the coast", p.Name)
			}
		}
	}
	maelstrom, open := false, false
	for _, h := range m.Hexes() {
		if m.Terrain(h) != "maelstrom" {
			continue
		}
		maelstrom = true
		for _, n := range m.Neighbours(h) {
			open = open || m.Terrain(n) == "sea"
		}
	}
	if maelstrom && !open {
		bad("maelstrom", "DG-MAEL-2", "no sea hex touches the Maelstrom, so no fleet can enter or leave it")
	}
	for _, s := range m.Sides() {
		if s.HasTag("great-river") && s.Kind != "river" && s.Kind != "deep-river" && s.Kind != "ford" && s.Kind != "bridge" {
			bad(s.Side.String(), "DG-FLEET-2", "a %s hexside is tagged great: only rivers are great rivers", s.Kind)
		}
	}
	return out
}

// PictureStyle is how Dragons of Glory maps are drawn.
func (ruleset) PictureStyle() *adjudicator.PictureStyle { return style }

// BoardOf is the map a game is played on: its module's.
func (ruleset) BoardOf(s adjudicator.State) (*hexmap.Map, bool) {
	st, ok := s.(*State)
	if !ok || st.data == nil {
		return nil, false
	}
	return st.data.Map, true
}

// Colours picked to read apart for colour-blind players (after Okabe & Ito),
// with a pattern on each kind so that the picture still reads in grey.
var style = &adjudicator.PictureStyle{
	Terrain: []adjudicator.TerrainStyle{
		{Kind: "clear", Fill: 0xf1ecd2},
		{Kind: "forest", Fill: 0xa9cf95, Pattern: "trees", Mark: 0x2c6a37},
		{Kind: "mountain", Fill: 0xc9b79c, Pattern: "hills", Mark: 0x6b5a44},
		{Kind: "swamp", Fill: 0xb9cdb1, Pattern: "tufts", Mark: 0x4d6b4a},
		{Kind: "desert", Fill: 0xf3dc9b, Pattern: "stones", Mark: 0xa88a43},
		{Kind: "sea", Fill: 0x5c93c4, Pattern: "sea", Mark: 0xe4f1fb},
		{Kind: "maelstrom", Fill: 0x3b5f8a, Pattern: "waves", Mark: 0xe4f1fb},
	},
	Points: []adjudicator.PointStyle{
		{Kind: "fortress", Label: "F", Fill: 0x1a1a1a, Text: 0xffffff},
		{Kind: "fortified-city", Label: "FC", Fill: 0x5a2d0c, Text: 0xffffff},
		{Kind: "dwarven-fortress", Label: "DF", Fill: 0x6b4f2a, Text: 0xffffff},
		{Kind: "city", Label: "C", Fill: 0xd9d2c3, Text: 0x000000},
		{Kind: "port", Label: "P", Fill: 0x0072b2, Text: 0xffffff},
	},
	Sides: []adjudicator.SideStyle{
		{Kind: "river", Shape: "line", Colour: 0x1f5f96, Legend: "river"},
		{Kind: "deep-river", Shape: "wall", Colour: 0x0b3c6b, Legend: "deep river"},
		{Kind: "ford", Shape: "entrance", Colour: 0x56b4e9, Letter: "F", Legend: "ford"},
		{Kind: "bridge", Shape: "entrance", Colour: 0x7e5c32, Letter: "B", Legend: "bridge"},
		{Kind: "mountain", Shape: "cliff", Colour: 0x5b4636, Legend: "mountain hexside"},
		{Kind: "pass", Shape: "entrance", Colour: 0xd55e00, Letter: "P", Legend: "mountain pass"},
	},
	Markers: []adjudicator.MarkerStyle{
		{Kind: "dark-temple", Tag: "DT", TagFill: 0x6a0dad, Legend: "the Dark Temple"},
	},
	PathTraces: []string{"sail"}, // a fleet's path (fleet.go)
}
