package scripttest

import (
	"cmp"
	"hash/fnv"
	"slices"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/script"
)

// FuzzOrders is a ruleset's orders fuzz target: it sends arbitrary bytes
// as a player's orders, through the envelope, to a real game — the
// position of one of cases (named by its file) just before one of its
// steps, with that step's side as the sender. The seeds are the cases'
// steps, two of each kind (the phase, and orders or an expected refusal).
// Whatever the bytes: no panic; a refusal is an order error with a code, a
// message and a line inside the text (CheckRefusal); accepted orders are
// recorded so that the log verifies and replays exactly.
func FuzzOrders(f *testing.F, cases []*script.Script, lookup game.Lookup) {
	byFile := map[string]*script.Script{}
	var names []string
	type seed struct {
		file   string
		step   uint8
		orders []byte
	}
	var seeds []seed
	for _, s := range cases {
		if len(s.Steps) == 0 {
			continue
		}
		byFile[s.File()] = s
		names = append(names, s.File())
		for k, st := range s.Steps {
			seeds = append(seeds, seed{s.File(), uint8(k), []byte(st.Orders)})
		}
	}
	if len(names) == 0 {
		f.Fatal("no rule cases")
	}
	slices.Sort(names)
	slices.SortStableFunc(seeds, func(a, b seed) int { return cmp.Compare(a.step, b.step) })
	kinds := map[string]int{}
	for _, sd := range seeds {
		st := byFile[sd.file].Steps[sd.step]
		phase := "?"
		if i := strings.Index(st.Orders, "phase:"); i >= 0 {
			phase = strings.Fields(st.Orders[i+len("phase:"):] + " ?")[0]
		}
		k := phase + "/" + st.ExpectError
		if kinds[k] < 2 {
			kinds[k]++
			f.Add(sd.file, sd.step, sd.orders)
		}
	}
	f.Fuzz(func(t *testing.T, file string, step uint8, orders []byte) {
		base := byFile[file]
		if base == nil { // a mutated name: any case, but always the same one
			h := fnv.New32a()
			h.Write([]byte(file))
			base = byFile[names[int(h.Sum32()%uint32(len(names)))]]
		}
		k := int(step) % len(base.Steps)
		s := *base
		s.Expect = nil
		s.Steps = append(append([]script.Step(nil), base.Steps[:k]...), script.Step{Side: base.Steps[k].Side, Orders: string(orders)})
		var opt script.Options
		// The case's own dice for the steps before, then plenty more for
		// whatever the orders start (d4, d6 and d10 all read 1 to 4).
		opt.Dice = append([]int(nil), base.Dice...)
		for i := range 3000 {
			opt.Dice = append(opt.Dice, 1+i*7%4)
		}
		run, err := script.Play(&s, lookup, opt)
		if err != nil {
			t.Fatalf("%s cannot be played: %v", base.File(), err)
		}
		if len(run.Steps) != k+1 {
			t.Fatalf("%s: the steps before step %d did not play as in the rule case: %v", base.File(), k+1, run.Failures)
		}
		if err := run.Steps[k].Err; err != nil {
			CheckRefusal(t, err, orders)
			return
		}
		for _, msg := range run.Failures {
			if strings.Contains(msg, "does not verify") || strings.Contains(msg, "does not replay") {
				t.Fatalf("accepted orders break the log: %s", msg)
			}
		}
	})
}
