package glory_test

import (
	"os"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/glory"
	"github.com/umpire-pbem/umpire/adjudicator/script/scripttest"
)

func lookup(name string) (adjudicator.Ruleset, bool) {
	return glory.Ruleset, name == "glory"
}

// TestScripts plays every rule case under testdata/.
func TestScripts(t *testing.T) {
	scripttest.RunParallel(t, scripttest.Load(t, os.DirFS("testdata"), "."), lookup)
}
