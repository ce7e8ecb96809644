package pause

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// box is a ruleset state holding only the pause state, folded by Apply.
type box struct{ P State }

type rules struct{ adjudicator.Ruleset }

func (rules) Evolve(s adjudicator.State, ev adjudicator.Event) adjudicator.State {
	b := s.(*box)
	if !b.P.Apply(ev) {
		panic("not a pause event")
	}
	return b
}

func asker(st *box) Asker {
	r := adjudicator.NewResolution(rules{}, st, nil)
	return Asker{Prefix: "t", R: r, State: func(s adjudicator.State) *State { return &s.(*box).P }}
}

type rest struct {
	Stage string `json:"stage"`
	Index int    `json:"index"`
}

func TestAskPausesAndResumeContinues(t *testing.T) {
	st := &box{}
	a := asker(st)
	q := Question{ID: a.NextID(3, "retreat"), Side: "red", Key: "retreat", Title: "retreat", Default: "stay"}
	if q.ID != "t3.retreat.1" {
		t.Fatalf("ID %q", q.ID)
	}
	ans, asked, err := a.Ask(q, 3, "move", rest{"attacks", 2})
	if err != nil || !asked || ans != "" {
		t.Fatalf("Ask = %q %v %v, want a pause", ans, asked, err)
	}
	if st.P.Pending == nil || st.P.Pending.Request().Side != "red" || st.P.Pending.Request().Kind != "decision" {
		t.Fatalf("pending %+v", st.P.Pending)
	}
	if _, _, err := a.Ask(q, 3, "move", nil); err == nil {
		t.Fatal("a second question while one is pending was accepted")
	}
	p, err := a.Resume("1204", "player")
	if err != nil {
		t.Fatal(err)
	}
	var r rest
	if err := p.Continue(&r); err != nil || r != (rest{"attacks", 2}) {
		t.Fatalf("continuation %+v %v", r, err)
	}
	if st.P.Pending != nil {
		t.Fatal("still pending after the answer")
	}
	if _, err := a.Resume("x", "player"); err == nil {
		t.Fatal("an answer with nothing pending was accepted")
	}
	evs := a.R.Events()
	if len(evs) != 2 || evs[0].EventType() != "t.asked" || evs[1].EventType() != "t.resumed" || evs[1].(*Resumed).By != "player" {
		t.Fatalf("events %v", evs)
	}
}

func TestStandingOrderAnswersWithoutAPause(t *testing.T) {
	st := &box{}
	a := asker(st)
	a.SetStanding("red", "losses", "weakest-first")
	a.SetStanding("red", "losses", "weakest-first") // unchanged: no event
	if n := len(a.R.Events()); n != 1 {
		t.Fatalf("%d events for one standing order set twice", n)
	}
	ans, asked, err := a.Ask(Question{ID: "q", Side: "red", Key: "losses"}, 1, "move", nil)
	if err != nil || asked || ans != "weakest-first" {
		t.Fatalf("Ask = %q %v %v", ans, asked, err)
	}
	// Another side's standing orders never answer for this one.
	if _, asked, _ := a.Ask(Question{ID: "q2", Side: "blue", Key: "losses"}, 1, "move", nil); !asked {
		t.Fatal("red's standing order answered blue's question")
	}
	a.Resume("x", "default")
	a.SetStanding("red", "losses", "")
	if _, ok := st.P.Lookup("red", "losses"); ok || st.P.Standing != nil {
		t.Fatalf("cleared standing order still there: %v", st.P.Standing)
	}
}

func TestEventsRoundTripAndCloneIsDeep(t *testing.T) {
	s := State{Pending: &Pending{Question: Question{ID: "a", Choice: []string{"x"}}, Rest: json.RawMessage(`{"a":1}`)},
		Standing: map[adjudicator.Side]map[string]string{"red": {"k": "v"}}}
	c := s.Clone()
	c.Pending.Question.Choice[0] = "y"
	c.Pending.Rest[1] = 'b'
	c.Standing["red"]["k"] = "w"
	if s.Pending.Question.Choice[0] != "x" || s.Pending.Rest[1] != '"' || s.Standing["red"]["k"] != "v" {
		t.Fatal("Clone shares memory with the original")
	}
	for _, et := range Events("t") {
		ev := et.New()
		if ev.EventType() != et.Name {
			t.Errorf("%s decodes into an event named %s", et.Name, ev.EventType())
		}
		b, _ := json.Marshal(ev)
		if err := json.Unmarshal(b, et.New()); err != nil {
			t.Error(err)
		}
	}
	var x State
	if x.Apply(&struct{ adjudicator.Event }{}) {
		t.Fatal("Apply took an event of another package")
	}
	if !reflect.DeepEqual(State{}.Clone(), State{}) {
		t.Fatal("the zero state does not clone to itself")
	}
}
