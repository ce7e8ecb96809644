package dragonrage

import (
	"slices"
	"testing"
)

// TestSpellTable checks that each spell row can be ordered, checked and
// cast: a known name, order fields readSpell reads, a cast, and a cost
// unless its check sets one (the dismissal).
func TestSpellTable(t *testing.T) {
	fields := []string{"at", "radius", "target", "resolve", "elemental", "pay"}
	seen := map[string]bool{}
	for _, r := range spellTable {
		if seen[r.name] {
			t.Errorf("spell %q has two rows", r.name)
		}
		seen[r.name] = true
		if r.cast == nil {
			t.Errorf("spell %q has no cast", r.name)
		}
		if r.cost == nil && r.check == nil {
			t.Errorf("spell %q has neither a cost nor a check that sets one", r.name)
		}
		for _, f := range r.takes {
			if !slices.Contains(fields, f) {
				t.Errorf("spell %q takes %q, which readSpell does not read", r.name, f)
			}
		}
		if got, ok := spellRowOf(r.name); !ok || got.name != r.name {
			t.Errorf("spellRowOf(%q) does not find its row", r.name)
		}
	}
	for alias, name := range spellAliases {
		if !seen[name] {
			t.Errorf("the alias %q names %q, which has no row", alias, name)
		}
	}
	if len(spellNames) != len(spellTable) {
		t.Errorf("spellNames has %d spells, the table %d", len(spellNames), len(spellTable))
	}
}
