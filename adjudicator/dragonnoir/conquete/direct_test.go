package conquete_test

import (
	"fmt"
	"maps"
	"os"
	"path"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir/conquete"
	"github.com/umpire-pbem/umpire/adjudicator/script"
	"github.com/umpire-pbem/umpire/adjudicator/script/scripttest"
)

// direct is a game played through the ruleset alone, without the engine:
// Setup, Due, ParseOrders, then Decide on a Resolution once every request
// of an asking is answered. It stands in for the engine's play of the
// rule cases that emit sealed events until the engine takes them
// (TestScripts skips those); it checks what a case expects of the view,
// the requests due and the report, and every line's audience with it.
type direct struct {
	st      adjudicator.State
	roller  adjudicator.Roller
	pending []adjudicator.Submission
	lines   []adjudicator.Line
	rolls   []*adjudicator.Roll
	events  []adjudicator.Event
}

func playDirect(t *testing.T, s *script.Script) (*direct, []string) {
	t.Helper()
	var fails []string
	failf := func(format string, args ...any) { fails = append(fails, fmt.Sprintf(format, args...)) }
	setup := adjudicator.Setup{Scenario: s.Scenario, Options: s.Options, Sides: []adjudicator.Side{conquete.Rebels, conquete.Reptilians}}
	if s.Position.Kind == yaml.ScalarNode {
		setup.Position = []byte(s.Position.Value)
	}
	st, err := conquete.Ruleset.Setup(setup)
	if err != nil {
		t.Fatalf("setup: %v", err)
	}
	g := &direct{st: st, roller: &dice.Script{Faces: slices.Clone(s.Dice)}}
	for i, step := range s.Steps {
		var env struct {
			Turn   int       `yaml:"turn"`
			Phase  string    `yaml:"phase"`
			Orders yaml.Node `yaml:"orders"`
		}
		if err := yaml.Unmarshal([]byte(step.Orders), &env); err != nil {
			t.Fatalf("step %d: %v", i+1, err)
		}
		var req *adjudicator.Request
		for _, r := range conquete.Ruleset.Due(g.st) {
			if string(r.Side) == step.Side && r.Phase == env.Phase && r.Turn == env.Turn {
				req = &r
			}
		}
		if req == nil {
			if step.ExpectError == "" {
				failf("step %d (%s): nothing due for turn %d, phase %s", i+1, step.Side, env.Turn, env.Phase)
				break
			}
			continue
		}
		o, err := conquete.Ruleset.ParseOrders(g.st, *req, &env.Orders)
		if err != nil {
			if step.ExpectError == "" {
				failf("step %d (%s) was refused: %v", i+1, step.Side, err)
				break
			}
			if !strings.Contains(codes(err), step.ExpectError) {
				failf("step %d was refused with %v, expected %s", i+1, err, step.ExpectError)
			}
			if step.ExpectHas != "" && !strings.Contains(err.Error(), step.ExpectHas) {
				failf("step %d: the refusal %q does not say %q", i+1, err, step.ExpectHas)
			}
			continue
		}
		if step.ExpectError != "" {
			failf("step %d was accepted, but should be refused with %s", i+1, step.ExpectError)
		}
		g.pending = append(g.pending, adjudicator.Submission{Request: *req, Side: req.Side, Orders: o})
		if len(g.pending) < len(conquete.Ruleset.Due(g.st)) {
			continue
		}
		r := adjudicator.NewResolution(conquete.Ruleset, conquete.Ruleset.Clone(g.st), g.roller)
		if err := conquete.Ruleset.Decide(r, g.pending); err != nil {
			failf("step %d: %v", i+1, err)
			break
		}
		g.st, g.pending = r.State(), nil
		g.lines = append(g.lines, r.Report()...)
		g.rolls = append(g.rolls, r.Rolls()...)
		g.events = append(g.events, r.Events()...)
	}
	x := s.Expect
	if x == nil {
		return g, fails
	}
	v := conquete.Ruleset.View(g.st, adjudicator.Referee)
	if x.Turn != nil && v.Turn != *x.Turn {
		failf("turn %d, expected %d", v.Turn, *x.Turn)
	}
	if x.Phase != "" && v.Phase != x.Phase {
		failf("phase %q, expected %q", v.Phase, x.Phase)
	}
	units := map[string]adjudicator.UnitView{}
	for _, u := range v.Units {
		units[u.ID] = u
	}
	for _, id := range slices.Sorted(maps.Keys(x.Units)) {
		u, ok := units[id]
		switch want := x.Units[id]; {
		case !ok:
			failf("no unit %s", id)
		case want == "gone" && !u.Gone, want != "gone" && u.At != want:
			failf("unit %s at %q (gone %v), expected %s", id, u.At, u.Gone, want)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(x.Status)) {
		if got := strings.Join(units[id].Status, ","); got != x.Status[id] {
			failf("unit %s has status %q, expected %q", id, got, x.Status[id])
		}
	}
	for _, k := range slices.Sorted(maps.Keys(x.Markers)) {
		if got := fmt.Sprint(v.Markers[k]); got != x.Markers[k] {
			failf("marker %s is %q, expected %q", k, got, x.Markers[k])
		}
	}
	if x.Due != nil {
		var got []string
		for _, r := range conquete.Ruleset.Due(g.st) {
			got = append(got, string(r.Side))
		}
		if strings.Join(got, ",") != strings.Join(x.Due, ",") {
			failf("due from %v, expected %v", got, x.Due)
		}
	}
	report := strings.Join(adjudicator.Texts(g.lines), "\n")
	for _, want := range x.ReportHas {
		if !strings.Contains(report, want) {
			failf("the report does not say %q:\n%s", want, report)
		}
	}
	if x.Over != nil && v.Over != *x.Over {
		failf("over %v", v.Over)
	}
	if x.Winner != nil && string(v.Winner) != *x.Winner {
		failf("winner %q, expected %q", v.Winner, *x.Winner)
	}
	if x.Result != "" && !strings.Contains(v.Result, x.Result) {
		failf("result %q, expected it to say %q", v.Result, x.Result)
	}
	if x.Rolls != nil {
		var got []string
		for _, r := range g.rolls {
			got = append(got, r.String())
		}
		if !slices.Equal(got, x.Rolls) {
			failf("rolls %q, expected %q", got, x.Rolls)
		}
	}
	return g, fails
}

func codes(err error) string {
	var out []string
	switch e := err.(type) {
	case *adjudicator.OrderError:
		out = append(out, e.Code)
	case adjudicator.OrderErrors:
		for _, x := range e {
			out = append(out, x.Code)
		}
	}
	return strings.Join(out, " ")
}

// TestScriptsWithoutTheEngine plays every rule case through the ruleset
// alone (direct), so that the cases TestScripts must skip while the
// engine cannot store sealed events are checked all the same.
func TestScriptsWithoutTheEngine(t *testing.T) {
	for _, s := range scripttest.Load(t, os.DirFS("testdata"), ".") {
		t.Run(strings.TrimSuffix(path.Base(s.File()), path.Ext(s.File())), func(t *testing.T) {
			_, fails := playDirect(t, s)
			for _, f := range fails {
				t.Error(f)
			}
		})
	}
}

// loadCase reads a rule case under testdata/.
func loadCase(t *testing.T, file string) *script.Script {
	t.Helper()
	src, err := os.ReadFile(path.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	s, err := script.Parse(path.Base(file), src)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
