package conquete_test

import (
	"maps"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir/conquete"
)

func builtin(t *testing.T) adjudicator.Module {
	t.Helper()
	m, ok := conquete.Ruleset.(adjudicator.Modular).BuiltinModule("assumed")
	if !ok {
		t.Fatal("no builtin module assumed")
	}
	return m
}

// edited is the builtin module with file's text old replaced by new.
func edited(t *testing.T, file, old, new string) adjudicator.Module {
	t.Helper()
	m := builtin(t)
	m.Files = maps.Clone(m.Files)
	s := string(m.Files[file])
	if !strings.Contains(s, old) {
		t.Fatalf("%s has no %q", file, old)
	}
	m.Files[file] = []byte(strings.Replace(s, old, new, 1))
	return m
}

// TestValleyChecks: the builtin valley is what the rules need (every
// Region of DN3-CAMP-MAP-8, every edge of Table DN3-T2, the Dwarf
// passage, the road and the exit, every Region reaching Fort Ekal by
// paths: DN3-CAMP-MAP-2), and a group's file that breaks one is refused
// with what to fix.
func TestValleyChecks(t *testing.T) {
	d, err := conquete.LoadModule(builtin(t))
	if err != nil {
		t.Fatal(err)
	}
	if ps := conquete.CheckValley(d); len(ps) > 0 {
		t.Fatalf("the builtin valley: %v", ps)
	}
	if len(d.Regions) != 21 || d.PathBetween("la-croisee", "le-pont") == nil || d.PathBetween("route", "le-moulin") == nil {
		t.Errorf("the builtin valley has %d Regions", len(d.Regions))
	}
	for _, c := range []struct{ file, old, new, want string }{
		{"valley.yaml", "{id: croisee-gue, a: la-croisee, b: le-gue,", "{id: croisee-gue, a: la-croisee, b: le-gué,", `path croisee-gue: no Region "le-gué"`},
		{"valley.yaml", "{id: croisee-pont, a: la-croisee, b: le-pont,", "{id: croisee-pont, a: la-croisee, b: le-gue,", "the battle map of la-croisee has an edge to le-pont (Table DN3-T2): give a path between them"},
		{"valley.yaml", "{id: gue-marais, a: le-gue, b: le-marais,", "{id: gue-marais, a: le-gue, b: la-croisee,", "path gue-marais joins le-gue and la-croisee, as croisee-gue does already"},
		{"valley.yaml", "{id: oasis-moulin, a: oasis-barbare, b: le-moulin,", "{id: oasis-moulin, a: le-gue, b: le-moulin,", "no path leads from oasis-barbare to Fort Ekal"},
		{"valley.yaml", "{id: route-moulin, a: route, b: le-moulin,", "{id: route-moulin, a: route, b: le-pont,", "the starting road joins route to le-moulin only"},
		{"valley.yaml", "kind: dwarf, rule: DN3-CAMP-MAP-7", "rule: DN3-CAMP-MAP-7", "give one Dwarf passage"},
		{"valley.yaml", "{id: le-gue, name: Le Gué, x: 82,", "{id: le-gue, name: Le Gué, x: 120,", "x and y run from 0 to 100"},
		{"valley.yaml", "{id: carrefour-dragon, a: carrefour-du-dragon, b: dragon-noir, rule: DN3-MAPS-2,", "{id: carrefour-dragon, a: carrefour-du-dragon, b: dragon-noir,", "say where this comes from"},
		{"forces.yaml", "{kind: grast, side: rebels, class: healthy,", "{kind: grast, side: rebels, class: walker,", "class \"walker\""},
		{"forces.yaml", "relations: true\n    markers: [{region: les-elfes", "markers: [{region: les-elfes", "peoples: 6 have relations: true"},
		{"calendar.yaml", "{kind: more,", "{kind: most,", `victory kind "most"`},
		{"negotiation.yaml", "{from: 6, to: 10, result: defects", "{from: 7, to: 10, result: defects", "loyalty: no row for a roll of 6"},
	} {
		err := conquete.Ruleset.(adjudicator.Modular).CheckModule(edited(t, c.file, c.old, c.new))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s with %q: %v, want it to say %q", c.file, c.new, err, c.want)
		}
	}
}

// TestModuleSummary: the welcome's line says the module is assumed, and
// gives the length and the victory conditions (GAP-23).
func TestModuleSummary(t *testing.T) {
	s := conquete.Ruleset.(adjudicator.ModuleSummarizer).ModuleSummary(builtin(t))
	for _, want := range []string{"assumed", "to the end of the Soir of day 3", "the Rebels win if they hold Fort Ekal", "(assumed table)"} {
		if !strings.Contains(s, want) {
			t.Errorf("summary %q does not say %q", s, want)
		}
	}
}

// TestInfo: a campaign series of two sides, with its one scenario.
func TestInfo(t *testing.T) {
	in := conquete.Ruleset.Info()
	if in.Name != "dragonnoir-conquete" || in.Series != "campaign" || in.Title != "Dragon Noir 3 — La Conquête" ||
		len(in.Sides) != 2 || in.Sides[0] != conquete.Rebels || in.Sides[1] != conquete.Reptilians ||
		len(in.Scenarios) != 1 || in.Scenarios[0].ID != "conquete" {
		t.Errorf("info %+v", in)
	}
	names := map[string]bool{}
	for _, e := range conquete.Ruleset.EventTypes() {
		if names[e.Name] || e.New().EventType() != e.Name {
			t.Errorf("event %s twice, or decoded as %s", e.Name, e.New().EventType())
		}
		names[e.Name] = true
	}
	if !names[adjudicator.TypeChildGame] {
		t.Error("the campaign's events lack series.child")
	}
	for _, c := range []struct {
		s    adjudicator.Setup
		want string
	}{
		{adjudicator.Setup{Scenario: "siege", Sides: in.Sides}, "La Conquête's only scenario"},
		{adjudicator.Setup{Sides: in.Sides[:1]}, "give the reptilians' player too"},
		{adjudicator.Setup{Sides: in.Sides, Options: map[string]string{"length": "3-dusk"}}, "write DAY-SLOT"},
		{adjudicator.Setup{Sides: in.Sides, Options: map[string]string{"turns": "9"}}, `unknown option "turns"`},
		{adjudicator.Setup{Sides: in.Sides, Position: []byte("phase: negotiation\n")}, "no Region has anything to resolve"},
	} {
		if _, err := conquete.Ruleset.Setup(c.s); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want it to say %q", c.s, err, c.want)
		}
	}
	if _, err := conquete.Ruleset.Setup(adjudicator.Setup{Scenario: "conquete", Sides: in.Sides, Options: map[string]string{"length": "4-nuit"}}); err != nil {
		t.Error(err)
	}
}
