package conquete_test

import (
	"bytes"
	"os"
	"path"
	"strings"
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

// needsSealing is what the engine says of a sealed event (adjudicator.Seal)
// or a Reveal while it cannot store them yet: a case whose play meets it
// is skipped, not failed, until the engine's sealed events land
// (TestScriptsWithoutTheEngine plays it meanwhile).
var needsSealing = []string{`unregistered event "` + adjudicator.TypeSecret + `"`, `unregistered event "` + adjudicator.TypeReveal + `"`}

// TestScripts plays every rule case under testdata/, one directory a
// chapter.
func TestScripts(t *testing.T) {
	scripts := scripttest.Load(t, os.DirFS("testdata"), ".")
	if len(scripts) == 0 {
		t.Fatal("no scripts found")
	}
	for _, s := range scripts {
		t.Run(strings.TrimSuffix(path.Base(s.File()), path.Ext(s.File())), func(t *testing.T) {
			run, err := script.Play(s, lookup, script.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !run.OK() {
				if sealedOnly(run) {
					t.Skipf("%s needs the engine's sealed events (adjudicator.Seal), not there yet", s.File())
				}
				var b bytes.Buffer
				run.WriteText(&b)
				t.Errorf("%s:\n%s", s.File(), b.String())
			}
		})
	}
}

// sealedOnly reports whether a run failed only because the engine does
// not take sealed events yet.
func sealedOnly(run *script.Run) bool {
	return len(run.Failures) > 0 && (strings.Contains(run.Failures[0], needsSealing[0]) || strings.Contains(run.Failures[0], needsSealing[1]))
}

// playCase plays the rule case at file (under testdata/) and fails the
// test unless it holds (skipping it while the engine cannot seal).
func playCase(t *testing.T, file string) *script.Run {
	t.Helper()
	src, err := os.ReadFile(path.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	s, err := script.Parse(path.Base(file), src)
	if err != nil {
		t.Fatal(err)
	}
	run, err := script.Play(s, lookup, script.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !run.OK() {
		if sealedOnly(run) {
			t.Skipf("%s needs the engine's sealed events", file)
		}
		t.Fatalf("%s fails: %v", file, run.Failures)
	}
	return run
}
