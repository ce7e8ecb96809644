package dragonnoir_test

import (
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"

	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir"
)

// dn3Counter reports whether k is one of La Conquête's counters, which no
// DN2 box holds: its values rest on GAP-18 (the DN3 counters) or GAP-15
// (the Black Dragon of DN1), its first clue says so.
func dn3Counter(k *dragonnoir.Kind) bool {
	return k.Box == "dn3" || len(k.Prov.Clues) > 0 && (strings.HasPrefix(k.Prov.Clues[0], "GAP-18") || strings.HasPrefix(k.Prov.Clues[0], "GAP-15"))
}

// TestMagicResistance: the Ents' and the Black Dragon's magic resistance
// is Table DN3-T6's (DN3-PEOPLE-ENT-29, DN3-PEOPLE-DRAGON-6): 3 and 9.
func TestMagicResistance(t *testing.T) {
	d, err := dragonnoir.LoadModule(builtin(t))
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]int{"ent": 3, "black-dragon": 9} {
		if k := d.Kinds[id]; k == nil || k.MagicResistance != want {
			t.Errorf("%s: magic resistance %v, want %d (Table DN3-T6)", id, k, want)
		}
	}
	if d.Kinds["konrad"].MagicResistance != 0 {
		t.Error("a DN2 character has no magic resistance")
	}
}

// TestEntCarriesHumansByOption: an Ent carries elves and hobbits; humans
// only when the game's option ent-passengers=and-humans says a scenario's
// special rules allow it (DN3-PEOPLE-ENT-21). The builtin module tags no
// DN2 character human (the rules say of none that he is): a group's module
// tags Konrad, and he may climb on with the option, not without.
func TestEntCarriesHumansByOption(t *testing.T) {
	m := builtin(t)
	src := string(m.Files["counters.yaml"])
	old := "armoured: true, wounds: 2, tags: [sinks], assumed: true,\n     clues: [\"GAP-9: Konrad is a named Rebel"
	if !strings.Contains(src, old) {
		t.Fatal("konrad's entry of counters.yaml changed: update the test")
	}
	m.Name = "humans"
	m.Files["counters.yaml"] = []byte(strings.Replace(src, old, strings.Replace(old, "[sinks]", "[sinks, human]", 1), 1))
	rs := withModule{dragonnoir.Ruleset, m}
	l := func(name string) (adjudicator.Ruleset, bool) { return rs, name == "dragonnoir" }
	play := func(option, expect string) {
		t.Helper()
		playText(t, `name: Konrad climbs onto an Ent
ruleset: dragonnoir
module: humans
`+option+`position:
  map: fosse
  turns: 3
  units:
    - {unit: ent-1, at: "0703", facing: SW}
    - {unit: konrad, at: "0502"}
    - {unit: hunter-1, at: "0101"}
steps:
  - side: adventurers
    orders: |
      turn: 1
      phase: adventurers
      orders:
        moves:
          - {unit: konrad, climb-on: ent-1}
`+expect, l)
	}
	play("options: {ent-passengers: and-humans}\n", `expect:
  status-has: {konrad: [on ent-1]}
  report-has: ["konrad climbs onto ent-1, on its front hex 0602 (4 MP, and 2 of ent-1's: DN3-PEOPLE-ENT-22)."]
`)
	play("", `    expect-error: bad-value
    expect-has: "ent-1 carries only elves and hobbits (humans too with the option ent-passengers=and-humans)"
expect:
  status-has: {konrad: [healthy]}
`)
}

// TestGiantChecks: the loader refuses a kind whose DN3 fields are wrong,
// at its line, saying how to write them.
func TestGiantChecks(t *testing.T) {
	for _, c := range []struct{ old, new, want string }{
		{"step-cost: all,", "step-cost: every,", `kind ent: step-cost "every" is all`},
		{"rider-enters: [tree],", "rider-enters: [forest],", `kind ent: rider-enters: "forest" is no terrain of terrain.yaml`},
		{"carries: [elf, hobbit, human],", "carries: [elves],", `kind ent: carries: "elves" is not a counter tag`},
		{`fireball: [DW, DW, DW, DW, DW, "-", "-", "-", "-", "-"],`, `fireball: [DW, DW],`, "kind ent: fireball: the result of each roll 1 to 10 (10 codes)"},
		{"fire-target: DN3-PEOPLE-ENT-12,", "aim: DN3-PEOPLE-ENT-12,", `kind ent: cites: "aim" is one of stunned, killed, fire-target, rear, fly`},
		{"step-cost: centre, reach-up: 1,", "step-cost: centre, reach-up: -1,", "kind black-dragon: attacks, reach-up, infiltration-size and magic-resistance are 0 or more"},
	} {
		m, ok := editedModule(t, "counters.yaml", c.old, c.new)
		if !ok {
			continue
		}
		_, err := dragonnoir.LoadModule(m)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "counters.yaml:") {
			t.Errorf("%s: got %v, want an error at its line with %q", c.new, err, c.want)
		}
	}
}
