package referee

import (
	"crypto/rand"
	"os"
	"slices"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/rulesets"
)

// TestTracesSince: the invader sends a whole turn in one mail (movement,
// then melee under "then:"); one submission makes several adjudications,
// and the picture's traces are those of every one of them, numbered by
// the adjudication, the moves of the first before the attacks of the last.
// The game's own view keeps only the last adjudication's.
func TestTracesSince(t *testing.T) {
	var script struct {
		Steps []struct {
			Side   adjudicator.Side
			Orders string
		}
	}
	src, err := os.ReadFile("../../adjudicator/dragonrage/testdata/ahead/whole-turn-in-one-mail.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(src, &script); err != nil {
		t.Fatal(err)
	}
	rs, ok := rulesets.Lookup("dragonrage")
	if !ok {
		t.Fatal("no dragonrage ruleset")
	}
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	secret := make([]byte, 32)
	rec, _, err := game.Create(game.NewGame{ID: "ahead", Ruleset: rs, Scenario: "n2", Time: now, Secret: secret,
		Players: []game.Player{{Side: "invader"}, {Side: "defender"}}})
	if err != nil {
		t.Fatal(err)
	}
	g, err := game.Load([]game.Entry{{Seq: 1, Record: rec}}, rulesets.Lookup)
	if err != nil {
		t.Fatal(err)
	}
	var before *game.Game
	var out *game.Outcome
	for _, s := range script.Steps {
		before = g
		out, err = g.Submit(game.Input{Side: s.Side, Src: []byte(s.Orders), Time: now,
			Secrets: func(int) ([]byte, error) { return secret, nil }, NextSecret: secret, Rand: rand.Reader})
		if err != nil {
			t.Fatalf("%s: %v", s.Side, err)
		}
		g = out.Next
	}
	if len(out.Results) < 2 {
		t.Fatalf("the last mail made %d adjudications; the test needs several", len(out.Results))
	}
	traces := tracesSince(before, out.Records, "invader")
	var steps []int
	moves := 0
	for _, tr := range traces {
		if len(steps) == 0 || steps[len(steps)-1] != tr.Step {
			steps = append(steps, tr.Step)
		}
		if tr.Kind == "move" && tr.Step == out.Results[0].K {
			moves++
		}
	}
	if moves != 8 {
		t.Errorf("%d moves of adjudication %d drawn, want the invader's 8", moves, out.Results[0].K)
	}
	if !slices.IsSorted(steps) || steps[0] != out.Results[0].K || steps[len(steps)-1] != out.Results[len(out.Results)-1].K {
		t.Errorf("traces numbered %v, want adjudications %d to %d in order", steps, out.Results[0].K, out.Results[len(out.Results)-1].K)
	}
	for _, tr := range g.View("invader").Traces {
		if tr.Kind == "move" {
			t.Errorf("the game's view still shows a move of an earlier adjudication: %+v", tr)
		}
	}
	if got := tracesSince(before, out.Records[:1], "invader"); got != nil {
		t.Errorf("records without two adjudications give traces %v, want nil (the view's own)", got)
	}
}
