package dragonnoir

import (
	"maps"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
	"github.com/umpire-pbem/umpire/adjudicator/pause"
)

// The sides (DN-TURN-2). Gharvs are no player's (DN-GHARV-1): the referee
// moves them, and no request is ever made of them.
const (
	Adventurers adjudicator.Side = "adventurers"
	Krobs       adjudicator.Side = "krobs"
	Gharvs      adjudicator.Side = "gharvs"
)

// Enemy reports whether a and b fight each other: the two players' sides
// do, and the Gharvs fight everyone.
func Enemy(a, b adjudicator.Side) bool { return a != b }

// Steps of a game turn as the state records them (DN-TURN-3). The Gharv
// interphases are resolved inside the adjudication that ends a
// player-turn, so the game never waits in one.
const (
	StepAdventurers = "adventurers" // waiting for the Adventurer mail
	StepKrobs       = "krobs"       // waiting for the Krob mail
	StepOver        = "over"
)

// Faces of a character (DN-CNT-5).
const (
	Healthy = "healthy"
	// Stunned, Wounded, Killed: see tags.go (the result words).
)

// Char is one character in play: an Adventurer, a Krob, a Gharv, a spectre.
type Char struct {
	ID     string           `json:"id"`
	Kind   string           `json:"kind"`
	Side   adjudicator.Side `json:"side"`
	At     string           `json:"at,omitempty"`     // its location ("0304", "0304@+1"); "" off the map
	Facing string           `json:"facing,omitempty"` // N, NE … for counters of several hexes and boats
	Face   string           `json:"face"`             // healthy, stunned, wounded, killed
	Wounds int              `json:"wounds,omitempty"` // wounds taken
	// Berserk: Crazy Ork's berserk face (DN-SPEC-1).
	Berserk bool `json:"berserk,omitempty"`
	// StunnedIn is the game turn it was stunned in (AMB-13).
	StunnedIn int `json:"stunned_in,omitempty"`
	// Spent is the MP spent in the current player-turn (DN-MOVE-3).
	Spent int `json:"spent,omitempty"`
	// PE is a magician's energy points left (DN-MAGIC-6).
	PE int `json:"pe,omitempty"`
	// Expires is the player-turn at whose end a spectre vanishes (AMB-18);
	// 0 for everyone else.
	Expires int `json:"expires,omitempty"`
	// Left says it left the map (a scenario's exit).
	Left bool `json:"left,omitempty"`
	// Level is a magician's level when his scenario sets it (DN-MAGIC-2);
	// 0: his kind's (magic chapter).
	Level int `json:"level,omitempty"`
	// On is the Ent carrying it, "" when it stands on its own feet; Seat
	// the cell of the Ent's counter it sits on, 1 or 2, a front hex (At
	// is that hex, and follows the Ent; DN3-PEOPLE-ENT-20, special_ent.go).
	On   string `json:"on,omitempty"`
	Seat int    `json:"seat,omitempty"`
	// DN3 battles (battle.go). Edge is the Region whose edge it waits by,
	// off the map, to enter (DN3-CAMP-BATTLE-6), or, with Left, the one it
	// left the map to (DN3-CAMP-BATTLE-8). Fatigue is its troop's:
	// fatigued or exhausted ("" fresh: DN3-CAMP-REST-6, -7).
	Edge    string `json:"edge,omitempty"`
	Fatigue string `json:"fatigue,omitempty"`
	// Chapter: the valley's peoples. Mount is the steed it rides
	// (move_rider.go); RiddenBy is the rider of a steed, which is then off
	// the map (At ""): the rider stands for both. Fanatic: it ignores
	// stunned and retreat results and attacks whenever it can (GAP-28,
	// special_peoples.go). Departed: it left the game at the battle's end
	// (DN3-PEOPLE-DRUID-6, -GOB-9).
	Mount    string `json:"mount,omitempty"`
	RiddenBy string `json:"ridden_by,omitempty"`
	Fanatic  bool   `json:"fanatic,omitempty"`
	Departed bool   `json:"departed,omitempty"`
}

// Alive reports whether it is on the map and not killed.
func (c *Char) Alive() bool { return c.At != "" && c.Face != Killed }

// Standing reports whether it is alive and on its feet (DN-COVER-15).
func (c *Char) Standing() bool { return c.Alive() && c.Face != Stunned }

// Boat is a boat counter (DN-CNT-13, DN-BOAT-7): two hexes, its anchor at
// the rear.
type Boat struct {
	ID     string `json:"id"`
	At     string `json:"at"`
	Facing string `json:"facing"`
}

// State is a game of Dragon Noir 2. It encodes to JSON deterministically.
type State struct {
	data  *Data       // the module, never encoded
	board *hexmap.Map // the scenario's map

	Module   string `json:"module"` // the module's digest
	Scenario string `json:"scenario,omitempty"`
	Map      string `json:"map"`
	Options  Rules  `json:"options"`

	Turn  int    `json:"turn"`
	Turns int    `json:"turns"`
	Step  string `json:"step"`

	Chars  map[string]*Char `json:"chars"`
	Webs   []string         `json:"webs,omitempty"` // intact spider webs, by location, sorted
	Boats  []*Boat          `json:"boats,omitempty"`
	Hidden []HiddenMarker   `json:"hidden,omitempty"`
	// Done holds this game turn's flags, by flag name, as sorted lists:
	// "fired-offensive", "fired-defensive", "moved", "attacked", "cast".
	Done map[string][]string `json:"done,omitempty"`

	Pause  pause.State         `json:"pause"`
	Traces []adjudicator.Trace `json:"traces,omitempty"`

	Over   bool             `json:"over,omitempty"`
	Winner adjudicator.Side `json:"winner,omitempty"`
	Result string           `json:"result,omitempty"`

	// Charms are the spells' lasting effects in play (magic chapter,
	// spell_charms.go).
	Charms []Charm `json:"charms,omitempty"`
	// Oubliettes are the oubliette entrance counters on the map, by
	// location, sorted (DN-MAP-11; movement chapter).
	Oubliettes []string `json:"oubliettes,omitempty"`
	// Reappear is where each invisible magician reappears, by ID, once
	// the mail noting it is opened (magic chapter, spell_reappear.go).
	Reappear map[string]string `json:"reappear,omitempty"`
	// Valley: a battle of La Conquête's valley (DN3), where magic follows
	// B.14 and the four sheets of B.15 (spell_lists.go).
	Valley bool `json:"valley,omitempty"`
	// Battle is a battle of La Conquête's own (battle.go); nil in a game of
	// Dragon Noir 2. It never changes once the game is set up.
	Battle *Battle `json:"battle,omitempty"`
	// Neg is Step 5 of a negotiation in a battle (battle_people.go).
	Neg BattleNeg `json:"neg,omitempty"`
	// SecretsRead: the battle has read the sealed parts of its position
	// (battle_secrets.go).
	SecretsRead bool `json:"secrets_read,omitempty"`
	// Traitor is the traitor in a battle (battle_traitor.go); nil when
	// no side knows one.
	Traitor *BattleTraitor `json:"traitor,omitempty"`
}

// Data is the module the game is played from.
func (s *State) Data() *Data { return s.data }

// Board is the map the game is played on.
func (s *State) Board() *hexmap.Map { return s.board }

// PlayerTurn numbers the player-turns from 1 (the first Adventurer
// player-turn), for spectres' durations (AMB-18).
func (s *State) PlayerTurn() int {
	n := 2 * (s.Turn - 1)
	if s.Step == StepKrobs && s.Battle == nil || s.Battle != nil && s.Step != string(s.Battle.First) && s.Step != StepSetup {
		n++
	}
	return n + 1
}

// Clone returns a deep copy.
func (s *State) Clone() *State {
	c := *s
	c.Chars = make(map[string]*Char, len(s.Chars))
	for id, ch := range s.Chars {
		v := *ch
		c.Chars[id] = &v
	}
	c.Webs = slices.Clone(s.Webs)
	c.Boats = make([]*Boat, len(s.Boats))
	for i, b := range s.Boats {
		v := *b
		c.Boats[i] = &v
	}
	if s.Boats == nil {
		c.Boats = nil
	}
	c.Hidden = slices.Clone(s.Hidden)
	if s.Done != nil {
		c.Done = make(map[string][]string, len(s.Done))
		for k, v := range s.Done {
			c.Done[k] = slices.Clone(v)
		}
	}
	c.Pause = s.Pause.Clone()
	c.Traces = slices.Clone(s.Traces)
	c.Charms = slices.Clone(s.Charms) // magic chapter: a charm's Locs never change once in play
	c.Oubliettes = slices.Clone(s.Oubliettes)
	c.Reappear = maps.Clone(s.Reappear) // magic chapter
	return &c
}

// Kind is the character's kind.
func (s *State) Kind(c *Char) *Kind { return s.data.Kinds[c.Kind] }

// Is reports whether id carries flag this game turn.
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

// Sorted lists every character in ID order.
func (s *State) Sorted() []*Char {
	out := make([]*Char, 0, len(s.Chars))
	for _, id := range slices.Sorted(maps.Keys(s.Chars)) {
		out = append(out, s.Chars[id])
	}
	return out
}

// Living lists the living characters on the map of side ("" for every
// side), in ID order.
func (s *State) Living(side adjudicator.Side) []*Char {
	var out []*Char
	for _, c := range s.Sorted() {
		if c.Alive() && (side == "" || c.Side == side) {
			out = append(out, c)
		}
	}
	return out
}

// Web reports whether an intact web is at location l.
func (s *State) Web(l string) bool {
	_, ok := slices.BinarySearch(s.Webs, l)
	return ok
}

func sortedInsert(l []string, v string) []string {
	i, ok := slices.BinarySearch(l, v)
	if ok {
		return l
	}
	return slices.Insert(l, i, v)
}

func sortedRemove(l []string, v string) []string {
	if i, ok := slices.BinarySearch(l, v); ok {
		return slices.Delete(l, i, i+1)
	}
	return l
}
