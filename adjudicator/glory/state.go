package glory

import (
	"maps"
	"slices"
	"sort"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/pause"
)

// The two sides (DG-SETUP-1).
const (
	Highlord   adjudicator.Side = "highlord"
	Whitestone adjudicator.Side = "whitestone"
)

// Other returns the other side.
func Other(s adjudicator.Side) adjudicator.Side {
	if s == Highlord {
		return Whitestone
	}
	return Highlord
}

// Where a counter is (DG-STATE-2).
const (
	OnMap     = "map"       // Hex (or a river hexside "CCRR/CCRR" for a fleet)
	Aboard    = "aboard"    // carried by the fleet Carrier
	InMael    = "maelstrom" // a fleet caught in the Maelstrom (DG-MAEL-2)
	OnTrack   = "track"     // enters on turn Turn
	InReserve = "reserve"   // off the map until its nation is activated, or an event or the Dark Temple brings it in
	InPool    = "pool"      // its side's Replacement Pool (DG-REPL-2)
	Unused    = "unused"    // not in this scenario
	Out       = "out"       // permanently out of play
)

// Unit is one counter in play.
type Unit struct {
	ID      string           `json:"id"`
	Side    adjudicator.Side `json:"side,omitempty"` // who controls it; "" while its nation is neutral
	Reduced bool             `json:"reduced,omitempty"`
	Where   string           `json:"where"`
	Hex     string           `json:"hex,omitempty"`
	Carrier string           `json:"carrier,omitempty"`
	Turn    int              `json:"turn,omitempty"`
}

// NationState is a nation's standing in the war (DG-STATE-4).
type NationState struct {
	Side      adjudicator.Side `json:"side,omitempty"`      // its ally; "" while neutral
	Conquered adjudicator.Side `json:"conquered,omitempty"` // the side that conquered it (DG-CONQ)
	Capital   string           `json:"capital,omitempty"`   // its capital now, when it moved (DG-CAP)
	Back      int              `json:"back,omitempty"`      // a dismantled capital returns on this turn (DG-CAP-5)
}

// Steps of a turn, as the state records them.
const (
	StepStrategic = "strategic" // steps 1 to 4 (DG-TURN-1): one mail from each side
	StepMove      = "move"      // steps 5 and 6, or 7, of Mover
	StepOver      = "over"
)

// State is a game of Dragons of Glory. It encodes to JSON deterministically
// (maps are written in key order).
type State struct {
	data *Data // the module, never encoded

	Module   string `json:"module"` // the module's digest
	Scenario string `json:"scenario"`
	Options  Rules  `json:"options"`

	Turn       int              `json:"turn"`
	End        int              `json:"end"`
	Step       string           `json:"step"`
	Mover      adjudicator.Side `json:"mover,omitempty"`
	First      adjudicator.Side `json:"first,omitempty"`      // who moves first this turn
	Initiative adjudicator.Side `json:"initiative,omitempty"` // who won the initiative last (DG-TURN-5)

	Units   map[string]*Unit        `json:"units"`
	Nations map[string]*NationState `json:"nations"`

	// Held is who holds each fortification that has changed hands
	// (DG-CONQ-2); the others are held by their nation's ally.
	Held map[string]adjudicator.Side `json:"held,omitempty"`

	Cup    []string `json:"cup,omitempty"`    // strategic event counters in the cup (DG-EVT)
	Drawn  []string `json:"drawn,omitempty"`  // drawn, in order
	OnMapE []string `json:"on_map,omitempty"` // drawn counters placed on the map (wizards, lances…)

	Temple      string `json:"temple,omitempty"`       // the Dark Temple's hex (DG-DRAC-2)
	TempleTaken bool   `json:"temple_taken,omitempty"` // WS captured it (DG-DRAC-8)
	Draconians  int    `json:"draconians,omitempty"`   // draconian counters brought in (DG-DRAC-6)
	Knights     bool   `json:"knights,omitempty"`      // the Knights of the Tower are placed (DG-ACT-10)

	// Bonus is this turn's Activation bonus from strategic events, by side
	// and nation ("" for every nation).
	Bonus map[adjudicator.Side]map[string]int `json:"bonus,omitempty"`
	// Done holds this turn's flags, by flag name, as sorted lists: "moved",
	// "transported", "attacked", "taunted", "taunt-used", "fleet-moved",
	// "escaped", "defended-hex", "attacking-hex", "wizard-moved".
	Done map[string][]string `json:"done,omitempty"`
	// Strength is each side's army strength at the start, for a scenario
	// won on losses.
	Strength map[adjudicator.Side]int `json:"strength,omitempty"`

	Pause pause.State `json:"pause"`
	// Traces is what the current adjudication did, for the pictures.
	Traces []adjudicator.Trace `json:"traces,omitempty"`

	Over   bool             `json:"over,omitempty"`
	Winner adjudicator.Side `json:"winner,omitempty"`
	Result string           `json:"result,omitempty"`
}

// Rules are the game options that change the rules.
type Rules struct {
	Hidden   bool `json:"hidden,omitempty"`   // hidden stacks (DG-HIDE, optional)
	Capitals bool `json:"capitals,omitempty"` // moving semi-human capitals (DG-CAP, optional)
}

// Data is the module the game is played from.
func (s *State) Data() *Data { return s.data }

// Clone returns a deep copy.
func (s *State) Clone() *State {
	c := *s
	c.Units = make(map[string]*Unit, len(s.Units))
	for id, u := range s.Units {
		v := *u
		c.Units[id] = &v
	}
	c.Nations = make(map[string]*NationState, len(s.Nations))
	for id, n := range s.Nations {
		v := *n
		c.Nations[id] = &v
	}
	c.Cup, c.Drawn, c.OnMapE = slices.Clone(s.Cup), slices.Clone(s.Drawn), slices.Clone(s.OnMapE)
	if s.Bonus != nil {
		c.Bonus = map[adjudicator.Side]map[string]int{}
		for k, v := range s.Bonus {
			c.Bonus[k] = maps.Clone(v)
		}
	}
	if s.Done != nil {
		c.Done = make(map[string][]string, len(s.Done))
		for k, v := range s.Done {
			c.Done[k] = slices.Clone(v)
		}
	}
	c.Strength = maps.Clone(s.Strength)
	c.Held = maps.Clone(s.Held)
	c.Pause = s.Pause.Clone()
	c.Traces = slices.Clone(s.Traces)
	return &c
}

// Kind returns the counter's kind.
func (s *State) Kind(id string) *CounterKind { return s.data.Counters[id] }

// Face is the counter's current face.
func (s *State) Face(u *Unit) Face {
	k := s.Kind(u.ID)
	if u.Reduced && k.Half != nil {
		return *k.Half
	}
	return k.Full
}

// Is reports whether id carries flag this turn.
func (s *State) Is(flag, id string) bool {
	_, ok := slices.BinarySearch(s.Done[flag], id)
	return ok
}

func (s *State) mark(flag, id string) {
	if s.Done == nil {
		s.Done = map[string][]string{}
	}
	l := s.Done[flag]
	if i, ok := slices.BinarySearch(l, id); !ok {
		s.Done[flag] = slices.Insert(l, i, id)
	}
}

// At lists the counters on the map at hex h, in ID order.
func (s *State) At(h string) []*Unit {
	var out []*Unit
	for _, u := range s.Units {
		if u.Where == OnMap && u.Hex == h {
			out = append(out, u)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Sorted lists every counter in ID order.
func (s *State) Sorted() []*Unit {
	out := make([]*Unit, 0, len(s.Units))
	for _, u := range s.Units {
		out = append(out, u)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// IsArmy reports whether the counter is a land or air army (DG conventions:
// leaders, wizards and fleets are not armies).
func (k *CounterKind) IsArmy() bool {
	return k.Type == Infantry || k.Type == Cavalry || k.Type == Air
}

// IsLand reports whether the counter is a land army.
func (k *CounterKind) IsLand() bool { return k.Type == Infantry || k.Type == Cavalry }

// Armies lists side's armies on the map at hex h.
func (s *State) Armies(h string, side adjudicator.Side) []*Unit {
	var out []*Unit
	for _, u := range s.At(h) {
		if u.Side == side && s.Kind(u.ID).IsArmy() {
			out = append(out, u)
		}
	}
	return out
}

// EnemyArmiesAt reports whether h holds armies of side's enemy.
func (s *State) EnemyArmiesAt(h string, side adjudicator.Side) bool {
	return len(s.Armies(h, Other(side))) > 0
}
