package glory_test

import (
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/glory"
)

// TestHiddenMovesToldToTheMoverAlone plays testdata/move/hidden-stop.yaml
// and reads what the Highlord player is given: with hidden stacks, the
// Whitestone's moves, and where they stopped, reach neither his report nor
// his view (DG-HIDE-1, -3); the Whitestone player reads them.
func TestHiddenMovesToldToTheMoverAlone(t *testing.T) {
	run := playCase(t, "testdata/move/hidden-stop.yaml")
	said := func(side adjudicator.Side) string {
		var b strings.Builder
		for _, st := range run.Steps {
			for _, res := range st.Results {
				for _, l := range adjudicator.Texts(res.ReportFor(side)) {
					b.WriteString(l + "\n")
				}
				for _, r := range res.RollsFor(side) {
					b.WriteString(r.Label + "\n")
				}
			}
		}
		return b.String()
	}
	ws, hl := said(glory.Whitestone), said(glory.Highlord)
	for _, id := range []string{"valen-inf-1", "valen-griffon"} {
		if !strings.Contains(ws, id) {
			t.Errorf("the Whitestone report does not mention its own %s:\n%s", id, ws)
		}
		if strings.Contains(hl, id) {
			t.Errorf("the Highlord report mentions the hidden %s:\n%s", id, hl)
		}
	}
	v := run.Game.View(glory.Highlord)
	for _, u := range v.Units {
		if u.ID == "valen-inf-1" || u.ID == "valen-griffon" {
			t.Errorf("the Highlord view identifies %s at %s", u.ID, u.At)
		}
	}
	for _, tr := range v.Traces {
		if tr.Unit == "valen-inf-1" || tr.Unit == "valen-griffon" {
			t.Errorf("the Highlord view traces the hidden move of %s: %v", tr.Unit, tr.Path)
		}
	}
	// The test can fail: the Whitestone view has the trace the Highlord's lacks.
	traced := false
	for _, tr := range run.Game.View(glory.Whitestone).Traces {
		traced = traced || tr.Unit == "valen-inf-1"
	}
	if !traced {
		t.Error("the Whitestone view has no trace of its own move")
	}
}
