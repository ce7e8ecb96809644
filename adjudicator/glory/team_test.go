package glory

import (
	"slices"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
)

func demoState(t *testing.T, scenario string) *State {
	t.Helper()
	s, err := Ruleset.Setup(adjudicator.Setup{Scenario: scenario})
	if err != nil {
		t.Fatal(err)
	}
	return s.(*State)
}

// TestSplitByNation: a side's parts are the module's nations and own; a
// mover's step needs the nations it has counters of; orders command the
// nations of their counters; the merge keeps each answer's own orders.
func TestSplitByNation(t *testing.T) {
	st := demoState(t, "border-war")
	sp := Ruleset.(adjudicator.Splitter)
	parts := sp.Parts(st, Whitestone)
	if !slices.Equal(parts, []string{"dunmere", "karthay", "khelmar", "sarnport", "valen", OwnPart}) {
		t.Fatalf("parts %v", parts)
	}
	move := adjudicator.Request{ID: "m", Side: Whitestone, Kind: "orders", Phase: StepMove, Turn: 1}
	if n := sp.Needs(st, move); !slices.Equal(n, []string{"valen"}) {
		t.Fatalf("needs %v, want valen alone (whitestone has only Valen's counters on the map)", n)
	}
	if n := sp.Needs(st, adjudicator.Request{ID: "s", Side: Whitestone, Kind: "orders", Phase: StepStrategic}); n != nil {
		t.Fatalf("steps 1 to 4 are split: %v", n)
	}
	st.Units["oren"].Where, st.Units["oren"].Hex = OnMap, "1006"
	if n := sp.Needs(st, move); !slices.Equal(n, []string{OwnPart, "valen"}) {
		t.Fatalf("needs %v with a wizard on the map", n)
	}
	a := &MoveOrders{Moves: []MoveOrder{{Unit: "valen-inf-1"}, {Unit: "oren"}}, Attacks: []AttackOrder{{Target: "1805", Units: []string{"valen-inf-2", "oren"}}}}
	if c := sp.Commands(st, move, a); !slices.Equal(c, []string{OwnPart, "valen"}) {
		t.Fatalf("commands %v", c)
	}
	if c := sp.Commands(st, move, &MoveOrders{Concede: true}); !slices.Equal(c, []string{OwnPart}) {
		t.Fatalf("a concession commands %v, want own", c)
	}
	b := &MoveOrders{Moves: []MoveOrder{{Unit: "oren"}, {Unit: "valen-inf-3"}}}
	got, err := sp.Merge(st, move, []adjudicator.PartAnswer{{Parts: []string{"valen"}, Orders: a}, {Parts: []string{OwnPart}, Orders: b}})
	if err != nil {
		t.Fatal(err)
	}
	mo := got.(*MoveOrders)
	var moved []string
	for _, m := range mo.Moves {
		moved = append(moved, m.Unit)
	}
	if !slices.Equal(moved, []string{"valen-inf-1", "oren"}) || len(mo.Attacks) != 0 {
		t.Fatalf("merged moves %v and attacks %v: each answer must give only its own parts' orders, and an attack only from an answer holding all its counters", moved, mo.Attacks)
	}
	if _, err := sp.Merge(st, adjudicator.Request{ID: "s", Phase: StepStrategic}, nil); err == nil {
		t.Fatal("a strategic request was merged")
	}
}
