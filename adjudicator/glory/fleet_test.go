package glory

import (
	"slices"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/script"
)

func demoGeo(t *testing.T) *Geo {
	t.Helper()
	m, ok := ruleset{}.BuiltinModule("demo")
	if !ok {
		t.Fatal("no demo module")
	}
	d, err := LoadModule(m)
	if err != nil {
		t.Fatal(err)
	}
	return d.Geo
}

// riverGeo is the demo map with a river of great hexsides that runs
// unbroken: around hex c, from the sea, between c and three of its
// neighbours in turn (DG-FLEET-3). It is built from the map's own
// neighbours, so it holds whatever the layout.
func riverGeo(t *testing.T) (*Geo, []string) {
	g0 := demoGeo(t)
	g := *g0
	g.sides = map[[2]string]Hexside{}
	c := "1210"
	ring := g.Near(c)
	// three neighbours of c, each next to the one before: the hexsides
	// c/n1, c/n2, c/n3 meet end to end.
	var run []string
	for _, a := range ring {
		for _, b := range ring {
			for _, x := range ring {
				if a != b && b != x && a != x && g.Adjacent(a, b) && g.Adjacent(b, x) && !g.Adjacent(a, x) {
					run = []string{a, b, x}
				}
			}
		}
	}
	if run == nil {
		t.Fatal("no three neighbours in a row around 1210")
	}
	var sides []string
	for _, n := range run {
		g.sides[sideKey(c, n)] = Hexside{Kind: "river", Great: true}
		sides = append(sides, hexsideName(c, n))
	}
	return &g, sides
}

// TestRiverHexsides: along a great river a fleet moves from hexside to
// hexside where they meet at a corner, one MP each (DG-FLEET-3), and from a
// hexside to the hexes at its ends and on its banks.
func TestRiverHexsides(t *testing.T) {
	g, s := riverGeo(t)
	if !slices.Contains(g.posNear(s[0]), s[1]) || !slices.Contains(g.posNear(s[1]), s[2]) {
		t.Fatalf("consecutive hexsides %v do not touch: %v, %v", s, g.posNear(s[0]), g.posNear(s[1]))
	}
	if slices.Contains(g.posNear(s[0]), s[2]) {
		t.Errorf("%s and %s do not meet, yet are neighbours", s[0], s[2])
	}
	for _, b := range banks(s[1]) {
		if !slices.Contains(g.posNear(s[1]), b) {
			t.Errorf("%s is a bank of %s, not next to it", b, s[1])
		}
	}
	got := drawable(adjudicator.Trace{Kind: "sail", Path: []string{"1310", s[0], s[1], s[2]}}).Path
	if got[0] != "1310" || len(got) < 2 {
		t.Errorf("a river path is drawn as %v", got)
	}
	for _, h := range got {
		if isHexside(h) {
			t.Errorf("a river path is drawn with the hexside %s: %v", h, got)
		}
	}
}

// TestFleetBridge: a friendly fleet on a river hexside bridges it while it
// has not moved, been displaced or retreated this turn (DG-SEA-7,
// DG-AMB-27); an enemy's fleet bridges nothing for the side.
func TestFleetBridge(t *testing.T) {
	m, _ := ruleset{}.BuiltinModule("demo")
	st, err := ruleset{}.Setup(adjudicator.Setup{Module: &m, Position: []byte(`
turn: 1
step: move
mover: whitestone
allies: {khelmar: highlord, valen: whitestone, sarnport: whitestone}
units:
  - {units: [sarnport-fleet-1], at: "1613/1713"}
`)})
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	if !s.FleetBridge("1713", "1613", Whitestone) {
		t.Error("an unmoved friendly fleet does not bridge its hexside")
	}
	if s.FleetBridge("1613", "1713", Highlord) {
		t.Error("an enemy fleet bridges a river for the highlord")
	}
	if s.FleetBridge("1612", "1712", Whitestone) {
		t.Error("a hexside with no fleet is bridged")
	}
	s.mark(flagFleetMoved, "sarnport-fleet-1")
	if s.FleetBridge("1613", "1713", Whitestone) {
		t.Error("a fleet that moved this turn still bridges its hexside")
	}
}

// TestHiddenFleetMoves: with hidden stacks, a fleet's move and its
// Maelstrom roll are the mover's alone (DG-HIDE-3).
func TestHiddenFleetMoves(t *testing.T) {
	s, err := script.Parse("hidden.yaml", []byte(`
name: hidden fleets
rules: [DG-HIDE-3]
ruleset: glory
options: {hidden-stacks: "on"}
position:
  turn: 1
  step: move
  mover: highlord
  allies: {khelmar: highlord, valen: whitestone}
  units:
    - {units: [black-fleet], at: "0714", side: highlord}
dice: [3]
steps:
  - side: highlord
    orders: |
      turn: 1
      phase: move
      orders:
        fleets:
          - {unit: black-fleet, path: ["0614", maelstrom]}
expect:
  units: {black-fleet: maelstrom}
`))
	if err != nil {
		t.Fatal(err)
	}
	run, err := script.Play(s, func(string) (adjudicator.Ruleset, bool) { return Ruleset, true }, script.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !run.OK() {
		t.Fatal(run.Failures)
	}
	res := run.Steps[0].Results[0]
	hl := strings.Join(adjudicator.Texts(res.ReportFor(Highlord)), "\n")
	ws := strings.Join(adjudicator.Texts(res.ReportFor(Whitestone)), "\n")
	if !strings.Contains(hl, "black-fleet sails into the Maelstrom") {
		t.Errorf("the highlord is not told of his fleet's move:\n%s", hl)
	}
	if strings.Contains(ws, "black-fleet") {
		t.Errorf("the whitestone reads of the hidden fleet:\n%s", ws)
	}
	if len(res.RollsFor(Whitestone)) != 0 || len(res.RollsFor(Highlord)) != 1 {
		t.Errorf("the Maelstrom roll is seen by %d whitestone and %d highlord", len(res.RollsFor(Whitestone)), len(res.RollsFor(Highlord)))
	}
}
