package dragonrage_test

import (
	"os"
	"path"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/dragonrage"
	"github.com/umpire-pbem/umpire/adjudicator/script"
)

// TestWholeGames checks that every playable scenario has a whole game under
// testdata/games, played from the setup to an end, and that Nurkott 2 ends
// by a victory condition rather than a concession. (TestScripts plays them
// too, with their expectations, Verify and Replay; this test checks what
// the set of games must cover.)
func TestWholeGames(t *testing.T) {
	d, err := dragonrage.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir("testdata/games")
	if err != nil {
		t.Fatal(err)
	}
	played := map[string][]string{}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".yaml") {
			continue
		}
		file := path.Join("testdata/games", e.Name())
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		s, err := script.Parse(file, src)
		if err != nil {
			t.Fatal(err)
		}
		run, err := script.Play(s, lookup, script.Options{})
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if !run.OK() {
			t.Errorf("%s: %s", file, strings.Join(run.Failures, "; "))
		}
		v := run.View
		if !v.Over {
			t.Errorf("%s: the game does not reach an end (turn %d, %s)", file, v.Turn, v.Phase)
			continue
		}
		if len(run.Steps) == 0 || !strings.Contains(run.Steps[0].Step.Orders, "phase: setup") {
			t.Errorf("%s: a whole game starts with the setup orders", file)
		}
		if s.Scenario == "n2" && strings.Contains(v.Result, "concedes") {
			t.Errorf("%s: Nurkott 2 must end by a victory condition, not a concession: %s", file, v.Result)
		}
		played[s.Scenario] = append(played[s.Scenario], file)
		t.Logf("%s (%s): turn %d, %s", file, s.Scenario, v.Turn, v.Result)
	}
	for _, sc := range d.Scenarios {
		if sc.IsPlayable() && len(played[sc.ID]) == 0 {
			t.Errorf("scenario %s (%s) is playable but testdata/games has no whole game of it", sc.ID, sc.Title)
		}
	}
}
