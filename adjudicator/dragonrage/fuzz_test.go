package dragonrage_test

import (
	"cmp"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator/dragonrage"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/script"
	"github.com/umpire-pbem/umpire/adjudicator/script/scripttest"
)

// FuzzOrders sends arbitrary bytes as a player's orders, through the
// envelope, to a real game of Dragon Rage: the position of a rule case
// (named by its file) just before one of its steps, with that step's side
// as the sender, exactly as a mail is submitted once extracted. The seeds
// are steps of the rule cases, two of each kind (phase, orders given,
// error expected) from the shortest games, and the examples of
// docs/examples; the corpus Go finds is in testdata/fuzz/FuzzOrders.
//
// Whatever the bytes: no panic; a refusal is an OrderError or OrderErrors
// with a code, a message and a line inside the text; and accepted orders
// are recorded so that the log verifies and replays exactly (replay parses
// the stored text again and must reach the same state), with a normalised
// echo that reads back as the same Orders. (The echo itself is not orders a
// player could send: it is wrapped in place:, moves:, ... and adds what the
// engine worked out, such as a spell's cost.)
func FuzzOrders(f *testing.F) {
	cases := map[string]*script.Script{}
	var names []string
	var steps []seed
	for _, s := range scripttest.Load(f, os.DirFS("testdata"), ".") {
		if len(s.Steps) == 0 {
			continue
		}
		cases[s.File()] = s
		names = append(names, s.File())
		for k, st := range s.Steps {
			steps = append(steps, seed{s.File(), uint8(k), []byte(st.Orders)})
		}
	}
	if len(names) == 0 {
		f.Fatal("no rule cases")
	}
	// Every step of every case would be some 900 seeds, too slow for the
	// race detector's run of the seeds: keep two of each kind.
	slices.SortStableFunc(steps, func(a, b seed) int { return cmp.Compare(a.step, b.step) })
	kinds := map[string]int{}
	for _, sd := range steps {
		st := cases[sd.file].Steps[sd.step]
		if k := kindOf(st); kinds[k] < 2 {
			kinds[k]++
			f.Add(sd.file, sd.step, sd.orders)
		}
	}
	for _, e := range exampleSeeds(f, names, cases) {
		f.Add(e.file, e.step, e.orders)
	}

	f.Fuzz(func(t *testing.T, file string, step uint8, orders []byte) {
		base := cases[file]
		if base == nil { // a mutated name: any case, but always the same one
			h := fnv.New32a()
			h.Write([]byte(file))
			base = cases[names[int(h.Sum32()%uint32(len(names)))]]
		}
		k := int(step) % len(base.Steps)
		s := *base
		s.Expect = nil
		s.Steps = append(append([]script.Step(nil), base.Steps[:k]...), script.Step{Side: base.Steps[k].Side, Orders: string(orders)})
		var opt script.Options
		if base.Dice != nil {
			// The case's own dice for the steps before, then plenty more
			// (Dragon Rage rolls only d6) for whatever the orders start.
			opt.Dice = append([]int(nil), base.Dice...)
			for i := range 2000 {
				opt.Dice = append(opt.Dice, 1+i*5%6)
			}
		}
		run, err := script.Play(&s, lookup, opt)
		if err != nil {
			t.Fatalf("%s cannot be played: %v", base.File(), err)
		}
		if len(run.Steps) != k+1 {
			t.Fatalf("%s: the steps before step %d did not play as in the rule case: %v", base.File(), k+1, run.Failures)
		}
		if err := run.Steps[k].Err; err != nil {
			scripttest.CheckRefusal(t, err, orders)
			return
		}
		for _, msg := range run.Failures {
			if strings.Contains(msg, "does not verify") || strings.Contains(msg, "does not replay") {
				t.Fatalf("accepted orders break the log: %s", msg)
			}
		}
		checkEcho(t, run.Log)
	})
}

// checkEcho: the normalised orders of every accepted text (when the log
// shows them) decode strictly as Orders and encode back the same.
func checkEcho(t *testing.T, log []game.Entry) {
	t.Helper()
	for _, e := range log {
		if e.Type != game.TypeOrders {
			continue
		}
		var oa game.OrdersAccepted
		if err := json.Unmarshal(e.Payload, &oa); err != nil {
			t.Fatalf("event %d: %v", e.Seq, err)
		}
		if oa.Normalized == "" {
			continue // sealed until it may be read
		}
		dec := yaml.NewDecoder(strings.NewReader(oa.Normalized))
		dec.KnownFields(true)
		// Orders, but for the weighted scenario's build and side choice
		// (the point scenario's builds are sealed), unless conceded.
		var o any = new(dragonrage.Orders)
		switch {
		case strings.HasPrefix(oa.Normalized, "concede:"):
		case oa.Phase == "build":
			o = new(dragonrage.WeightedBuild)
		case oa.Phase == "choose":
			o = new(dragonrage.SideChoice)
		}
		if err := dec.Decode(o); err != nil {
			t.Fatalf("the echo of event %d does not read back: %v\n%s", e.Seq, err, oa.Normalized)
		}
		again, err := yaml.Marshal(o)
		if err != nil || string(again) != oa.Normalized {
			t.Fatalf("the echo of event %d changes when read back (%v):\n%s\nthen\n%s", e.Seq, err, oa.Normalized, again)
		}
	}
}

type seed struct {
	file   string
	step   uint8
	orders []byte
}

// exampleSeeds places each of docs/examples (the orders of the README's
// worked example, scenario N2) before the step of an N2 rule case that
// answers the same side, turn and phase.
func exampleSeeds(f *testing.F, names []string, cases map[string]*script.Script) []seed {
	paths, err := filepath.Glob("../../docs/examples/*.yaml")
	if err != nil || len(paths) == 0 {
		f.Fatalf("no examples in docs/examples (%v)", err)
	}
	var out []seed
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		want := dueOf(src)
		found := false
		for _, name := range names {
			s := cases[name]
			for k, st := range s.Steps {
				if !found && s.Scenario == "n2" && strings.Contains(filepath.Base(p), "-"+st.Side+"-") && dueOf([]byte(st.Orders)) == want {
					out = append(out, seed{name, uint8(k), src})
					found = true
				}
			}
		}
		if !found {
			f.Fatalf("no N2 rule case has a step like %s", p)
		}
	}
	return out
}

// kindOf sums up a step: its phase, the kinds of orders it gives (the
// first key of each), whether it sends orders ahead, and the error it
// expects.
func kindOf(st script.Step) string {
	var env struct {
		Phase  string    `yaml:"phase"`
		Orders yaml.Node `yaml:"orders"`
		Then   yaml.Node `yaml:"then"`
	}
	yaml.Unmarshal([]byte(st.Orders), &env)
	kinds := map[string]bool{}
	n := &env.Orders
	switch n.Kind {
	case yaml.SequenceNode:
		for _, it := range n.Content {
			if it.Kind == yaml.MappingNode && len(it.Content) > 0 {
				kinds[it.Content[0].Value] = true
			}
		}
	case yaml.MappingNode:
		for i := 0; i < len(n.Content); i += 2 {
			k := n.Content[i].Value
			if strings.Contains(k, "-") {
				k = "UNIT" // a unit id: placing units, answering a decision
			}
			kinds[k] = true
		}
	}
	return fmt.Sprint(env.Phase, slices.Sorted(maps.Keys(kinds)), env.Then.Kind != 0, st.ExpectError)
}

// dueOf returns the turn and phase an orders text names.
func dueOf(src []byte) string {
	var env struct {
		Turn  *int   `yaml:"turn"`
		Phase string `yaml:"phase"`
	}
	if yaml.Unmarshal(src, &env) != nil || env.Turn == nil {
		return ""
	}
	b, _ := json.Marshal(env)
	return string(b)
}
