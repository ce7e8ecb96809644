package dragonnoir_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir"
)

// TestCounters: the builtin module's counters are the box's (DN-CNT-2 …
// 4): every Adventurer and every Gharv covers one hex; the Krobs are 60
// counters of five types — 1 Queen of 7 hexes, 7 Guards of 3, 8 Killers,
// 16 Warriors, 28 Hunters — besides the newborns umpire gives a kind of
// their own (GAP-13); 8 Gharvs. A view prints a counter's three numbers,
// attack-movement-defence (DN-CNT-6), Gerfindel's as the rules show them
// (DN-CNT-7), the Queen's rear defence in brackets (DN-CNT-10) and an
// armoured defence marked A (DN-CNT-9).
func TestCounters(t *testing.T) {
	d, err := dragonnoir.LoadModule(builtin(t))
	if err != nil {
		t.Fatal(err)
	}
	krobs := map[string]int{}
	for _, k := range d.Kinds {
		switch {
		case dn3Counter(k): // DN3's counters are no DN2 box's (GAP-18, GAP-15)
		case k.Side == string(dragonnoir.Adventurers) || k.Side == string(dragonnoir.Gharvs):
			if k.Shape != "single" {
				t.Errorf("%s (%s) covers a %s: every Adventurer and Gharv covers one hex (DN-CNT-2, -4)", k.ID, k.Side, k.Shape)
			}
		case k.Side == string(dragonnoir.Krobs) && !k.Has(dragonnoir.TagCausesNoInfil) && !slices.ContainsFunc(k.Prov.Clues, func(c string) bool { return strings.HasPrefix(c, "GAP-18") }):
			// (La Conquête's counters, whose values GAP-18 assumes, are no DN2 Krobs)
			krobs[k.ID] = max(k.Count, 1)
		}
		if k.Prov.Source() != "assumed" {
			t.Errorf("%s: its values are %s, but no source prints them (GAP-9)", k.ID, k.Prov.Source())
		}
	}
	want := map[string]int{"queen": 1, "guard": 7, "killer": 8, "warrior": 16, "hunter": 28}
	total := 0
	for id, n := range want {
		if krobs[id] != n {
			t.Errorf("%d %s counters, want %d (DN-CNT-3)", krobs[id], id, n)
		}
		total += krobs[id]
	}
	if total != 60 || len(krobs) != 5 {
		t.Errorf("the Krobs are %v: 60 counters of 5 types (DN-CNT-3)", krobs)
	}
	if d.Kinds["queen"].Shape != "rosette" || d.Kinds["guard"].Shape != "triangle" {
		t.Error("the Queen covers 7 hexes (a rosette), a Guard 3 (a triangle) (DN-CNT-3)")
	}
	if g := d.Kinds[d.GharvKind]; g.Count != 8 || g.Faces["healthy"].MoveLand == 0 {
		t.Errorf("Gharvs: %d counters with a land movement of %d: 8, each with two movements (DN-CNT-4, -8)", g.Count, g.Faces["healthy"].MoveLand)
	}
	s, err := dragonnoir.Ruleset.Setup(adjudicator.Setup{Scenario: "antre"})
	if err != nil {
		t.Fatal(err)
	}
	v := dragonnoir.Ruleset.View(s, dragonnoir.Adventurers)
	values := map[string]string{}
	for _, u := range v.Units {
		values[u.ID] = u.Values
	}
	for id, want := range map[string]string{"gerfindel": "16-8-10", "queen": "30-4-24(12)", "konrad": "14-6-10A"} {
		if values[id] != want {
			t.Errorf("%s prints %q, want %q", id, values[id], want)
		}
	}
}

// TestScenarioChecks: the loader refuses a scenario that would give its
// secret away or could not be set up, each problem at its line with how
// to fix it.
func TestScenarioChecks(t *testing.T) {
	cases := []struct{ old, new, want string }{
		{`{id: orb-2, kind: orb, at: "1103"}`, `{id: orb-2, kind: orb, at: "1103", real: true}`,
			"hidden orb-2: real: a module is public, so it never says which marker is the real one"},
		{`{id: orb-2, kind: orb, at: "1103"}`, `{id: orb-2, kind: orb, at: "1103", owner: krobs}`,
			"hidden orb-2: owner: no side knows the real marker before it is revealed"},
		{`{id: orb-2, kind: orb, at: "1103"}`, `{id: orb-2, kind: gold, at: "1103"}`, `hidden orb-2: kind "gold" is orb, prisoner or exit`},
		{`{id: sun-4, kind: exit, at: "2003"}`, `{id: sun-4, kind: prisoner, at: "2003"}`, "one Khuzun? marker alone hides nothing"},
		{`{unit: konrad, at: "0203"}`, `{unit: konrad, at: "0402"}`, "scenario descente: forces: konrad stands on 0402, outside the adventurers's entry zone fosse/west (DN-MAP-2)"},
		{`{unit: hunter-1, at: "0702"}`, `{unit: hunter-1, at: "0101"}`, "scenario descente: forces: a Krob Hunter cannot stand on 0101 (rock)"},
		{`{unit: warrior-1, at: "1006"}`, `{unit: warrior-1, at: "1302"}`, "scenario descente: forces: a Krob Warrior cannot stand on 1302 (water)"},
		{`{kind: kill, side: adventurers, units: [queen]`, `{kind: kill, side: adventurers, units: [qeen]`, "victory: kill qeen, who is not among the forces"},
		{`{kind: find, side: adventurers, marker: orb,`, `{kind: find, side: adventurers, marker: exit,`, `victory: find "exit": the scenario has no hidden marker of that kind`},
		{`{kind: hold, side: krobs, text: the Krobs hold their kingdom to the end}`, `{kind: escape, side: krobs, text: x}`, `victory: kind "escape" is one of eliminate, kill, find, hold`},
		{`{unit: boat-1, at: "1702", facing: "N"}`, `{unit: boat-1, at: "1502", facing: "N"}`, "boat boat-1 covers 1502, which is talus: a boat lies on water or a beach"},
	}
	for _, c := range cases {
		m, ok := editedModule(t, "scenarios.yaml", c.old, c.new)
		if !ok {
			continue
		}
		err := dragonnoir.Ruleset.(adjudicator.Modular).CheckModule(m)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "scenarios.yaml:") {
			t.Errorf("%q: got %v, want %q at a line of scenarios.yaml", c.new, err, c.want)
		}
	}
}

// TestPositionMarkers: a position's markers are of the known kinds, face
// down, drawn already (sensed) or turned over.
func TestPositionMarkers(t *testing.T) {
	for src, want := range map[string]string{
		"map: fosse\nhidden: [{id: o1, kind: orb, at: \"0605\", real: true}]":              "",
		"map: fosse\nhidden: [{id: o1, kind: coin, at: \"0605\"}]":                         `kind "coin" is orb, prisoner or exit`,
		"map: fosse\nhidden: [{id: o1, kind: orb, at: \"0605\", real: true, shown: true}]": "",
		"map: fosse\nhidden: [{id: o1, kind: orb, at: \"0605\", drawn: true}]":             "",
	} {
		_, err := dragonnoir.Ruleset.Setup(adjudicator.Setup{Position: []byte(src)})
		switch {
		case want == "" && err != nil:
			t.Errorf("%s: %v", src, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%s: got %v, want %q", src, err, want)
		}
	}
}

// TestSaysAssumed: where people choose a game and in its welcome, every
// scenario and the module's summary say that the scenarios, boards and
// tables are umpire's, not the printed game's (GAP-9, GAP-11, GAP-13).
func TestSaysAssumed(t *testing.T) {
	in := dragonnoir.Ruleset.Info()
	if len(in.Scenarios) < 2 {
		t.Fatalf("%d scenarios: the module ships at least two playable ones", len(in.Scenarios))
	}
	for _, sc := range in.Scenarios {
		if !strings.Contains(sc.Title, "(assumed)") || !strings.Contains(sc.Doc, "assumed, not the printed game's") {
			t.Errorf("scenario %s: %q, %q: say it is assumed", sc.ID, sc.Title, sc.Doc)
		}
	}
	d, err := dragonnoir.LoadModule(builtin(t))
	if err != nil {
		t.Fatal(err)
	}
	sum := dragonnoir.Ruleset.(adjudicator.ModuleSummarizer).ModuleSummary(builtin(t))
	for _, s := range []string{"its tables are assumed, not the printed game's",
		fmt.Sprintf("%d of its %[1]d cave boards are assumed (GAP-11)", len(d.Boards)),
		fmt.Sprintf("%d of its %[1]d scenarios (GAP-13): umpire's, not the scenario booklet's", len(d.Scenarios))} {
		if !strings.Contains(sum, s) {
			t.Errorf("the module summary %q does not say %q", sum, s)
		}
	}
}

// TestSensedMarker: a detection spell on a face-down marker draws it then
// (PBEM-DN-14), the roll and the answer for the caster's side alone, and
// the marker stays face down; once it is known to be empty, the last
// marker of its kind turned over is the real one without a draw.
func TestSensedMarker(t *testing.T) {
	rs := withModule{dragonnoir.Ruleset, detectionModule(t)}
	l := func(name string) (adjudicator.Ruleset, bool) { return rs, name == "dragonnoir" }
	run := playText(t, `name: a sensed marker
ruleset: dragonnoir
module: sensing
position:
  map: descente
  units:
    - {unit: zacharie, at: "0302"}
    - {unit: arlon, at: "0504"}
    - {unit: hunter-1, at: "0104"}
  hidden:
    - {id: orb-1, kind: orb, at: "0402"}
    - {id: orb-2, kind: orb, at: "0604"}
dice: [4, 2]
steps:
  - side: adventurers
    orders: |
      turn: 1
      phase: adventurers
      orders:
        spells:
          - {caster: zacharie, spell: sense, at: "0402"}
        moves:
          - {unit: arlon, path: ["0604"]}
expect:
  report-has:
    - "zacharie senses on 0402: orb-1 (a decoy)."
    - "arlon turns over orb-2 (Orbe?) on 0604: it is the mauve Orb (PBEM-DN-14)."
  rolls:
    - "sense cast by zacharie: 1d10=4, +2 level, -0 beyond range makes 6, needs more than 1: works"
    - "draw for orb-1 (sensed), one of 2 Orbe? markers face down: 1d2=2, not 1: it is empty"
  hexes:
    hidden: ["0402 orb-1", "0604 orb-2!"]
`, l)
	res := run.Steps[0].Results[0]
	for _, r := range res.AllRolls {
		if strings.HasPrefix(r.Label, "draw for orb-1") && (r.To.Includes(dragonnoir.Krobs) || !r.To.Includes(dragonnoir.Adventurers)) {
			t.Errorf("the draw of a sensed marker is for %v: the caster's side alone", r.To)
		}
	}
	v := dragonnoir.Ruleset.View(run.Game.State, dragonnoir.Krobs)
	for _, h := range v.Hexes {
		if h.Kind == "hidden" && h.At == "0402" && h.Label != "?" {
			t.Errorf("the Krobs see the sensed marker as %q: it is still face down", h.Label)
		}
	}
}
