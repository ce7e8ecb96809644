package dragonnoir_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// step5Prefix is the Step 5 case up to its first adjudication: both
// markers drawn (the Rebels "alliance", the Reptilians "neutre"), sealed.
func step5Prefix(t *testing.T) string {
	src := readFile(t, "testdata/dn3-people/DN3-CAMP-NEG-11-step5-joins.yaml")
	i := strings.Index(src, "  - side: krobs\n    orders: |\n      turn: 5\n      phase: krobs")
	if i < 0 {
		t.Fatal("the Step 5 case changed: update step5Prefix")
	}
	return src[:i] + "expect:\n  turn: 5\n  phase: krobs\n"
}

// TestStep5MarkersStaySealed (HID-14, DN3-CAMP-NEG-11): before the end of
// battle turn 5 neither side's view, nor the public log, shows the other
// side's marker; each side's own view shows its own (so the check can
// fail), and the referee's data keeps both.
func TestStep5MarkersStaySealed(t *testing.T) {
	run := playText(t, step5Prefix(t), lookup)
	view := func(side adjudicator.Side) string {
		b, err := json.Marshal(run.Game.View(side))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	reb, rep := view("adventurers"), view("krobs")
	if !strings.Contains(reb, `"negotiation-drawn:adventurers":"alliance"`) {
		t.Errorf("the Rebels' view does not show their own marker: %s", reb)
	}
	if !strings.Contains(rep, `"negotiation-drawn:krobs":"neutre"`) {
		t.Errorf("the Reptilians' view does not show their own marker: %s", rep)
	}
	if strings.Contains(rep, "alliance") || strings.Contains(rep, "negotiation-drawn:adventurers") {
		t.Errorf("the Reptilians' view shows the Rebels' marker: %s", rep)
	}
	if strings.Contains(reb, "neutre") || strings.Contains(reb, "negotiation-drawn:krobs") {
		t.Errorf("the Rebels' view shows the Reptilians' marker: %s", reb)
	}
	if log := publicLog(run); strings.Contains(log, "alliance") || strings.Contains(log, "neutre") {
		t.Errorf("a marker is readable in the public log before the end of turn 5:\n%s", log)
	}
	if !sealedIn(run, "alliance") || !sealedIn(run, "neutre") {
		t.Error("the markers are not kept sealed in the referee's data")
	}
}
