package adjudicator

// PlayersSwap is implemented by a ruleset event after which the players of
// two sides trade places: from that event on, the player who played A
// plays B, and the other way round. It is how a game binds its players
// again when a player picks his side once the game has begun (say, one
// player builds both armies and the other then chooses which to play).
//
// The event is an ordinary one of the log, and the game layer makes the
// swap as it folds it: a replay, an audit and every later check (who may
// send orders for a side, whose report and view a player gets, where the
// mails go) follow it, and each player keeps his own secret. ok is false
// when the event leaves the players where they are (the chooser kept his
// side).
type PlayersSwap interface {
	Event
	SwapsPlayers() (a, b Side, ok bool)
}
