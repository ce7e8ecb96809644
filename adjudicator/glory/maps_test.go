package glory_test

import (
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/glory"
)

// TestDemoMapPassesItsChecks: the builtin map loads and breaks no map fact
// the rules need.
func TestDemoMapPassesItsChecks(t *testing.T) {
	hm := glory.Ruleset.(adjudicator.HexMaps)
	for _, name := range hm.MapNames() {
		m, err := hm.Map(name)
		if err != nil {
			t.Fatal(err)
		}
		if ps := hm.CheckMap(m); len(ps) > 0 {
			t.Errorf("%s: %v", name, ps)
		}
	}
}

// TestCheckMapFindsBrokenFacts: a port inland and a Maelstrom walled off by
// land are reported with their rules.
func TestCheckMapFindsBrokenFacts(t *testing.T) {
	hm := glory.Ruleset.(adjudicator.HexMaps)
	m, err := hm.ParseMap("bad.yaml", []byte(`
name: bad
title: bad
bounds: {cols: [1, 5], rows: [1, 5]}
default: clear
terrain:
  - {kind: maelstrom, hexes: ["0303"], assumed: true}
points:
  - {name: dry-port, kind: port, hex: "0101", assumed: true}
`))
	if err != nil {
		t.Fatal(err)
	}
	ps := hm.CheckMap(m)
	rules := map[string]bool{}
	for _, p := range ps {
		rules[p.Rule] = true
	}
	if !rules["DG-SEA-2"] || !rules["DG-MAEL-2"] || len(ps) != 2 {
		t.Fatalf("problems %v, want one DG-SEA-2 and one DG-MAEL-2", ps)
	}
}
