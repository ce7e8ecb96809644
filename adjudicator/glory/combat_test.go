package glory_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/glory"
)

// TestHiddenCombatAudiences: with hidden stacks, the combat reveals the two
// stacks to both sides, but where the defender retreats is told to him
// alone, and Highlord's view shows the retreated army as an unnamed stack.
func TestHiddenCombatAudiences(t *testing.T) {
	run := playCase(t, "testdata/combat/DG-HIDE-revealed.yaml")
	read := func(side adjudicator.Side) string {
		var out []string
		for _, st := range run.Steps {
			for _, res := range st.Results {
				out = append(out, adjudicator.Texts(res.ReportFor(side))...)
			}
		}
		return strings.Join(out, "\n")
	}
	hl, ws := read(glory.Highlord), read(glory.Whitestone)
	if strings.Contains(hl, "to 1304") || !strings.Contains(hl, "valen-inf-1 retreats from 1404.") {
		t.Errorf("Highlord reads where the hidden army retreated, or not that it did:\n%s", hl)
	}
	if !strings.Contains(ws, "valen-inf-1 retreats from 1404 to 1304.") || !strings.Contains(ws, "lady-aster goes with the armies that left 1404, to 1304.") {
		t.Errorf("Whitestone does not read where his army went:\n%s", ws)
	}
	if !strings.Contains(hl, "whitestone defends with valen-inf-1 and lady-aster") {
		t.Errorf("the attacked stack is not revealed to Highlord:\n%s", hl)
	}
	v := glory.Ruleset.View(run.Game.State, glory.Highlord)
	var ids []string
	for _, u := range v.Units {
		ids = append(ids, u.ID+"@"+u.At)
	}
	if slices.Contains(ids, "valen-inf-1@1304") || !slices.Contains(ids, "stack-1304@1304") {
		t.Errorf("Highlord's view names the retreated army: %v", ids)
	}
	for _, tr := range v.Traces {
		if tr.Unit == "valen-inf-1" {
			t.Errorf("Highlord's view traces the hidden retreat: %+v", tr)
		}
	}
	v = glory.Ruleset.View(run.Game.State, glory.Whitestone)
	ids = nil
	for _, u := range v.Units {
		ids = append(ids, u.ID+"@"+u.At)
	}
	if !slices.Contains(ids, "khelmar-inf-1@1504") {
		t.Errorf("the attacking stack, revealed this turn, is hidden from Whitestone: %v", ids)
	}
}
