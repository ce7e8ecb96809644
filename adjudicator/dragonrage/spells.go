package dragonrage

// The spells (DR-MAGIC-6), one row each: the fields its order takes, what
// it costs, what it checks and how it is cast. A new spell is a row here
// and a file of its own (spell_*.go); magic.go reads, checks and resolves
// every spell through its row.

// spellRow is one spell.
type spellRow struct {
	name  string
	takes []string // the order's fields besides "cast" and "by"
	// cost is the SP casting it spends, given the order (DR-MAGIC-6); nil
	// when its check sets the cost itself (a dismissal, DR-SPELL-ELEM-12).
	cost func(sp *Spell) int
	// check says why wz may not cast it now (the field to blame, the error
	// code and the reason), beyond his SP; nil when only the SP matter.
	check func(w *world, sp *Spell, wz *Unit) (field, code, why string)
	// cast resolves it, spending cost SP. It reports whether the wizard
	// used his spell of the turn: a declined dismissal does not (DR-AMB-65).
	cast func(w *world, sp *Spell, wz *Unit, cost int) bool
}

var spellTable = []spellRow{
	{name: spellBoost, takes: []string{"radius"}, cost: func(sp *Spell) int { return 1 + *sp.Radius }, // DR-SPELL-MORALE-1
		cast: spends((*world).castBoost)},
	{name: spellFog, takes: []string{"at"}, cost: fixedCost(2), // DR-SPELL-FOG-1
		check: (*world).checkFog, cast: spends((*world).castFog)},
	{name: spellWhirlwind, takes: []string{"at"}, cost: fixedCost(2), // DR-SPELL-WHIRL-1
		check: (*world).checkWhirlwind, cast: spends((*world).castWhirlwind)},
	{name: spellLightning, takes: []string{"at", "target", "resolve"}, cost: fixedCost(3), // DR-SPELL-LIGHT-1
		check: (*world).checkLightning, cast: spends((*world).castLightning)},
	{name: spellSummon, takes: []string{"at"}, cost: fixedCost(5), // DR-SPELL-ELEM-1
		check: (*world).checkSummon, cast: spends((*world).castSummon)},
	{name: spellDismiss, takes: []string{"elemental", "pay"}, // DR-SPELL-ELEM-12: free, or 1d6
		check: (*world).checkDismiss, cast: func(w *world, sp *Spell, wz *Unit, _ int) bool { return w.castDismiss(sp, wz) }},
}

// spellNames are the spells in the table's order.
var spellNames = func() []string {
	out := make([]string, len(spellTable))
	for i, r := range spellTable {
		out[i] = r.name
	}
	return out
}()

// spellRowOf returns a spell's row; orders name only spells of the table.
func spellRowOf(name string) (spellRow, bool) {
	for _, r := range spellTable {
		if r.name == name {
			return r, true
		}
	}
	return spellRow{}, false
}

func fixedCost(n int) func(*Spell) int { return func(*Spell) int { return n } }

// spends is a cast that always uses the wizard's spell of the turn.
func spends(cast func(*world, *Spell, *Unit, int)) func(*world, *Spell, *Unit, int) bool {
	return func(w *world, sp *Spell, wz *Unit, cost int) bool {
		cast(w, sp, wz, cost)
		return true
	}
}
