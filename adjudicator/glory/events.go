package glory

import (
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/pause"
)

// Prefix names the ruleset's events ("glory.moved").
const Prefix = "glory"

// The events every chapter of the rules uses. A chapter with a fact of its
// own adds its event in its file and lists it in EventTypes.
type (
	// Resolving starts an adjudication: the last one's traces are cleared.
	Resolving struct{}
	// Stepped moves the game to a step of a turn (DG-TURN-1).
	Stepped struct {
		Turn       int              `json:"turn"`
		Step       string           `json:"step"`
		Mover      adjudicator.Side `json:"mover,omitempty"`
		First      adjudicator.Side `json:"first,omitempty"`
		Initiative adjudicator.Side `json:"initiative,omitempty"`
	}
	// Put sets where counters are: on the map at Hex, aboard Carrier, on
	// the track for Turn, in a pool, out of play…; Side, when set, gives
	// them a controller (an activated nation's forces, DG-ACT-12).
	Put struct {
		Units   []string         `json:"units"`
		Where   string           `json:"where"`
		Hex     string           `json:"hex,omitempty"`
		Carrier string           `json:"carrier,omitempty"`
		Turn    int              `json:"turn,omitempty"`
		Side    adjudicator.Side `json:"side,omitempty"`
		Why     string           `json:"why,omitempty"` // "setup", "replacement", "activation", "retreat"…
	}
	// Moved moves one counter along Path (its first hex is where it
	// started) and leaves it on the map at the last. Kind is the trace's:
	// move, fly, sail, retreat, advance, carried.
	Moved struct {
		Unit string   `json:"unit"`
		Path []string `json:"path"`
		Kind string   `json:"kind"`
	}
	// Flipped reduces (or restores) a counter (DG-COMP-7).
	Flipped struct {
		Unit    string `json:"unit"`
		Reduced bool   `json:"reduced"`
	}
	// Flagged sets a per-turn flag on ids (State.Done).
	Flagged struct {
		Flag string   `json:"flag"`
		IDs  []string `json:"ids"`
	}
	// NationChanged records a nation joining a side, being conquered, or
	// its capital moving.
	NationChanged struct {
		Nation    string           `json:"nation"`
		Side      adjudicator.Side `json:"side,omitempty"`
		Conquered adjudicator.Side `json:"conquered,omitempty"`
		Capital   string           `json:"capital,omitempty"`
		Back      int              `json:"back,omitempty"`
	}
	// TempleChanged records the Dark Temple: placed, captured, a draconian
	// brought in.
	TempleChanged struct {
		Hex        string `json:"hex,omitempty"`
		Taken      bool   `json:"taken,omitempty"`
		Draconians int    `json:"draconians"`
	}
	// CupChanged adds counters to the strategic event cup, or draws one.
	CupChanged struct {
		Added []string `json:"added,omitempty"`
		Drawn string   `json:"drawn,omitempty"`
		OnMap bool     `json:"on_map,omitempty"` // the drawn counter stays on the map
	}
	// BonusSet gives side an Activation bonus for the rest of the turn.
	BonusSet struct {
		Side   adjudicator.Side `json:"side"`
		Nation string           `json:"nation,omitempty"`
		Amount int              `json:"amount"`
	}
	// Traced records an action for the pictures: an attack, a naval
	// battle, a taunt (moves are traced by Moved).
	Traced struct {
		Trace adjudicator.Trace `json:"trace"`
	}
	// Captured gives a fortification to the side whose army entered it
	// (DG-CONQ-2).
	Captured struct {
		Hex  string           `json:"hex"`
		Side adjudicator.Side `json:"side"`
	}
	// Ended ends the game.
	Ended struct {
		Winner adjudicator.Side `json:"winner,omitempty"`
		Result string           `json:"result"`
	}
)

func (*Resolving) EventType() string     { return Prefix + ".resolving" }
func (*Stepped) EventType() string       { return Prefix + ".stepped" }
func (*Put) EventType() string           { return Prefix + ".put" }
func (*Moved) EventType() string         { return Prefix + ".moved" }
func (*Flipped) EventType() string       { return Prefix + ".flipped" }
func (*Flagged) EventType() string       { return Prefix + ".flagged" }
func (*NationChanged) EventType() string { return Prefix + ".nation" }
func (*TempleChanged) EventType() string { return Prefix + ".temple" }
func (*CupChanged) EventType() string    { return Prefix + ".cup" }
func (*BonusSet) EventType() string      { return Prefix + ".bonus" }
func (*Traced) EventType() string        { return Prefix + ".traced" }
func (*Captured) EventType() string      { return Prefix + ".captured" }
func (*Ended) EventType() string         { return Prefix + ".ended" }

func coreEvents() []adjudicator.EventType {
	ev := func(e adjudicator.Event, mk func() adjudicator.Event) adjudicator.EventType {
		return adjudicator.EventType{Name: e.EventType(), Schema: 1, New: mk}
	}
	out := []adjudicator.EventType{
		ev(&Resolving{}, func() adjudicator.Event { return &Resolving{} }),
		ev(&Stepped{}, func() adjudicator.Event { return &Stepped{} }),
		ev(&Put{}, func() adjudicator.Event { return &Put{} }),
		ev(&Moved{}, func() adjudicator.Event { return &Moved{} }),
		ev(&Flipped{}, func() adjudicator.Event { return &Flipped{} }),
		ev(&Flagged{}, func() adjudicator.Event { return &Flagged{} }),
		ev(&NationChanged{}, func() adjudicator.Event { return &NationChanged{} }),
		ev(&TempleChanged{}, func() adjudicator.Event { return &TempleChanged{} }),
		ev(&CupChanged{}, func() adjudicator.Event { return &CupChanged{} }),
		ev(&BonusSet{}, func() adjudicator.Event { return &BonusSet{} }),
		ev(&Traced{}, func() adjudicator.Event { return &Traced{} }),
		ev(&Captured{}, func() adjudicator.Event { return &Captured{} }),
		ev(&Ended{}, func() adjudicator.Event { return &Ended{} }),
	}
	return append(out, pause.Events(Prefix)...)
}

// evolve applies a core event; false when ev is not one.
func (s *State) evolve(ev adjudicator.Event) bool {
	switch e := ev.(type) {
	case *Resolving:
		s.Traces = nil
	case *Stepped:
		if e.Turn != s.Turn {
			s.Done, s.Bonus = nil, nil
		}
		s.Turn, s.Step, s.Mover, s.First = e.Turn, e.Step, e.Mover, e.First
		if e.Initiative != "" {
			s.Initiative = e.Initiative
		}
		if e.Step == StepMove {
			// Flags of one movement step (DG-WIZ-3) do not last into the next.
			delete(s.Done, "wizard-moved")
		}
	case *Put:
		for _, id := range e.Units {
			u := s.Units[id]
			u.Where, u.Hex, u.Carrier, u.Turn = e.Where, e.Hex, e.Carrier, e.Turn
			if e.Side != "" {
				u.Side = e.Side
			}
			if e.Where == InPool || e.Where == Out {
				u.Reduced = false
			}
		}
	case *Moved:
		u := s.Units[e.Unit]
		u.Where, u.Hex, u.Carrier = OnMap, e.Path[len(e.Path)-1], ""
		s.Traces = append(s.Traces, adjudicator.Trace{Kind: e.Kind, Unit: e.Unit, Path: slices.Clone(e.Path)})
	case *Flipped:
		s.Units[e.Unit].Reduced = e.Reduced
	case *Flagged:
		for _, id := range e.IDs {
			s.mark(e.Flag, id)
		}
	case *NationChanged:
		n := s.Nations[e.Nation]
		if e.Side != "" {
			n.Side = e.Side
		}
		if e.Conquered != "" {
			n.Conquered = e.Conquered
		}
		if e.Capital != "" {
			n.Capital = e.Capital
		}
		n.Back = e.Back
	case *TempleChanged:
		if e.Hex != "" {
			s.Temple = e.Hex
		}
		s.TempleTaken = s.TempleTaken || e.Taken
		s.Draconians = e.Draconians
	case *CupChanged:
		s.Cup = append(s.Cup, e.Added...)
		slices.Sort(s.Cup)
		if e.Drawn != "" {
			if i := slices.Index(s.Cup, e.Drawn); i >= 0 {
				s.Cup = slices.Delete(s.Cup, i, i+1)
			}
			s.Drawn = append(s.Drawn, e.Drawn)
			if e.OnMap {
				s.OnMapE = append(s.OnMapE, e.Drawn)
			}
		}
	case *BonusSet:
		if s.Bonus == nil {
			s.Bonus = map[adjudicator.Side]map[string]int{}
		}
		if s.Bonus[e.Side] == nil {
			s.Bonus[e.Side] = map[string]int{}
		}
		s.Bonus[e.Side][e.Nation] += e.Amount
	case *Traced:
		s.Traces = append(s.Traces, e.Trace)
	case *Captured:
		if s.Held == nil {
			s.Held = map[string]adjudicator.Side{}
		}
		s.Held[e.Hex] = e.Side
	case *Ended:
		s.Over, s.Winner, s.Result, s.Step = true, e.Winner, e.Result, StepOver
	default:
		return s.evolveStrategic(ev) || s.Pause.Apply(ev)
	}
	return true
}
