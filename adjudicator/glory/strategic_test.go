package glory

import (
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// demoWith is the demo module with text appended to some of its files.
func demoWith(t *testing.T, extra map[string]string) adjudicator.Module {
	t.Helper()
	m, ok := ruleset{}.BuiltinModule("demo")
	if !ok {
		t.Fatal("no demo module")
	}
	files := map[string][]byte{}
	for p, b := range m.Files {
		files[p] = append([]byte(nil), b...)
	}
	for p, s := range extra {
		files[p] = append(files[p], []byte(s)...)
	}
	return adjudicator.Module{Name: "demo-test", Files: files}
}

// TestErrataCarried: the module format carries the counter errata's values
// (DG-ERRATA-1 to -5), and a counter that names an erratum with the blank
// or wrong printed values is refused, saying what the erratum reads.
func TestErrataCarried(t *testing.T) {
	good := `
- {id: silvanesti-leader, title: "Silvanesti leader", side: whitestone, type: leader, race: elf, full: {strength: 3, mp: 12}, errata: DG-ERRATA-2, source: user}
- {id: elf-fleet, title: "Elven fleet", side: whitestone, type: fleet, race: elf, full: {strength: 4, mp: 50}, half: {strength: 2, mp: 50}, count: 4, errata: DG-ERRATA-3, source: user}
- {id: elf-army, title: "Elf army", side: whitestone, type: infantry, race: elf, full: {strength: 6, mp: 5}, half: {strength: 3, mp: 5}, count: 5, errata: DG-ERRATA-4, source: user}
`
	d, err := parseModule(demoWith(t, map[string]string{"counters.yaml": good}))
	if err != nil {
		t.Fatalf("the errata values are refused: %v", err)
	}
	st := newState(d, Rules{})
	u := st.Units["elf-army-2"]
	u.Reduced = true
	if f := st.Face(u); f != (Face{Strength: 3, MP: 5}) {
		t.Fatalf("a reduced elf army reads %+v, want the errata's 3 and 5 MP", f)
	}
	if f := st.Face(&Unit{ID: "elf-fleet-1", Reduced: true}); f != (Face{Strength: 2, MP: 50}) {
		t.Fatalf("a damaged errata fleet reads %+v, want 2 and 50 MP", f)
	}
	for _, c := range []struct{ line, want string }{
		{`- {id: bad-elf, side: whitestone, type: infantry, race: elf, full: {strength: 6, mp: 5}, half: {strength: 0, mp: 0}, errata: DG-ERRATA-4, source: user}`, "its back reads strength 0, 0 MP"},
		{`- {id: bad-fleet, side: whitestone, type: infantry, race: human, full: {strength: 4, mp: 5}, half: {strength: 2, mp: 50}, errata: DG-ERRATA-3, source: user}`, "this counter is of type infantry"},
		{`- {id: bad-leader, side: highlord, type: leader, race: elf, full: {strength: 3, mp: 12}, errata: DG-ERRATA-2, source: user}`, "side is highlord"},
		{`- {id: bad-name, side: whitestone, type: leader, race: elf, full: {strength: 3, mp: 12}, errata: DG-ERRATA-9, source: user}`, "the counter errata are DG-ERRATA-2"},
	} {
		_, err := parseModule(demoWith(t, map[string]string{"counters.yaml": "\n" + c.line + "\n"}))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.line, err, c.want)
		}
	}
}

// TestScenarioTempleSite: a scenario's Dark Temple at setup must be in a
// fortress or fortified city of a nation allied to the Highlord
// (DG-SETUP-5).
func TestScenarioTempleSite(t *testing.T) {
	for temple, want := range map[string]string{
		"1904": "not a fortress or fortified city",
		"1006": "not allied to the Highlord",
	} {
		sc := "\n- {id: bad-temple, title: t, start: 1, end: 2, allies: {khelmar: highlord, valen: whitestone}, temple: \"" + temple + "\", source: assumed}\n"
		_, err := parseModule(demoWith(t, map[string]string{"scenarios.yaml": sc}))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("temple at %s: error %v, want one saying %q", temple, err, want)
		}
	}
}

type ones struct{}

func (ones) Roll(string, int) (int, error) { return 1, nil }

// TestHiddenReplacementsToldToTheirSide: with hidden stacks, where a side's
// replacements and draconians come back is told to that side alone; the
// other side reads only that something happened at the temple (DG-HIDE-3).
func TestHiddenReplacementsToldToTheirSide(t *testing.T) {
	m, _ := ruleset{}.BuiltinModule("demo")
	pos := `
turn: 2
initiative: highlord
allies: {khelmar: highlord, valen: whitestone}
temple: "1805"
units:
  - {units: [valen-inf-1, valen-inf-2], where: pool}
`
	s, err := ruleset{}.Setup(adjudicator.Setup{Module: &m, Options: map[string]string{"hidden-stacks": "on"}, Position: []byte(pos)})
	if err != nil {
		t.Fatal(err)
	}
	r := adjudicator.NewResolution(ruleset{}, s, ones{})
	subs := []adjudicator.Submission{
		{Side: Highlord, Orders: &StrategicOrders{}},
		{Side: Whitestone, Orders: &StrategicOrders{Replace: []Replacement{{Back: "valen-inf-1", Retire: "valen-inf-2", At: "1503"}}}},
	}
	if err := (ruleset{}).Decide(r, subs); err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, l := range r.Report() {
		switch {
		case strings.Contains(l.Text, "valen-inf-1"):
			seen++
			if len(l.To) != 1 || l.To[0] != Whitestone {
				t.Errorf("%q goes to %v, want the whitestone alone", l.Text, l.To)
			}
		case strings.Contains(l.Text, "draconian-1"):
			seen++
			if len(l.To) != 1 || l.To[0] != Highlord {
				t.Errorf("%q goes to %v, want the highlord alone", l.Text, l.To)
			}
		}
	}
	if seen != 2 {
		t.Fatalf("%d lines name the replacement and the draconian, want 2: %v", seen, r.Report())
	}
}
