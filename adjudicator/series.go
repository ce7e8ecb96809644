package adjudicator

import (
	"fmt"
	"regexp"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

// A series (a campaign, a tournament, a strategic campaign that launches
// battles) is a game whose ruleset plays the layer above other games: its
// state is potentials, standings, pairings or regions, and its adjudications
// reach child games and read their results. docs/architecture.md, "Series",
// has the design; this file is the part every series ruleset shares.
//
// A series ruleset emits a *ChildGame event when it reaches a game; the
// games service creates that child in the same transaction. It waits for
// the child with a result request (ResultRequest), answered only by umpire
// itself when the child ends, with a *ChildResult. A series that must act
// before anyone has said anything (draw the first pairings) asks for an
// automatic answer (AutoRequest), which umpire gives at once.

// SeriesSide is the side umpire itself answers for in a series: its start
// and the results of its children. It has no player and no address; orders
// mailed or typed for it are refused.
const SeriesSide Side = "series"

// Request kinds a series uses besides setup, orders and decision.
const (
	// KindAuto is answered by umpire at once, with empty orders: a series'
	// adjudication that needs no one's answer (the first pairings).
	KindAuto = "auto"
	// KindResult is answered by umpire when a child game ends, with its
	// *ChildResult. A result request is adjudicated as soon as it is
	// answered, whatever else is due.
	KindResult = "result"
)

// Vias that may answer the series side: umpire itself, and game scripts
// (the rule cases of a series ruleset script its children's results).
const (
	ViaSeries = "series"
	ViaScript = "script"
)

// PhaseResult is the phase of every result request; its turn is the
// series' own count (a campaign's game, a tournament's round).
const PhaseResult = "result"

// PhaseStart is the phase of an automatic request.
const PhaseStart = "start"

// TypeChildGame is the stored name of the ChildGame event.
const TypeChildGame = "series.child"

var childKeyRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,23}$`)

// ValidChildKey reports whether key may name a child in its series: it
// becomes part of the child's game id (SERIES-KEY), so lower-case letters,
// digits and dashes, up to 24.
func ValidChildKey(key string) bool { return childKeyRE.MatchString(key) }

// ChildGame is the event by which a series reaches a game: everything the
// child's game.created needs. The child's id is the series' id, a dash and
// Key.
type ChildGame struct {
	Key      string            `json:"key"`                // unique in the series: "g3", "r2-m1-a"
	Title    string            `json:"title"`              // for people: "game 3 of 5"
	Ruleset  string            `json:"ruleset"`            // the child's ruleset
	Scenario string            `json:"scenario,omitempty"` // its scenario, or "" with Position
	Position string            `json:"position,omitempty"` // an inline position
	Options  map[string]string `json:"options,omitempty"`  // its options (the VP goal, a handicap)
	Players  []ChildPlayer     `json:"players"`            // who plays each of its sides
	// Module names the module data the child is played from: a module of
	// the data file's library, or one its ruleset ships; "" for the
	// ruleset's first builtin module.
	Module string `json:"module,omitempty"`
}

// EventType implements Event.
func (*ChildGame) EventType() string { return TypeChildGame }

// ChildPlayer says which of the series' sides (a player of the series)
// plays Side of the child game.
type ChildPlayer struct {
	Side   Side `json:"side" yaml:"side"`     // the child's side: invader
	Player Side `json:"player" yaml:"player"` // the series' side whose player plays it: p3
}

// ChildModules is implemented by a series whose options name the modules
// its children are played from (ChildGame.Module): umpire checks, when the
// series is created, that each can be found, rather than fail when the
// series reaches its first child.
type ChildModules interface {
	ChildModules(st State) []ModuleUse
}

// ModuleUse is one module a series' children are played from: their
// ruleset, the module's name, and the option that names it.
type ModuleUse struct {
	Ruleset, Module, Option string
}

// SeriesEventTypes lists the engine-level events a series ruleset emits;
// include them in its EventTypes.
func SeriesEventTypes() []EventType {
	return append([]EventType{{Name: TypeChildGame, Schema: 1, New: func() Event { return &ChildGame{} }}}, ChildSecretEventTypes()...)
}

// ResultKey is the request id of the result of child key.
func ResultKey(key string) string { return "result." + key }

// ResultRequest is what a series waits for while child key is played: its
// result, recorded by umpire when the child ends. turn is the series' own
// count (the game or round the child belongs to).
func ResultRequest(key string, turn int, title string) Request {
	return Request{ID: ResultKey(key), Side: SeriesSide, Kind: KindResult, Turn: turn, Phase: PhaseResult,
		Title: "result of " + title}
}

// AutoRequest is an adjudication the series makes at once, answered by
// umpire with empty orders.
func AutoRequest(id string, turn int, title string) Request {
	return Request{ID: id, Side: SeriesSide, Kind: KindAuto, Turn: turn, Phase: PhaseStart, Title: title}
}

// ChildResult is how a child game ended, as its own log says: recorded in
// the series as the answer to the child's result request, and checked
// against the child's log by `umpire series verify`.
type ChildResult struct {
	Key     string        `json:"key" yaml:"key"`
	Game    string        `json:"game" yaml:"game"`                         // the child's id
	Winner  Side          `json:"winner,omitempty" yaml:"winner,omitempty"` // the child's side that won; "" for a draw
	Result  string        `json:"result" yaml:"result"`                     // how it ended, in words
	Players []ChildPlayer `json:"players" yaml:"players"`                   // who played each side at the end (after any swap)
	// View is the child's final state as every side may read it (the
	// Observer's view): VP, units destroyed, markers.
	View View `json:"view" yaml:"view"`
	// Head is the SHA-256 of the child's last event and Events its
	// length: the log this result was read from.
	Head   string `json:"head" yaml:"head"`
	Events uint64 `json:"events" yaml:"events"`
}

// PlayerOf returns the series side that played the child's side s.
func (r *ChildResult) PlayerOf(s Side) Side {
	for _, p := range r.Players {
		if p.Side == s {
			return p.Player
		}
	}
	return ""
}

// WinnerPlayer returns the series side whose player won the child, "" for
// a draw.
func (r *ChildResult) WinnerPlayer() Side {
	if r.Winner == "" {
		return ""
	}
	return r.PlayerOf(r.Winner)
}

// ParseChildResult reads the orders of a result request. want is the
// request's child key.
func ParseChildResult(req Request, n *yaml.Node) (*ChildResult, error) {
	var r ChildResult
	if err := yamlx.Decode(n, &r); err != nil {
		return nil, err
	}
	if ResultKey(r.Key) != req.ID {
		return nil, Errorf(yamlx.Value(n, "key"), CodeBadValue, "this result is for child %q, but %s is due", r.Key, req.Title)
	}
	if r.Game == "" || r.Head == "" || r.Events == 0 {
		return nil, Errorf(n, CodeMissingField, "a child's result names its game, its last event's hash and its length")
	}
	return &r, nil
}

// ChildID is the id of a series' child: the series' id, a dash, the key.
func ChildID(series, key string) string { return series + "-" + key }

// CheckChild says what is wrong with a ChildGame a ruleset is about to emit.
func CheckChild(c *ChildGame) error {
	if !ValidChildKey(c.Key) {
		return fmt.Errorf("child key %q: use lower-case letters, digits and dashes, up to 24", c.Key)
	}
	if c.Ruleset == "" || len(c.Players) == 0 {
		return fmt.Errorf("child %s: give its ruleset and players", c.Key)
	}
	return nil
}
