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
				var b bytes.Buffer
				run.WriteText(&b)
				t.Errorf("%s:\n%s", s.File(), b.String())
			}
		})
	}
}

// playCase plays the rule case at file (under testdata/) and fails the
// test unless it holds.
func playCase(t *testing.T, file string) *script.Run {
	t.Helper()
	return scripttest.Play(t, os.DirFS("testdata"), file, lookup)
}
