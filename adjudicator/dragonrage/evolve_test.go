package dragonrage

import (
	"encoding/json"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// TestEveryEventIsEvolved: every event type the ruleset declares reaches
// a case of Evolve (events.go, or a chapter's evolve function): an event
// the log may hold but no case applies would be silently lost on replay.
// An event is counted handled when evolve says so, or when it panics in
// its case on this test's zero-valued payload (a case that looks up the
// event's unit, say).
func TestEveryEventIsEvolved(t *testing.T) {
	base, err := setup(adjudicator.Setup{Scenario: "n2"})
	if err != nil {
		t.Fatal(err)
	}
	for _, et := range eventTypes {
		ev := et.New()
		if ev.EventType() != et.Name {
			t.Errorf("%s makes an event of type %s", et.Name, ev.EventType())
		}
		handled := func() (h bool) {
			defer func() {
				if recover() != nil {
					h = true
				}
			}()
			return evolve(base.clone(), ev)
		}()
		if !handled {
			t.Errorf("event type %s is declared but no case of Evolve applies it", et.Name)
		}
	}
}

// TestCloneHashesTheSame: a state and its clone encode the same, nil and
// empty lists and maps included (a difference would make a replay's state
// hash differ from the live one).
func TestCloneHashesTheSame(t *testing.T) {
	base, err := setup(adjudicator.Setup{Scenario: "n2"})
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range []*State{base, {}, {Units: []*Unit{}, Entrances: map[string]*Entrance{}}} {
		a, _ := json.Marshal(st)
		b, _ := json.Marshal(st.clone())
		if string(a) != string(b) {
			t.Errorf("a clone encodes differently:\n%s\n%s", a, b)
		}
	}
}
