package dragonrage_test

import (
	"os"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/script/scripttest"
)

var lookup = game.Lookup(func(name string) (adjudicator.Ruleset, bool) {
	return dragonrage.Ruleset, name == "dragonrage"
})

// TestScripts plays every rule case under testdata/.
func TestScripts(t *testing.T) {
	scripttest.RunParallel(t, scripttest.Load(t, os.DirFS("testdata"), "."), lookup)
}
