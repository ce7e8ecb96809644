package dragonrage_test

import (
	"fmt"
	"maps"
	"os"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage"
	"github.com/umpire-pbem/umpire/adjudicator/script"
)

// TestWholeGames checks what the set of whole games under testdata/games
// must cover: every playable scenario has one, and so do the point
// scenarios; each is played from its first orders (the setup, or in a
// point scenario the armies' build) to a victory condition — never to a
// concession. (TestScripts plays them too, with their expectations,
// Verify and Replay.)
//
// One game among the four point scenarios (points-esirien, points-nurkott,
// weighted-esirien, weighted-nurkott) is enough: what they add to the
// fixed scenarios all comes before the setup — the builds, the reveal that
// creates and numbers the units, the counters left in the box, the goal of
// DR-THR-1 — and the four share it but for the weighted build and side
// choice, which testdata/points plays from the build to turn 1 on each map.
// After the setup a point game is played by the same rules as the fixed
// scenarios, whose twelve games cover both maps. What only a whole point
// game shows is an army the fixed scenarios never field (a Roc, a wyvern)
// played out to the end.
func TestWholeGames(t *testing.T) {
	d, err := dragonrage.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	pts, err := dragonrage.Points()
	if err != nil {
		t.Fatal(err)
	}
	pointIDs := map[string]bool{}
	for _, sc := range pts.Scenarios {
		pointIDs[sc.ID] = true
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
		first := "setup"
		if pointIDs[s.Scenario] {
			first = "build"
		}
		if len(s.Steps) == 0 || stepPhase(s.Steps[0]) != first {
			t.Errorf("%s: a whole game of %s starts with the %s orders (turn: 0, phase: %s)", file, s.Scenario, first, first)
		}
		if why := notAVictory(v); why != "" {
			t.Errorf("%s: %s", file, why)
		}
		played[s.Scenario] = append(played[s.Scenario], file)
		t.Logf("%s (%s): turn %d, %s", file, s.Scenario, v.Turn, v.Result)
	}
	for _, sc := range d.Scenarios {
		if sc.IsPlayable() && len(played[sc.ID]) == 0 {
			t.Errorf("scenario %s (%s) is playable but testdata/games has no whole game of it", sc.ID, sc.Title)
		}
	}
	var pointGames []string
	for id := range pointIDs {
		pointGames = append(pointGames, played[id]...)
	}
	if len(pointGames) == 0 {
		t.Errorf("testdata/games has no whole game of a point scenario (any one of %s)", strings.Join(slices.Sorted(maps.Keys(pointIDs)), ", "))
	}
}

// stepPhase is the phase a step's orders are for, as the envelope says.
func stepPhase(st script.Step) string {
	var env struct {
		Phase string `yaml:"phase"`
	}
	if err := yaml.Unmarshal([]byte(st.Orders), &env); err != nil {
		return ""
	}
	return env.Phase
}

// winRule finds the victory rule a game's result cites.
var winRule = regexp.MustCompile(`\((DR-WIN-\d+)\)`)

// victories are the victory conditions of §4 and the side each makes the
// winner; DR-WIN-1, the concession, is not one of them.
var victories = map[string]adjudicator.Side{
	"DR-WIN-2": dragonrage.Defender, // every invader dead
	"DR-WIN-3": dragonrage.Defender, // ten turns without a VP hex destroyed
	"DR-WIN-4": dragonrage.Defender, // ten turns without an invader inside the walls
	"DR-WIN-5": dragonrage.Invader,  // the goal reached
}

// notAVictory says why a finished game did not end by a victory condition
// won by the side that condition names, or "".
func notAVictory(v adjudicator.View) string {
	m := winRule.FindStringSubmatch(v.Result)
	if m == nil {
		return fmt.Sprintf("the result cites no victory rule: %q", v.Result)
	}
	side, ok := victories[m[1]]
	switch {
	case m[1] == "DR-WIN-1" || strings.Contains(v.Result, "concedes"):
		return fmt.Sprintf("the game ends by a concession, not a victory condition: %q", v.Result)
	case !ok:
		return fmt.Sprintf("the result cites %s, which is not a victory condition: %q", m[1], v.Result)
	case v.Winner != side:
		return fmt.Sprintf("%s makes the %s the winner, but the game names %q: %q", m[1], side, v.Winner, v.Result)
	}
	return ""
}

// TestNotAVictory checks the check TestWholeGames makes of each result.
func TestNotAVictory(t *testing.T) {
	for _, c := range []struct {
		winner adjudicator.Side
		result string
		ok     bool
	}{
		{dragonrage.Defender, "the defender wins: every invader is dead (DR-WIN-2); 5 VP: the title table grades a defeat of the invader, Plucked Chicken", true},
		{dragonrage.Defender, "the defender wins: ten turns without a VP hex destroyed (the last in turn 0) (DR-WIN-3)", true},
		{dragonrage.Defender, "the defender wins: ten turns without an invader inside the walls (the last in turn 0) (DR-WIN-4)", true},
		{dragonrage.Invader, "the invader wins with 19 VP against a goal of 19 (DR-WIN-5); 19 VP: great invader victory, Death from the Sky", true},
		{dragonrage.Defender, "the invader concedes (DR-WIN-1); 3 VP: the title table grades a defeat of the invader, Plucked Chicken", false},
		{dragonrage.Invader, "the defender concedes (DR-WIN-1)", false},
		{dragonrage.Defender, "the invader wins with 19 VP against a goal of 19 (DR-WIN-5)", false},
		{dragonrage.Invader, "the game ended", false},
		{dragonrage.Invader, "the invader wins (DR-WIN-6)", false},
	} {
		why := notAVictory(adjudicator.View{Over: true, Winner: c.winner, Result: c.result})
		if (why == "") != c.ok {
			t.Errorf("%s, %q: got %q, want a victory: %v", c.winner, c.result, why, c.ok)
		}
	}
}
