package dragonnoir_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// TestTraitorStaysSealed (HID-12 for the battle, DN3-CAMP-TRAITOR-2): after
// the battle read its sealed parts and before the Rebels announce him,
// neither the Reptilians' view nor the public log says who the traitor
// is; the referee's sealed data does. After the announcement everyone
// sees who changed side.
func TestTraitorStaysSealed(t *testing.T) {
	src := readFile(t, "testdata/dn3-traitor/DN3-CAMP-TRAITOR-2-announced-in-battle.yaml")
	i := strings.Index(src, "  - side: adventurers\n")
	j := strings.Index(src, "dice: [7, 9]\n")
	if i < 0 || j < 0 {
		t.Fatal("the traitor case changed: update TestTraitorStaysSealed")
	}
	before := src[:j] + src[j+len("dice: [7, 9]\n"):i] + "expect:\n  turn: 1\n  phase: adventurers\n"
	run := playText(t, before, lookup)
	view := func(side adjudicator.Side) string {
		b, err := json.Marshal(run.Game.View(side))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if rep := view("krobs"); strings.Contains(rep, "traitor") || strings.Contains(rep, "turned:") {
		t.Errorf("the Reptilians' view tells of the traitor: %s", rep)
	}
	log := publicLog(run)
	for _, s := range []string{"traitor", `"unit":"chief-sarrak"`} {
		if strings.Contains(log, s) {
			t.Errorf("the public log shows %q before the announcement:\n%s", s, log)
		}
	}
	if !sealedIn(run, `"unit":"chief-sarrak"`) {
		t.Error("the traitor is not kept sealed in the referee's data")
	}
	after := playText(t, src, lookup)
	if log := publicLog(after); !strings.Contains(log, "traitor-announced") || !strings.Contains(log, `"unit":"chief-sarrak"`) {
		t.Errorf("the announcement is not public:\n%s", log)
	}
}
