package adjudicator

// Teams. A side may be played by several players (game option
// team.orders, adjudicator/game/team.go). With team.orders=split each
// player commands some parts of his side — its nations, its armies — and
// answers the side's requests for them alone; the game merges the parts'
// answers into the one answer Decide sees. A ruleset that can be played so
// implements Splitter.

// Splitter is implemented by a ruleset whose sides can be shared between
// players, each commanding some named parts of the side.
//
// The contract:
//
//   - Parts(st, side) lists every part of side, in a stable order: short
//     lower-case names without spaces or commas ("red", "north-army"),
//     the names the referee gives each player at creation
//     ("--player hl=a@x.org:red,blue"). It is asked of the state Setup
//     returns, when the game is created; a part must not come or go later.
//   - Needs(st, req) lists the parts that must answer req (a subset of
//     Parts(st, req.Side)): the request is answered when every player
//     holding one of them has answered; a part with nothing to command
//     now is left out and its player is not waited for. An empty list
//     means the request is not split: the side's captain (its first-listed
//     player) answers it alone, as with team.orders=captain.
//   - Commands(st, req, orders) lists the parts that orders (as ParseOrders
//     returned them for req) give orders to. Answers for one part hold
//     only orders of that part: a player whose orders command a part he
//     does not hold is refused, and told whose part it is. Orders that
//     command nothing (a hold, "[]") are fine from anyone.
//   - Merge(st, req, answers) makes the side's one answer to req from
//     the answers of its parts, in the order they were accepted. Each
//     part of Needs(st, req) is in the Parts of exactly one answer, and
//     Merge must take from each answer only the orders of its Parts: at a
//     deadline (no-move=default) the parts nobody answered get the
//     ruleset's default answer (Defaulter) for the whole request, given as
//     one more answer whose Parts are the missing parts. The result is
//     what Decide receives in the side's Submission. An error is a ruleset
//     bug (the engine reports it as umpire's fault, not the players').
//
// All four are pure and deterministic: they are called again on replay.
type Splitter interface {
	Parts(st State, side Side) []string
	Needs(st State, req Request) []string
	Commands(st State, req Request, orders Orders) []string
	Merge(st State, req Request, answers []PartAnswer) (Orders, error)
}

// PartAnswer is one player's answer for his parts of a split request.
type PartAnswer struct {
	Parts  []string // the parts this answer answers for
	Orders Orders   // as ParseOrders returned them
}
