package testrules

import (
	"fmt"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// The race's events.
type (
	// BidsRevealed ends the bidding.
	BidsRevealed struct {
		Bids  map[string]int `json:"bids"`
		First string         `json:"first"`
	}
	// Advanced moves a runner.
	Advanced struct {
		Runner string `json:"runner"`
		To     int    `json:"to"`
	}
	// Trapped asks the opponent about runners on trap squares.
	Trapped struct {
		Runners []string `json:"runners"`
		Resume  string   `json:"resume"`
	}
	// TrapResolved is the opponent's answer for one runner.
	TrapResolved struct {
		Runner string `json:"runner"`
		To     int    `json:"to"`
	}
	// PhaseBegan moves the game to a phase.
	PhaseBegan struct {
		Turn  int    `json:"turn"`
		Phase string `json:"phase"`
	}
	// Finished ends the race.
	Finished struct {
		Winner string `json:"winner"`
	}
)

func (*BidsRevealed) EventType() string { return "race.bids-revealed" }
func (*Advanced) EventType() string     { return "race.advanced" }
func (*Trapped) EventType() string      { return "race.trapped" }
func (*TrapResolved) EventType() string { return "race.trap-resolved" }
func (*PhaseBegan) EventType() string   { return "race.phase-began" }
func (*Finished) EventType() string     { return "race.finished" }

func (race) EventTypes() []adjudicator.EventType {
	return []adjudicator.EventType{
		{Name: "race.bids-revealed", Schema: 1, New: func() adjudicator.Event { return new(BidsRevealed) }},
		{Name: "race.advanced", Schema: 1, New: func() adjudicator.Event { return new(Advanced) }},
		{Name: "race.trapped", Schema: 1, New: func() adjudicator.Event { return new(Trapped) }},
		{Name: "race.trap-resolved", Schema: 1, New: func() adjudicator.Event { return new(TrapResolved) }},
		{Name: "race.phase-began", Schema: 1, New: func() adjudicator.Event { return new(PhaseBegan) }},
		{Name: "race.finished", Schema: 1, New: func() adjudicator.Event { return new(Finished) }},
	}
}

func (race) Evolve(s adjudicator.State, ev adjudicator.Event) adjudicator.State {
	st := s.(*State)
	st.Sequence++
	switch e := ev.(type) {
	case *BidsRevealed:
		for side, b := range e.Bids {
			st.Energy[side] -= b
		}
		st.Bids = e.Bids
		st.First = e.First
	case *Advanced:
		st.runner(e.Runner).At = e.To
	case *Trapped:
		st.Trapped = slices.Clone(e.Runners)
		st.Resume = e.Resume
		st.Phase = "trap"
	case *TrapResolved:
		st.runner(e.Runner).At = e.To
		st.Trapped = slices.DeleteFunc(st.Trapped, func(id string) bool { return id == e.Runner })
	case *PhaseBegan:
		st.Turn, st.Phase = e.Turn, e.Phase
		if e.Phase == "bid" {
			st.Bids = map[string]int{}
		}
	case *Finished:
		st.Winner, st.Over = e.Winner, true
	}
	return st
}

func (race) Clone(s adjudicator.State) adjudicator.State {
	st := *s.(*State)
	st.Energy = clone(st.Energy)
	st.Bids = clone(st.Bids)
	st.Options = clone(st.Options)
	st.Runners = slices.Clone(st.Runners)
	st.Trapped = slices.Clone(st.Trapped)
	return &st
}

func clone[V any](m map[string]V) map[string]V {
	out := make(map[string]V, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func (race) Decide(r *adjudicator.Resolution, subs []adjudicator.Submission) error {
	st := r.State().(*State)
	switch st.Phase {
	case "bid":
		bids := map[string]int{}
		for _, s := range subs {
			bids[string(s.Side)] = s.Orders.(Bid).Bid
		}
		first := "red"
		if bids["blue"] > bids["red"] {
			first = "blue"
		}
		r.Sayf("bids: red %d, blue %d", bids["red"], bids["blue"])
		if st.Options["scout"] == "yes" {
			scout := r.RollFor(adjudicator.To("red"), "red's scout", 1, 6)
			r.Tellf(adjudicator.To("red"), "red's scout sees blue's energy: %d (roll %d)", st.Energy["blue"], scout.Total)
			r.Tellf(adjudicator.RefereeOnly, "referee: red scouted")
		}
		if bids["blue"] == bids["red"] {
			for i := 0; ; i++ {
				if i == 20 {
					return fmt.Errorf("race: 20 tied roll-offs")
				}
				red, blue := r.Roll("roll-off red", 1, 6), r.Roll("roll-off blue", 1, 6)
				if red.Total != blue.Total {
					if blue.Total > red.Total {
						first = "blue"
					}
					red.Outcome, blue.Outcome = "tie broken", "tie broken"
					break
				}
				red.Outcome, blue.Outcome = "tied again", "tied again"
			}
		}
		r.Emit(&BidsRevealed{Bids: bids, First: first})
		r.Sayf("%s moves first", first)
		r.Emit(&PhaseBegan{Turn: st.Turn, Phase: "move-1"})
	case "move-1", "move-2":
		side := string(subs[0].Side)
		var trapped []string
		for _, m := range subs[0].Orders.([]Move) {
			ru := st.runner(m.Advance)
			roll := r.Roll("advance "+ru.ID, 1, 6)
			to := min(ru.At+roll.Total, st.Track)
			roll.Outcome = fmt.Sprintf("from %d to %d", ru.At, to)
			r.Emit(&Advanced{Runner: ru.ID, To: to})
			if to == st.Track {
				r.Sayf("%s finishes: %s wins", ru.ID, side)
				r.Emit(&Finished{Winner: side})
				return nil
			}
			if to%trapStep == 0 {
				trapped = append(trapped, ru.ID)
			}
		}
		next := "move-2"
		if st.Phase == "move-2" {
			next = "end"
		}
		if trapped != nil {
			r.Sayf("trapped: %v; %s decides", trapped, other(side))
			r.Emit(&Trapped{Runners: trapped, Resume: next})
			return nil
		}
		endOrNext(r, st, next)
	case "trap":
		for _, id := range slices.Clone(st.Trapped) {
			ru := st.runner(id)
			to := ru.At
			if subs[0].Orders.(Answers)[id] == "push" {
				to = max(0, to-2)
			}
			r.Sayf("%s: %s to %d", id, subs[0].Orders.(Answers)[id], to)
			r.Emit(&TrapResolved{Runner: id, To: to})
		}
		endOrNext(r, st, st.Resume)
	}
	return nil
}

func endOrNext(r *adjudicator.Resolution, st *State, next string) {
	if next != "end" {
		r.Emit(&PhaseBegan{Turn: st.Turn, Phase: next})
		return
	}
	if st.Turn >= st.Turns {
		sum := map[string]int{}
		for _, ru := range st.Runners {
			sum[ru.Side] += ru.At
		}
		w := "red"
		if sum["blue"] > sum["red"] {
			w = "blue"
		}
		r.Sayf("time is up: red %d, blue %d", sum["red"], sum["blue"])
		r.Emit(&Finished{Winner: w})
		return
	}
	r.Emit(&PhaseBegan{Turn: st.Turn + 1, Phase: "bid"})
}

func (race) View(s adjudicator.State, viewer adjudicator.Side) adjudicator.View {
	st := s.(*State)
	v := adjudicator.View{Turn: st.Turn, Phase: st.Phase, Over: st.Over, Winner: adjudicator.Side(st.Winner), Score: map[adjudicator.Side]int{}}
	for _, ru := range st.Runners {
		v.Units = append(v.Units, adjudicator.UnitView{ID: ru.ID, Side: adjudicator.Side(ru.Side), Type: "runner", At: fmt.Sprint(ru.At)})
		v.Score[adjudicator.Side(ru.Side)] += ru.At
	}
	v.Markers = map[string]any{}
	for side, e := range st.Energy {
		if viewer == adjudicator.Referee || string(viewer) == side {
			v.Markers["energy-"+side] = e
		}
	}
	if st.Over {
		v.Result = st.Winner + " wins"
	}
	return v
}
