package board

import (
	"fmt"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
)

// Small builders for the fact tables.

func terrainIs(hx, kind, rule string) fact {
	return fact{hx, rule, func(m *hexmap.Map) string {
		if t := m.Terrain(h(hx)); t != kind {
			return fmt.Sprintf("must be %s, is %q", kind, t)
		}
		return ""
	}}
}

func bridgeIs(hx, kind, rule string) fact {
	return fact{hx, rule, func(m *hexmap.Map) string {
		b, ok := m.Bridge(h(hx))
		switch {
		case !ok:
			return "must hold a " + kind + " bridge"
		case b.Kind != kind:
			return fmt.Sprintf("bridge must be %s, is %s", kind, b.Kind)
		case !m.Has(b.Hex, "river"):
			return "a bridge must span a river hex"
		case !land(m, b.Connects[0]) || !land(m, b.Connects[1]) || m.Has(b.Connects[0], "river") || m.Has(b.Connects[1], "river"):
			return "a bridge must join two banks"
		case !m.Has(b.Hex, "road"):
			return "bridges count as road (DR-ROAD-4): put the bridge on a road"
		}
		return ""
	}}
}

func sideIs(a, b, kind, rule string) fact {
	return fact{a + "/" + b, rule, func(m *hexmap.Map) string {
		f, ok := m.HexsideBetween(h(a), h(b))
		if !ok || f.Kind != kind {
			return "must be a " + kind
		}
		return ""
	}}
}

func pointIs(hx, kind, rule string) fact {
	return fact{hx, rule, func(m *hexmap.Map) string {
		for _, p := range m.Points(kind) {
			if p.Hex == h(hx) {
				return ""
			}
		}
		return "must be a point of kind " + kind
	}}
}

func roadThroughTower(hx, rule string) fact {
	return fact{hx, rule, func(m *hexmap.Map) string {
		x := h(hx)
		if m.Terrain(x) != "tower" {
			return "must be a tower"
		}
		links := 0
		for _, n := range m.Neighbours(x) {
			if m.Road(x, n) {
				links++
				if f, ok := m.HexsideBetween(x, n); !ok || !m.IsEntrance(f.Kind) {
					return fmt.Sprintf("the road leaves the tower towards %s without an entrance", n)
				}
			}
		}
		if links < 2 {
			return "the road must pass through the tower (in one entrance, out another)"
		}
		return ""
	}}
}

func zoneExists(name, rule string, test func(m *hexmap.Map, x hex.Hex) string) fact {
	return fact{"zone " + name, rule, func(m *hexmap.Map) string {
		z, ok := m.Zone(name)
		if !ok || len(z.Hexes) == 0 {
			return "the map needs this zone"
		}
		if test != nil {
			for _, x := range z.Hexes {
				if msg := test(m, x); msg != "" {
					return x.String() + ": " + msg
				}
			}
		}
		return ""
	}}
}

func edgeLand(m *hexmap.Map, x hex.Hex) string {
	if !onEdge(m, x) || !land(m, x) {
		return "must be a land hex on the map edge"
	}
	return ""
}

func wholeMap(rule, msg string, bad func(m *hexmap.Map, x hex.Hex) bool) fact {
	return fact{"map", rule, func(m *hexmap.Map) string {
		for _, x := range m.Hexes() {
			if bad(m, x) {
				return x.String() + ": " + msg
			}
		}
		return ""
	}}
}
