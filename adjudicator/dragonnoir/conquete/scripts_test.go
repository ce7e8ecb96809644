package conquete_test

import (
	"os"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir/conquete"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/script"
	"github.com/umpire-pbem/umpire/adjudicator/script/scripttest"
)

var lookup = game.Lookup(func(name string) (adjudicator.Ruleset, bool) {
	switch name {
	case conquete.Name:
		return conquete.Ruleset, true
	case "dragonnoir":
		return dragonnoir.Ruleset, true
	}
	return nil, false
})

// TestScripts plays every rule case under testdata/, one directory a
// chapter, in parallel.
func TestScripts(t *testing.T) {
	scripttest.RunParallel(t, scripttest.Load(t, os.DirFS("testdata"), "."), lookup)
}

// playCase plays the rule case at file (under testdata/) and fails the
// test unless it holds.
func playCase(t *testing.T, file string) *script.Run {
	t.Helper()
	return scripttest.Play(t, os.DirFS("testdata"), file, lookup)
}
