package board

import (
	"fmt"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
)

// esirienFacts are the Esirien map facts the rules state (DR-GAP-1 (a)).
var esirienFacts = []fact{
	terrainIs("1413", "river", "DR-MAP-5"),
	terrainIs("1414", "sea", "DR-MAP-5"),
	{"1413", "DR-MAP-5", func(m *hexmap.Map) string {
		for _, n := range m.Neighbours(h("1413")) {
			if m.Terrain(n) == "river" && n.Row > 13 {
				return "the river must end in 1413"
			}
		}
		return ""
	}},
	terrainIs("0815", "dock", "DR-MAP-6"), terrainIs("0915", "dock", "DR-MAP-6"),
	terrainIs("1014", "dock", "DR-MAP-6"), terrainIs("1115", "dock", "DR-MAP-6"),
	terrainIs("1315", "dock", "DR-MAP-6"), terrainIs("1516", "dock", "DR-MAP-6"),
	sideIs("0606", "0707", "gate", "DR-WALL-3"),
	sideIs("2113", "2212", "gate", "DR-WALL-3"),
	bridgeIs("1407", "wooden", "DR-BRIDGE-1"),
	bridgeIs("1413", "wooden", "DR-BRIDGE-1"),
	bridgeIs("1410", "stone", "DR-BRIDGE-2"),
	gatesAtBridgeEnds("1407"), gatesAtBridgeEnds("1413"),
	roadThroughTower("0914", "DR-ROAD-3"),
	roadThroughTower("1310", "DR-ROAD-3"),
	roadThroughTower("1511", "DR-ROAD-3"),
	terrainIs("1910", "tower", "DR-ELOWYN-1"),
	{"1910", "DR-ELOWYN-7", func(m *hexmap.Map) string {
		if v := m.VP(h("1910")); v <= 4 {
			return fmt.Sprintf("the citadel must be worth more than 4 VP, is %d", v)
		}
		return ""
	}},
	pointIs("0403", "exit", "DR-ELOWYN-8"), pointIs("0110", "exit", "DR-ELOWYN-8"),
	pointIs("2508", "exit", "DR-ELOWYN-8"), pointIs("2516", "exit", "DR-ELOWYN-8"),
	pointIs("1516", "rescue", "DR-ELOWYN-8"),
	pointIs("0815", "reinforcement", "DR-REINF-4"), pointIs("0915", "reinforcement", "DR-REINF-4"),
	pointIs("1014", "reinforcement", "DR-REINF-4"), pointIs("1115", "reinforcement", "DR-REINF-4"),
	pointIs("1315", "reinforcement", "DR-REINF-4"), pointIs("1516", "reinforcement", "DR-REINF-4"),
	pointIs("1413", "reinforcement", "DR-REINF-4"),
	zoneExists("invader-setup", "DR-SCEN-4", func(m *hexmap.Map, x hex.Hex) string {
		if msg := edgeLand(m, x); msg != "" {
			return msg
		}
		if x.Row == m.Bounds.MaxRow {
			return "invaders set up on the W, N or E edge, not the S"
		}
		for _, n := range append(m.Neighbours(x), x) {
			if m.Terrain(n) == "forest" {
				return ""
			}
		}
		return "must be next to the forest"
	}),
	zoneExists("serpent-setup", "DR-SERP-11", func(m *hexmap.Map, x hex.Hex) string {
		if m.Terrain(x) != "sea" || x.Row != m.Bounds.MaxRow {
			return "must be a sea hex on the south edge"
		}
		return ""
	}),
	zoneExists("harbour", "DR-SCEN-3", nil),
	zoneExists("citadel", "DR-ELOWYN-1", nil),
	zoneExists("defender-setup", "DR-SCEN-3", nil),
	{"map", "DR-SERP-6", func(m *hexmap.Map) string {
		for _, x := range m.Hexes() {
			if m.Terrain(x) != "tower" {
				continue
			}
			for _, n := range m.Neighbours(x) {
				if t := m.Terrain(n); t == "sea" || t == "dock" {
					return ""
				}
			}
		}
		return "the serpent strikes towers along the shore: some tower must touch the sea or a dock"
	}},
}

// gatesAtBridgeEnds: gates on both banks at the ends of a wooden bridge
// (DR-WALL-3).
func gatesAtBridgeEnds(hx string) fact {
	return fact{hx, "DR-WALL-3", func(m *hexmap.Map) string {
		b, ok := m.Bridge(h(hx))
		if !ok {
			return "no bridge"
		}
		for _, e := range b.Connects {
			if f, ok := m.HexsideBetween(b.Hex, e); !ok || f.Kind != "gate" {
				return fmt.Sprintf("the bridge end towards %s must be a gate", e)
			}
		}
		return ""
	}}
}
