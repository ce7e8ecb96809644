package dragonnoir

import (
	"slices"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// battle sets a battle up from position src on the builtin module.
func battle(t *testing.T, src string) *State {
	t.Helper()
	d, err := builtinData()
	if err != nil {
		t.Fatal(err)
	}
	st, err := positionSetup(d, Rules{}, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestNightLight: by night a shot reaches 5 hexes, but a hex a Light
// spell lights, and the six beside it, are fired at as by day (AMB-88).
func TestNightLight(t *testing.T) {
	st := battle(t, "battle: {region: la-croisee, night: true}\nforces:\n  - {unit: jon, side: adventurers, at: \"0804\"}\n  - {unit: hunter-1, side: krobs, at: \"1404\"}\n")
	w := newWorld(adjudicator.NewResolution(Ruleset, st, nil))
	jon, hunter := st.Chars["jon"], st.Chars["hunter-1"]
	if why := w.cannotFire(jon, hunter, flagFiredOff); why == "" {
		t.Fatal("by night Jon fires 6 hexes away")
	}
	locs := []string{"1504"}
	for _, n := range st.board.Neighbours(hex.MustParse("1504")) { // as spellLight lights them
		locs = append(locs, n.String())
	}
	st.Charms = append(st.Charms, Charm{ID: "x", Spell: "light", Effect: "light", Caster: "zacharie", Side: Adventurers, Locs: locs})
	if !st.Lit(hex.MustParse("1404")) || st.Lit(hex.MustParse("1704")) {
		t.Error("Light lights its hex and the six beside it only")
	}
	if why := w.cannotFire(jon, hunter, flagFiredOff); why != "" {
		t.Errorf("a lit target is fired at as by day: %s", why)
	}
}

// TestWoundedTwice: a counter that takes three wounds shows "wounded" and,
// after its second, "wounded-2" (the contract of the battle's end).
func TestWoundedTwice(t *testing.T) {
	st := battle(t, "battle: {region: la-croisee}\nforces:\n  - {unit: troll-1, side: adventurers, at: \"0804\"}\n  - {unit: hunter-1, side: krobs, at: \"1404\"}\n")
	k := *st.Kind(st.Chars["troll-1"])
	k.Wounds = 3
	st.data = &Data{Kinds: map[string]*Kind{"troll": &k, "hunter": st.data.Kinds["hunter"]}, Range: st.data.Range}
	st.Chars["troll-1"].Wounds = 2
	var uv adjudicator.UnitView
	st.battleUnit(&uv, st.Chars["troll-1"], adjudicator.Observer)
	if !slices.Contains(uv.Status, Wounded) || !slices.Contains(uv.Status, "wounded-2") {
		t.Errorf("status %v", uv.Status)
	}
	st.Chars["troll-1"].Wounds = 1
	uv = adjudicator.UnitView{}
	st.battleUnit(&uv, st.Chars["troll-1"], adjudicator.Observer)
	if !slices.Equal(uv.Status, []string{Wounded}) {
		t.Errorf("status %v after one wound", uv.Status)
	}
}
