package dragonnoir

import (
	"errors"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// TestPreBattleTerrainSpells: DN3-MAGIC-6 — a Troop that starts a battle
// on the map may have its casters cast spells affecting the terrain before
// the first turn, in its set-up orders (spells:, read by
// parsePreBattleSpells, cast by castPreBattle: the battle chapter's set-up
// calls them). Only terrain spells (DN3-SPELL-GEN-1's heading), one a
// caster, of the side's own casters, with no before:; a caster who enters
// by an edge (off the map then) casts nothing; none of them is the
// caster's spell of turn 1 (DN-MAGIC-9).
func TestPreBattleTerrainSpells(t *testing.T) {
	d, err := builtinData()
	if err != nil {
		t.Fatal(err)
	}
	st, err := positionSetup(d, Rules{}, []byte(`valley: true
board: {name: meadow, title: a meadow, bounds: {cols: [1, 12], rows: [1, 10]}, default: floor}
units:
  - {unit: zacharie, at: "0205"}
  - {unit: shaman, at: "0207"}
  - {unit: sorcerer, at: "1005"}
  - {unit: konrad, at: "0305"}
`))
	if err != nil {
		t.Fatal(err)
	}
	st.Chars["shaman"].At = "" // he enters by an edge: off the map before the first turn
	parse := func(side adjudicator.Side, src string) ([]SpellOrder, error) {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(src), &n); err != nil {
			t.Fatal(err)
		}
		return parsePreBattleSpells(st, side, n.Content[0])
	}
	for _, c := range []struct {
		side      adjudicator.Side
		src, code string
		has       string
	}{
		{Adventurers, `[{caster: zacharie, spell: move-boost, at: konrad, units: 2}]`, adjudicator.CodeBadValue, "only spells affecting the terrain"},
		{Adventurers, `[{caster: zacharie, spell: count}]`, adjudicator.CodeBadValue, "only spells affecting the terrain"},
		{Adventurers, `[{caster: zacharie, spell: light, at: "0405"}, {caster: zacharie, spell: grow-tree, hexes: ["0405"]}]`, codeTwice, "one a caster"},
		{Adventurers, `[{caster: sorcerer, spell: light, at: "0405"}]`, codeNotYours, "you play the adventurers"},
		{Adventurers, `[{caster: zacharie, spell: light, at: "0405", before: moves}]`, adjudicator.CodeBadValue, "before:"},
		{Adventurers, `[{caster: konrad, spell: light, at: "0405"}]`, codeNotMagician, "no magician"},
		{Krobs, `[{caster: sorcerer, spell: grow-tree, hexes: ["0805"]}]`, codeNotOnList, "sorcerer sheet"},
		{Krobs, `{caster: sorcerer}`, adjudicator.CodeBadValue, "a list of"},
	} {
		_, err := parse(c.side, c.src)
		var oe *adjudicator.OrderError
		var oes adjudicator.OrderErrors
		switch {
		case errors.As(err, &oes) && len(oes) > 0:
			oe = oes[0]
		case errors.As(err, &oe):
		default:
			t.Errorf("%s: accepted (%v), want %s", c.src, err, c.code)
			continue
		}
		if oe.Code != c.code || !strings.Contains(oe.Msg, c.has) {
			t.Errorf("%s: refused %s %q, want %s with %q", c.src, oe.Code, oe.Msg, c.code, c.has)
		}
	}
	adv, err := parse(Adventurers, `[{caster: zacharie, spell: grow-tree, hexes: ["0405"]}, {caster: shaman, spell: light, at: "0305"}]`)
	if err != nil {
		t.Fatal(err)
	}
	krobs, err := parse(Krobs, `[{caster: sorcerer, spell: crevasse, hexes: ["0805"]}]`)
	if err != nil {
		t.Fatal(err)
	}
	r := adjudicator.NewResolution(Ruleset, st, &dice.Script{Faces: []int{5, 5}})
	w := newWorld(r)
	w.castPreBattle(adv)
	w.castPreBattle(krobs)
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	after := r.State().(*State)
	if k := after.terrainKind(hex.MustParse("0405")); k != "tree" {
		t.Errorf("0405 is %s after Zacharie's tree, want tree", k)
	}
	if k := after.terrainKind(hex.MustParse("0805")); k != "crevasse" {
		t.Errorf("0805 is %s after the Sorcerer's crevasse, want crevasse", k)
	}
	if pe := after.Chars["zacharie"].PE; pe != 143 {
		t.Errorf("Zacharie has %d PE, want 150 - 7", pe)
	}
	if pe := after.Chars["shaman"].PE; pe != 150 {
		t.Errorf("Shaman, off the map, spent PE: %d left", pe)
	}
	for _, id := range []string{"zacharie", "sorcerer"} {
		if after.Is(flagCast, id) {
			t.Errorf("%s's spell before the first turn counts as his turn 1 spell", id)
		}
	}
	var text []string
	for _, l := range r.Report() {
		text = append(text, l.Text)
	}
	all := strings.Join(text, "\n")
	for _, want := range []string{
		"zacharie casts Grow a tree on 0405: it works.",
		"shaman does not cast Light before the first turn: only a caster who starts on the map does (DN3-MAGIC-6).",
		"sorcerer casts Open a crevasse on 0805: it works.",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("the report lacks %q:\n%s", want, all)
		}
	}
}
