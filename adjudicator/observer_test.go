package adjudicator_test

import (
	"encoding/json"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage"
	"github.com/umpire-pbem/umpire/adjudicator/testrules"
)

// TestObserverReadsOnlyPublic: an observer is in no audience but the
// public one, whatever sides it names.
func TestObserverReadsOnlyPublic(t *testing.T) {
	for _, a := range []adjudicator.Audience{adjudicator.RefereeOnly, adjudicator.To("red"), adjudicator.To("red", "blue"), {adjudicator.Observer[1:9]}} {
		if a.Includes(adjudicator.Observer) {
			t.Errorf("the observer reads a line for %v", a)
		}
	}
	if !adjudicator.Everyone.Includes(adjudicator.Observer) {
		t.Error("the observer does not read a public line")
	}
	lines := []adjudicator.Line{{Text: "public"}, {Text: "red", To: adjudicator.To("red")}, {Text: "ref", To: adjudicator.RefereeOnly}}
	if got := adjudicator.Texts(adjudicator.For(lines, adjudicator.Observer)); len(got) != 1 || got[0] != "public" {
		t.Errorf("the observer reads %q", got)
	}
}

// TestObserverViews: the shipped views give an observer what every side
// sees and nothing a single side sees alone.
func TestObserverViews(t *testing.T) {
	st, err := testrules.Race.Setup(adjudicator.Setup{Scenario: "sprint", Sides: []adjudicator.Side{"red", "blue"}})
	if err != nil {
		t.Fatal(err)
	}
	v := testrules.Race.View(st, adjudicator.Observer)
	for k := range v.Markers {
		t.Errorf("race shows the observer marker %q, which only one side sees", k)
	}
	if len(testrules.Race.View(st, adjudicator.Referee).Markers) == 0 {
		t.Fatal("race has no hidden marker to test with")
	}
	// Dragon Rage hides nothing: the observer sees what each side sees.
	dr := dragonrage.Ruleset
	sides := dr.Info().Sides
	st, err = dr.Setup(adjudicator.Setup{Scenario: "n2", Sides: sides})
	if err != nil {
		t.Fatal(err)
	}
	obs, _ := json.Marshal(dr.View(st, adjudicator.Observer))
	for _, s := range sides {
		b, _ := json.Marshal(dr.View(st, s))
		if string(b) != string(obs) {
			t.Errorf("Dragon Rage shows the observer another board than %s's", s)
		}
	}
}
