package dragonnoir

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/pause"
)

// samples holds one event of each type, as a chapter emits it. A chapter
// that adds an event adds its sample here: TestEveryEventFolds fails on a
// declared type without one.
var samples = map[string]adjudicator.Event{
	Prefix + ".resolving": &Resolving{},
	Prefix + ".stepped":   &Stepped{Turn: 1, Step: StepKrobs},
	Prefix + ".placed":    &Placed{Unit: "gharv-1", Side: Gharvs, At: "0202", Why: "appears"},
	Prefix + ".moved":     &Moved{Unit: "jon", Path: []string{"0102", "0202"}, MP: 1, Kind: "move"},
	Prefix + ".condition": &Conditioned{Unit: "jon", Face: Wounded, Wounds: 1},
	Prefix + ".flagged":   &Flagged{Flag: flagMoved, IDs: []string{"jon"}},
	Prefix + ".energy":    &Energy{Unit: "jon", PE: 0},
	Prefix + ".web":       &Webbed{At: "0302", Intact: true},
	Prefix + ".rowed":     &Rowed{Boat: "boat-1", At: "0403", Facing: "N"},
	Prefix + ".revealed":  &Revealed{Marker: "orb-1"},
	Prefix + ".traced":    &Traced{Trace: adjudicator.Trace{Kind: "fire", Unit: "jon", Path: []string{"0102", "0302"}}},
	Prefix + ".ended":     &Ended{Winner: Krobs, Result: "test"},
	Prefix + ".asked":     &pause.Asked{Prefix: Prefix, Pending: pause.Pending{Question: pause.Question{ID: "q", Side: Krobs}}},
	Prefix + ".resumed":   &pause.Resumed{Prefix: Prefix, Question: "q", Side: Krobs, Answer: "x", By: "player"},
	Prefix + ".standing":  &pause.StandingSet{Prefix: Prefix, Side: Krobs, Key: KeyAdvance, Answer: "never"},
	Prefix + ".capsized":  &Capsized{Boat: "boat-1", By: "gharv-1"},
	Prefix + ".carried":   &Carried{Unit: "jon", Carrier: "ent-1", Aboard: true, Seat: 1, At: "0103", MP: 4, CarrierMP: 2}, // DN3: the Ents
	// magic chapter
	Prefix + ".charmed":        &Charmed{Charm: Charm{ID: "zacharie/t1/magic-circle", Spell: "magic-circle", Effect: "magic-circle", Caster: "zacharie", Side: Adventurers, Locs: []string{"0202"}, Expires: 2}},
	Prefix + ".uncharmed":      &Uncharmed{ID: "zacharie/t1/magic-circle"},
	Prefix + ".reappear-noted": &Noted{Unit: "zacharie", To: "0105"}, // spell_reappear.go
	// DN3 battles (battle_events.go)
	Prefix + ".entered":              &Entered{Unit: "jon", At: "0101", MP: 1},
	Prefix + ".exited":               &Exited{Unit: "jon", Region: "le-pont", MP: 1},
	Prefix + ".negotiation-drawn":    &NegDrawn{Side: Adventurers, Marker: "alliance"},
	Prefix + ".secrets-read":         &SecretsRead{},
	Prefix + ".sheet-read":           &SheetRead{Side: Adventurers, Lines: []SheetLine{{Unit: "konrad", Fatigue: Fatigued}}},
	Prefix + ".negotiation-resolved": &NegResolved{Outcome: "neutral"},
	Prefix + ".traitor-known":        &TraitorKnown{Side: Adventurers, Unit: "chief-sarrak"},
	Prefix + ".traitor-announced":    &TraitorAnnounced{Side: Adventurers, Unit: "chief-sarrak"},
	Prefix + ".turned":               &Turned{Units: []string{"warrior-1"}, To: Adventurers, How: "defected"},
	// chapter: the valley's peoples
	Prefix + ".mounted":  &Mounted{Rider: "jon", Steed: "gharv-1", Up: true, At: "0102", Spent: 1},
	Prefix + ".fanatic":  &Fanaticised{Unit: "jon"},
	Prefix + ".departed": &Departed{Unit: "jon"},
}

// TestEveryEventFolds: every declared event type has a sample, survives a
// JSON round trip into the type EventTypes makes for it, and is folded by
// Evolve; an event the ruleset does not know panics (fails loudly) rather
// than being ignored.
func TestEveryEventFolds(t *testing.T) {
	d, err := builtinData()
	if err != nil {
		t.Fatal(err)
	}
	for _, et := range eventTypes() {
		if et.Name == adjudicator.TypeChildSecret {
			continue // the engine's, never given to Evolve (adjudicator/childsecret.go)
		}
		ev, ok := samples[et.Name]
		if !ok {
			t.Errorf("event %s has no sample in events_test.go", et.Name)
			continue
		}
		b, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		back := et.New()
		if err := json.Unmarshal(b, back); err != nil {
			t.Errorf("%s: %v", et.Name, err)
			continue
		}
		if back.EventType() != et.Name || !reflect.DeepEqual(back, ev) {
			t.Errorf("%s: decodes to %#v, want %#v", et.Name, back, ev)
		}
		st, err := positionSetup(d, Rules{}, []byte("map: fosse\nunits: [{unit: jon, at: \"0102\"}]\n"))
		if err != nil {
			t.Fatal(err)
		}
		if !st.evolve(back) {
			t.Errorf("%s is declared but not folded", et.Name)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("an unknown event was folded silently")
		}
	}()
	Ruleset.Evolve(&State{}, unknown{})
}

type unknown struct{}

func (unknown) EventType() string { return "dragonnoir.unknown" }
