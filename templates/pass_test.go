package templates_test

import (
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/templates"
)

// TestAckOfAPass: orders that say nothing are echoed as a pass, not as an
// empty YAML value.
func TestAckOfAPass(t *testing.T) {
	set := templates.Default()
	for _, norm := range []string{"{}\n", "[]\n", ""} {
		out, err := set.Render(templates.Ack, templates.AckData{Game: templates.Game{ID: "g"}, Side: "red", Title: "turn 1, fire", Normalized: norm})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out, "pass: no orders for this phase") || strings.Contains(out, "{}") {
			t.Errorf("%q echoed as:\n%s", norm, out)
		}
	}
	out, _ := set.Render(templates.Ack, templates.AckData{Game: templates.Game{ID: "g"}, Side: "red", Normalized: "bid: 2\n"})
	if strings.Contains(out, "pass:") || !strings.Contains(out, "  bid: 2") {
		t.Errorf("orders echoed as:\n%s", out)
	}
}
