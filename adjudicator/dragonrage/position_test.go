package dragonrage_test

import (
	"encoding/json"
	"os"
	"path"
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage"
	"github.com/umpire-pbem/umpire/adjudicator/script"
	"github.com/umpire-pbem/umpire/adjudicator/script/scripttest"
)

// stateJSON is a state's encoding without the traces of the adjudication
// that made it (a position does not carry them).
func stateJSON(t *testing.T, st adjudicator.State) string {
	t.Helper()
	c := dragonrage.Ruleset.Clone(st).(*dragonrage.State)
	c.Traces = nil
	for k := range c.Options {
		if strings.HasPrefix(k, "forces.") {
			delete(c.Options, k) // a scenario's options; a position lists its units
		}
	}
	if len(c.Options) == 0 {
		c.Options = nil
	}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func viewJSON(t *testing.T, v adjudicator.View, traces bool) string {
	t.Helper()
	if !traces {
		v.Traces = nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestPositionPlaysLastStep is the proof that a position reproduces the
// cases without playing up to them: for every rule case, the state reached
// before its last step is written as a position (WritePosition); the
// position sets up the very same state; and the last step played from the
// position, with the dice the full case rolled in it, gives the same
// outcome (the same refusal, or the same rolls, report and final view).
func TestPositionPlaysLastStep(t *testing.T) {
	scripts := scripttest.Load(t, os.DirFS("testdata"), ".")
	compared := map[string]int{} // chapter directory → cases compared
	for _, s := range scripts {
		if len(s.Steps) == 0 {
			continue
		}
		name := strings.TrimSuffix(s.File(), ".yaml")
		t.Run(name, func(t *testing.T) {
			for _, st := range s.Steps {
				if strings.Contains(st.Orders, "\nthen:") {
					t.Skip("orders sent ahead (then:) wait in the game, not in the rules' state: a position does not carry them")
				}
			}
			full, err := script.Play(s, lookup, script.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(full.Steps) < len(s.Steps) {
				t.Skip("the case stops before its last step")
			}
			prefix := *s
			prefix.Steps = s.Steps[:len(s.Steps)-1]
			prefix.Expect = nil
			before, err := script.Play(&prefix, lookup, script.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if before.Game.Over() {
				t.Skip("the game is over before the last step")
			}
			pos, err := dragonrage.WritePosition(before.Game.State)
			if err != nil {
				t.Fatal(err)
			}
			// A position lists its units: the options that chose a
			// scenario's forces are not given with it.
			opts := map[string]string{}
			for k, v := range s.Options {
				if !strings.HasPrefix(k, "forces.") {
					opts[k] = v
				}
			}
			// The position sets up the state it was written from.
			got, err := dragonrage.Ruleset.Setup(adjudicator.Setup{Position: pos, Options: opts})
			if err != nil {
				t.Fatalf("the written position is refused: %v\n%s", err, pos)
			}
			if a, b := stateJSON(t, before.Game.State), stateJSON(t, got); a != b {
				t.Fatalf("the position sets up another state:\nwritten from %s\nset up      %s\nposition:\n%s", a, b, pos)
			}
			// The last step alone, from the position.
			last := full.Steps[len(full.Steps)-1]
			faces := []int{}
			for _, res := range last.Results {
				for _, r := range res.RollsFor(adjudicator.Referee) {
					faces = append(faces, r.Faces...)
				}
			}
			var node yaml.Node
			if err := yaml.Unmarshal(pos, &node); err != nil {
				t.Fatal(err)
			}
			one := &script.Script{Name: s.Name, Ruleset: s.Ruleset, Position: *node.Content[0], Options: opts,
				Players: s.Players, Dice: faces, Steps: s.Steps[len(s.Steps)-1:]}
			after, err := script.Play(one, lookup, script.Options{})
			if err != nil {
				t.Fatalf("%v\nposition:\n%s", err, pos)
			}
			step := after.Steps[0]
			if (step.Err == nil) != (last.Err == nil) || (step.Err != nil && step.Err.Error() != last.Err.Error()) {
				t.Fatalf("the last step: %v from the position, %v in the full case", step.Err, last.Err)
			}
			if a, b := strings.Join(after.Rolls(), "\n"), strings.Join(rollsOf(last), "\n"); a != b {
				t.Errorf("rolls from the position:\n%s\nin the full case:\n%s", a, b)
			}
			if a, b := strings.Join(after.Report(), "\n"), strings.Join(reportOf(last), "\n"); a != b {
				t.Errorf("report from the position:\n%s\nin the full case:\n%s", a, b)
			}
			if a, b := viewJSON(t, after.View, last.Err == nil), viewJSON(t, full.View, last.Err == nil); a != b {
				t.Errorf("final view from the position:\n%s\nin the full case:\n%s", a, b)
			}
			if a, b := dueIDs(after), dueIDs(full); !reflect.DeepEqual(a, b) {
				t.Errorf("due from the position %v, in the full case %v", a, b)
			}
			if !t.Failed() {
				compared[path.Dir(s.File())]++
			}
		})
	}
	// At least the chapters the issue names: combat, magic, walls and gates.
	for _, dir := range []string{"core/combat", "magic", "core/walls"} {
		if compared[dir] == 0 {
			t.Errorf("no case of %s was played again from its position", dir)
		}
	}
	t.Logf("cases played again from a position, by chapter: %v", compared)
}

func rollsOf(s script.StepRun) []string {
	var out []string
	for _, res := range s.Results {
		for _, r := range res.RollsFor(adjudicator.Referee) {
			out = append(out, r.String())
		}
	}
	return out
}

func reportOf(s script.StepRun) []string {
	var out []string
	for _, res := range s.Results {
		out = append(out, adjudicator.Texts(res.ReportFor(adjudicator.Referee))...)
	}
	return out
}

func dueIDs(r *script.Run) []string {
	var out []string
	for _, d := range r.Game.Due() {
		out = append(out, d.ID+" "+string(d.Side))
	}
	return out
}
