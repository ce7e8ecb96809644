package dragonnoir

import (
	"fmt"
	"maps"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
)

// The cave boards (DN-MAP-1 … 11) are module data in the generic map
// format with levels: floors at +1, 0, -1, stairs, steep banks and gentle
// slopes at half levels (DN-MAP-4, DN-MOVE-12), footbridges as decks
// (DN-MAP-6, DN-STACK-3). A scenario plays on one board or on an assembly
// of boards (X joins X, Y joins Y, arrows aligned: DN-MAP-1). The command
// line, the results mails and the renderer reach them through
// adjudicator.HexMaps and GameBoards.
var vocabulary = hexmap.Vocabulary{
	Terrain: []string{"floor", "rock", "tree", "marsh", "unstable", "water", "beach", "sand", "slope",
		"talus", "stairs", "pontoon", "bridge", "stone-bridge", "ford",
		"brush",                                 // DN3: the valley (DN3-PEOPLE-ENT-7)
		"grass", "road", "house", "deep-water"}, // DN3: the valley's battle maps (battle.go)
	Sides: []string{"wall", "door", "low-wall", "window", "slit", "ruin", // ruin: fire chapter (DN-COVER-14)
		"palisade", "rampart"}, // DN3: Fort Ekal (GAP-31)
	Points:    []string{"entry", "exit", "trapdoor", "oubliette"},
	Barriers:  []string{"wall"},
	Entrances: []string{"door"},
	Ramps:     []string{"stairs", "talus", "slope"},
	Decks:     []string{"footbridge"},
	Letters: map[string]byte{"floor": '.', "rock": '#', "tree": 't', "marsh": 'm', "unstable": 'u', "water": '~',
		"beach": 'b', "sand": 's', "slope": '/', "talus": 'T', "stairs": 'S', "pontoon": 'p', "bridge": '=', "stone-bridge": 'B', "ford": 'f',
		"brush": 'r',                                                // DN3
		"grass": 'g', "road": 'd', "house": 'h', "deep-water": 'W'}, // DN3: the valley's battle maps
}

var (
	_ adjudicator.HexMaps    = ruleset{}
	_ adjudicator.GameBoards = ruleset{}
)

// MapNames lists the builtin module's boards and assemblies.
func (ruleset) MapNames() []string {
	d, err := builtinData()
	if err != nil {
		return nil
	}
	return slices.Sorted(maps.Keys(d.maps))
}

// Map loads a board or assembly of the builtin module.
func (ruleset) Map(name string) (*hexmap.Map, error) {
	d, err := builtinData()
	if err != nil {
		return nil, err
	}
	m, ok := d.maps[name]
	if !ok {
		return nil, fmt.Errorf("Dragon Noir's builtin module has no map %q; it has %v", name, slices.Sorted(maps.Keys(d.maps)))
	}
	return m, nil
}

// ParseMap reads a board file in Dragon Noir's vocabulary.
func (ruleset) ParseMap(file string, data []byte) (*hexmap.Map, error) {
	return hexmap.Parse(file, data, &vocabulary)
}

// CheckMap checks the map facts the rules state: a stairs, steep bank or
// gentle slope hex stands at a half level (DN-MAP-4, DN-MOVE-12), and a
// hex at a half level is one of them (the vocabulary's Ramps).
func (ruleset) CheckMap(m *hexmap.Map) []adjudicator.MapProblem {
	var out []adjudicator.MapProblem
	for _, h := range m.Hexes() {
		t := m.Terrain(h)
		if slices.Contains(vocabulary.Ramps, t) && !m.Floor(h).IsHalf() {
			out = append(out, adjudicator.MapProblem{Where: h.String(), Rule: "DN-MAP-4",
				Message: fmt.Sprintf("a %s hex joins two levels: give it a half level under floors:", t)})
		}
	}
	return out
}

// PictureStyle is how Dragon Noir maps are drawn.
func (ruleset) PictureStyle() *adjudicator.PictureStyle { return style }

// BoardOf is the map a game is played on: its scenario's.
func (ruleset) BoardOf(s adjudicator.State) (*hexmap.Map, bool) {
	st, ok := s.(*State)
	if !ok || st.board == nil {
		return nil, false
	}
	return st.board, true
}

// Colours picked to read apart for colour-blind players (after Okabe &
// Ito), with a pattern on each kind so that the picture reads in grey.
var style = &adjudicator.PictureStyle{
	Terrain: []adjudicator.TerrainStyle{
		{Kind: "floor", Fill: 0xd8cfbf},
		{Kind: "rock", Fill: 0x5b5149, Pattern: "stones", Mark: 0x2e2925},
		{Kind: "tree", Fill: 0x8fb98a, Pattern: "trees", Mark: 0x2c6a37},
		{Kind: "marsh", Fill: 0xa9bfa0, Pattern: "tufts", Mark: 0x4d6b4a},
		{Kind: "unstable", Fill: 0x3f6b45, Pattern: "tufts", Mark: 0xd8e8d0},
		{Kind: "water", Fill: 0x5c93c4, Pattern: "waves", Mark: 0xe4f1fb},
		{Kind: "beach", Fill: 0xe8d9a8, Pattern: "stones", Mark: 0xa88a43},
		{Kind: "sand", Fill: 0xf3e6b9},
		{Kind: "slope", Fill: 0xcab99b, Pattern: "hills", Mark: 0x7a6a50},
		{Kind: "talus", Fill: 0xb39f7e, Pattern: "hills", Mark: 0x5b4636},
		{Kind: "stairs", Fill: 0xc9c2b5, Pattern: "letter", Mark: 0x3a332c},
		{Kind: "pontoon", Fill: 0xa57c4f, Pattern: "planks", Mark: 0x5a3d1c},
		{Kind: "bridge", Fill: 0x9b6b3c, Pattern: "planks", Mark: 0x4a2f14},
		{Kind: "stone-bridge", Fill: 0x9a9a9a, Pattern: "stones", Mark: 0x4d4d4d},
		{Kind: "ford", Fill: 0x8fb3d1, Pattern: "stones", Mark: 0xf5f5f5}, // DN-MOVE-6: white stones in the water
		{Kind: "brush", Fill: 0xb8c98f, Pattern: "tufts", Mark: 0x6b7a3a}, // DN3: broussailles
		// DN3: the valley's battle maps.
		{Kind: "grass", Fill: 0xd9e6b3},
		{Kind: "road", Fill: 0xe0c9a0, Pattern: "stones", Mark: 0xa88a5c},
		{Kind: "house", Fill: 0xc98e5c, Pattern: "houses", Mark: 0x6b3f1d},
		{Kind: "deep-water", Fill: 0x2f6da3, Pattern: "sea", Mark: 0xd6e8f5},
	},
	Points: []adjudicator.PointStyle{
		{Kind: "entry", Label: "IN", Fill: 0x009e73, Text: 0xffffff},
		{Kind: "exit", Label: "OUT", Fill: 0xd55e00, Text: 0xffffff},
		{Kind: "trapdoor", Label: "TD", Fill: 0x3a332c, Text: 0xffffff},
		{Kind: "oubliette", Label: "OB", Fill: 0x3a332c, Text: 0xffffff},
	},
	Sides: []adjudicator.SideStyle{
		{Kind: "wall", Shape: "wall", Colour: 0x2e2925, Legend: "wall"},
		{Kind: "door", Shape: "entrance", Colour: 0x7e5c32, Letter: "D", Legend: "door"},
		{Kind: "low-wall", Shape: "line", Colour: 0x6b6b6b, Legend: "low wall of the stone bridge"},
		{Kind: "window", Shape: "entrance", Colour: 0x56b4e9, Letter: "W", Legend: "window"},
		{Kind: "slit", Shape: "entrance", Colour: 0x000000, Letter: "S", Legend: "arrow slit"},
		{Kind: "ruin", Shape: "line", Colour: 0xa89f94, Legend: "demolished wall (DN-COVER-14)"}, // fire chapter
		{Kind: "palisade", Shape: "palisade", Colour: 0x7e5c32, Legend: "palisade"},
		{Kind: "rampart", Shape: "wall", Colour: 0x6b5a45, Legend: "earth rampart"},
	},
	Markers: []adjudicator.MarkerStyle{
		{Kind: "web", Shape: "spiral", Colour: 0x7f7f7f, Tag: "W", TagFill: 0xeeeeee, Legend: "spider web (DN-CNT-13)"},
		{Kind: "hidden", Tag: "?", TagFill: 0xcc79a7, Legend: "a hidden marker: Orb?, Khuzun?, Sun? (E.5)"},
		{Kind: "boat", Tag: "B", TagFill: 0xa57c4f, Legend: "boat (DN-BOAT-7)"},
		{Kind: "oubliette", Tag: "O", TagFill: 0x3a332c, Legend: "oubliette entrance (DN-MAP-11)"},
		{Kind: "edge-exit", Tag: ">", TagFill: 0xe69f00, Legend: "in a battle, this edge leads to the Region named (DN3-MAPS-2); an edge with none is impassable (DN3-MAPS-1)"},
		// magic chapter, La Conquête's valley (spell_valley.go valleyMarks)
		{Kind: "lit", Tag: "L", TagFill: 0xf0e442, Legend: "lit as in broad daylight (Light, AMB-88)"},
		{Kind: "spell-terrain", Tag: "*", TagFill: 0xe0c8f0, Legend: "terrain a spell made (a tree, water, a crevasse …)"},
		{Kind: "frost", Tag: "F", TagFill: 0xd0e8f8, Legend: "frost (DN3-SPELL-DRUID-12)"},
		{Kind: "poison", Tag: "P", TagFill: 0x9acd32, Legend: "a poison cloud (DN3-SPELL-DRUID-24)"},
	},
}
