package dragonrage_test

import (
	"encoding/json"
	"os"
	"path"
	"reflect"
	"strconv"
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

// TestPositionErrors: every value of a position is checked, with its line.
func TestPositionErrors(t *testing.T) {
	const base = `map: {cols: 10, rows: 8}
goal: 10
turn: 2
phase: invader-movement
units:
  - {id: INF-1, type: INF, side: defender, at: "0505"}
  - {id: ORC-1, type: ORC, side: invader, at: "0304"}
`
	ok, err := dragonrage.Ruleset.Setup(adjudicator.Setup{Position: []byte(base)})
	if err != nil {
		t.Fatalf("the base position is refused: %v", err)
	}
	if v := dragonrage.Ruleset.View(ok, adjudicator.Referee); v.Map != "open-10x8" || v.Turn != 2 || len(v.Units) != 2 {
		t.Fatalf("the base position set up %+v", v)
	}
	cases := []struct {
		name, extra string
		opts        map[string]string
		line        int
		has         string
	}{
		{"bad hex", `  - {id: HERO-1, type: HERO, side: invader, at: "1299"}`, nil, 8, "not on the map"},
		{"not a hex", `  - {id: HERO-1, type: HERO, side: invader, at: "over there"}`, nil, 8, "is not a hex"},
		{"unknown type", `  - {id: ELF-1, type: ELF, side: invader, at: "0101"}`, nil, 8, `unknown counter type "ELF"`},
		{"major monster without facing", `  - {id: DRAGON-1, type: DRAGON, side: invader, at: "0101"}`, nil, 8, `DRAGON-1 needs "facing:"`},
		{"bad facing", `  - {id: DRAGON-1, type: DRAGON, side: invader, at: "0101", facing: E}`, nil, 8, `"E" is not a facing`},
		{"sheet too damaged", `  - {id: DRAGON-1, type: DRAGON, side: invader, at: "0101", facing: S, sheet: {wings: 13}}`, nil, 8, "wings has 12 hit points, not 13"},
		{"no such area", `  - {id: WYVERN-1, type: WYVERN, side: invader, at: "0101", facing: S, sheet: {wings: 1}}`, nil, 8, "a wyvern has no wings"},
		{"flying on broken wings", `  - {id: DRAGON-1, type: DRAGON, side: invader, at: "0101", facing: S, flying: true, sheet: {wings: 6}}`, nil, 8, "cannot be flying"},
		{"dead but on the map", `  - {id: DRAGON-1, type: DRAGON, side: invader, at: "0101", facing: S, sheet: {belly: 6}}`, nil, 8, "belly is destroyed"},
		{"third breath", `  - {id: DRAGON-1, type: DRAGON, side: invader, at: "0101", facing: S, breaths-used: 3}`, nil, 8, "breathes 2 times a game"},
		{"stacking", `  - {id: ORC-2, type: ORC, side: invader, at: "0304"}`, nil, 8, "both troops or monsters"},
		{"enemies in a hex", `  - {id: HERO-1, type: HERO, side: invader, at: "0505"}`, nil, 8, "enemy units may not share a hex"},
		{"id twice", `  - {id: ORC-1, type: ORC, side: invader, at: "0306"}`, nil, 8, "given twice (first at line 7)"},
		{"lower-case id", `  - {id: orc-2, type: ORC, side: invader, at: "0306"}`, nil, 8, "write it in capitals"},
		{"bad side", `  - {id: ORC-2, type: ORC, side: orcs, at: "0306"}`, nil, 8, "side is invader or defender"},
		{"no at", `  - {id: ORC-2, type: ORC, side: invader}`, nil, 8, `needs "at:"`},
		{"wounded troop", `  - {id: ORC-2, type: ORC, side: invader, at: "0306", wounded: true}`, nil, 8, "only heroes, wizards and Elowyn are wounded"},
		{"too much damage", `  - {id: GIANT-1, type: GIANT, side: invader, at: "0306", damage: 10}`, nil, 8, "0 to 9 for a giant"},
		{"SP of a hero", `  - {id: HERO-1, type: HERO, side: invader, at: "0306", sp: 3}`, nil, 8, "only wizards have spell points"},
		{"SP too high", `  - {id: WZD-1, type: WZD, side: invader, at: "0306", sp: 11}`, nil, 8, "0 to 10 SP"},
		{"facing", `  - {id: ORC-2, type: ORC, side: invader, at: "0306", facing: N}`, nil, 8, "only major monsters have facing:"},
		{"pool of the invader", `  - {id: ORC-2, type: ORC, side: invader, at: pool}`, nil, 8, "wait in the box"},
		{"Elowyn without the option", `  - {id: ELW-1, type: ELW, side: defender, at: "0808"}`, nil, 8, "elowyn=on"},
		{"phase", "phase: lunch", nil, 8, `no phase "lunch"`},
		{"end of turn", "phase: end-of-turn", nil, 8, "automatic"},
		{"clock", "last-damage: 5", nil, 8, "last-damage is a turn from 0"},
		{"box too big", "box: {INF: 13}", nil, 8, "the counter mix has 12 INF"},
		{"vp hex", `vp-destroyed: {"0505": 3}`, nil, 8, "a destroyed VP hex"},
		{"entrance", `entrances: {"0505/0506": {broken: true, controller: invader}}`, nil, 8, "no gate, door"},
		{"bridge", `bridges: {"0505": burned}`, nil, 8, "no bridge in 0505"},
		{"fog wizard", `fog: [{hex: "0505", wizard: WZD-9}]`, nil, 8, "no unit WZD-9"},
		{"whirlwind age", "whirlwinds: [{hex: \"0505\", wizard: ORC-1, age: 3}]", nil, 8, "ORC-1 is a ORC, not a WZD"},
		{"forces option", "", map[string]string{"forces.invader.ORC": "3"}, 0, "a position lists its units"},
		{"unknown key", "weather: rain", nil, 8, "weather"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := base + c.extra + "\n"
			if strings.HasPrefix(c.extra, "phase:") {
				src = strings.Replace(base, "phase: invader-movement\n", "", 1) + c.extra + "\n"
				c.line = 7
			}
			_, err := dragonrage.Ruleset.Setup(adjudicator.Setup{Position: []byte(src), Options: c.opts})
			if err == nil {
				t.Fatalf("accepted:\n%s", src)
			}
			if !strings.Contains(err.Error(), c.has) {
				t.Errorf("the error %q lacks %q", err, c.has)
			}
			if c.line > 0 && !strings.Contains(err.Error(), "line "+strconv.Itoa(c.line)+",") {
				t.Errorf("the error %q is not at line %d", err, c.line)
			}
		})
	}
}

// TestPositionOnTheBoard: a position on Esirien with the markers the rules
// leave on the board, and a unit the box numbers on.
func TestPositionOnTheBoard(t *testing.T) {
	src := `scenario: e2
turn: 10
phase: defender-reinforcements
vp: 3
last-damage: 9
reinforcements-waiting: 2
units:
  - {id: HERO-1, type: HERO, side: defender, at: "1910", wounded: true}
  - {id: WZD-1, type: WZD, side: defender, at: "1810", sp: 4}
  - {id: INF-1, type: INF, side: defender, at: gone}
  - {id: ORC-1, type: ORC, side: invader, at: "0605"}
box: {INF: 3, MIL: 1}
entrances: {"0606/0707": {broken: true, controller: invader}}
fog: [{hex: "1210", wizard: WZD-1}]
`
	st, err := dragonrage.Ruleset.Setup(adjudicator.Setup{Position: []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	v := dragonrage.Ruleset.View(st, adjudicator.Referee)
	if v.Map != "esirien" || v.Turn != 10 || v.Score[dragonrage.Invader] != 3 || v.Markers["reinforcements-waiting"] != 2 || v.Markers["last-damage"] != 9 {
		t.Errorf("view %+v", v)
	}
	var marks []string
	for _, h := range v.Hexes {
		marks = append(marks, h.Kind+" "+h.At)
	}
	if got := strings.Join(marks, ", "); got != "broken 0606/0707, fog 1210" {
		t.Errorf("hex marks: %s", got)
	}
	pool := 0
	for _, u := range st.(*dragonrage.State).Units {
		if u.Pool {
			pool++
			if u.ID != "INF-2" && u.ID != "INF-3" && u.ID != "INF-4" && u.ID != "MIL-1" {
				t.Errorf("box counter %s", u.ID)
			}
		}
	}
	if pool != 4 {
		t.Errorf("%d counters in the box, want 4", pool)
	}
	if due := dragonrage.Ruleset.Due(st); len(due) != 1 || due[0].Side != dragonrage.Defender || due[0].Phase != "reinforcements" {
		t.Errorf("due %+v", due)
	}
}

// TestPositionExpectationsFail: the expectations on hex marks, damage and
// status entries fail when the position is not what they say.
func TestPositionExpectationsFail(t *testing.T) {
	src, err := os.ReadFile("testdata/positions/through-a-broken-gate.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := script.Parse("x.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	s.Expect.Hexes = map[string][]string{"broken": {"2113/2212"}, "vp-destroyed": {"1108 3"}}
	s.Expect.Damage = map[string]string{"GIANT-1": "body 3/10", "ORC-1": "body 1/1"}
	s.Expect.StatusHas = map[string][]string{"WZD-1": {"SP 10"}, "HERO-1": {"wounded"}}
	run, err := script.Play(s, lookup, script.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`hex marks broken are ["0606/0707"], expected ["2113/2212"]`,
		`hex marks vp-destroyed are [], expected ["1108 3"]`,
		`unit GIANT-1 has damage "body 7/10", expected "body 3/10"`,
		`unit ORC-1 has damage "", expected "body 1/1"`,
		`unit WZD-1 has status "SP 4", which lacks "SP 10"`,
	}
	if got := strings.Join(run.Failures, "\n"); got != strings.Join(want, "\n") {
		t.Errorf("failures:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
}
