package dragonnoir_test

import (
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir"
)

// TestBuiltinModuleChecks: the shipped module loads, every entry carries
// its provenance, and the ruleset says it is assumed where people choose
// a game (Info's scenarios, the module summary).
func TestBuiltinModuleChecks(t *testing.T) {
	m := builtin(t)
	if err := dragonnoir.Ruleset.(adjudicator.Modular).CheckModule(m); err != nil {
		t.Fatal(err)
	}
	sum := dragonnoir.Ruleset.(adjudicator.ModuleSummarizer).ModuleSummary(m)
	if !strings.Contains(sum, "assumed, not the printed game's") || !strings.Contains(sum, "assumed)") {
		t.Errorf("the summary does not say the module is assumed: %q", sum)
	}
	in := dragonnoir.Ruleset.Info()
	if in.Name != "dragonnoir" || in.Title != "Dragon Noir 2 — L'Épreuve" || len(in.Scenarios) == 0 || !strings.Contains(in.Scenarios[0].Doc, "assumed") {
		t.Errorf("Info %+v does not name the game or say its scenario is assumed", in)
	}
}

// TestLoaderErrors: a broken module is refused with every problem at its
// file and line, and each message says how to fix it.
func TestLoaderErrors(t *testing.T) {
	cases := []struct {
		file, old, new, want string
	}{
		{"combat.yaml", `rows: [DW, DS, DR, "-", "-", AR, "-", AR, AS, AW]`, `rows: [DW, DS, DR, "-", "-", AR, "-", AR, AS]`,
			"combat.yaml:15: column 1-1 has 9 rows: give the result for each roll of the d10, 1 to 10"},
		{"combat.yaml", `rows: [DW, DS, DR, "-", "-", AR`, `rows: [DW, DX, DR, "-", "-", AR`, "combat.yaml:15: column 1-1, roll 2"},
		{"counters.yaml", "weapon: longbow,", "weapon: lngbow,", `kind jon: weapon "lngbow" is not in weapons.yaml`},
		{"counters.yaml", "tags: [curare, daredevil]", "tags: [curare, daredevill]", `kind zed: tag "daredevill" is not one of`},
		{"shifts.yaml", `shift: 0, assumed: true, clues: ["GAP-2 interim: shift = attacker value - defender value"]}`, `shift: 0}`,
			"shifts.yaml:6: say where this comes from"},
		{"shifts.yaml", `- {attacker: "+", defender: "0", shift: 1, assumed: true, clues: ["GAP-2 interim: shift = attacker value - defender value"]}`, `- {attacker: "+", defender: "0", shift: 1, assumed: true}`,
			"shifts.yaml:7: an assumed value lists the clues"},
		{"terrain.yaml", "{kind: floor, title: flat ground,", "{kind: floor, titel: flat ground,", `terrain.yaml: line 5, column 19: unknown field "titel"`},
		{"terrain.yaml", "{kind: sand,", "{kind: sandy,", `no row for terrain sand, which the maps use`},
		{"scenarios.yaml", `{unit: jon, at: "0103"}`, `{unit: jon, at: "2103"}`, "scenario descente: forces: jon: 2103 is not on the map"},
		{"scenarios.yaml", `{unit: warrior-1, at: "1006"}`, `{unit: warrior-1, at: "0902"}`, "scenario descente: forces: guard-1 and warrior-1 are both on 0902"},
		{"fire.yaml", `heavy:  [C, C, "-", "-", "-", "-", "-", "-", "-", "-"]`, `heavy:  [C, D, "-", "-", "-", "-", "-", "-", "-", "-"]`, `weapon short-bow, heavy cover, roll 2: "D" is not in the key`},
	}
	for _, c := range cases {
		m, ok := editedModule(t, c.file, c.old, c.new)
		if !ok {
			continue
		}
		err := dragonnoir.Ruleset.(adjudicator.Modular).CheckModule(m)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s with %q: got %v, want %q", c.file, c.new, err, c.want)
		}
	}
}

// editedModule is the builtin module with old replaced by new in file;
// false, and the test told to update its case, when file no longer holds
// old.
func editedModule(t *testing.T, file, old, new string) (adjudicator.Module, bool) {
	t.Helper()
	m := builtin(t)
	src := string(m.Files[file])
	if !strings.Contains(src, old) {
		t.Errorf("%s no longer holds %q: update the case", file, old)
		return m, false
	}
	m.Files[file] = []byte(strings.Replace(src, old, new, 1))
	return m, true
}
