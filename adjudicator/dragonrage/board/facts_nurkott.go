package board

import (
	"github.com/umpire-pbem/umpire/adjudicator/hex"
	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
)

// nurkottFacts are the Nurkott map facts the rules state (DR-GAP-2 (a)).
var nurkottFacts = []fact{
	wholeMap("DR-MAP-8", "Nurkott has no sea", func(m *hexmap.Map, x hex.Hex) bool { return m.Terrain(x) == "sea" }),
	wholeMap("DR-TOWER-10", "Nurkott has no towers", func(m *hexmap.Map, x hex.Hex) bool { return m.Terrain(x) == "tower" }),
	{"0708", "DR-MAP-10", func(m *hexmap.Map) string {
		if !land(m, h("0708")) || m.Has(h("0708"), "river") {
			return "0708 counts as land only"
		}
		return ""
	}},
	{"0709", "DR-MAP-10", func(m *hexmap.Map) string {
		if !land(m, h("0709")) || !m.Has(h("0709"), "river") {
			return "0709 counts as both land and river"
		}
		return ""
	}},
	{"0708/0709", "DR-MAP-11", func(m *hexmap.Map) string {
		if passable(m, h("0708"), h("0709")) {
			return "units that cannot enter a river cannot step from 0708 to 0709"
		}
		return ""
	}},
	bridgeIs("0402", "wooden", "DR-BRIDGE-1"), bridgeIs("1002", "wooden", "DR-BRIDGE-1"),
	bridgeIs("2108", "wooden", "DR-BRIDGE-1"), bridgeIs("2211", "wooden", "DR-BRIDGE-1"),
	bridgeIs("1914", "wooden", "DR-BRIDGE-1"), bridgeIs("2412", "wooden", "DR-BRIDGE-1"),
	bridgeIs("1610", "stone", "DR-BRIDGE-2"),
	pointIs("0202", "entry", "DR-SCEN-9"), pointIs("0516", "entry", "DR-SCEN-9"),
	{"0202 0516", "DR-SCEN-9", func(m *hexmap.Map) string {
		for _, p := range m.Points("entry") {
			if edgeLand(m, p.Hex) != "" {
				return p.Hex.String() + " must be a land hex on the map edge"
			}
		}
		return ""
	}},
	pointIs("0109", "serpent-entry", "DR-SERP-11"), pointIs("0208", "serpent-entry", "DR-SERP-11"),
	{"0109 0208", "DR-SERP-2", func(m *hexmap.Map) string {
		for _, p := range m.Points("serpent-entry") {
			if !m.Has(p.Hex, "river") {
				return p.Hex.String() + " must be a river hex: the serpent never leaves the water"
			}
		}
		return ""
	}},
	reinforcementRoad("2015"), reinforcementRoad("2413"),
	pointIs("2017", "reinforcement", "DR-REINF-8"),
	{"map", "DR-MAP-9", func(m *hexmap.Map) string {
		for _, f := range m.Sides() {
			if f.Kind == "gate" || f.Kind == "wall" {
				return f.Side.String() + ": Nurkott has plank palisades and doors only"
			}
		}
		return ""
	}},
	{"map", "DR-VP-12", func(m *hexmap.Map) string {
		for _, f := range m.Sides() {
			if f.Kind == "door" && m.VP(f.Inside) > 0 {
				return ""
			}
		}
		return "Nurkott has VP hexes with doors: some door's inside hex must carry VP"
	}},
	zoneExists("goblin-camp-1", "DR-SCEN-8", outsideWalls),
	zoneExists("goblin-camp-2", "DR-SCEN-8", outsideWalls),
	zoneExists("slave-cages", "DR-ELOWYN-10", nil),
	zoneExists("defender-setup", "DR-SCEN-8", nil),
	{"exits", "DR-ELOWYN-11", func(m *hexmap.Map) string {
		if len(m.Points("exit")) == 0 {
			return "Elowyn leaves by one of the roads: the map needs road exits"
		}
		return ""
	}},
}

// outsideWalls: the goblins live outside Nurkott (FR §2.1.2).
func outsideWalls(m *hexmap.Map, x hex.Hex) string {
	if m.InZone(x, "inside-walls") {
		return "the goblin camps lie outside the palisade (the goblins live outside Nurkott)"
	}
	return ""
}

// reinforcementRoad: a road runs from 2017 to hx (DR-REINF-8).
func reinforcementRoad(hx string) fact {
	return fact{"2017-" + hx, "DR-REINF-8", func(m *hexmap.Map) string {
		seen := map[hex.Hex]bool{h("2017"): true}
		queue := []hex.Hex{h("2017")}
		for len(queue) > 0 {
			x := queue[0]
			queue = queue[1:]
			if x == h(hx) {
				return ""
			}
			for _, n := range m.Neighbours(x) {
				if !seen[n] && m.Road(x, n) {
					seen[n] = true
					queue = append(queue, n)
				}
			}
		}
		return "a road must run from 2017 to " + hx
	}}
}
