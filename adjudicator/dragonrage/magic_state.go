package dragonrage

// Magic (§14): what the spells leave on the board between phases, and the
// events that change it.

import (
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// magicState holds the spell markers and the Elementals' control.
type magicState struct {
	Fogs       []Fog       `json:"fogs,omitempty"`
	Whirlwinds []Whirlwind `json:"whirlwinds,omitempty"`
	Boosts     []Boost     `json:"boosts,omitempty"`
	Bolts      []Bolt      `json:"bolts,omitempty"`
	Elementals []Elemental `json:"elementals,omitempty"`
}

// Fog covers its hex and every hex within 2 until the caster's side's next
// magic phase (DR-SPELL-FOG-1, DR-SPELL-FOG-2).
type Fog struct {
	Hex    string           `json:"hex"`
	Wizard string           `json:"wizard"`
	Side   adjudicator.Side `json:"side"`
}

// Whirlwind stands in one hex: age 1 where it was cast, age 2 after its
// drift (DR-SPELL-WHIRL-2).
type Whirlwind struct {
	Hex    string           `json:"hex"`
	Wizard string           `json:"wizard"`
	Side   adjudicator.Side `json:"side"`
	Age    int              `json:"age"`
}

// Boost is a Boost Morale: the units inside its area when it was cast
// (DR-SPELL-MORALE-3 [Inference]).
type Boost struct {
	Wizard string           `json:"wizard"`
	Side   adjudicator.Side `json:"side"`
	Hex    string           `json:"hex"`
	Radius int              `json:"radius,omitempty"`
	Units  []string         `json:"units,omitempty"`
}

// Bolt is a Lightning held to be added to a melee on its target this turn
// (DR-SPELL-LIGHT-7).
type Bolt struct {
	Wizard string           `json:"wizard"`
	Side   adjudicator.Side `json:"side"`
	Target string           `json:"target"`
	Power  int              `json:"power"`
}

// Elemental is a summoned Elemental and who controls it (DR-SPELL-ELEM-2,
// DR-SPELL-ELEM-8).
type Elemental struct {
	Unit       string           `json:"unit"`
	Wizard     string           `json:"wizard"`
	Side       adjudicator.Side `json:"side"` // the summoner's side
	Controlled bool             `json:"controlled,omitempty"`
	Turn       int              `json:"turn"` // summoned in this turn
	Pre        bool             `json:"pre,omitempty"`
}

func (m magicState) clone() magicState {
	c := magicState{
		Fogs:       slices.Clone(m.Fogs),
		Whirlwinds: slices.Clone(m.Whirlwinds),
		Boosts:     slices.Clone(m.Boosts),
		Bolts:      slices.Clone(m.Bolts),
		Elementals: slices.Clone(m.Elementals),
	}
	for i := range c.Boosts {
		c.Boosts[i].Units = slices.Clone(c.Boosts[i].Units)
	}
	return c
}

// elemental returns the record of an Elemental unit, or nil.
func (m *magicState) elemental(unit string) *Elemental {
	for i := range m.Elementals {
		if m.Elementals[i].Unit == unit {
			return &m.Elementals[i]
		}
	}
	return nil
}

// Magic events. Their names are stored in every game's log: never rename one.
type (
	// SpellCast spends a wizard's SP and puts the spell's effect in place.
	SpellCast struct {
		Wizard string   `json:"wizard"`
		Spell  string   `json:"spell"`
		SP     int      `json:"sp"`
		Hex    string   `json:"hex,omitempty"`
		Radius int      `json:"radius,omitempty"`
		Units  []string `json:"units,omitempty"`  // boost-morale: the units boosted; summon: the new Elemental
		Target string   `json:"target,omitempty"` // lightning: its target; dismiss: the Elemental
		Power  int      `json:"power,omitempty"`  // lightning held for a melee (DR-SPELL-LIGHT-7)
	}
	// MagicEnded removes a marker: a fog lifts, a Whirlwind vanishes, a
	// Boost Morale ends, a held Lightning is used or lost.
	MagicEnded struct {
		Kind   string `json:"kind"` // fog, whirlwind, boost, bolt
		Wizard string `json:"wizard"`
		Hex    string `json:"hex,omitempty"`
		Target string `json:"target,omitempty"`
	}
	// WhirlwindDrifted turns a Whirlwind 1 into a Whirlwind 2 in the hex it
	// drifted into (DR-SPELL-WHIRL-2).
	WhirlwindDrifted struct {
		Wizard string `json:"wizard"`
		From   string `json:"from"`
		To     string `json:"to"`
	}
	// ElementalFreed: its wizard loses control of it for good; it belongs to
	// neither side from now on (DR-SPELL-ELEM-8, DR-SPELL-ELEM-10).
	ElementalFreed struct {
		Unit string `json:"unit"`
		Why  string `json:"why"`
	}
)

func (*SpellCast) EventType() string        { return "dragonrage.spell-cast" }
func (*MagicEnded) EventType() string       { return "dragonrage.magic-ended" }
func (*WhirlwindDrifted) EventType() string { return "dragonrage.whirlwind-drifted" }
func (*ElementalFreed) EventType() string   { return "dragonrage.elemental-freed" }

var magicEvents = []adjudicator.EventType{
	{Name: "dragonrage.spell-cast", Schema: 1, New: func() adjudicator.Event { return new(SpellCast) }},
	{Name: "dragonrage.magic-ended", Schema: 1, New: func() adjudicator.Event { return new(MagicEnded) }},
	{Name: "dragonrage.whirlwind-drifted", Schema: 1, New: func() adjudicator.Event { return new(WhirlwindDrifted) }},
	{Name: "dragonrage.elemental-freed", Schema: 1, New: func() adjudicator.Event { return new(ElementalFreed) }},
}

// evolveMagic applies the magic events in place.
func evolveMagic(st *State, ev adjudicator.Event) bool {
	m := &st.Magic
	switch e := ev.(type) {
	case *SpellCast:
		wz := st.unit(e.Wizard)
		wz.SP -= e.SP
		switch e.Spell {
		case spellFog:
			m.Fogs = append(m.Fogs, Fog{Hex: e.Hex, Wizard: e.Wizard, Side: wz.Side})
		case spellWhirlwind:
			m.Whirlwinds = append(m.Whirlwinds, Whirlwind{Hex: e.Hex, Wizard: e.Wizard, Side: wz.Side, Age: 1})
		case spellBoost:
			m.Boosts = append(m.Boosts, Boost{Wizard: e.Wizard, Side: wz.Side, Hex: e.Hex, Radius: e.Radius, Units: slices.Clone(e.Units)})
		case spellLightning:
			if e.Power > 0 {
				m.Bolts = append(m.Bolts, Bolt{Wizard: e.Wizard, Side: wz.Side, Target: e.Target, Power: e.Power})
			}
		case spellSummon:
			st.Units = append(st.Units, &Unit{ID: e.Units[0], Type: "ELM", Side: wz.Side, Hex: e.Hex})
			sortUnits(st.Units)
			m.Elementals = append(m.Elementals, Elemental{Unit: e.Units[0], Wizard: e.Wizard, Side: wz.Side, Controlled: true, Turn: st.Turn, Pre: st.Pre})
		}
	case *MagicEnded:
		switch e.Kind {
		case "fog":
			m.Fogs = slices.DeleteFunc(m.Fogs, func(f Fog) bool { return f.Wizard == e.Wizard && f.Hex == e.Hex })
		case "whirlwind":
			m.Whirlwinds = slices.DeleteFunc(m.Whirlwinds, func(x Whirlwind) bool { return x.Wizard == e.Wizard && x.Hex == e.Hex })
		case "boost":
			m.Boosts = slices.DeleteFunc(m.Boosts, func(b Boost) bool { return b.Wizard == e.Wizard })
		case "bolt":
			m.Bolts = slices.DeleteFunc(m.Bolts, func(b Bolt) bool { return b.Wizard == e.Wizard && b.Target == e.Target })
		}
		// A list emptied is nil again, as a fold that never had one: JSON
		// cannot tell them apart, and a snapshot must come back whole.
		m.Fogs, m.Whirlwinds, m.Boosts, m.Bolts = nilIfEmpty(m.Fogs), nilIfEmpty(m.Whirlwinds), nilIfEmpty(m.Boosts), nilIfEmpty(m.Bolts)
	case *WhirlwindDrifted:
		for i := range m.Whirlwinds {
			x := &m.Whirlwinds[i]
			if x.Wizard == e.Wizard && x.Hex == e.From && x.Age == 1 {
				x.Hex, x.Age = e.To, 2
				break
			}
		}
	case *ElementalFreed:
		st.unit(e.Unit).Side = ""
		if el := m.elemental(e.Unit); el != nil {
			el.Controlled = false
		}
	default:
		return false
	}
	return true
}

// nilIfEmpty returns nil for an empty slice.
func nilIfEmpty[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return s
}
