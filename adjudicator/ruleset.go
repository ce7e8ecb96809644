package adjudicator

import (
	"fmt"

	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
	"gopkg.in/yaml.v3"
)

// Side names one player's side in a game, e.g. "invader" or "defender".
// The empty Side is the referee, who sees everything.
type Side string

// Referee is the viewer that sees all hidden information.
const Referee Side = ""

// State is a ruleset's whole game state. It must encode to JSON
// deterministically (the engine hashes that encoding after every
// adjudication), so use slices and string-keyed maps, never floats whose
// printing could vary.
type State any

// Orders is what a ruleset parsed from one submission. It must encode to
// YAML, which is how orders are echoed back to the player, normalised.
type Orders any

// Event is a ruleset's domain event: one thing that happened. EventType is
// a stable name, prefixed by the ruleset ("mygame.moved"); it is stored in
// the log and must never change once games have been played with it.
type Event interface {
	EventType() string
}

// EventType tells the engine how to decode a stored event.
type EventType struct {
	Name   string       // as returned by EventType()
	Schema int          // the payload schema version written now, from 1
	New    func() Event // a pointer to a zero value to decode the JSON payload into
}

// Setup is what a game starts from.
type Setup struct {
	Scenario string            // the scenario's id, or "" with Position
	Position []byte            // an inline position (YAML), for tests and custom setups
	Options  map[string]string // game options, validated by the ruleset
	Sides    []Side            // the sides that have players
	// Module is the module data the game is played from, for a Modular
	// ruleset (module.go); nil for the others.
	Module *Module
}

// Request is one thing the game waits for.
type Request struct {
	ID     string // unique within the game, e.g. "t3.invader.movement"
	Side   Side   // who must answer
	Kind   string // "setup", "orders" or "decision"
	Turn   int    // the turn the answer is for; orders must name it
	Phase  string // the phase key the answer is for; orders must name it
	Title  string // for people: "turn 3, invader movement"
	Prompt string // for decisions: the question
	Hidden bool   // the answer stays hidden from the other sides until adjudicated
	// SealKey, with Hidden, keeps the answer sealed after its adjudication
	// too (a secret move, an army sheet): it is revealed when a Reveal
	// names this key (secret.go), or when the game ends. The adjudication's
	// report says what the other sides may know of it. A key is public.
	SealKey string
	Choice  []string // for decisions: the accepted answers, when they are a closed list
}

// Submission is a parsed, accepted answer to a Request.
type Submission struct {
	Request Request
	Side    Side
	Orders  Orders
}

// OptionInfo documents a game option.
type OptionInfo struct {
	Name    string
	Default string
	Values  []string // the accepted values, when they are a closed list
	Doc     string
}

// ScenarioInfo describes a scenario a ruleset can set up.
type ScenarioInfo struct {
	ID    string
	Title string
	Sides []Side
	Doc   string
}

// Info describes a ruleset.
type Info struct {
	Name      string // registry key, e.g. "mygame"
	Title     string
	Version   string // semantic version of the rules implementation
	Sides     []Side
	Scenarios []ScenarioInfo
	Options   []OptionInfo
	// Series is the kind of series the ruleset plays — "campaign",
	// "tournament" — for a ruleset whose games reach other games
	// (series.go); "" for a game. The mail commands new-campaign and
	// new-tournament find their ruleset by it.
	Series string
}

// Ruleset is one game's rules. Implementations are stateless values; all
// game state lives in State.
type Ruleset interface {
	// Info describes the ruleset, its scenarios and options.
	Info() Info
	// Setup builds the initial state from module data. It fails on an
	// unknown scenario, a bad option or an invalid inline position.
	Setup(s Setup) (State, error)
	// Due lists what the game waits for now; none means the game is over.
	Due(st State) []Request
	// ParseOrders reads and validates the orders node of one submission
	// answering req. Errors are *OrderError or OrderErrors, with positions
	// inside the YAML and stable codes.
	ParseOrders(st State, req Request, orders *yaml.Node) (Orders, error)
	// Decide resolves one adjudication: the answers to every due request.
	// It emits events, rolls dice and reports through r. An error means the
	// adjudication could not be made (e.g. scripted dice ran out); nothing
	// of it is kept.
	Decide(r *Resolution, subs []Submission) error
	// Evolve applies ev to st and returns the new state. It may modify st
	// in place. It cannot fail: events were validated when decided.
	Evolve(st State, ev Event) State
	// Clone returns a deep copy of st.
	Clone(st State) State
	// View is the state as viewer may see it (Referee sees everything).
	// A viewer that is not a side, Observer above all, must see only what
	// every side may see.
	View(st State, viewer Side) View
	// EventTypes lists every event the ruleset emits.
	EventTypes() []EventType
}

// View is a ruleset-neutral picture of a state, for `umpire show`, results
// mails and game-script expectations.
type View struct {
	Map     string         `json:"map,omitempty" yaml:"map,omitempty"` // the board, for rulesets played on a hex map
	Turn    int            `json:"turn" yaml:"turn"`
	Phase   string         `json:"phase" yaml:"phase"`
	Units   []UnitView     `json:"units" yaml:"units"`
	Score   map[Side]int   `json:"score,omitempty" yaml:"score,omitempty"`
	Over    bool           `json:"over" yaml:"over"`
	Winner  Side           `json:"winner,omitempty" yaml:"winner,omitempty"`
	Result  string         `json:"result,omitempty" yaml:"result,omitempty"`
	Notes   []string       `json:"notes,omitempty" yaml:"notes,omitempty"`
	Markers map[string]any `json:"markers,omitempty" yaml:"markers,omitempty"`
	Hexes   []HexMark      `json:"hexes,omitempty" yaml:"hexes,omitempty"`   // per-hex state: destroyed VP, broken gates, fog…
	Traces  []Trace        `json:"traces,omitempty" yaml:"traces,omitempty"` // what the last adjudication did, for pictures
}

// HexMark is a marker on a hex or hexside: "vp-destroyed" on 1108, "broken"
// on the side 0606/0707, "fog" centred on 1210 with radius 2…
type HexMark struct {
	Kind   string `json:"kind" yaml:"kind"`
	At     string `json:"at" yaml:"at"`                             // a hex, or a hexside "0606/0707"
	Radius int    `json:"radius,omitempty" yaml:"radius,omitempty"` // for area markers
	Label  string `json:"label,omitempty" yaml:"label,omitempty"`   // e.g. "3", "W1"
}

// Trace is one action of the last adjudication: a move along a path, an
// attack or a fire from hexes onto a hex, with its result.
type Trace struct {
	Kind   string   `json:"kind" yaml:"kind"`                         // "move", "melee", "fire", "spell"…
	Unit   string   `json:"unit,omitempty" yaml:"unit,omitempty"`     // who moved or attacked
	Path   []string `json:"path" yaml:"path"`                         // hexes: the path moved, or the attackers' hexes then the target
	Result string   `json:"result,omitempty" yaml:"result,omitempty"` // e.g. "destroyed", "missed"
	// Step numbers the adjudications a picture shows when it shows more
	// than one (1 the earliest); 0 when it shows only the last. It is set
	// by whoever gathers traces for a picture, never by a ruleset.
	Step int `json:"step,omitempty" yaml:"step,omitempty"`
}

// UnitView is one unit as a viewer may see it.
type UnitView struct {
	ID     string   `json:"id" yaml:"id"`
	Side   Side     `json:"side" yaml:"side"`
	Type   string   `json:"type" yaml:"type"`
	At     string   `json:"at,omitempty" yaml:"at,omitempty"`         // a hex, a region, "off-map"; "" if eliminated or hidden
	Status []string `json:"status,omitempty" yaml:"status,omitempty"` // e.g. wounded, killer, broken
	Gone   bool     `json:"gone,omitempty" yaml:"gone,omitempty"`     // eliminated
	Values string   `json:"values,omitempty" yaml:"values,omitempty"` // the printed numbers, e.g. "2-3-4(6)"
	Facing string   `json:"facing,omitempty" yaml:"facing,omitempty"` // N, NE… for units that face
	Flying bool     `json:"flying,omitempty" yaml:"flying,omitempty"`
	Damage []Damage `json:"damage,omitempty" yaml:"damage,omitempty"` // for monsters with areas and groups
	// Ready says this unit may still act in the current phase, as its side
	// sees it: it is the side's phase (or the side answers the decision the
	// game waits on) and the rules let the unit move, fire, attack or cast
	// now. Only the acting side's units are ever ready.
	Ready bool `json:"ready,omitempty" yaml:"ready,omitempty"`
	// Level is the level of the unit's location within its hex on a map
	// with levels, written as map files write levels ("+1", "-1/2"): a
	// unit on a footbridge above the hex's floor. "" means the hex's
	// floor, whatever its level, so a flat map's units never set it.
	Level string `json:"level,omitempty" yaml:"level,omitempty"`
	// Shape is the shape of a counter covering several hexes, by its name
	// in package hex ("pair", "triangle", "rosette"): At is its anchor hex
	// and Facing its facing, as in hex.Footprint. "" (or "single") is an
	// ordinary counter of one hex.
	Shape string `json:"shape,omitempty" yaml:"shape,omitempty"`
}

// Damage is one group of a monster's area with its hit points.
type Damage struct {
	Area  string `json:"area" yaml:"area"`
	Group string `json:"group,omitempty" yaml:"group,omitempty"`
	Left  int    `json:"left" yaml:"left"`
	Of    int    `json:"of" yaml:"of"`
}

// Defaulter is implemented by a ruleset that can say what "no orders"
// means for a request: the answer the game applies when the side misses
// the deadline and the game's no-move policy is "default" (hold, pass,
// the first legal choice). It returns the YAML of the "orders:" section,
// e.g. "[]", checked by ParseOrders like any answer; ok is false when the
// request has no sensible default (a setup), and the game then waits.
type Defaulter interface {
	DefaultOrders(st State, req Request) (orders string, ok bool)
}

// Ahead is one entry of orders sent ahead under "then:": the later phase it
// is for and its orders, not yet checked against the state they will meet.
type Ahead struct {
	Turn   int
	Phase  string
	Orders *yaml.Node
}

// AheadChecker is implemented by a ruleset that can tell, when a player
// sends orders ahead, which entries certainly conflict with the orders due
// now or with each other whatever the dice do (a unit attacking twice in a
// turn, orders for a unit the same mail takes off the board). Such a mail
// is refused at once, and only its sender is told, instead of an entry
// being dropped when its phase comes. Errors are *OrderError or
// OrderErrors placed at the entry's nodes.
type AheadChecker interface {
	CheckAhead(st State, now Request, nowOrders Orders, ahead []Ahead) error
}

// Legend is implemented by a ruleset that explains, in words, the numbers
// and markers its views show (the counters' printed values, the markers of
// the text map): results mails end with these lines, once. Each line is
// one explanation, e.g. `2-5-4(6): attack 2, escape 5, 4 MP (6 along a
// road)`.
type Legend interface {
	Legend() []string
}

// GameLegend is implemented by a ruleset whose legend depends on the game:
// it explains only what this game's board can show (no Dragon's record
// sheet in a game without Dragons). It is asked before Legend.
type GameLegend interface {
	LegendFor(State) []string
}

// Handicapper is implemented by a ruleset whose players keep handicaps
// across games. umpire counts them from the finished
// games of such rulesets — a game won +1, a game lost -1, a draw 0 — per
// pair of opponents and combined over every opponent; a new game may then
// be given its two players' handicaps, which the ruleset turns into
// options of the game (recorded in its game.created like any option).
type Handicapper interface {
	// HandicapRules names the ruleset's handicap rules for people: its
	// rulebook's section and rule IDs.
	HandicapRules() string
	// Handicap returns the options of a new game whose players have the
	// handicaps h (by side), from options, and what they do in words. An
	// error says why the game cannot take them (its sides, an option the
	// handicap would set given too).
	Handicap(h map[Side]int, options map[string]string) (map[string]string, string, error)
}

// Zone is a named set of hexes where a request lets a side place units: a
// setup zone, named as the ruleset's errors name it ("defender-setup").
type Zone struct {
	Name    string   // as the errors name it, e.g. "defender-setup"
	Title   string   // for people: "defender setup, all scenarios (SCEN-3)"
	Hexes   []string // where every unit listed may be placed, sorted
	Compact string   // the same hexes for people, as ranges: "0805-0812, 0905-0911"
	Units   []string // the units that may be placed there
	Also    []string // hexes open to some of the units only, sorted (the Note says which)
	Note    string   // for people: who may take the hexes of Also, and why
}

// SetupHelper is implemented by a ruleset that can help a side answer a
// setup request: the zones it sets up in (render.Game shades them on that
// side's picture; they are not in the View) and a skeleton of the answer —
// the "turn:", "phase:" and "orders:" lines, valid YAML in which only the
// placeholders "____" remain to be replaced by hexes. ok is false when req
// is not a setup the ruleset can help with.
type SetupHelper interface {
	SetupHelp(st State, req Request) (zones []Zone, skeleton string, ok bool)
}

// HexMaps is implemented by a ruleset played on hex maps. It is how the
// generic parts of umpire (the command line, the results mails, the
// renderer) reach a game's maps, their checks and the way they are drawn,
// without naming the game: a View's Map is one of MapNames.
type HexMaps interface {
	// MapNames lists the built-in maps, in the rulebook's order.
	MapNames() []string
	// Map loads the built-in map called name.
	Map(name string) (*hexmap.Map, error)
	// ParseMap reads a map file (a group's corrected copy) in the ruleset's
	// vocabulary; file names it in errors.
	ParseMap(file string, data []byte) (*hexmap.Map, error)
	// CheckMap checks m against every map fact the rules state and the
	// shape a playable map needs. None means the map is usable.
	CheckMap(m *hexmap.Map) []MapProblem
	// PictureStyle says how the ruleset's kinds of terrain, flags, named
	// hexes, hexside features and markers are drawn. The renderer draws
	// any kind the style does not list in a plain, generic way.
	PictureStyle() *PictureStyle
}

// GameBoards is implemented by a ruleset whose games may be played on a
// map of their own (set up from a position with a custom map), which no
// built-in name loads: BoardOf is the map state is played on, whatever it
// is; false when state names none.
type GameBoards interface {
	BoardOf(state State) (*hexmap.Map, bool)
}

// MapProblem is one way a map breaks a rule: where (a hex, hexside, zone
// or road), the rule ID, and what is wrong.
type MapProblem struct {
	Where   string
	Rule    string
	Message string
}

// String writes the problem as "where: message (rule)".
func (p MapProblem) String() string { return fmt.Sprintf("%s: %s (%s)", p.Where, p.Message, p.Rule) }

// RGB is an opaque sRGB colour, 0xRRGGBB.
type RGB uint32

// PictureStyle is how a ruleset's maps are drawn: plain data the renderer
// reads. Lists are in legend order.
type PictureStyle struct {
	Terrain []TerrainStyle
	Flags   []FlagStyle
	Points  []PointStyle
	Sides   []SideStyle
	Markers []MarkerStyle
	// PathTraces are trace kinds drawn as paths from hex to hex, like
	// moves, besides the renderer's own (move, fly, retreat, advance,
	// charge, displace): a marker that travels, say.
	PathTraces []string
}

// TerrainStyle is how one terrain kind fills its hexes.
type TerrainStyle struct {
	Kind string
	Fill RGB
	// Pattern is drawn over the fill in Mark: "" (none), "trees",
	// "waves", "sea", "planks", "stones", "rings", "hills", "houses",
	// "tufts" or "letter" (the kind's name).
	Pattern string
	Mark    RGB
}

// FlagStyle draws a hex flag as a band along the foot of the hex, in the
// colours of the terrain Band (a land hex that is also river).
type FlagStyle struct {
	Kind   string
	Band   string // a terrain kind of the style
	Legend string
}

// PointStyle tags a kind of named hex (an entry, an exit) with a label.
type PointStyle struct {
	Kind  string
	Label string // short, on the tag: "IN"
	Fill  RGB
	Text  RGB
}

// SideStyle is how one hexside feature kind is drawn.
type SideStyle struct {
	Kind string
	// Shape is "wall" (a heavy line with crenels outward; a "tower" tag
	// makes it a tower wall), "palisade" (a line with stakes), "entrance"
	// (a bar with Letter in a box; may be open or broken), "line" (a plain
	// line) or "cliff" (a line with teeth outward). Any other shape is a
	// dashed line.
	Shape  string
	Colour RGB
	Letter string // for entrances: "G"
	// Broken draws the feature always broken (a breach in a palisade).
	Broken bool
	// Legend words: Legend defaults to Kind; the others to "tower ",
	// "open " and "broken " before Legend. A Broken feature's legend is
	// Legend. Two entries with the same words share one legend line.
	Legend, TowerLegend, OpenLegend, BrokenLegend string
}

// MarkerStyle is how a marker on a hex (adjudicator.HexMark) is drawn: a
// shape on the hex and a tag at its foot.
type MarkerStyle struct {
	Kind   string
	Shape  string // "spiral", or "" for the tag alone
	Colour RGB    // the shape's
	// Tag is the tag's text, before the marker's label when that starts
	// with a digit ("W" and "2": "W2"), replaced by any other label.
	Tag     string
	TagFill RGB
	Legend  string
}
