package game

import (
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// The game-level event types. These names and schemas are stored in every
// game's log: never change them, add new ones.
const (
	TypeCreated       = "game.created"         // schema 1: Created
	TypeOrders        = "orders.accepted"      // schema 1: OrdersAccepted
	TypeAdjudicated   = "turn.adjudicated"     // schema 1: Adjudicated
	TypeChainExtended = "dice.chain-extended"  // schema 1: ChainExtended
	TypeQueueDropped  = "orders.queue-dropped" // schema 1: QueueDropped
)

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
	Options        map[string]string `json:"options,omitempty"`
	Players        []Player          `json:"players"`
	Referee        string            `json:"referee,omitempty"`
	Dice           DiceInfo          `json:"dice"`
	StateHash      string            `json:"state_hash"`
}

// Player is one side's player.
type Player struct {
	Side       adjudicator.Side `json:"side"`
	Address    string           `json:"address,omitempty"`
	SecretHash string           `json:"secret_hash,omitempty"` // hex SHA-256 of the player's secret
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
}

// OrdersAccepted is the payload of orders.accepted.
type OrdersAccepted struct {
	Request    string           `json:"request"`
	Side       adjudicator.Side `json:"side"`
	Kind       string           `json:"kind"`
	Turn       int              `json:"turn"`
	Phase      string           `json:"phase"`
	Raw        string           `json:"raw"`        // exactly as received
	Normalized string           `json:"normalized"` // as the engine understood it
	Digest     string           `json:"digest"`     // hex SHA-256 of Raw
	Via        string           `json:"via,omitempty"`
	MessageID  string           `json:"message_id,omitempty"`
	Replaces   bool             `json:"replaces,omitempty"`
	// Queue lists the later phases the same text gives orders for
	// ("then:"), used one by one as they come due.
	Queue []Queued `json:"queue,omitempty"`
	// Queued marks orders taken from an earlier text's "then:" list: the
	// entry QueueIndex of Raw's list, used automatically when its phase
	// came due.
	Queued     bool `json:"queued,omitempty"`
	QueueIndex int  `json:"queue_index,omitempty"`
}

// Queued is one entry of a "then:" list: the orders for a later phase.
type Queued struct {
	Index int    `json:"index"` // position in the "then:" list of Raw
	Turn  int    `json:"turn"`
	Phase string `json:"phase"`
}

// QueueDropped is the payload of orders.queue-dropped: a side's queued
// orders were not used, and why; the side is asked for that phase as usual.
type QueueDropped struct {
	Side   adjudicator.Side `json:"side"`
	Turn   int              `json:"turn"`
	Phase  string           `json:"phase"`
	Reason string           `json:"reason"`
}

// Adjudicated is the payload of turn.adjudicated. It follows the ruleset
// events the adjudication emitted.
type Adjudicated struct {
	K              int                 `json:"k"`          // adjudication number, from 1
	Chain          int                 `json:"chain"`      // dice chain generation, from 0
	Index          int                 `json:"index"`      // seed index in that chain, from 1
	Seed           string              `json:"seed"`       // hex s_index, revealed now ("" for scripted dice)
	Requests       []string            `json:"requests"`   // the requests answered
	Events         int                 `json:"events"`     // ruleset events emitted just before
	Rolls          []*adjudicator.Roll `json:"rolls"`      // every die rolled, in order
	Report         []string            `json:"report"`     // what happened, for people
	StateHash      string              `json:"state_hash"` // hash of the state afterwards
	RulesetVersion string              `json:"ruleset_version"`
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
