package dragonrage

import (
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Events. Their names are stored in every game's log: never rename one.
type (
	// Resolving starts an adjudication: the traces of the last one are cleared.
	Resolving struct{}
	// PhaseBegan moves the game to a phase.
	PhaseBegan struct {
		Turn  int    `json:"turn"`
		Phase string `json:"phase"`
		Pre   bool   `json:"pre,omitempty"`
	}
	// TurnBegan clears a side's per-turn flags.
	TurnBegan struct {
		Side adjudicator.Side `json:"side"`
	}
	// Placed sets a unit up on the map.
	Placed struct {
		Unit string `json:"unit"`
		Hex  string `json:"hex"`
	}
	// Moved moves a unit along a path (the hexes entered, in order).
	Moved struct {
		Unit string   `json:"unit"`
		From string   `json:"from,omitempty"` // "" when entering from off the map
		Path []string `json:"path"`
		Road bool     `json:"road,omitempty"`
	}
	// Flagged marks a unit for the rest of its turn.
	Flagged struct {
		Unit     string `json:"unit"`
		Attacked bool   `json:"attacked,omitempty"`
		NoAttack bool   `json:"no_attack,omitempty"`
		Ladder   bool   `json:"ladder,omitempty"`
	}
	// Eliminated removes a unit.
	Eliminated struct {
		Unit  string `json:"unit"`
		Cause string `json:"cause"`
	}
	// Wounded wounds a hero or Elowyn.
	Wounded struct {
		Unit string `json:"unit"`
	}
	// Damaged takes hit points from a monster.
	Damaged struct {
		Unit   string `json:"unit"`
		Points int    `json:"points"`
	}
	// VPDestroyed destroys a VP hex and scores it for the invader.
	VPDestroyed struct {
		Hex string `json:"hex"`
		VP  int    `json:"vp"`
		By  string `json:"by"`
	}
	// Scored changes the invader's score for another reason (Elowyn).
	Scored struct {
		Delta  int    `json:"delta"`
		Reason string `json:"reason"`
	}
	// EntranceChanged records a door or gate's new state.
	EntranceChanged struct {
		Side       string           `json:"side"` // the hexside, "0606/0707"
		Broken     bool             `json:"broken,omitempty"`
		Controller adjudicator.Side `json:"controller,omitempty"`
		OpenUntil  int              `json:"open_until,omitempty"`
	}
	// BridgeChanged records a wooden bridge's new state.
	BridgeChanged struct {
		Hex   string `json:"hex"`
		State string `json:"state"` // "destroyed:UNIT", "burned" or "" (intact)
	}
	// Reinforced brings a counter from the box onto the map.
	Reinforced struct {
		Unit string `json:"unit"`
		Hex  string `json:"hex"`
	}
	// Delayed sets how many reinforcements wait for a later turn.
	Delayed struct {
		Waiting int `json:"waiting"`
	}
	// ClockSet moves the Last Damage and last-inside markers (DR-WIN-3, -4).
	ClockSet struct {
		LastDamage int `json:"last_damage"`
		LastInside int `json:"last_inside"`
	}
	// GameOver ends the game.
	GameOver struct {
		Winner adjudicator.Side `json:"winner"`
		Result string           `json:"result"`
	}
	// Traced records an action for the picture of the adjudication.
	Traced struct {
		Trace adjudicator.Trace `json:"trace"`
	}
)

func (*Resolving) EventType() string       { return "dragonrage.resolving" }
func (*PhaseBegan) EventType() string      { return "dragonrage.phase-began" }
func (*TurnBegan) EventType() string       { return "dragonrage.turn-began" }
func (*Placed) EventType() string          { return "dragonrage.placed" }
func (*Moved) EventType() string           { return "dragonrage.moved" }
func (*Flagged) EventType() string         { return "dragonrage.flagged" }
func (*Eliminated) EventType() string      { return "dragonrage.eliminated" }
func (*Wounded) EventType() string         { return "dragonrage.wounded" }
func (*Damaged) EventType() string         { return "dragonrage.damaged" }
func (*VPDestroyed) EventType() string     { return "dragonrage.vp-destroyed" }
func (*Scored) EventType() string          { return "dragonrage.scored" }
func (*EntranceChanged) EventType() string { return "dragonrage.entrance-changed" }
func (*BridgeChanged) EventType() string   { return "dragonrage.bridge-changed" }
func (*Reinforced) EventType() string      { return "dragonrage.reinforced" }
func (*Delayed) EventType() string         { return "dragonrage.delayed" }
func (*ClockSet) EventType() string        { return "dragonrage.clock-set" }
func (*GameOver) EventType() string        { return "dragonrage.game-over" }
func (*Traced) EventType() string          { return "dragonrage.traced" }

// eventTypes lists every event with its schema: the core ones here, then
// each chapter's, declared in its own file.
var eventTypes = slices.Concat(coreEvents, magicEvents, elowynEvents, monsterEvents, majorEvents, pointEvents)

var coreEvents = []adjudicator.EventType{
	{Name: "dragonrage.resolving", Schema: 1, New: func() adjudicator.Event { return new(Resolving) }},
	{Name: "dragonrage.phase-began", Schema: 1, New: func() adjudicator.Event { return new(PhaseBegan) }},
	{Name: "dragonrage.turn-began", Schema: 1, New: func() adjudicator.Event { return new(TurnBegan) }},
	{Name: "dragonrage.placed", Schema: 1, New: func() adjudicator.Event { return new(Placed) }},
	{Name: "dragonrage.moved", Schema: 1, New: func() adjudicator.Event { return new(Moved) }},
	{Name: "dragonrage.flagged", Schema: 1, New: func() adjudicator.Event { return new(Flagged) }},
	{Name: "dragonrage.eliminated", Schema: 1, New: func() adjudicator.Event { return new(Eliminated) }},
	{Name: "dragonrage.wounded", Schema: 1, New: func() adjudicator.Event { return new(Wounded) }},
	{Name: "dragonrage.damaged", Schema: 1, New: func() adjudicator.Event { return new(Damaged) }},
	{Name: "dragonrage.vp-destroyed", Schema: 1, New: func() adjudicator.Event { return new(VPDestroyed) }},
	{Name: "dragonrage.scored", Schema: 1, New: func() adjudicator.Event { return new(Scored) }},
	{Name: "dragonrage.entrance-changed", Schema: 1, New: func() adjudicator.Event { return new(EntranceChanged) }},
	{Name: "dragonrage.bridge-changed", Schema: 1, New: func() adjudicator.Event { return new(BridgeChanged) }},
	{Name: "dragonrage.reinforced", Schema: 1, New: func() adjudicator.Event { return new(Reinforced) }},
	{Name: "dragonrage.delayed", Schema: 1, New: func() adjudicator.Event { return new(Delayed) }},
	{Name: "dragonrage.clock-set", Schema: 1, New: func() adjudicator.Event { return new(ClockSet) }},
	{Name: "dragonrage.game-over", Schema: 1, New: func() adjudicator.Event { return new(GameOver) }},
	{Name: "dragonrage.traced", Schema: 1, New: func() adjudicator.Event { return new(Traced) }},
}

// evolve applies an event in place. It cannot fail: events were checked
// when they were decided. It reports whether a chapter of the ruleset
// knows the event (TestEveryEventIsEvolved keeps every declared type
// known).
func evolve(st *State, ev adjudicator.Event) bool {
	switch e := ev.(type) {
	case *Resolving:
		st.Traces = nil
	case *PhaseBegan:
		if e.Turn != st.Turn {
			st.Major.HurtBy = nil // "in the turn it was killed" (DR-YDRAGON-9)
		}
		st.Turn, st.Phase, st.Pre = e.Turn, e.Phase, e.Pre
	case *TurnBegan:
		for _, u := range st.Units {
			if u.Side == e.Side {
				u.Moved, u.Attacked, u.NoAttack = false, false, false
				u.Mode, u.TookOff, u.Used = "", false, nil
			}
		}
	case *Placed:
		st.unit(e.Unit).Hex = e.Hex
	case *Moved:
		u := st.unit(e.Unit)
		u.Hex = e.Path[len(e.Path)-1]
		u.Moved = true
	case *Flagged:
		u := st.unit(e.Unit)
		u.Attacked = u.Attacked || e.Attacked
		u.NoAttack = u.NoAttack || e.NoAttack
		u.Ladder = u.Ladder || e.Ladder
	case *Eliminated:
		u := st.unit(e.Unit)
		u.Gone = true
	case *Wounded:
		st.unit(e.Unit).Wounded = true
	case *Damaged:
		st.unit(e.Unit).Damage += e.Points
	case *VPDestroyed:
		if st.Destroyed == nil {
			st.Destroyed = map[string]int{}
		}
		st.Destroyed[e.Hex] = e.VP
		st.VP += e.VP
		st.LastDamage = st.Turn
	case *Scored:
		st.VP += e.Delta
	case *EntranceChanged:
		if st.Entrances == nil {
			st.Entrances = map[string]*Entrance{}
		}
		st.Entrances[e.Side] = &Entrance{Broken: e.Broken, Controller: e.Controller, OpenUntil: e.OpenUntil}
	case *BridgeChanged:
		if st.Bridges == nil {
			st.Bridges = map[string]string{}
		}
		if e.State == "" {
			delete(st.Bridges, e.Hex)
		} else {
			st.Bridges[e.Hex] = e.State
		}
	case *Reinforced:
		u := st.unit(e.Unit)
		u.Pool, u.Gone, u.Hex = false, false, e.Hex
		u.Wounded, u.Damage = false, 0
	case *Delayed:
		st.Waiting = e.Waiting
	case *ClockSet:
		st.LastDamage, st.LastInside = e.LastDamage, e.LastInside
	case *GameOver:
		st.Over, st.Winner, st.Result = true, e.Winner, e.Result
	case *Traced:
		st.Traces = append(st.Traces, e.Trace)
	default:
		return evolveMore(st, ev)
	}
	return true
}

// evolveMore applies the chapters' own events; each chapter's evolve
// function returns true if it handled the event.
func evolveMore(st *State, ev adjudicator.Event) bool {
	for _, f := range []func(*State, adjudicator.Event) bool{evolveMagic, evolveElowyn, evolveMonsters, evolveMajor, evolvePoints} {
		if f(st, ev) {
			return true
		}
	}
	return false
}
