package game

import (
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// The game-level event types. These names and schemas are stored in every
// game's log: never change them, add new ones.
//
// Schema 1 of game.created, orders.accepted, turn.adjudicated and
// orders.queue-dropped (umpire before the Trust work) kept players' secrets
// and every side's private report in the log; such logs are refused with a
// pointer to `umpire upgrade`, which rewrites them as schema 2.
const (
	TypeCreated       = "game.created"         // schema 2: Created
	TypeOrders        = "orders.accepted"      // schema 2: OrdersAccepted
	TypeAdjudicated   = "turn.adjudicated"     // schema 2: Adjudicated
	TypeChainExtended = "dice.chain-extended"  // schema 1: ChainExtended
	TypeQueueDropped  = "orders.queue-dropped" // schema 2: QueueDropped
	TypeRevealed      = "sealed.revealed"      // schema 1: Revealed
	TypeLost          = "sealed.lost"          // schema 1: Lost
	TypeUpgraded      = "log.upgraded"         // schema 1: Upgraded
	// adjudicator.TypeSecret ("state.sealed"), schema 1: SealedEvent, a
	// ruleset event sealed (secret.go). It is written for every game; a
	// ruleset does not list it in its EventTypes.
)

// schemas is the schema each game-level type is written with now.
var schemas = map[string]int{
	TypeCreated: 2, TypeOrders: 2, TypeAdjudicated: 2, TypeChainExtended: 1,
	TypeQueueDropped: 2, TypeRevealed: 1, TypeLost: 1, TypeUpgraded: 1, adjudicator.TypeSecret: 1,
	TypeDeadlineSet: 1, TypeDeadlineReminded: 1, TypeDeadlinePassed: 1,
	TypeDeadlineExtended: 1, TypePaused: 1, TypeResumed: 1, TypeEnded: 1, TypeReplaced: 1, TypeAway: 1, TypeBack: 1, TypeDigest: 1,
	TypeObserverAdded: 1, TypeObserverRemoved: 1, TypePressSent: 1, TypeResultsPref: 1,
}

// Schema is the schema version a game-level event type is written with now
// (0 for a type that is not game-level).
func Schema(typ string) int { return schemas[typ] }

// Actors recorded on events.
const (
	ActorReferee = "referee"
	ActorEngine  = "engine"
)

// SideActor is the actor name of a side's player.
func SideActor(s adjudicator.Side) string { return "side:" + string(s) }

// Record is an event to append to a game's log.
type Record struct {
	Type    string
	Schema  int
	Time    time.Time
	Actor   string
	Payload []byte
	// Private is the opening of a commitment the payload makes (see
	// seal.go): kept in the referee's data file, never in the log.
	Private []byte
}

// Entry is a stored event as the game package reads it.
type Entry struct {
	Seq uint64
	Record
}

// Created is the payload of game.created: everything needed to set the game
// up again from nothing.
type Created struct {
	Game           string            `json:"game"`
	Ruleset        string            `json:"ruleset"`
	RulesetVersion string            `json:"ruleset_version"`
	Scenario       string            `json:"scenario,omitempty"`
	Position       string            `json:"position,omitempty"`
	Options        map[string]string `json:"options,omitempty"` // the ruleset's
	Clock          map[string]string `json:"clock,omitempty"`   // the clock's: deadline.* (clock.go)
	Players        []Player          `json:"players"`
	Referee        string            `json:"referee,omitempty"`
	Dice           DiceInfo          `json:"dice"`
	StateHash      string            `json:"state_hash"`
	Branch         *Branch           `json:"branch,omitempty"` // a branch of another game (rollback)
	Parent         *Parent           `json:"parent,omitempty"` // the series this game is part of
	// Module names the module data the game is played from, by name and
	// digest, for a ruleset played from modules (adjudicator.Modular).
	// A fold finds its files by digest (Source), so a game replays
	// exactly whatever becomes of the module's name later.
	Module *adjudicator.ModuleRef `json:"module,omitempty"`
}

// Parent links a child game to the series that reached it: the series'
// series.child event at Seq, which names the child's Key. The child's
// game.created says what that event says (ruleset, scenario, position,
// options, players); `umpire series verify` checks both ends.
type Parent struct {
	Game string `json:"game"`
	Key  string `json:"key"`
	Seq  uint64 `json:"seq"`
}

// Player is one side's player. The player's secret is never in the log:
// the referee's data file keeps only a salted check value of it.
type Player struct {
	Side    adjudicator.Side `json:"side"`
	Address string           `json:"address,omitempty"`
	// Seat is the side this player was named for when the game was
	// created, when the players have swapped sides since (seats.go): the
	// data file keeps his secret's check value under it. Never in
	// game.created; "" means Side. A side's second, third… player
	// (team.go) has the seat "SIDE/2", "SIDE/3"…, given when the log is
	// folded.
	Seat adjudicator.Side `json:"seat,omitempty"`
	// Parts are the parts of the side this player commands, when the
	// side's orders are split between its players (team.orders=split).
	Parts []string `json:"parts,omitempty"`
}

// Dice modes.
const (
	DiceChain    = "chain"    // committed hash chain (real games)
	DiceScripted = "scripted" // faces given in advance (tests, what-ifs)
)

// DiceInfo says where the game's dice come from.
type DiceInfo struct {
	Mode        string `json:"mode"`
	Commitment  string `json:"commitment,omitempty"`   // hex s_0 of the first chain
	ChainLength int    `json:"chain_length,omitempty"` // adjudications per chain
	Faces       []int  `json:"faces,omitempty"`        // scripted faces
	// Game is the game id the dice derivation uses when it is not this
	// game's own: a branch keeps its parent's, so that the adjudications
	// it shares with its parent roll the same dice.
	Game string `json:"game,omitempty"`
}

// Branch says that a game is a branch of another: it starts with a copy
// of the parent's events up to event At (whose hash was Head), and its
// dice go on with a fresh chain.
type Branch struct {
	Of   string `json:"of"`
	At   uint64 `json:"at"`
	Head string `json:"head"`
}

// OrdersAccepted is the payload of orders.accepted.
//
// Text is the orders exactly as the player sent them, less the line that
// carried the player's secret (SecretRemoved says one was removed). When the
// other sides may not read the orders yet — simultaneous hidden orders, or
// a text with orders sent ahead under "then:" — Text is sealed: Sealed is
// the commitment of an OrdersOpening and the text is revealed by a
// sealed.revealed event when it may be (hidden orders at their
// adjudication, or when a Reveal names their SealKey; orders sent ahead
// when all of them were used; and everything at the end of the game).
type OrdersAccepted struct {
	Request       string           `json:"request"`
	Side          adjudicator.Side `json:"side"`
	Seat          adjudicator.Side `json:"seat,omitempty"` // the sender's seat (seats.go) when not Side: the players had swapped sides
	Kind          string           `json:"kind"`
	Turn          int              `json:"turn"`
	Phase         string           `json:"phase"`
	Text          string           `json:"text,omitempty"`           // as received, less the secret line; "" when sealed
	SecretRemoved bool             `json:"secret_removed,omitempty"` // a "secret:" line was removed from Text
	Digest        string           `json:"digest,omitempty"`         // hex SHA-256 of Text; "" when sealed
	// Orders is the "orders:" section alone, re-encoded, when Text is sealed
	// but the orders themselves are not (orders sent ahead follow them):
	// what a replay parses.
	Orders     string `json:"orders,omitempty"`
	Normalized string `json:"normalized,omitempty"` // as the engine understood them; "" when sealed
	Via        string `json:"via,omitempty"`
	MessageID  string `json:"message_id,omitempty"`
	Replaces   bool   `json:"replaces,omitempty"`
	// By is the sender's address when several players play the side
	// (team.go); Parts are the parts of the side the orders answer for
	// when its orders are split (team.orders=split).
	By     string   `json:"by,omitempty"`
	Parts  []string `json:"parts,omitempty"`
	Sealed string   `json:"sealed,omitempty"` // commitment of the OrdersOpening
	Ahead  bool     `json:"ahead,omitempty"`  // the sealed text also gives orders for later phases ("then:")
	// SealKey is the request's SealKey (adjudicator.Request): the sealed
	// orders stay sealed after their adjudication, until a Reveal names
	// this key or the game ends (secret.go).
	SealKey string `json:"seal_key,omitempty"`
	// Queued marks orders taken from an earlier text's "then:" list: entry
	// QueueIndex of the text of event QueueOf, used automatically when its
	// phase came due. Their Orders field holds that entry's orders.
	Queued     bool   `json:"queued,omitempty"`
	QueueOf    uint64 `json:"queue_of,omitempty"`
	QueueIndex int    `json:"queue_index,omitempty"`
	QueueDone  bool   `json:"queue_done,omitempty"` // the last entry of that list
}

// Sender is the seat of the player who sent the orders: who "you" are
// when a player reads them back, whichever side he plays now.
func (oa OrdersAccepted) Sender() adjudicator.Side {
	if oa.Seat != "" {
		return oa.Seat
	}
	return oa.Side
}

// OrdersOpening is the sealed part of an orders.accepted event: what it
// lacks, and a random salt so that nobody can confirm a guess of the text
// from the commitment.
type OrdersOpening struct {
	Salt       string   `json:"salt"`
	Text       string   `json:"text"`
	Digest     string   `json:"digest"`
	Orders     string   `json:"orders,omitempty"`
	Normalized string   `json:"normalized,omitempty"`
	Queue      []Queued `json:"queue,omitempty"` // the later phases the text gives orders for
}

// Queued is one entry of a "then:" list: the orders for a later phase.
type Queued struct {
	Index int    `json:"index"` // position in the "then:" list of the text
	Turn  int    `json:"turn"`
	Phase string `json:"phase"`
}

// QueueDropped is the payload of orders.queue-dropped: a side's orders sent
// ahead were not used; the side is asked for that phase as usual. Why is
// told to the side alone: the reason is sealed (a QueueDroppedOpening).
type QueueDropped struct {
	Side   adjudicator.Side `json:"side"`
	Turn   int              `json:"turn"`
	Phase  string           `json:"phase"`
	Sealed string           `json:"sealed"` // commitment of the QueueDroppedOpening
}

// QueueDroppedOpening is the sealed part of orders.queue-dropped.
type QueueDroppedOpening struct {
	Salt   string `json:"salt"`
	Reason string `json:"reason"`
}

// Revealed is the payload of sealed.revealed: the opening of a commitment
// made by event Of, now that every side may read it. SHA-256 of Opening's
// bytes is the commitment.
type Revealed struct {
	Of         uint64 `json:"of"`
	Commitment string `json:"commitment"`
	Opening    string `json:"opening"`
}

// Upgraded is the payload of log.upgraded, the last event of a log that
// `umpire upgrade` rewrote from an older schema: what the log was before.
type Upgraded struct {
	FromSchema int    `json:"from_schema"`
	OldEvents  int    `json:"old_events"`
	OldHead    string `json:"old_head"`
	Changes    string `json:"changes"`
}

// Adjudicated is the payload of turn.adjudicated. It follows the ruleset
// events the adjudication emitted.
type Adjudicated struct {
	K              int                 `json:"k"`                // adjudication number, from 1
	Chain          int                 `json:"chain"`            // dice chain generation, from 0
	Index          int                 `json:"index"`            // seed index in that chain, from 1
	Seed           string              `json:"seed"`             // hex s_index, revealed now ("" for scripted dice)
	Requests       []string            `json:"requests"`         // the requests answered
	Events         int                 `json:"events"`           // ruleset events emitted just before
	Rolls          []*adjudicator.Roll `json:"rolls"`            // every die rolled, in order; a roll not for everyone is a sealed stand-in
	Report         []adjudicator.Line  `json:"report"`           // what happened, for people: the lines every side reads
	Sealed         string              `json:"sealed,omitempty"` // commitment of the AdjudicationOpening, when some lines or rolls are not public
	StateHash      string              `json:"state_hash"`       // hash of the state afterwards
	RulesetVersion string              `json:"ruleset_version"`
}

// AdjudicationOpening is the sealed part of turn.adjudicated: the report
// lines and rolls that not every side may read, each with its audience.
type AdjudicationOpening struct {
	Salt  string              `json:"salt"`
	Lines []PlacedLine        `json:"lines,omitempty"`
	Rolls []*adjudicator.Roll `json:"rolls,omitempty"`
}

// PlacedLine is a report line with its place in the whole report.
type PlacedLine struct {
	At int `json:"at"`
	adjudicator.Line
}

// ChainExtended is the payload of dice.chain-extended: a new chain of seeds
// committed as soon as the previous one is used up, before any orders that
// its dice will resolve can arrive.
type ChainExtended struct {
	Chain       int    `json:"chain"`
	Commitment  string `json:"commitment"`
	ChainLength int    `json:"chain_length"`
	FromK       int    `json:"from_k"` // the first adjudication it serves
}
