package conquete

import (
	"maps"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// The sides (DN3-CAMP-SIDE-2).
const (
	Rebels     adjudicator.Side = "rebels"
	Reptilians adjudicator.Side = "reptilians"
)

// sides in the order they act in movement (DN3-CAMP-MOVE-1).
var sides = []adjudicator.Side{Rebels, Reptilians}

// Other is the other side.
func Other(s adjudicator.Side) adjudicator.Side {
	if s == Rebels {
		return Reptilians
	}
	return Rebels
}

// The phases of the turn machine (turn.go). A strategic turn is start,
// reorganisation, movement, reveal, negotiation, end (DN3-CAMP-TURN-2);
// the game starts in setup.
const (
	PhaseSetup       = "setup"
	PhaseStart       = "start"
	PhaseReorg       = "reorganisation"
	PhaseMovement    = "movement"
	PhaseReveal      = "reveal"
	PhaseNegotiation = "negotiation"
	PhaseEnd         = "end"
	PhaseOver        = "over"
)

// Fatigue levels (DN3-CAMP-REST-5).
const (
	Fresh     = ""
	Fatigued  = "fatigued"
	Exhausted = "exhausted"
)

// Troop IDs: R1 … R8 for a side's markers (DN3-CAMP-TROOP-3), and the two
// special markers outside the 8 (AMB-53).
const (
	MaxTroops   = 8
	SertegTroop = "S"
	KandarTroop = "K"
)

// Troop is one Troop marker on the strategic map and its box on the army
// sheet (DN3-CAMP-TROOP-1).
type Troop struct {
	ID       string           `json:"id"`
	Side     adjudicator.Side `json:"side"`
	Region   string           `json:"region"`
	Via      string           `json:"via,omitempty"` // on the path from this Region (DN3-CAMP-MOVE-5); "" at the centre
	Counters []string         `json:"counters"`
	Stealthy bool             `json:"stealthy,omitempty"` // off the map, its place on the army sheet (DN3-CAMP-STEALTH-3)
	Rest     bool             `json:"rest,omitempty"`     // a "Repos" marker (DN3-CAMP-REST-2)
	// RestSince is the turn the Rest marker was placed in: a Troop at Rest
	// for the whole previous turn recovers (DN3-CAMP-REST-8).
	RestSince int    `json:"rest_since,omitempty"`
	Fatigue   string `json:"fatigue,omitempty"` // "", fatigued, exhausted
	Moved     bool   `json:"moved,omitempty"`   // the ☑ face (DN3-CAMP-MOVE-8)
	// Trail is the troop's move in this Movement phase, the Region it left
	// first, for the region pictures (regions.go); TrailHidden: it moved
	// stealthily, and only its side may see where it went.
	Trail       []string `json:"trail,omitempty"`
	TrailHidden bool     `json:"trail_hidden,omitempty"`
}

// Key is the troop's id qualified by its side, unique in the game: both
// sides have an R1.
func (t *Troop) Key() string { return string(t.Side) + "/" + t.ID }

// Counter is one counter in the game: a side's, or a people's until it
// allies.
type Counter struct {
	ID     string           `json:"id"`
	Kind   string           `json:"kind"`
	Side   adjudicator.Side `json:"side,omitempty"`   // rebels or reptilians; "" while its people is neutral
	People string           `json:"people,omitempty"` // its people, for a people's counter
	Wounds int              `json:"wounds,omitempty"`
	PE     int              `json:"pe,omitempty"`
	Dead   bool             `json:"dead,omitempty"`
	// Cast is the strategic turn it last cast a strategic spell in
	// (AMB-85: one a strategic turn), sealed to its side (magic.go).
	Cast int `json:"cast,omitempty"`
}

// PeopleState is a people of the valley in the game.
type PeopleState struct {
	ID string `json:"id"`
	// Markers are the Regions where its marker still stands
	// (DN3-CAMP-SETUP-4); a marker is removed when the people allies
	// (DN3-CAMP-MAP-4).
	Markers []string         `json:"markers,omitempty"`
	Allied  adjudicator.Side `json:"allied,omitempty"`
	// Announced: the Reptilian player has announced his relation with it
	// (DN3-CAMP-REL-3); from then every side sees it.
	Announced bool `json:"announced,omitempty"`
}

// Messenger is the Rebels' secret messenger (DN3-CAMP-ALLY-2, HID-9):
// an allied people or a traitor war chief.
type Messenger struct {
	Ally    string `json:"ally,omitempty"`
	Traitor string `json:"traitor,omitempty"`
	// Announced: the Rebel player has announced it (DN3-CAMP-ALLY-4,
	// DN3-CAMP-TRAITOR-1); from then every side sees it.
	Announced bool `json:"announced,omitempty"`
}

// Wait is one request the game waits for; Due builds the request from it
// (requests.go) so that its words are never in the log.
type Wait struct {
	Phase string           `json:"phase"` // a key of requestKinds
	Side  adjudicator.Side `json:"side"`
	N     int              `json:"n"`             // the asking's number in the game, for unique ids
	Key   string           `json:"key,omitempty"` // a battle's child key
}

// Resolving is the Region being resolved in Negotiations & Battles
// (DN3-CAMP-NEG-4) and where its resolution stands.
type Resolving struct {
	Region string `json:"region"`
	Step   string `json:"step"` // regionSteps
	// Fight is each side's fight-or-flee choice (DN3-CAMP-BATTLE-3),
	// "fight" or "flee"; none when there was no choice.
	Fight map[adjudicator.Side]string `json:"fight,omitempty"`
	// Attack: the side alone here decided to attack the neutral people
	// (DN3-CAMP-BATTLE-2).
	Attack adjudicator.Side `json:"attack,omitempty"`
	Battle string           `json:"battle,omitempty"` // the Battle's child key
	// Drawn are the Negotiation markers drawn here (Step 5: each sealed to
	// its side, DN3-CAMP-NEG-11, HID-14), by side.
	Drawn map[adjudicator.Side]string `json:"drawn,omitempty"`
	// Left are the counters that left the Battle's map, each with where it
	// went, waiting to be placed in troops (DN3-CAMP-RETREAT-4).
	Left map[string]Exit `json:"left,omitempty"`
	// Plans are the sides' answers on their retreats (PBEM-DN3-24, -25),
	// applied together (battle_retreat.go).
	Plans map[adjudicator.Side]*RetreatPlan `json:"plans,omitempty"`
}

// Exit is a counter that left a Battle's map by the edge leading to To,
// from a troop as tired as Fatigue.
type Exit struct {
	To      string `json:"to"`
	Fatigue string `json:"fatigue,omitempty"`
}

// RetreatPlan is a side's answer on its retreat: the path each of its
// troops at the centre flees by (DN3-CAMP-RETREAT-2, PBEM-DN3-24), or the
// troops the counters that left the map join (DN3-CAMP-RETREAT-4,
// PBEM-DN3-25).
type RetreatPlan struct {
	Paths  map[string]string   `json:"paths,omitempty" yaml:"paths,omitempty"`
	Troops map[string][]string `json:"troops,omitempty" yaml:"troops,omitempty"`
	Order  []string            `json:"order,omitempty" yaml:"-"` // Troops' ids in the order given
}

// Battle is a Battle created as a child game.
type Battle struct {
	Key    string `json:"key"`
	Turn   int    `json:"turn"`
	Region string `json:"region"`
	People string `json:"people,omitempty"` // the people attacked, if any
	// Attacker is the side that attacked People (DN3-CAMP-BATTLE-2).
	Attacker adjudicator.Side `json:"attacker,omitempty"`
	// Step5 is the people waiting off the map for the Negotiation markers
	// revealed at the end of turn 5 (DN3-CAMP-NEG-11, -BATTLE-9).
	Step5  string           `json:"step5,omitempty"`
	Done   bool             `json:"done,omitempty"`
	Winner adjudicator.Side `json:"winner,omitempty"` // the campaign side that won, "" for none
	Result string           `json:"result,omitempty"`
	// Units are the counters placed on its map; Dead those killed in it
	// (the post-battle spells', postbattle.go).
	Units []string `json:"units,omitempty"`
	Dead  []string `json:"dead,omitempty"`
}

// State is a game of the campaign: the referee's whole knowledge. What
// each side may see of it is View's business (view.go).
type State struct {
	Phase string `json:"phase"`
	Step  string `json:"step,omitempty"`
	Turn  int    `json:"turn"` // the strategic turn, from 1
	Day   int    `json:"day"`
	Slot  int    `json:"slot"` // index in the calendar's slots
	// Length is the last turn's day and slot (game option length).
	LastDay  int `json:"last_day"`
	LastSlot int `json:"last_slot"`
	// RefereeBattles: the referee decides the Battles (option battles).
	RefereeBattles bool `json:"referee_battles,omitempty"`
	// BattleModule is the Dragon Noir module the Battles are played from
	// (option battle-module; "" for the builtin).
	BattleModule string `json:"battle_module,omitempty"`

	Troops   []*Troop                `json:"troops"`
	Counters map[string]*Counter     `json:"counters"`
	Peoples  map[string]*PeopleState `json:"peoples"`

	Messenger   Messenger         `json:"messenger"`
	Relations   map[string]string `json:"relations,omitempty"` // people → A, N or E (DN3-CAMP-REL-1)
	SertegNight int               `json:"serteg_night,omitempty"`
	SertegTurn  int               `json:"serteg_turn,omitempty"` // the turn the Sertegs arrived in
	// Held is the side that holds Fort Ekal (AMB-55).
	Held adjudicator.Side `json:"held,omitempty"`

	Waits  []Wait           `json:"waits,omitempty"`
	Asked  int              `json:"asked"`            // askings so far (Wait.N)
	Mover  adjudicator.Side `json:"mover,omitempty"`  // whose move it is (DN3-CAMP-MOVE-1)
	Passes int              `json:"passes,omitempty"` // passes in a row (DN3-CAMP-MOVE-10)

	Chooser  adjudicator.Side `json:"chooser,omitempty"`  // who chooses the next Region (DN3-CAMP-NEG-1)
	Resolved []string         `json:"resolved,omitempty"` // Regions resolved this phase (AMB-98)
	Region   *Resolving       `json:"region,omitempty"`
	Battles  []*Battle        `json:"battles,omitempty"`

	Over   bool             `json:"over,omitempty"`
	Winner adjudicator.Side `json:"winner,omitempty"`
	Result string           `json:"result,omitempty"`

	data *Data
}

// Data is the module the game is played from.
func (st *State) Data() *Data { return st.data }

// Troop is side's troop id, nil if none.
func (st *State) Troop(side adjudicator.Side, id string) *Troop {
	for _, t := range st.Troops {
		if t.Side == side && t.ID == id {
			return t
		}
	}
	return nil
}

// SideTroops are side's troops, in order.
func (st *State) SideTroops(side adjudicator.Side) []*Troop {
	var out []*Troop
	for _, t := range st.Troops {
		if t.Side == side {
			out = append(out, t)
		}
	}
	return out
}

// TroopsIn are the troops in region, of side ("" for both).
func (st *State) TroopsIn(region string, side adjudicator.Side) []*Troop {
	var out []*Troop
	for _, t := range st.Troops {
		if t.Region == region && (side == "" || t.Side == side) {
			out = append(out, t)
		}
	}
	return out
}

// Visible reports whether side has a visible (not stealthy) troop in region.
func (st *State) Visible(region string, side adjudicator.Side) bool {
	for _, t := range st.TroopsIn(region, side) {
		if !t.Stealthy {
			return true
		}
	}
	return false
}

// TroopOf is the troop holding counter id, nil if none.
func (st *State) TroopOf(id string) *Troop {
	for _, t := range st.Troops {
		if slices.Contains(t.Counters, id) {
			return t
		}
	}
	return nil
}

// PeopleAt is the people whose marker stands in region, "" if none.
func (st *State) PeopleAt(region string) string {
	for _, id := range st.data.PeopleOrder {
		if p := st.Peoples[id]; p != nil && slices.Contains(p.Markers, region) {
			return id
		}
	}
	return ""
}

// markerIDs are side's troop ids on the map among R1 … R8.
func (st *State) markersUsed(side adjudicator.Side) int {
	n := 0
	for _, t := range st.SideTroops(side) {
		if t.ID != SertegTroop && t.ID != KandarTroop {
			n++
		}
	}
	return n
}

// FreeMarker is side's first free troop id among R1 … R8, "" when all 8
// are on the map (DN3-CAMP-TROOP-3).
func (st *State) FreeMarker(side adjudicator.Side) string {
	for i := 1; i <= MaxTroops; i++ {
		id := "R" + string(rune('0'+i))
		if st.Troop(side, id) == nil {
			return id
		}
	}
	return ""
}

// Night reports whether the current turn is a night turn.
func (st *State) Night() bool { return st.data.Slots[st.Slot].Night }

// Living are side's living counters in its troops.
func (st *State) Living(side adjudicator.Side) []string {
	var out []string
	for _, t := range st.SideTroops(side) {
		for _, id := range t.Counters {
			if c := st.Counters[id]; c != nil && !c.Dead {
				out = append(out, id)
			}
		}
	}
	return out
}

// Clone is a deep copy.
func (st *State) Clone() *State {
	c := *st
	c.Troops = make([]*Troop, len(st.Troops))
	for i, t := range st.Troops {
		x := *t
		x.Counters = slices.Clone(t.Counters)
		x.Trail = slices.Clone(t.Trail)
		c.Troops[i] = &x
	}
	c.Counters = make(map[string]*Counter, len(st.Counters))
	for id, x := range st.Counters {
		y := *x
		c.Counters[id] = &y
	}
	c.Peoples = make(map[string]*PeopleState, len(st.Peoples))
	for id, p := range st.Peoples {
		q := *p
		q.Markers = slices.Clone(p.Markers)
		c.Peoples[id] = &q
	}
	c.Relations = maps.Clone(st.Relations)
	c.Waits = slices.Clone(st.Waits)
	c.Resolved = slices.Clone(st.Resolved)
	if st.Region != nil {
		r := *st.Region
		r.Fight = maps.Clone(st.Region.Fight)
		r.Drawn = maps.Clone(st.Region.Drawn)
		r.Left = maps.Clone(st.Region.Left)
		if st.Region.Plans != nil {
			r.Plans = map[adjudicator.Side]*RetreatPlan{}
			for s, p := range st.Region.Plans {
				r.Plans[s] = p.clone()
			}
		}
		c.Region = &r
	}
	c.Battles = make([]*Battle, len(st.Battles))
	for i, b := range st.Battles {
		x := *b
		x.Units, x.Dead = slices.Clone(b.Units), slices.Clone(b.Dead)
		c.Battles[i] = &x
	}
	return &c
}

func (p *RetreatPlan) clone() *RetreatPlan {
	c := &RetreatPlan{Paths: maps.Clone(p.Paths), Order: slices.Clone(p.Order)}
	if p.Troops != nil {
		c.Troops = map[string][]string{}
		for k, v := range p.Troops {
			c.Troops[k] = slices.Clone(v)
		}
	}
	return c
}
