package board

import "github.com/umpire-pbem/umpire/adjudicator"

// Colours named by the rules, or picked to read apart for colour-blind
// players (after Okabe & Ito), with a pattern or a letter on each kind so
// that the picture still reads in grey.
const (
	purple    adjudicator.RGB = 0xcc79a7
	riverEdge adjudicator.RGB = 0x1f5f96
)

// Style is how the Dragon Rage maps are drawn (adjudicator.PictureStyle):
// every terrain, flag, named hex, hexside and marker kind of Vocabulary
// and of the View's markers. Read it, never change it.
var Style = &adjudicator.PictureStyle{
	Terrain: []adjudicator.TerrainStyle{
		{Kind: "open", Fill: 0xf4f0dc},
		{Kind: "forest", Fill: 0xb4d6a2, Pattern: "trees", Mark: 0x2c6a37},
		{Kind: "river", Fill: 0x9ccbea, Pattern: "waves", Mark: riverEdge},
		{Kind: "sea", Fill: 0x5c93c4, Pattern: "sea", Mark: 0xe4f1fb},
		{Kind: "dock", Fill: 0xd2b27f, Pattern: "planks", Mark: 0x7e5c32},
		{Kind: "ford", Fill: 0xbfe0f2, Pattern: "stones", Mark: 0x7a6a5a},
		{Kind: "tower", Fill: 0xc9c3b8, Pattern: "rings", Mark: 0x3f3a35},
	},
	// A mixed hex, land and river at once (DR-MAP-10).
	Flags: []adjudicator.FlagStyle{{Kind: "river", Band: "river", Legend: "land and river"}},
	Points: []adjudicator.PointStyle{
		{Kind: "entry", Label: "IN", Fill: 0x009e73, Text: 0xffffff},
		{Kind: "exit", Label: "OUT", Fill: 0x1a1a1a, Text: 0xffffff},
		{Kind: "reinforcement", Label: "R", Fill: 0x56b4e9, Text: 0x000000},
		{Kind: "serpent-entry", Label: "S", Fill: purple, Text: 0x000000},
		{Kind: "rescue", Label: "RS", Fill: 0xf0e442, Text: 0x000000},
	},
	Sides: []adjudicator.SideStyle{
		{Kind: "wall", Shape: "wall", Colour: 0x2b2b2b},
		{Kind: "palisade", Shape: "palisade", Colour: 0x7b4a1e, BrokenLegend: "breached palisade"},
		// A palisade breached by a sea serpent (DR-SERP-7).
		{Kind: "breach", Shape: "palisade", Colour: 0x7b4a1e, Broken: true, Legend: "breached palisade"},
		// Gates are red in the rules (a vermillion darkened for contrast),
		// doors blue.
		{Kind: "gate", Shape: "entrance", Colour: 0xc8370b, Letter: "G"},
		{Kind: "door", Shape: "entrance", Colour: 0x0072b2, Letter: "D"},
		// The water between two hexes of opposite banks (DR-MAP-11).
		{Kind: "river", Shape: "line", Colour: riverEdge, Legend: "river between hexes"},
	},
	Markers: []adjudicator.MarkerStyle{
		{Kind: "whirlwind", Shape: "spiral", Colour: 0x9b3f86, Tag: "W", TagFill: purple, Legend: "whirlwind (and its number)"},
		// Where a major monster died: impassable (DR-DRAGON-DEAD-3).
		{Kind: "collapsed", Tag: "body", TagFill: 0xb0b0b0, Legend: "a dead monster's body: impassable"},
	},
	// A whirlwind drifts from hex to hex (spell_whirlwind.go).
	PathTraces: []string{"whirlwind"},
}
