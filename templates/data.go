package templates

// Due is one thing a game waits for.
type Due struct {
	Side     string
	Title    string // "turn 3, red moves"
	Kind     string // "setup", "orders" or "decision"
	Turn     int
	Phase    string
	Prompt   string   // for decisions: the question
	Choice   []string // for decisions: the accepted answers
	Received bool     // already answered, waiting for the others
	Mine     bool     // due from the mail's recipient
}

// Game names the game a mail is about.
type Game struct {
	ID       string
	Ruleset  string
	Scenario string
	Referee  string // the referee's address, "" if none
}

// WelcomeData is for welcome.tmpl: a player's first mail of a game.
type WelcomeData struct {
	Game
	Side        string
	Secret      string // the player's secret: it must be in every mail of orders
	Sides       []string
	Commitment  string // the dice commitment, published before any roll
	ChainLength int
	Map         string // the starting position as the player may see it
	Due         []Due
	Skeleton    string // the first lines of an orders mail for this player
}

// AckData is for ack.tmpl: orders were accepted.
type AckData struct {
	Game
	Side        string
	Title       string // what the orders answer: "turn 1, bids"
	Turn        int
	Phase       string
	Normalized  string // the orders as the referee understood them
	Digest      string // SHA-256 of the orders text as received
	Source      string // where the orders were found: body, fenced block, attachment
	Notes       []string
	Replaced    bool // these orders replace earlier ones
	Adjudicated bool // they completed a turn: results follow in another mail
	Waiting     []Due
	Ahead       []string // the later phases the mail also gave orders for ("then:"), e.g. "turn 3, fire"
}

// ErrorLine is one problem in a player's mail.
type ErrorLine struct {
	Line, Column int    // in the mail (or attachment) as the player sees it; 0 if none
	Code         string // stable code, e.g. "unknown-field"
	Msg          string
	Text         string // the player's line, for context
}

// RejectedData is for rejected.tmpl: nothing was recorded.
type RejectedData struct {
	Game           // may be empty when the mail could not be routed
	Side    string // may be empty
	Where   string // "your mail" or "the attachment orders.yaml"
	Problem string // a problem with the mail as a whole (no orders found, HTML only, ...)
	Errors  []ErrorLine
	Notes   []string
	Due     []Due // what the game waits for from this player, if known
}

// Adjudication is one turn's resolution as players read it.
type Adjudication struct {
	K      int
	Seed   string // the revealed dice seed, "" for scripted dice
	Chain  int
	Index  int
	Report []string
	Rolls  []string // "advance R1: 1d6=4, from 0 to 4"
}

// ResultsData is for results.tmpl: what an adjudication did, as one side
// may see it.
type ResultsData struct {
	Game
	Side          string
	Adjudications []Adjudication
	Head          string // hash of the game log's last event after the adjudication
	Event         uint64 // its number
	Commitment    string // the dice commitment of the chain in use
	Map           string // the state as this side may see it
	Over          bool
	Result        string
	Due           []Due
	Decision      string   // decision-needed.tmpl rendered for this side, "" if none
	Notes         []string // what became of orders sent ahead ("then:"): used, or dropped and why
}

// DecisionData is for decision-needed.tmpl, included in results mails.
type DecisionData struct {
	Game
	Side string
	Due  Due
}

// RefereeData is for referee.tmpl: the answer to a referee command.
type RefereeData struct {
	Game
	Command string
	OK      bool
	Text    string // what happened, or the error
}
