package templates

import "time"

// Due is one thing a game waits for.
type Due struct {
	ID       string // the request's id, e.g. "t3.invader.movement" (for the X-Umpire-Due header)
	Side     string
	Title    string // "turn 3, red moves"
	Kind     string // "setup", "orders" or "decision"
	Turn     int
	Phase    string
	Prompt   string   // for decisions: the question
	Choice   []string // for decisions: the accepted answers
	Received bool     // already answered, waiting for the others
	Mine     bool     // due from the mail's recipient
	// By is the deadline, for people: "Fri 28 Nov 18:00 UTC (19:00 in
	// Europe/Paris) — in 2 days 4 hours"; "" when there is none.
	By string
	// Deadline is the same deadline as a time; zero when there is none.
	Deadline time.Time
}

// ClockData is a reminder or a lateness notice about one request.
type ClockData struct {
	Game
	Request   Due    // the request the deadline is for (Mine: the recipient's own)
	ToReferee bool   // this copy is the referee's
	Policy    string // what happens if nothing comes, for people ("" when the referee decides)
	Waiting   []Due  // everything the game waits for, as the recipient sees it
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
	Skeleton    string   // the first lines of an orders mail for this player
	Clock       []string // the game's deadline rules, one line each; none when it has no deadlines
	Setup       string   // setup-due.tmpl rendered for this player when a setup is due from them, else ""
	Handicap    string   // the handicap the game was given and why (DR-HCAP-3), else ""
	// Series says, for a series, how its games come and, for a game of a
	// series, which game of which series it is; else "".
	Series string
	// Team says, when several players play the side, who they are and who
	// answers for the side (docs/teams.md); else "".
	Team string
	// Module says, for a game played from module data, which module and
	// where its values come from (how many are assumed); else "".
	Module string
}

// SetupZone is one zone a side sets up in, named as the errors name it.
type SetupZone struct {
	Name  string   // "defender-setup"
	Title string   // "defender setup, all scenarios (DR-SCEN-8)"
	Hexes string   // the legal hexes as ranges down a column: "0805-0812, 0905-0911"
	Note  string   // hexes open to some units only, and why; "" if none
	Units []string // the units that may set up there; empty when every unit to place may
}

// SetupData is for setup-due.tmpl: a setup is due from the recipient —
// where each unit may go, and the orders to fill in. Included in the
// welcome and in results mails.
type SetupData struct {
	Game
	Side     string
	Turn     int
	Phase    string
	Units    []string    // every unit to place
	Zones    []SetupZone // in the map's order
	Skeleton string      // a whole orders mail, valid but for the "____" to replace by hexes
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
	Adjudicated bool // they completed a turn: the results follow in the same mail
	Waiting     []Due
	Ahead       []string // the later phases the mail also gave orders for ("then:"), e.g. "turn 3, fire"
}

// ErrorLine is one problem in a player's mail.
type ErrorLine struct {
	Line, Column int    // in the mail (or attachment) as the player sees it; 0 if none
	Code         string // stable code, e.g. "unknown-field"
	Msg          string // cut to a few hundred characters
	Text         string // the player's line, for context (cut; a "secret:" line reads "secret: (hidden)")
	// Quote is the player's line with the one before and after it, each cut
	// to about 200 characters, "secret:" lines hidden.
	Quote []QuotedLine
}

// QuotedLine is one line of a player's mail quoted back to them.
type QuotedLine struct {
	Line  int    // in the mail (or attachment) as the player sees it
	Text  string // cut to about 200 characters; a "secret:" line reads "secret: (hidden)"
	Error bool   // the line the problem is on
}

// RejectedData is for rejected.tmpl: nothing was recorded.
type RejectedData struct {
	Game           // may be empty when the mail could not be routed
	Side    string // may be empty
	Where   string // "your mail" or "the attachment orders.yaml"
	Problem string // a problem with the mail as a whole (no orders found, HTML only, ...)
	Errors  []ErrorLine
	More    int // problems found but not listed (at most about ten are)
	Notes   []string
	Due     []Due  // what the game waits for from this player, if known
	Paused  *Pause // this mail's wrong secret paused the side's orders; nil otherwise
}

// Count is the number of problems found, listed or not.
func (d RejectedData) Count() int { return len(d.Errors) + d.More }

// Pause says that umpire stopped reading order mails for a side, or from
// an address, after too many wrong secrets: they are refused unread until
// Until.
type Pause struct {
	Until   string // "2026-11-22 11:00:05 UTC"
	Window  string // "1 hour": the time the wrong secrets were counted in
	Limit   int    // how many wrong secrets within Window start a pause
	Address string // the address whose order mails are paused, "" if none
	Side    string // the side whose order mails are paused, "" if none
}

// PausedData is for paused.tmpl: an order mail refused unread while
// guessing the secret is paused. Game.Referee is who can lift the pause.
type PausedData struct {
	Game
	Side string
	Pause
}

// Guess is one wrong secret, as the lock-out notice lists it (never the
// secret guessed).
type Guess struct {
	Time string // "2026-11-22 10:00:01 UTC"
	From string // the sender's address
	Game string
	Side string
}

// LockoutData is for lockout.tmpl: told once per pause to the side's
// player and to the game's referee. Game.Referee is who can lift the pause.
type LockoutData struct {
	Game
	Side      string
	Owner     string // the side's registered address
	ToReferee bool   // this copy is the referee's
	Pause
	Guesses []Guess // the wrong secrets that started the pause, oldest first
	More    int     // wrong secrets not listed
	Unlock  string  // the referee command that lifts the pause
}

// Count is the number of wrong secrets, listed or not.
func (d LockoutData) Count() int { return len(d.Guesses) + d.More }

// Adjudication is one turn's resolution as players read it.
type Adjudication struct {
	K      int
	Seed   string // the revealed dice seed, "" for scripted dice
	Chain  int
	Index  int
	Report []string
	Rolls  []string // "advance R1: 1d6=4, from 0 to 4"
	// Title says what was played, for the narrative of a results mail:
	// "turn 1, move (blue)"; "" when not known.
	Title string
	// Orders are the orders this adjudication used, as the reader may read
	// them, each side's in turn (results mails only).
	Orders []Played
}

// Played is one side's orders used by an adjudication, as a results mail
// tells them.
type Played struct {
	Side   string
	Mine   bool     // the reader's own side
	Pass   bool     // no orders: the side passed
	Sealed bool     // the reader may not read them (yet)
	Lines  []string // the orders, one action a line: "move ORC-2: 0202 → 0303" or the normalized YAML
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
	ForReferee    bool     // the referee's copy: every side's lines and rolls, the whole board
	// Ack is the acknowledgement of the recipient's own orders (ack.tmpl,
	// rendered) when the orders they sent made these results: one mail
	// carries both, the acknowledgement first. "" otherwise.
	Ack string
	// Legend explains the numbers and markers of the board, in the
	// ruleset's words (adjudicator.Legend); none when it gives none.
	Legend []string
	// Numbered says that the attached picture draws the moves and attacks
	// of several adjudications, each marked with its number.
	Numbered bool
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

// NoticeData is a notice to every player and the referee about the game's
// clock: paused, resumed, a deadline moved.
type NoticeData struct {
	Game
	What    string // "the referee paused the game."
	Reason  string // why, in the referee's words or umpire's
	Waiting []Due  // what the game waits for now, as the recipient sees it
}

// MailCommand is one command umpire answers by mail, as the help mail
// lists it (mail/referee keeps the table; docs/mail.md is made from it).
type MailCommand struct {
	Name    string
	Who     string // who may use it: "players and the referee", "the referee", ...
	Fields  string // the fields it takes, for people
	Summary string // what it does, in one line
	Example string // a whole command mail (YAML)
}

// HelpData is for ask-help.tmpl: every command, with an example each.
type HelpData struct {
	Referee       string // the referee of umpire.yaml, "" if none
	RefereeSecret bool   // the referee's commands must carry the referee secret
	Commands      []MailCommand
}

// Asked says what an answer to a command is about and for whom.
type Asked struct {
	Game           // Game.Referee is who to ask for more
	Command string // "status", "history", ...
	As      string // the side whose view the answer gives; "" for the referee's (everything)
}

// StatusData is for ask-status.tmpl: where a game stands.
type StatusData struct {
	Asked
	Turn      int
	Phase     string
	K         int    // adjudications made; the last one's number
	Score     string // "blue 3, red 4"; "" when the ruleset keeps no score
	Over      bool
	Result    string
	Due       []Due    // what the game waits for, with deadlines
	Deadlines []string // the game's deadline settings, "deadline.orders: 72h"; none when it has no deadlines
}

// HistoryEntry is one adjudication in a history.
type HistoryEntry struct {
	K     int
	Time  string // when it was made: "2026-11-22 10:00 UTC"
	Title string // what it answered: "turn 1, bid"
	First string // the first report line the reader may read; "" when none
}

// HistoryData is for ask-history.tmpl: every adjudication, one line each.
type HistoryData struct {
	Asked
	Entries []HistoryEntry
}

// AdjudicationData is for ask-results.tmpl: one adjudication in full, as
// the reader may read it.
type AdjudicationData struct {
	Asked
	Adjudication Adjudication
	Title        string // what it answered: "turn 1, bid"
	Time         string // when it was made
	Event        uint64 // the turn.adjudicated event …
	Hash         string // … and its hash in the game log
	Commitment   string // the commitment of the dice chain its seed belongs to
	Last         int    // adjudications made so far
}

// MapData is for ask-map.tmpl: the board as the reader may see it.
type MapData struct {
	Asked
	Turn    int
	Phase   string
	Past    bool   // the board as it stood at the end of a past turn, not now
	Map     string // the text map
	Picture string // the name of the attached picture, "" when none
}

// ExportData is for ask-export.tmpl: the audit bundle, attached.
type ExportData struct {
	Asked
	File  string // the attachment's name, "" when the bundle is too large to mail
	Size  string // its size, "12 KiB"; "" when too large
	Limit string // the largest bundle mailed, "5 MiB"
}

// AskRefusedData is for ask-refused.tmpl: a command that was not answered.
type AskRefusedData struct {
	Asked
	Where   string // "your mail" or "the attachment x.yaml"
	Problem string // a problem with the mail as a whole
	Errors  []ErrorLine
	More    int // problems found but not listed
}

// Count is the number of problems found, listed or not.
func (d AskRefusedData) Count() int { return len(d.Errors) + d.More }

// ObservingData is for observing.tmpl: told to an observer when the
// referee adds (Added) or removes them.
type ObservingData struct {
	Game
	Address string
	Added   bool
	Delay   int      // turns late the results come; 0 for at once
	Sides   []string // the game's sides
}

// ObserverResultsData is for observer-results.tmpl: adjudications as every
// side may read them, for an observer. Nothing in it is for one side alone.
type ObserverResultsData struct {
	Game
	Adjudications []Adjudication
	Delay         int    // turns late; 0 for at once
	Last          int    // the last adjudication listed
	Turn          int    // the turn Map shows
	Map           string // the state as every side may see it, after the last adjudication listed
	Over          bool
	Result        string
	Head          string // the game log's head (for an observer without delay; "" otherwise)
	Event         uint64
	Commitment    string // the dice commitment in use
}

// PressData is for press.tmpl: a press message delivered to a side, or the
// referee's copy.
type PressData struct {
	Game
	Side      string // the recipient's side; "" for the referee's copy
	ToReferee bool
	From      string // the sender's side; "" when it is not named (grey press)
	To        string // the side it is addressed to, or "all"
	Policy    string // open, private or grey
	Text      string
	Sealed    bool   // the log keeps only a commitment until the game ends
	Reply     string // the start of a press mail that answers it
}

// PressSentData is for press-sent.tmpl: the sender's acknowledgement.
type PressSentData struct {
	Game
	Side    string
	To      string   // a side, or "all"
	Policy  string   // open, private or grey
	Readers []string // the sides it was delivered to
	Referee bool     // the referee got a copy
	Sealed  bool     // the log keeps only a commitment until the game ends
	Text    string
}
