package conquete

import (
	"cmp"
	"fmt"
	"maps"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Prefix starts every event type of the campaign.
const Prefix = "dragonnoir-conquete."

// The events. An event that tells what a side may not know yet (an army
// sheet, a stealthy move, the messenger, a relation) is emitted sealed to
// its side (world.seal, adjudicator.Seal); the others are public.

// Await sets what the game waits for (requests.go); none: it is working.
type Await struct {
	Waits []Wait `json:"waits,omitempty"`
}

// At moves the turn machine to a phase and step (turn.go).
type At struct {
	Phase string `json:"phase"`
	Step  string `json:"step,omitempty"`
}

// TurnBegun starts a strategic turn at a day and slot of the calendar.
type TurnBegun struct {
	Turn int `json:"turn"`
	Day  int `json:"day"`
	Slot int `json:"slot"`
}

// Sheet changes a side's army sheet: the troops given replace (or add)
// those of the same id, the ones Removed leave the map, the counters given
// replace those of the same id. Sealed to the side when it tells what the
// other side may not know (HID-11, HID-12).
type Sheet struct {
	Side     adjudicator.Side `json:"side"`
	Troops   []*Troop         `json:"troops,omitempty"`
	Removed  []string         `json:"removed,omitempty"`
	Counters []*Counter       `json:"counters,omitempty"`
}

// MessengerSet records the Rebels' messenger (sealed to them, HID-9), or
// its announcement (public).
type MessengerSet struct {
	Messenger Messenger `json:"messenger"`
}

// RelationSet records the Reptilians' relation with a people (sealed to
// them until announced, HID-10).
type RelationSet struct {
	People string `json:"people"`
	Value  string `json:"value"` // A, N or E
}

// SertegNightSet records the night the Sertegs arrive (sealed to the
// Rebels, HID-8).
type SertegNightSet struct {
	Night int `json:"night"`
	// Turn is the turn they arrived in, once they have (public then).
	Turn int `json:"turn,omitempty"`
}

// MovementBegun starts the Movement phase: every ☑ turned back (AMB-96),
// the Rebels to move (DN3-CAMP-MOVE-1).
type MovementBegun struct{}

// Acted is one side's action in the movement alternation, public even
// when the move is hidden (PBEM-DN3-12): a move, or a pass.
type Acted struct {
	Side adjudicator.Side `json:"side"`
	Pass bool             `json:"pass,omitempty"`
}

// TroopMoved moves a troop along Path (the Regions entered, in order) to
// its last Region, on the path from Via or at the centre; the troops
// Centred (by Troop.Key) already there go to the centre
// (DN3-CAMP-MOVE-5). Sealed to its side for a stealthy troop.
type TroopMoved struct {
	Side    adjudicator.Side `json:"side"`
	Troop   string           `json:"troop"`
	Path    []string         `json:"path"`
	Via     string           `json:"via,omitempty"`
	Centred []string         `json:"centred,omitempty"`
}

// Revealed puts a stealthy troop back on the map (DN3-CAMP-REVEAL-6).
type Revealed struct {
	Side  adjudicator.Side `json:"side"`
	Troop string           `json:"troop"`
	Via   string           `json:"via,omitempty"`
	How   string           `json:"how"` // voluntary, forced, discovered
}

// NegotiationBegun starts Negotiations & Battles: the Reptilians choose
// first (DN3-CAMP-NEG-1).
type NegotiationBegun struct{}

// RegionChosen is a side's choice of the next Region to resolve.
type RegionChosen struct {
	Side   adjudicator.Side `json:"side"`
	Region string           `json:"region"`
}

// RegionStep moves the Region's resolution to its next step (negotiate.go).
// Again starts its fight over: both sides are still there after a Battle
// and its retreats (a people joined the side that had left it,
// DN3-CAMP-NEG-11), and choose again to fight or flee.
type RegionStep struct {
	Step  string `json:"step"`
	Again bool   `json:"again,omitempty"`
}

// FightChosen is both sides' fight-or-flee choices, revealed together
// (DN3-CAMP-BATTLE-3).
type FightChosen struct {
	Choices map[adjudicator.Side]string `json:"choices"`
}

// AttackDecided is the side alone in the Region deciding whether to
// attack the neutral people (DN3-CAMP-BATTLE-2).
type AttackDecided struct {
	Side   adjudicator.Side `json:"side"`
	Attack bool             `json:"attack"`
}

// RegionDone ends the Region's resolution (AMB-98).
type RegionDone struct {
	Region string `json:"region"`
}

// BattleBegun records a Battle, created as a child game (battle.go).
type BattleBegun struct {
	Key      string           `json:"key"`
	Region   string           `json:"region"`
	People   string           `json:"people,omitempty"`   // the people attacked (DN3-CAMP-BATTLE-2)
	Attacker adjudicator.Side `json:"attacker,omitempty"` // and who attacked it
	Step5    string           `json:"step5,omitempty"`    // the people of Step 5 waiting off the map (DN3-CAMP-NEG-11)
	// Units are the counters placed on its map (public: the position).
	Units []string `json:"units,omitempty"`
}

// BattleEnded records a Battle's end (its counters' fates are in a Sheet).
type BattleEnded struct {
	Key    string           `json:"key"`
	Winner adjudicator.Side `json:"winner,omitempty"`
	Result string           `json:"result"`
	// Left are the counters that left the map, to be placed in troops
	// where they went (DN3-CAMP-RETREAT-4).
	Left map[string]Exit `json:"left,omitempty"`
	// Dead are the counters killed in it (public: seen on its map), whom
	// its casters may still raise before the retreats (postbattle.go).
	Dead []string `json:"dead,omitempty"`
}

// RetreatPlanned is a side's answer on its retreat (PBEM-DN3-24, -25),
// sealed to it: which troops the counters that left the map join is its
// army sheet's business (HID-11).
type RetreatPlanned struct {
	Side adjudicator.Side `json:"side"`
	Plan *RetreatPlan     `json:"plan"`
}

// Placed records that the counters that left the map, or fled, have been
// placed: the retreats are over.
type Placed struct{}

// PeopleChanged sets a people's markers, allied side and whether its
// relation was announced.
type PeopleChanged struct {
	People    string           `json:"people"`
	Markers   []string         `json:"markers,omitempty"`
	Allied    adjudicator.Side `json:"allied,omitempty"`
	Announced bool             `json:"announced,omitempty"`
}

// FortHeld records who holds Fort Ekal (AMB-55).
type FortHeld struct {
	Side adjudicator.Side `json:"side"`
}

// Ended ends the game.
type Ended struct {
	Winner adjudicator.Side `json:"winner,omitempty"`
	Result string           `json:"result"`
}

func (*Await) EventType() string            { return Prefix + "await" }
func (*At) EventType() string               { return Prefix + "at" }
func (*TurnBegun) EventType() string        { return Prefix + "turn" }
func (*Sheet) EventType() string            { return Prefix + "sheet" }
func (*MessengerSet) EventType() string     { return Prefix + "messenger" }
func (*RelationSet) EventType() string      { return Prefix + "relation" }
func (*SertegNightSet) EventType() string   { return Prefix + "serteg-night" }
func (*MovementBegun) EventType() string    { return Prefix + "movement" }
func (*Acted) EventType() string            { return Prefix + "acted" }
func (*TroopMoved) EventType() string       { return Prefix + "moved" }
func (*Revealed) EventType() string         { return Prefix + "revealed" }
func (*NegotiationBegun) EventType() string { return Prefix + "negotiation" }
func (*RegionChosen) EventType() string     { return Prefix + "region" }
func (*RegionStep) EventType() string       { return Prefix + "region-step" }
func (*FightChosen) EventType() string      { return Prefix + "fight" }
func (*AttackDecided) EventType() string    { return Prefix + "attack" }
func (*RegionDone) EventType() string       { return Prefix + "region-done" }
func (*BattleBegun) EventType() string      { return Prefix + "battle" }
func (*BattleEnded) EventType() string      { return Prefix + "battle-ended" }
func (*RetreatPlanned) EventType() string   { return Prefix + "retreat-plan" }
func (*Placed) EventType() string           { return Prefix + "placed" }
func (*PeopleChanged) EventType() string    { return Prefix + "people" }
func (*FortHeld) EventType() string         { return Prefix + "fort" }
func (*Ended) EventType() string            { return Prefix + "ended" }

func eventTypes() []adjudicator.EventType {
	evs := []adjudicator.Event{&Await{}, &At{}, &TurnBegun{}, &Sheet{}, &MessengerSet{}, &RelationSet{}, &SertegNightSet{},
		&MovementBegun{}, &Acted{}, &TroopMoved{}, &Revealed{}, &NegotiationBegun{}, &RegionChosen{}, &RegionStep{},
		&FightChosen{}, &AttackDecided{}, &RegionDone{}, &BattleBegun{}, &BattleEnded{}, &RetreatPlanned{}, &Placed{}, &PeopleChanged{}, &FortHeld{}, &Ended{}, &MarkerDrawn{}}
	var out []adjudicator.EventType
	for _, e := range evs {
		proto := e
		out = append(out, adjudicator.EventType{Name: e.EventType(), Schema: 1, New: func() adjudicator.Event {
			return newLike(proto)
		}})
	}
	return append(out, adjudicator.SeriesEventTypes()...)
}

// newLike returns a new zero event of ev's type.
func newLike(ev adjudicator.Event) adjudicator.Event {
	switch ev.(type) {
	case *Await:
		return &Await{}
	case *At:
		return &At{}
	case *TurnBegun:
		return &TurnBegun{}
	case *Sheet:
		return &Sheet{}
	case *MessengerSet:
		return &MessengerSet{}
	case *RelationSet:
		return &RelationSet{}
	case *SertegNightSet:
		return &SertegNightSet{}
	case *MovementBegun:
		return &MovementBegun{}
	case *Acted:
		return &Acted{}
	case *TroopMoved:
		return &TroopMoved{}
	case *Revealed:
		return &Revealed{}
	case *NegotiationBegun:
		return &NegotiationBegun{}
	case *RegionChosen:
		return &RegionChosen{}
	case *RegionStep:
		return &RegionStep{}
	case *FightChosen:
		return &FightChosen{}
	case *AttackDecided:
		return &AttackDecided{}
	case *RegionDone:
		return &RegionDone{}
	case *BattleBegun:
		return &BattleBegun{}
	case *BattleEnded:
		return &BattleEnded{}
	case *RetreatPlanned:
		return &RetreatPlanned{}
	case *Placed:
		return &Placed{}
	case *PeopleChanged:
		return &PeopleChanged{}
	case *MarkerDrawn:
		return &MarkerDrawn{}
	case *FortHeld:
		return &FortHeld{}
	case *Ended:
		return &Ended{}
	}
	panic(fmt.Sprintf("conquete: no event type %T", ev))
}

// troopOrder sorts troops: the Rebels' first, then by id.
func troopOrder(a, b *Troop) int {
	if a.Side != b.Side {
		return cmp.Compare(slices.Index(sides, a.Side), slices.Index(sides, b.Side))
	}
	return cmp.Compare(a.ID, b.ID)
}

// evolve applies ev; false for an event it does not know.
func (st *State) evolve(ev adjudicator.Event) bool {
	switch e := ev.(type) {
	case *Await:
		st.Waits = slices.Clone(e.Waits)
		for _, w := range e.Waits {
			st.Asked = max(st.Asked, w.N)
		}
	case *At:
		st.Phase, st.Step = e.Phase, e.Step
	case *TurnBegun:
		st.Turn, st.Day, st.Slot = e.Turn, e.Day, e.Slot
	case *Sheet:
		for _, t := range e.Troops {
			x := *t
			x.Counters = slices.Clone(t.Counters)
			if i := slices.IndexFunc(st.Troops, func(o *Troop) bool { return o.Side == t.Side && o.ID == t.ID }); i >= 0 {
				st.Troops[i] = &x
			} else {
				st.Troops = append(st.Troops, &x)
			}
		}
		st.Troops = slices.DeleteFunc(st.Troops, func(t *Troop) bool { return t.Side == e.Side && slices.Contains(e.Removed, t.ID) })
		slices.SortFunc(st.Troops, troopOrder)
		for _, c := range e.Counters {
			x := *c
			st.Counters[c.ID] = &x
		}
	case *MessengerSet:
		st.Messenger = e.Messenger
	case *RelationSet:
		if st.Relations == nil {
			st.Relations = map[string]string{}
		}
		st.Relations[e.People] = e.Value
	case *SertegNightSet:
		st.SertegNight = e.Night
		if e.Turn > 0 {
			st.SertegTurn = e.Turn
		}
	case *MovementBegun:
		for _, t := range st.Troops {
			t.Moved, t.Trail, t.TrailHidden = false, nil, false
		}
		st.Mover, st.Passes = Rebels, 0
	case *Acted:
		if e.Pass {
			st.Passes++
		} else {
			st.Passes = 0
		}
		st.Mover = Other(e.Side)
	case *TroopMoved:
		if t := st.Troop(e.Side, e.Troop); t != nil && len(e.Path) > 0 {
			t.Trail, t.TrailHidden = append([]string{t.Region}, e.Path...), t.Stealthy
			t.Region, t.Via, t.Moved = e.Path[len(e.Path)-1], e.Via, true
		}
		for _, t := range st.Troops {
			if slices.Contains(e.Centred, t.Key()) {
				t.Via = ""
			}
		}
	case *Revealed:
		if t := st.Troop(e.Side, e.Troop); t != nil {
			t.Stealthy, t.Via = false, e.Via
		}
	case *NegotiationBegun:
		st.Chooser, st.Resolved, st.Region = Reptilians, nil, nil
	case *RegionChosen:
		st.Region = &Resolving{Region: e.Region, Step: StepNegotiate}
		st.Chooser = Other(e.Side)
	case *RegionStep:
		if st.Region != nil {
			st.Region.Step = e.Step
			if e.Again {
				st.Region.Fight, st.Region.Attack, st.Region.Battle = nil, "", ""
				st.Region.Left, st.Region.Plans, st.Region.Drawn = nil, nil, nil
			}
		}
	case *FightChosen:
		if st.Region != nil {
			st.Region.Fight = e.Choices
		}
	case *AttackDecided:
		if st.Region != nil && e.Attack {
			st.Region.Attack = e.Side
		}
	case *RegionDone:
		st.Resolved = append(st.Resolved, e.Region)
		st.Region = nil
	case *BattleBegun:
		st.Battles = append(st.Battles, &Battle{Key: e.Key, Turn: st.Turn, Region: e.Region, People: e.People, Attacker: e.Attacker, Step5: e.Step5, Units: slices.Clone(e.Units)})
		if st.Region != nil {
			st.Region.Battle = e.Key
		}
	case *BattleEnded:
		for _, b := range st.Battles {
			if b.Key == e.Key {
				b.Done, b.Winner, b.Result = true, e.Winner, e.Result
				b.Dead = slices.Clone(e.Dead)
			}
		}
		if st.Region != nil && len(e.Left) > 0 {
			st.Region.Left = maps.Clone(e.Left)
		}
	case *RetreatPlanned:
		if st.Region != nil {
			if st.Region.Plans == nil {
				st.Region.Plans = map[adjudicator.Side]*RetreatPlan{}
			}
			st.Region.Plans[e.Side] = e.Plan.clone()
		}
	case *Placed:
		if st.Region != nil {
			st.Region.Left, st.Region.Plans = nil, nil
		}
	case *PeopleChanged:
		p := st.Peoples[e.People]
		if p == nil {
			p = &PeopleState{ID: e.People}
			st.Peoples[e.People] = p
		}
		p.Markers, p.Allied, p.Announced = slices.Clone(e.Markers), e.Allied, e.Announced
	case *MarkerDrawn:
		if st.Region != nil {
			if st.Region.Drawn == nil {
				st.Region.Drawn = map[adjudicator.Side]string{}
			}
			st.Region.Drawn[e.Side] = e.Marker
		}
	case *FortHeld:
		st.Held = e.Side
	case *Ended:
		st.Over, st.Winner, st.Result = true, e.Winner, e.Result
		st.Phase, st.Waits = PhaseOver, nil
	case *adjudicator.ChildGame:
		// The games service creates the child; BattleBegun has the rest.
	default:
		return false
	}
	return true
}
