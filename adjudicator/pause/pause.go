// Package pause suspends an adjudication for a question one side must
// answer, and resumes it with the answer: a retreat path, which armies take
// a loss, whether a fleet escapes into a whirlpool. It is the reusable part
// of every such interrupt, so a ruleset writes only its questions and its
// continuation:
//
//   - a Question says who answers, what, the closed list of answers if there
//     is one, the standing-order key that may answer it in advance, and the
//     answer the game applies when nobody does (at a deadline, with the
//     game's no-move policy "default");
//   - a side's standing orders (Standing) are answers given ahead, by key,
//     kept in the game state until the side changes them: Ask applies them
//     without a pause, so a typical turn needs no extra mail;
//   - otherwise Ask records the question and the ruleset's continuation
//     (Pending.Rest, any JSON the ruleset chooses: the orders still to
//     resolve, the combat in progress) with an Asked event, and the
//     ruleset stops resolving; Due then asks the side (Request), and the
//     answer arrives as an ordinary submission, which the ruleset resumes
//     from Rest after Resume has recorded it.
//
// Everything is recorded as events, so a replay pauses and resumes exactly
// where the game did. The events are named with the ruleset's prefix
// ("mygame.asked"); a ruleset lists Events(prefix) among its event types
// and folds them with State.Apply.
package pause

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Question is one pause: what a side must say before the rest resolves.
type Question struct {
	ID      string           `json:"id"`                // unique in the game: "t3.ws.retreat.2"
	Side    adjudicator.Side `json:"side"`              // who answers
	Key     string           `json:"key,omitempty"`     // the standing-order key that may answer it
	Title   string           `json:"title"`             // for people: "turn 3, retreat from 1204"
	Prompt  string           `json:"prompt"`            // the question, with what the answer may say
	Choice  []string         `json:"choice,omitempty"`  // the accepted answers, when a closed list
	Default string           `json:"default,omitempty"` // the YAML answer when nobody answers
	Hidden  bool             `json:"hidden,omitempty"`  // the answer stays hidden until adjudicated
}

// Pending is a question waiting for its answer and what the ruleset does
// once it has it.
type Pending struct {
	Question Question        `json:"question"`
	Turn     int             `json:"turn"`
	Phase    string          `json:"phase"`
	Rest     json.RawMessage `json:"rest,omitempty"`
}

// State is what a ruleset keeps in its game state for pauses: the question
// it waits on, if any, and every side's standing orders by key (the YAML of
// each answer). Embed it, or keep it in a field, and fold the events of
// this package with Apply.
type State struct {
	Pending  *Pending                               `json:"pending,omitempty"`
	Standing map[adjudicator.Side]map[string]string `json:"standing,omitempty"`
	Asked    int                                    `json:"asked,omitempty"` // questions asked so far, for unique IDs
}

// Clone returns a deep copy of s.
func (s State) Clone() State {
	c := State{Asked: s.Asked}
	if s.Pending != nil {
		p := *s.Pending
		p.Question.Choice = slices.Clone(p.Question.Choice)
		p.Rest = slices.Clone(p.Rest)
		c.Pending = &p
	}
	if s.Standing != nil {
		c.Standing = make(map[adjudicator.Side]map[string]string, len(s.Standing))
		for side, m := range s.Standing {
			c.Standing[side] = maps.Clone(m)
		}
	}
	return c
}

// Lookup returns side's standing answer for key.
func (s State) Lookup(side adjudicator.Side, key string) (string, bool) {
	if key == "" {
		return "", false
	}
	a, ok := s.Standing[side][key]
	return a, ok
}

// Request is what Due returns while the game waits on p: a request of kind
// "decision" to the side that must answer.
func (p *Pending) Request() adjudicator.Request {
	q := p.Question
	return adjudicator.Request{
		ID: q.ID, Side: q.Side, Kind: "decision", Turn: p.Turn, Phase: p.Phase,
		Title: q.Title, Prompt: q.Prompt, Hidden: q.Hidden, Choice: slices.Clone(q.Choice),
	}
}

// Events of a pause.
type (
	// Asked suspends the adjudication on a question.
	Asked struct {
		Prefix  string  `json:"-"`
		Pending Pending `json:"pending"`
	}
	// Resumed records the answer the adjudication resumed with, and who
	// gave it: "player", "standing" (a standing order, without a pause) or
	// "default" (nobody answered by the deadline).
	Resumed struct {
		Prefix   string           `json:"-"`
		Question string           `json:"question"`
		Side     adjudicator.Side `json:"side"`
		Key      string           `json:"key,omitempty"`
		Answer   string           `json:"answer"`
		By       string           `json:"by"`
	}
	// StandingSet sets (or, with an empty Answer, clears) a side's standing
	// answer for a key.
	StandingSet struct {
		Prefix string           `json:"-"`
		Side   adjudicator.Side `json:"side"`
		Key    string           `json:"key"`
		Answer string           `json:"answer,omitempty"`
	}
)

func (e *Asked) EventType() string       { return e.Prefix + ".asked" }
func (e *Resumed) EventType() string     { return e.Prefix + ".resumed" }
func (e *StandingSet) EventType() string { return e.Prefix + ".standing" }

// Events lists the event types of this package for a ruleset whose events
// are named with prefix.
func Events(prefix string) []adjudicator.EventType {
	return []adjudicator.EventType{
		{Name: prefix + ".asked", Schema: 1, New: func() adjudicator.Event { return &Asked{Prefix: prefix} }},
		{Name: prefix + ".resumed", Schema: 1, New: func() adjudicator.Event { return &Resumed{Prefix: prefix} }},
		{Name: prefix + ".standing", Schema: 1, New: func() adjudicator.Event { return &StandingSet{Prefix: prefix} }},
	}
}

// Apply folds ev into s and reports whether it was an event of this
// package.
func (s *State) Apply(ev adjudicator.Event) bool {
	switch e := ev.(type) {
	case *Asked:
		p := e.Pending
		s.Pending = &p
		s.Asked++
	case *Resumed:
		s.Pending = nil
	case *StandingSet:
		if e.Answer == "" {
			delete(s.Standing[e.Side], e.Key)
			if len(s.Standing[e.Side]) == 0 {
				delete(s.Standing, e.Side)
			}
			if len(s.Standing) == 0 {
				s.Standing = nil // as a fold restored from JSON has it
			}
			return true
		}
		if s.Standing == nil {
			s.Standing = map[adjudicator.Side]map[string]string{}
		}
		if s.Standing[e.Side] == nil {
			s.Standing[e.Side] = map[string]string{}
		}
		s.Standing[e.Side][e.Key] = e.Answer
	default:
		return false
	}
	return true
}

// Asker is how a ruleset asks questions during one resolution.
type Asker struct {
	Prefix string
	R      *adjudicator.Resolution
	// State returns the pause state inside the resolution's working state.
	State func(adjudicator.State) *State
}

// NextID returns a question ID unique in the game, from the questions asked
// so far: "t3.retreat.7".
func (a Asker) NextID(turn int, what string) string {
	return fmt.Sprintf("t%d.%s.%d", turn, what, a.State(a.R.State()).Asked+1)
}

// Ask answers q from its side's standing orders when it can: it records
// the answer (Resumed, by "standing") and returns it with asked false. When
// no standing order answers, it suspends the resolution (Asked, with rest
// encoded as the continuation) and returns asked true: the ruleset must
// then stop resolving and return from Decide.
func (a Asker) Ask(q Question, turn int, phase string, rest any) (answer string, asked bool, err error) {
	st := a.State(a.R.State())
	if st.Pending != nil {
		return "", false, fmt.Errorf("pause: asking %s while %s is pending", q.ID, st.Pending.Question.ID)
	}
	if ans, ok := st.Lookup(q.Side, q.Key); ok {
		a.R.Emit(&Resumed{Prefix: a.Prefix, Question: q.ID, Side: q.Side, Key: q.Key, Answer: ans, By: "standing"})
		return ans, false, nil
	}
	raw, err := json.Marshal(rest)
	if err != nil {
		return "", false, fmt.Errorf("pause: encoding the continuation of %s: %w", q.ID, err)
	}
	a.R.Emit(&Asked{Prefix: a.Prefix, Pending: Pending{Question: q, Turn: turn, Phase: phase, Rest: raw}})
	return "", true, nil
}

// Resume records the answer to the pending question and returns the
// pending question with its continuation, which the ruleset decodes with
// Pending.Continue. by is "player" or "default".
func (a Asker) Resume(answer, by string) (Pending, error) {
	st := a.State(a.R.State())
	if st.Pending == nil {
		return Pending{}, fmt.Errorf("pause: an answer arrived and no question is pending")
	}
	p := *st.Pending
	a.R.Emit(&Resumed{Prefix: a.Prefix, Question: p.Question.ID, Side: p.Question.Side, Key: p.Question.Key, Answer: answer, By: by})
	return p, nil
}

// SetStanding records side's standing answer for key (clears it when
// answer is empty), unless it is already the one kept.
func (a Asker) SetStanding(side adjudicator.Side, key, answer string) {
	if cur, ok := a.State(a.R.State()).Lookup(side, key); ok && cur == answer || !ok && answer == "" {
		return
	}
	a.R.Emit(&StandingSet{Prefix: a.Prefix, Side: side, Key: key, Answer: answer})
}

// SetStandings records several of side's standing answers, by key in
// sorted order (so that the events they cause come in an order replay
// repeats): what a mail's or an answer's standing orders do, each key
// replacing the side's previous answer for it.
func (a Asker) SetStandings(side adjudicator.Side, answers map[string]string) {
	for _, k := range slices.Sorted(maps.Keys(answers)) {
		a.SetStanding(side, k, answers[k])
	}
}

// Continue decodes the continuation into v.
func (p Pending) Continue(v any) error {
	if len(p.Rest) == 0 {
		return nil
	}
	if err := json.Unmarshal(p.Rest, v); err != nil {
		return fmt.Errorf("pause: decoding the continuation of %s: %w", p.Question.ID, err)
	}
	return nil
}
