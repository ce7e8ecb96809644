package dragonrage

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
)

// The two sides.
const (
	Invader  adjudicator.Side = "invader"
	Defender adjudicator.Side = "defender"
)

func other(s adjudicator.Side) adjudicator.Side {
	if s == Invader {
		return Defender
	}
	return Invader
}

// Unit is one counter in play.
type Unit struct {
	ID      string           `json:"id"`
	Type    string           `json:"type"`
	Side    adjudicator.Side `json:"side"`
	Hex     string           `json:"hex,omitempty"` // "" while off the map
	Gone    bool             `json:"gone,omitempty"`
	Wounded bool             `json:"wounded,omitempty"`
	Damage  int              `json:"damage,omitempty"` // hit points lost (monsters)
	SP      int              `json:"sp,omitempty"`     // spell points left (wizards)
	Ladder  bool             `json:"ladder,omitempty"` // has used its one climb (orcs, goblins)
	Pool    bool             `json:"pool,omitempty"`   // a counter in the box, not yet in play (reinforcements)

	// Major monsters (major.go): facing (DR-HEX-7), in flight
	// (DR-COMP-11), hit points lost per group of the record sheet
	// (DR-COMP-13), breaths used (DR-DRAGON-BREATH-9). Killer is the
	// marker of DR-YDRAGON-9 on any unit.
	Facing  string `json:"facing,omitempty"`
	Flying  bool   `json:"flying,omitempty"`
	Hits    []int  `json:"hits,omitempty"`
	Breaths int    `json:"breaths,omitempty"`
	Killer  bool   `json:"killer,omitempty"`
	// Spread is the owner's standing order for spreading damage he chooses
	// where to put (crashes, Lightning): areas in order (DR-PBEM-25, -32,
	// -39, -40), given with "crash:" on a move; nil for the default.
	Spread []string `json:"spread,omitempty"`

	// Per-turn flags, cleared when the unit's side's turn begins.
	Moved    bool `json:"moved,omitempty"`
	Attacked bool `json:"attacked,omitempty"`  // made its one attack or fire this turn
	NoAttack bool `json:"no_attack,omitempty"` // may not attack or fire this turn (climbed, destroyed a VP hex…)
	// A major monster's movement mode this turn (DR-DRAGON-MODE-1) and the
	// groups that attacked (DR-AMB-42).
	Mode    string   `json:"mode,omitempty"`
	TookOff bool     `json:"took_off,omitempty"` // took off this turn (DR-DRAGON-BREATH-2)
	Used    []string `json:"used,omitempty"`
}

// Entrance is the state of a door or gate.
type Entrance struct {
	Broken     bool             `json:"broken,omitempty"`
	Controller adjudicator.Side `json:"controller,omitempty"`
	OpenUntil  int              `json:"open_until,omitempty"` // opened by the defender: usable through this turn
}

// State is a Dragon Rage game.
type State struct {
	Scenario string           `json:"scenario"`
	Map      string           `json:"map"`
	Goal     int              `json:"goal"`
	First    adjudicator.Side `json:"first"` // who plays first in each turn (DR-TURN-2)

	Turn  int    `json:"turn"`
	Phase string `json:"phase"`         // see phases.go
	Pre   bool   `json:"pre,omitempty"` // the defender's extra player-turn before turn 1 (DR-AMB-25)

	Units []*Unit `json:"units"` // sorted by id

	VP         int                  `json:"vp"`                  // the invader's score
	Destroyed  map[string]int       `json:"destroyed,omitempty"` // VP hex → VP scored there
	LastDamage int                  `json:"last_damage"`         // last turn a VP hex was destroyed (DR-WIN-3)
	LastInside int                  `json:"last_inside"`         // last turn that ended with an invader inside the walls (DR-WIN-4)
	Entrances  map[string]*Entrance `json:"entrances,omitempty"` // hexside "0606/0707" → state
	Bridges    map[string]string    `json:"bridges,omitempty"`   // hex → "destroyed:UNIT" or "burned"
	Waiting    int                  `json:"waiting,omitempty"`   // reinforcements delayed to a later turn

	Over   bool             `json:"over,omitempty"`
	Winner adjudicator.Side `json:"winner,omitempty"`
	Result string           `json:"result,omitempty"`

	Options map[string]string `json:"options,omitempty"`

	Traces []adjudicator.Trace `json:"traces,omitempty"` // what the current adjudication did

	// The state of the chapters that keep their own (magic.go, elowyn.go,
	// monsters.go): each type has a clone method.
	Magic    magicState   `json:"magic"`
	Elowyn   elowynState  `json:"elowyn"`
	Monsters monsterState `json:"monsters"`
	Major    majorState   `json:"major,omitzero"`

	Pending *Decision `json:"pending,omitempty"` // a decision the phase waits on (decision.go)

	types map[string]*UnitType
	board *hexmap.Map
	// mapSrc is the YAML of a position's custom map (an open map's size or
	// a map document), so that WritePosition can write it again; nil on
	// the boards.
	mapSrc []byte
}

// unit returns the unit with that id, or nil.
func (st *State) unit(id string) *Unit {
	i := sort.Search(len(st.Units), func(i int) bool { return compareIDs(st.Units[i].ID, id) >= 0 })
	if i < len(st.Units) && st.Units[i].ID == id {
		return st.Units[i]
	}
	return nil
}

// typ returns a unit's counter values.
func (st *State) typ(u *Unit) *UnitType { return st.types[u.Type] }

// at returns the units in play in hex h, in id order.
func (st *State) at(h string) []*Unit {
	var out []*Unit
	for _, u := range st.Units {
		if u.Hex == h && !u.Gone && !u.Pool {
			out = append(out, u)
		}
	}
	return out
}

// alive returns a side's units still in the game (on or off the map).
func (st *State) alive(side adjudicator.Side) []*Unit {
	var out []*Unit
	for _, u := range st.Units {
		if u.Side == side && !u.Gone && !u.Pool {
			out = append(out, u)
		}
	}
	return out
}

func (st *State) isKind(u *Unit, kind string) bool { return st.typ(u).Kind == kind }

func (st *State) isCharacter(u *Unit) bool { return st.isKind(u, "character") }

// enemyIn reports whether hex h holds a unit of the side opposed to side.
func (st *State) enemyIn(h string, side adjudicator.Side) bool {
	for _, u := range st.at(h) {
		if u.Side != side {
			return true
		}
	}
	return false
}

func (st *State) hexOf(u *Unit) hex.Hex {
	h, _ := hex.Parse(u.Hex)
	return h
}

// Clone returns a deep copy.
func (st *State) clone() *State {
	c := *st
	// nil stays nil and empty stays empty: a state and its clone must
	// encode, and so hash, the same.
	if st.Units != nil {
		c.Units = make([]*Unit, len(st.Units))
	}
	for i, u := range st.Units {
		cu := *u
		cu.Hits, cu.Used, cu.Spread = slices.Clone(u.Hits), slices.Clone(u.Used), slices.Clone(u.Spread)
		c.Units[i] = &cu
	}
	c.Destroyed = cloneMap(st.Destroyed)
	c.Bridges = cloneMap(st.Bridges)
	c.Options = cloneMap(st.Options)
	c.Traces = slices.Clone(st.Traces)
	c.Magic = st.Magic.clone()
	c.Elowyn = st.Elowyn.clone()
	c.Monsters = st.Monsters.clone()
	c.Major = st.Major.clone()
	c.Pending = st.Pending.clone()
	if st.Entrances != nil {
		c.Entrances = make(map[string]*Entrance, len(st.Entrances))
	}
	for k, e := range st.Entrances {
		ce := *e
		c.Entrances[k] = &ce
	}
	return &c
}

func cloneMap[V any](m map[string]V) map[string]V {
	if m == nil {
		return nil
	}
	out := make(map[string]V, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func sortUnits(us []*Unit) {
	slices.SortFunc(us, func(a, b *Unit) int { return compareIDs(a.ID, b.ID) })
}

// compareIDs orders unit ids by type, then by number: INF-2 before INF-10.
func compareIDs(a, b string) int {
	ta, na := splitID(a)
	tb, nb := splitID(b)
	switch {
	case ta != tb:
		return strings.Compare(ta, tb)
	case na != nb:
		return na - nb
	}
	return strings.Compare(a, b)
}

func splitID(id string) (string, int) {
	i := strings.LastIndexByte(id, '-')
	if i < 0 {
		return id, 0
	}
	n, err := strconv.Atoi(id[i+1:])
	if err != nil {
		return id, 0
	}
	return id[:i], n
}
