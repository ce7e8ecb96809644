package glory_test

import (
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/glory"
)

// TestModuleSummarySaysWhatIsAssumed: the demonstration module is said to
// be assumed, all of it; an imported copy of the fan data counts its
// values by where they come from.
func TestModuleSummarySaysWhatIsAssumed(t *testing.T) {
	ms := glory.Ruleset.(adjudicator.ModuleSummarizer)
	demo, _ := glory.Ruleset.(adjudicator.Modular).BuiltinModule("demo")
	if s := ms.ModuleSummary(demo); !strings.Contains(s, "everything in it is assumed") {
		t.Errorf("demo: %q", s)
	}
	m, _ := importFound(t)
	s := ms.ModuleSummary(m)
	for _, want := range []string{" rule", " user", " assumed", "map hexes"} {
		if !strings.Contains(s, want) {
			t.Errorf("imported: %q lacks %q", s, want)
		}
	}
}
