package dragonnoir_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir"
	"github.com/umpire-pbem/umpire/adjudicator/game"
)

// narrowBoard is a test board: a gallery one hex wide along row 3, a hall
// two hexes wide on rows 5 and 6 whose floor rises one level at 0305 and
// three at 0405.
const narrowBoard = `name: narrow
title: a narrow gallery and a hall (test)
status: assumed
bounds: {cols: [1, 6], rows: [1, 6]}
default: rock
terrain:
  - {kind: floor, hexes: ["0103:0603"], assumed: true}
  - {kind: floor, hexes: ["0105:0606"], assumed: true}
floors:
  - {level: 1, hexes: ["0305"], assumed: true}
  - {level: 3, hexes: ["0405"], assumed: true}
`

// TestGargoyleFlightLimits: a Gargoyle cannot fly in a gallery one hex
// wide (the ceiling is too low), nor up more than one level from one hex
// to the next; in a wide hall it flies over a rise of one level
// (DN-SPECTRE-2). The assumed boards have no gallery one hex wide, so
// the case runs on a test board added to a copy of the module.
func TestGargoyleFlightLimits(t *testing.T) {
	m := builtin(t)
	m.Name = "narrow"
	m.Files["boards/narrow.yaml"] = []byte(narrowBoard)
	if err := game.CheckModule(dragonnoir.Ruleset, m); err != nil {
		t.Fatalf("the test module does not check: %v", err)
	}
	rs := withModule{dragonnoir.Ruleset, m}
	l := func(name string) (adjudicator.Ruleset, bool) { return rs, name == "dragonnoir" }
	run := playText(t, `name: flights in a narrow gallery and over rises
ruleset: dragonnoir
module: narrow
position:
  map: narrow
  turns: 3
  units:
    - {unit: gargoyle-1, at: "0203"}
    - {unit: gargoyle-2, at: "0205"}
steps:
  - side: adventurers
    orders: |
      turn: 1
      phase: adventurers
      orders:
        moves:
          - {unit: gargoyle-1, path: ["0303", "0403"], fly: true}
          - {unit: gargoyle-2, path: ["0305", "0405"], fly: true}
expect:
  units: {gargoyle-1: "0203", gargoyle-2: "0305"}
`, l)
	lines := allLines(run)
	for _, want := range []string{
		"gargoyle-1 stops its flight on 0203: the gallery at 0203 is 1 hex wide, the ceiling too low to fly (DN-SPECTRE-2).",
		"gargoyle-2 flies 0205 → 0305 (DN-SPECTRE-2).",
		"gargoyle-2 stops its flight on 0305: 0405 rises more than one level: a Gargoyle flies over obstacles of level 1 only (DN-SPECTRE-2).",
	} {
		if !slices.Contains(lines, want) {
			t.Errorf("the report lacks %q; it says:\n%s", want, strings.Join(lines, "\n"))
		}
	}
}
