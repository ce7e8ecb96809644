package dragonnoir_test

import (
	"os"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/script"
	"github.com/umpire-pbem/umpire/adjudicator/script/scripttest"
)

func lookup(name string) (adjudicator.Ruleset, bool) {
	return dragonnoir.Ruleset, name == "dragonnoir"
}

// TestScripts plays every rule case under testdata/, one directory a
// chapter (testdata/turn, testdata/move, testdata/combat …), in parallel.
func TestScripts(t *testing.T) {
	scripttest.RunParallel(t, scripttest.Load(t, os.DirFS("testdata"), "."), lookup)
}

// playCase plays the rule case at path and fails the test unless it holds.
func playCase(t *testing.T, path string, l game.Lookup) *script.Run {
	t.Helper()
	return scripttest.Play(t, os.DirFS("."), path, l)
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// playText plays a case given as text, which must hold.
func playText(t *testing.T, src string, l func(string) (adjudicator.Ruleset, bool)) *script.Run {
	t.Helper()
	return scripttest.PlayText(t, "case.yaml", []byte(src), l)
}

// allLines are every report line and roll of a run, as the referee reads
// them.
func allLines(run *script.Run) []string {
	var out []string
	for _, st := range run.Steps {
		for _, r := range st.Results {
			for _, l := range r.Full {
				out = append(out, l.Text)
			}
			for _, r := range r.AllRolls {
				out = append(out, r.String())
			}
		}
	}
	return out
}
