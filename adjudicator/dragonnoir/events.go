package dragonnoir

import (
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/pause"
)

// Prefix names the ruleset's events ("dragonnoir.moved"). Event names are
// stored in game logs: never change one once games have been played.
const Prefix = "dragonnoir"

// The events of the ruleset. Each states one fact; evolving by it cannot
// fail (it was checked when decided). A chapter with a fact of its own
// adds its event here, in EventTypes and in evolve, and the test
// TestEveryEventFolds proves each is handled.
type (
	// Resolving starts an adjudication: the last one's traces are cleared.
	Resolving struct{}
	// Stepped moves the game to a player-turn (DN-TURN-3): every
	// character's MP spent are reset, and a new game turn clears the turn's
	// flags.
	Stepped struct {
		Turn int    `json:"turn"`
		Step string `json:"step"`
	}
	// Placed puts a character on the map at At (facing Facing), or takes
	// it off with At "": set-up, a Gharv appearing or leaving, a spectre
	// summoned or vanishing (Expires: the player-turn at whose end it goes).
	Placed struct {
		Unit    string           `json:"unit"`
		Kind    string           `json:"kind,omitempty"` // for a character new to the game
		Side    adjudicator.Side `json:"side,omitempty"`
		At      string           `json:"at,omitempty"`
		Facing  string           `json:"facing,omitempty"`
		Expires int              `json:"expires,omitempty"`
		Left    bool             `json:"left,omitempty"` // it left the map by an exit
		Why     string           `json:"why,omitempty"`
	}
	// Moved moves a character along Path (its first location is where it
	// started) to the last, facing Facing at the end, having spent MP.
	// Kind is the trace's: move, retreat, advance, jump, fly.
	Moved struct {
		Unit   string   `json:"unit"`
		Path   []string `json:"path"`
		Facing string   `json:"facing,omitempty"`
		MP     int      `json:"mp,omitempty"`
		Kind   string   `json:"kind"`
	}
	// Conditioned sets a character's face, wounds and berserk state
	// (DN-RES-2 … 5, DN-SPEC-1); StunnedIn is the turn it was stunned.
	Conditioned struct {
		Unit      string `json:"unit"`
		Face      string `json:"face"`
		Wounds    int    `json:"wounds"`
		Berserk   bool   `json:"berserk,omitempty"`
		StunnedIn int    `json:"stunned_in,omitempty"`
	}
	// Flagged sets a flag of this game turn on ids (State.Done).
	Flagged struct {
		Flag string   `json:"flag"`
		IDs  []string `json:"ids"`
	}
	// Energy sets a magician's PE left (DN-MAGIC-6, -10).
	Energy struct {
		Unit string `json:"unit"`
		PE   int    `json:"pe"`
	}
	// Webbed makes the web at At intact or destroyed (DN-WEB-2, -3).
	Webbed struct {
		At     string `json:"at"`
		Intact bool   `json:"intact"`
	}
	// Rowed moves a boat (DN-BOAT-3 … 6).
	Rowed struct {
		Boat   string `json:"boat"`
		At     string `json:"at"`
		Facing string `json:"facing"`
	}
	// Revealed turns a hidden marker face up (PBEM-DN-14).
	Revealed struct {
		Marker string `json:"marker"`
		Real   bool   `json:"real,omitempty"` // scenarios chapter: it is the real one (drawn when revealed)
		// Sensed: drawn but left face down (a detection spell, scenarios chapter).
		Sensed bool `json:"sensed,omitempty"`
	}
	// Traced records an action for the pictures: a shot, an attack, a
	// spell (moves are traced by Moved).
	Traced struct {
		Trace adjudicator.Trace `json:"trace"`
	}
	// Carried puts Unit aboard Carrier, on the front hex Seat of its
	// counter (At), or takes it off to At (Aboard false); it spends MP,
	// and the carrier CarrierMP (DN3-PEOPLE-ENT-20 … 28, special_ent.go).
	Carried struct {
		Unit      string `json:"unit"`
		Carrier   string `json:"carrier"`
		Aboard    bool   `json:"aboard,omitempty"`
		Seat      int    `json:"seat,omitempty"`
		At        string `json:"at"`
		MP        int    `json:"mp,omitempty"`
		CarrierMP int    `json:"carrier_mp,omitempty"`
	}
	// Ended ends the game.
	Ended struct {
		Winner adjudicator.Side `json:"winner,omitempty"`
		Result string           `json:"result"`
	}
)

func (*Resolving) EventType() string   { return Prefix + ".resolving" }
func (*Stepped) EventType() string     { return Prefix + ".stepped" }
func (*Placed) EventType() string      { return Prefix + ".placed" }
func (*Moved) EventType() string       { return Prefix + ".moved" }
func (*Conditioned) EventType() string { return Prefix + ".condition" }
func (*Flagged) EventType() string     { return Prefix + ".flagged" }
func (*Energy) EventType() string      { return Prefix + ".energy" }
func (*Webbed) EventType() string      { return Prefix + ".web" }
func (*Rowed) EventType() string       { return Prefix + ".rowed" }
func (*Revealed) EventType() string    { return Prefix + ".revealed" }
func (*Traced) EventType() string      { return Prefix + ".traced" }
func (*Ended) EventType() string       { return Prefix + ".ended" }
func (*Carried) EventType() string     { return Prefix + ".carried" }

func eventTypes() []adjudicator.EventType {
	ev := func(mk func() adjudicator.Event) adjudicator.EventType {
		return adjudicator.EventType{Name: mk().EventType(), Schema: 1, New: mk}
	}
	out := []adjudicator.EventType{
		ev(func() adjudicator.Event { return &Resolving{} }),
		ev(func() adjudicator.Event { return &Stepped{} }),
		ev(func() adjudicator.Event { return &Placed{} }),
		ev(func() adjudicator.Event { return &Moved{} }),
		ev(func() adjudicator.Event { return &Conditioned{} }),
		ev(func() adjudicator.Event { return &Flagged{} }),
		ev(func() adjudicator.Event { return &Energy{} }),
		ev(func() adjudicator.Event { return &Webbed{} }),
		ev(func() adjudicator.Event { return &Rowed{} }),
		ev(func() adjudicator.Event { return &Revealed{} }),
		ev(func() adjudicator.Event { return &Traced{} }),
		ev(func() adjudicator.Event { return &Ended{} }),
		ev(func() adjudicator.Event { return &Capsized{} }), // chapter: Gharvs (gharv_capsize.go)
		ev(func() adjudicator.Event { return &Carried{} }),  // DN3: the Ents (special_ent.go)
		ev(func() adjudicator.Event { return &Entered{} }),  // DN3 battles (battle_turn.go)
		ev(func() adjudicator.Event { return &Exited{} }),
	}
	out = append(out, magicEvents()...)   // magic chapter (spell_charms.go)
	out = append(out, peopleEvents()...)  // Step 5 in a battle (battle_people.go)
	out = append(out, secretsEvents()...) // the sealed parts of a battle's position (battle_secrets.go)
	out = append(out, traitorEvents()...) // the traitor in a battle (battle_traitor.go)
	out = append(out, sheetEvents()...)   // a side's army sheet in a battle (battle_sheet.go)
	out = append(out, peoplesEvents()...) // chapter: the valley's peoples (events_peoples.go)
	return append(out, pause.Events(Prefix)...)
}

// evolve applies ev; false when ev is no event of the ruleset.
func (s *State) evolve(ev adjudicator.Event) bool {
	if s.Pause.Apply(ev) {
		return true
	}
	switch e := ev.(type) {
	case *Resolving:
		s.Traces = nil
	case *Stepped:
		if e.Turn != s.Turn {
			s.Done = nil
		}
		s.Turn, s.Step = e.Turn, e.Step
		for _, c := range s.Chars {
			c.Spent = 0
		}
	case *Placed:
		c := s.Chars[e.Unit]
		if c == nil {
			c = &Char{ID: e.Unit, Kind: e.Kind, Side: e.Side, Face: Healthy}
			s.Chars[e.Unit] = c
		}
		c.At, c.Facing, c.Expires, c.Left = e.At, e.Facing, e.Expires, e.Left
		if e.At != "" && c.Face == Killed {
			c.Face, c.Wounds = Healthy, 0
		}
		s.offWith(c) // DN3: an Ent taken off the map takes the characters it carries (special_ent.go)
	case *Moved:
		c := s.Chars[e.Unit]
		c.At = e.Path[len(e.Path)-1]
		if e.Facing != "" {
			c.Facing = e.Facing
		}
		c.Spent += e.MP
		s.Traces = append(s.Traces, adjudicator.Trace{Kind: e.Kind, Unit: e.Unit, Path: e.Path})
		s.seatPassengers(c) // DN3: the characters an Ent carries go with it (special_ent.go)
	case *Conditioned:
		c := s.Chars[e.Unit]
		c.Face, c.Wounds, c.Berserk, c.StunnedIn = e.Face, e.Wounds, e.Berserk, e.StunnedIn
	case *Flagged:
		for _, id := range e.IDs {
			s.mark(e.Flag, id)
		}
	case *Energy:
		s.Chars[e.Unit].PE = e.PE
	case *Webbed:
		if e.Intact {
			s.Webs = sortedInsert(s.Webs, e.At)
		} else {
			s.Webs = sortedRemove(s.Webs, e.At)
		}
	case *Rowed:
		for _, b := range s.Boats {
			if b.ID == e.Boat {
				b.At, b.Facing = e.At, e.Facing
			}
		}
	case *Revealed:
		for i := range s.Hidden {
			if s.Hidden[i].ID == e.Marker {
				s.Hidden[i].Shown, s.Hidden[i].Drawn, s.Hidden[i].Real = s.Hidden[i].Shown || !e.Sensed, true, e.Real
			}
		}
	case *Traced:
		s.Traces = append(s.Traces, e.Trace)
	case *Ended:
		s.Over, s.Winner, s.Result, s.Step = true, e.Winner, e.Result, StepOver
	case *Carried: // DN3: the Ents (special_ent.go)
		if c := s.Chars[e.Unit]; c != nil {
			from := c.At
			c.On, c.Seat, c.At = "", 0, e.At
			if e.Aboard {
				c.On, c.Seat = e.Carrier, e.Seat
			}
			c.Spent += e.MP
			if from != e.At {
				s.Traces = append(s.Traces, adjudicator.Trace{Kind: "move", Unit: e.Unit, Path: []string{from, e.At}})
			}
		}
		if k := s.Chars[e.Carrier]; k != nil {
			k.Spent += e.CarrierMP
		}
	case *Capsized: // chapter: Gharvs
		s.Boats = slices.DeleteFunc(s.Boats, func(b *Boat) bool { return b.ID == e.Boat })
	case *Entered: // DN3 battles
		c := s.Chars[e.Unit]
		c.At, c.Edge = e.At, ""
		c.Spent += e.MP
		s.Traces = append(s.Traces, adjudicator.Trace{Kind: "move", Unit: e.Unit, Path: []string{e.At}})
	case *Exited:
		c := s.Chars[e.Unit]
		if c.At != "" {
			s.Traces = append(s.Traces, adjudicator.Trace{Kind: "move", Unit: e.Unit, Path: []string{c.At}, Result: "left the map to " + e.Region})
		}
		c.At, c.Left, c.Edge = "", true, e.Region
		c.Spent += e.MP
		if m := s.Chars[c.Mount]; m != nil { // the valley's peoples: its steed leaves under it (move_rider.go)
			m.Left, m.Edge = true, e.Region
		}
	default:
		if s.evolvePeoples(ev) { // chapter: the valley's peoples (events_peoples.go)
			return true
		}
		return s.evolveMagic(ev) || s.evolvePeople(ev) || s.evolveSecrets(ev) || s.evolveTraitor(ev) || s.evolveSheet(ev) // magic chapter (spell_charms.go), Step 5 (battle_people.go), sealed parts (battle_secrets.go), the traitor (battle_traitor.go), army sheets (battle_sheet.go)
	}
	return true
}
