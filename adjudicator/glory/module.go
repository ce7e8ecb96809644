package glory

import (
	"fmt"
	"slices"
	"sort"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

// The module format. A Dragons of Glory module is a folder of YAML files
// (adjudicator.Module): the rulebook prints the rules but not the map of
// Ansalon, the counter mix, the scenarios or the strategic events
// (DG-GAP-2 to -8, -13 to -15), so they are data a group can check against
// its own printed components and correct. Every entry carries its
// provenance: `rule` (printed in the rulebook or its errata, with the rule
// ID), `assumed` (chosen by umpire or by whoever wrote the module, to be
// checked), or `user` (entered by a group from its own copy).
//
//	module.yaml     name, title, status, notes, the turn track (calendar)
//	map.yaml        the hex map (adjudicator/hexmap format, pointy-topped)
//	nations.yaml    the nations: activation values, Knights, capitals
//	counters.yaml   the counter kinds: nation, type, race, values, quantity
//	events.yaml     the strategic event counters and what each does
//	scenarios.yaml  the scenarios: turns, allegiances, set-up, cup, victory
//
// The CRT is not module data: its cells are figures of the printed
// rulebook (DG-GAP-1), shipped in data/crt.yaml.

// Provenance says where a value comes from.
type Provenance struct {
	Source string `yaml:"source" json:"source,omitempty"` // rule, assumed or user
	Rule   string `yaml:"rule" json:"rule,omitempty"`     // the rule ID when Source is rule
	Note   string `yaml:"note" json:"note,omitempty"`     // for people: why this value
}

// Assumed reports whether the value is umpire's or the module author's
// choice rather than the rulebook's or the group's.
func (p Provenance) Assumed() bool { return p.Source == "assumed" }

func (p Provenance) check(where string) error {
	switch p.Source {
	case "rule", "assumed", "user":
		return nil
	case "":
		return fmt.Errorf("%s: say where this comes from with source: rule, assumed or user", where)
	}
	return fmt.Errorf("%s: source %q is not rule, assumed or user", where, p.Source)
}

// ModuleInfo is module.yaml.
type ModuleInfo struct {
	Name     string     `yaml:"name"`
	Title    string     `yaml:"title"`
	Status   string     `yaml:"status"` // "assumed" for a module none of whose content is printed
	Notes    string     `yaml:"notes"`
	Calendar []TurnInfo `yaml:"calendar"`
	Prov     Provenance `yaml:",inline"`
}

// TurnInfo is one box of the turn track.
type TurnInfo struct {
	Turn   int    `yaml:"turn"`
	Label  string `yaml:"label"`  // "Mar/Apr 348"
	Winter bool   `yaml:"winter"` // a winter turn (DG-COMP-20: four months; no rules effect, DG-GAP-6)
}

// Nation is one nation of the map (nations.yaml).
type Nation struct {
	ID    string `yaml:"id"`
	Title string `yaml:"title"`
	// Activation is the Activation Table's value per side (DG-ACT-3); nil
	// for a nation that cannot be activated (the dragonarmies, a side's
	// own nations).
	Activation map[adjudicator.Side]int `yaml:"activation"`
	Knights    bool                     `yaml:"knights"`     // a Knights of Solamnia nation (DG-ACT-8)
	SemiHuman  bool                     `yaml:"semi-human"`  // its capital may move (DG-CAP, optional)
	Capital    string                   `yaml:"capital"`     // the hex of its capital, if it has one
	NoConquest bool                     `yaml:"no-conquest"` // cannot be conquered (Maquesta's pirates, DG-GAP-13)
	Colour     string                   `yaml:"colour"`      // #RRGGBB, for pictures
	Prov       Provenance               `yaml:",inline"`
}

// Unit types.
const (
	Infantry = "infantry"
	Cavalry  = "cavalry"
	Air      = "air"    // dragons, griffons, pegasi, flying citadels (DG-AIR-1, DG-COMP-11)
	Fleet    = "fleet"  // DG-COMP-12
	Leader   = "leader" // DG-COMP-13
	Wizard   = "wizard" // DG-COMP-14
)

// Face is one side of a counter: its strength (a fleet's combat value, a
// leader's Tactical Value) and its Movement Points.
type Face struct {
	Strength int `yaml:"strength" json:"strength"`
	MP       int `yaml:"mp" json:"mp"`
}

// CounterKind is a line of counters.yaml: one kind of counter and how many
// of it there are. Counters are named ID-1, ID-2… when Count > 1, ID when
// Count is 1.
type CounterKind struct {
	ID     string     `yaml:"id"`
	Title  string     `yaml:"title"`
	Nation string     `yaml:"nation"` // a nation of nations.yaml, or "" for a side's own unaligned counter (a wizard)
	Side   string     `yaml:"side"`   // highlord or whitestone for counters that always fight for one side
	Type   string     `yaml:"type"`   // infantry, cavalry, air, fleet, leader, wizard
	Race   string     `yaml:"race"`   // human, elf, dwarf, ogre, kender, draconian, dragon, griffon, pegasus, citadel, minotaur…
	Full   Face       `yaml:"full"`
	Half   *Face      `yaml:"half"`   // the reduced (or damaged) face; nil for leaders and wizards
	Naval  bool       `yaml:"naval"`  // a leader that adds its TV in naval combat (Maquesta, Mithas, Kothas: DG-NAVAL-LDR-2)
	Count  int        `yaml:"count"`  // how many counters (default 1)
	Errata string     `yaml:"errata"` // the errata rule that fixed its values, if any (DG-ERRATA-2..4)
	Prov   Provenance `yaml:",inline"`
	// Tower marks the Knights of the Tower: armies with no nation of their
	// own, placed in the High Clerist's Tower (the map's point of kind
	// tower) for the Whitestone when the first Knights nation is activated
	// (DG-ACT-10), and conquered with the Knights nations (DG-KNIGHT-1).
	Tower bool `yaml:"knights-of-the-tower"`
}

// EventDef is one strategic event counter (events.yaml, DG-EVT, DG-GAP-4).
type EventDef struct {
	ID    string     `yaml:"id"`
	Title string     `yaml:"title"`
	Enter int        `yaml:"enter"` // 1, 10 or 20: the turn it goes into the cup (E1, E10, E20)
	For   string     `yaml:"for"`   // drawer, highlord or whitestone: whom it benefits
	Does  []Effect   `yaml:"does"`
	Text  string     `yaml:"text"` // what the counter says, for the report
	Prov  Provenance `yaml:",inline"`
}

// Effect is one thing an event does.
type Effect struct {
	// Kind: "activation" (Amount added to the beneficiary's Activation
	// Values, for Nation or every nation, for the rest of the turn),
	// "reinforce" (Units enter for the beneficiary At a hex, or in the
	// Dark Temple or a friendly fortress with At empty), "wizard" (a wizard
	// counter enters, as reinforce), "nothing".
	Kind   string   `yaml:"kind" json:"kind"`
	Amount int      `yaml:"amount" json:"amount,omitempty"`
	Nation string   `yaml:"nation" json:"nation,omitempty"`
	Units  []string `yaml:"units" json:"units,omitempty"`
	At     string   `yaml:"at" json:"at,omitempty"`
}

// Scenario is one scenario of scenarios.yaml (DG-SETUP, DG-GAP-5).
type Scenario struct {
	ID         string                      `yaml:"id"`
	Title      string                      `yaml:"title"`
	Doc        string                      `yaml:"doc"`
	Start      int                         `yaml:"start"`      // the first turn (DG-SETUP-9)
	End        int                         `yaml:"end"`        // the last turn (DG-SETUP-10)
	Initiative string                      `yaml:"initiative"` // the side that has the initiative on the first turn, or ""
	Allies     map[string]adjudicator.Side `yaml:"allies"`     // nations at war at the start, by side; the others are neutral
	Activate   []string                    `yaml:"activate"`   // the nations that may be activated, if not all (scenario rule)
	Units      []Placement                 `yaml:"units"`      // counters on the map at the start
	Track      []Placement                 `yaml:"track"`      // counters that enter later (turn, hex)
	Cup        []string                    `yaml:"cup"`        // event counters in the cup at the start; default: every E ≤ Start (DG-AMB-12)
	Temple     string                      `yaml:"temple"`     // the Dark Temple's hex at the start, if placed
	Victory    []Victory                   `yaml:"victory"`
	Prov       Provenance                  `yaml:",inline"`
}

// Placement puts counters on the map (or on the turn track with Turn).
type Placement struct {
	Units []string `yaml:"units"`
	At    string   `yaml:"at"`
	Turn  int      `yaml:"turn"`
	Side  string   `yaml:"side"` // who controls them, when their nation does not say
}

// Victory is a scenario's victory condition (DG-GAP-7), checked when it
// can decide: "hold" (at the end, Side controls every hex of Hexes and
// every fortification of Nations), "capture" (Side wins as soon as it
// controls all of Hexes, or every fortification of Nations, by turn By),
// "strength" (Side wins at the end when the other side has lost more than
// Percent of its starting strength). The first condition met decides;
// Otherwise names the winner when none is.
type Victory struct {
	Kind      string           `yaml:"kind"`
	Side      adjudicator.Side `yaml:"side"`
	Hexes     []string         `yaml:"hexes"`
	Nations   []string         `yaml:"nations"`
	By        int              `yaml:"by"`
	Percent   int              `yaml:"percent"`
	Otherwise adjudicator.Side `yaml:"otherwise"`
	Text      string           `yaml:"text"`
}

// Data is a module read and checked.
type Data struct {
	Info      ModuleInfo
	Map       *hexmap.Map
	Nations   map[string]*Nation
	Kinds     map[string]*CounterKind // by counter kind ID
	Counters  map[string]*CounterKind // by counter ID (ID-n)
	Events    map[string]*EventDef
	Scenarios []*Scenario
	Digest    string
	Geo       *Geo // the map as the rules read it
}

// Scenario returns the scenario called id.
func (d *Data) Scenario(id string) (*Scenario, bool) {
	for _, s := range d.Scenarios {
		if s.ID == id {
			return s, true
		}
	}
	return nil, false
}

// NationIDs lists the nations in order.
func (d *Data) NationIDs() []string {
	out := make([]string, 0, len(d.Nations))
	for id := range d.Nations {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// CounterIDs lists every counter in order.
func (d *Data) CounterIDs() []string {
	out := make([]string, 0, len(d.Counters))
	for id := range d.Counters {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// counterNames lists the counters a kind makes.
func (k *CounterKind) counterNames() []string {
	n := max(k.Count, 1)
	if n == 1 {
		return []string{k.ID}
	}
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s-%d", k.ID, i+1)
	}
	return out
}

// strict decodes one module file with line-numbered errors.
func strict(m adjudicator.Module, file string, v any) error {
	b, ok := m.Files[file]
	if !ok {
		return fmt.Errorf("module %s has no %s", m.Name, file)
	}
	if err := yamlx.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	return nil
}

var sideNames = []adjudicator.Side{Highlord, Whitestone}

func validSide(s adjudicator.Side) bool { return slices.Contains(sideNames, s) }
