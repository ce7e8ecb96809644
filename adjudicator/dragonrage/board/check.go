package board

import (
	"fmt"
	"sort"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
)

// Problem is one way a map breaks a rule: where (a hex, hexside, zone or
// road), the rule ID, and what is wrong.
type Problem struct {
	Where   string
	Rule    string
	Message string
}

// String writes the problem as "where: message (rule)".
func (p Problem) String() string { return fmt.Sprintf("%s: %s (%s)", p.Where, p.Message, p.Rule) }

// Check validates a Dragon Rage map: every map fact the rules state for it
// (table-driven, each tied to its rule ID), then the shape every playable map
// needs — connected land, connected roads, reachable exits, a closed wall
// around the inside-the-walls zone, VP values and totals, bounds. An empty
// result means the map is usable.
func Check(m *hexmap.Map) []Problem {
	c := &checker{m: m}
	var facts []fact
	switch m.Name {
	case "esirien":
		facts = esirienFacts
	case "nurkott":
		facts = nurkottFacts
	default:
		c.add(m.Name, "DR-MAP-1", "the Dragon Rage maps are esirien and nurkott")
	}
	for _, f := range facts {
		if msg := f.test(m); msg != "" {
			c.add(f.where, f.rule, "%s", msg)
		}
	}
	c.shape()
	sort.SliceStable(c.out, func(i, j int) bool { return c.out[i].Rule < c.out[j].Rule })
	return c.out
}

type checker struct {
	m   *hexmap.Map
	out []Problem
}

func (c *checker) add(where, rule, format string, args ...any) {
	c.out = append(c.out, Problem{Where: where, Rule: rule, Message: fmt.Sprintf(format, args...)})
}

// fact is one stated map fact: test returns "" when the map honours it.
type fact struct {
	where, rule string
	test        func(m *hexmap.Map) string
}

var h = hex.MustParse

// land reports whether units that cannot swim may stand in h.
func land(m *hexmap.Map, x hex.Hex) bool {
	if !m.OnMap(x) {
		return false
	}
	switch m.Terrain(x) {
	case "sea":
		return false
	case "river":
		_, br := m.Bridge(x)
		return br
	}
	return true
}

// onEdge reports whether h touches the map's edge (an off-map neighbour).
func onEdge(m *hexmap.Map, x hex.Hex) bool {
	return len(m.Neighbours(x)) < 6
}
