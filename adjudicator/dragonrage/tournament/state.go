package tournament

import (
	"maps"
	"slices"
	"strconv"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Formats (DR-TOUR-6, DR-TOUR-7).
const (
	Swiss     = "swiss"
	Single    = "single"
	Double    = "double"
	SwissTop8 = "swiss-top8"
)

// Stages of a tournament: Swiss rounds, then (swiss-top8) elimination.
const (
	StageSwiss       = "swiss"
	StageElimination = "elimination"
)

// Brackets a match may belong to.
const (
	BracketSwiss   = "swiss"
	BracketMain    = "main"    // single elimination
	BracketWinners = "winners" // double elimination, no loss yet
	BracketLosers  = "losers"  // double elimination, one loss
	BracketFinal   = "final"   // double elimination: the last of each bracket
	BracketTop8    = "top8"    // swiss-top8's single elimination
)

// State is a tournament: its players, standings and the round being played.
type State struct {
	Format    string            `json:"format"`
	Map       string            `json:"map"`
	Draw      bool              `json:"draw"`             // a scenario drawn with 1d6 each round (DR-TOUR-8, -9)
	Fixed     int               `json:"fixed,omitempty"`  // the numbered scenario every round uses when not drawn
	Rounds    int               `json:"rounds,omitempty"` // Swiss rounds
	TotalVP   int               `json:"total-vp"`         // the VP printed on the map (DR-TOUR-4)
	Assumed   bool              `json:"vp-assumed"`       // TotalVP rests on assumed map data
	Scenarios []string          `json:"scenarios"`        // the map's numbered scenarios, 1 to 6
	Child     map[string]string `json:"child,omitempty"`  // options given to every game

	Players []*Player `json:"players"` // in number order

	Round    int                `json:"round"` // the round being played; 0 before the first draw
	Stage    string             `json:"stage"`
	Scenario string             `json:"scenario,omitempty"`  // the round's scenario
	Matches  []*Match           `json:"matches,omitempty"`   // the round's matches
	Byes     []Bye              `json:"byes,omitempty"`      // the round's byes
	Waiting  []adjudicator.Side `json:"waiting,omitempty"`   // double elimination: alone in a bracket, waits
	Order    []adjudicator.Side `json:"order,omitempty"`     // elimination: bracket order of the players still in (double: the winners' bracket)
	LOrder   []adjudicator.Side `json:"lorder,omitempty"`    // double elimination: the losers' bracket order
	Log      []string           `json:"log,omitempty"`       // one line per round played: its pairings and results
	TieBreak bool               `json:"tie-break,omitempty"` // elimination: ties of this round are decided by resistance

	Over   bool             `json:"over"`
	Winner adjudicator.Side `json:"winner,omitempty"`
	Result string           `json:"result,omitempty"`
}

// Player is one player's record.
type Player struct {
	Side       adjudicator.Side   `json:"side"`
	Points     int                `json:"points"`     // game points: 1 per game won (DR-TOUR-3), 2 per Swiss bye (DR-TOUR-7)
	Resistance int                `json:"resistance"` // DR-TOUR-4
	Won        int                `json:"won"`        // games won
	Played     int                `json:"played"`     // games with a result
	Byes       int                `json:"byes"`
	Floated    int                `json:"floated"` // Swiss: times paired with a player with fewer points
	Met        []adjudicator.Side `json:"met,omitempty"`
	Losses     int                `json:"losses"`        // elimination: matches lost
	Out        int                `json:"out,omitempty"` // elimination: the round he went out in
}

// Match is two games of one scenario, the players swapping sides
// (DR-TOUR-2): in game a, A invades; in game b, B does.
type Match struct {
	Key     string           `json:"key"` // r2-m1
	A       adjudicator.Side `json:"a"`
	B       adjudicator.Side `json:"b"`
	Bracket string           `json:"bracket"`
	Games   []*Game          `json:"games"`
	Decided bool             `json:"decided,omitempty"`
	Winner  adjudicator.Side `json:"winner,omitempty"` // elimination: who goes through alone; "" for a tie
	Loser   adjudicator.Side `json:"loser,omitempty"`
}

// Game is one game of a match.
type Game struct {
	Key         string           `json:"key"` // r2-m1-a
	Invader     adjudicator.Side `json:"invader"`
	Defender    adjudicator.Side `json:"defender"`
	Done        bool             `json:"done,omitempty"`
	Winner      adjudicator.Side `json:"winner,omitempty"` // the player who won; "" for a draw
	Result      string           `json:"result,omitempty"`
	InvaderRes  int              `json:"invader-res,omitempty"`
	DefenderRes int              `json:"defender-res,omitempty"`
}

// Bye is a player who does not play this round.
type Bye struct {
	Player adjudicator.Side `json:"player"`
	Points int              `json:"points,omitempty"` // 2 in a Swiss round
}

func (st *State) player(s adjudicator.Side) *Player {
	for _, p := range st.Players {
		if p.Side == s {
			return p
		}
	}
	return nil
}

func (st *State) clone() *State {
	c := *st
	c.Scenarios = slices.Clone(st.Scenarios)
	c.Child = maps.Clone(st.Child)
	c.Players = make([]*Player, len(st.Players))
	for i, p := range st.Players {
		q := *p
		q.Met = slices.Clone(p.Met)
		c.Players[i] = &q
	}
	c.Matches = make([]*Match, len(st.Matches))
	for i, m := range st.Matches {
		n := *m
		n.Games = make([]*Game, len(m.Games))
		for j, g := range m.Games {
			h := *g
			n.Games[j] = &h
		}
		c.Matches[i] = &n
	}
	if st.Matches == nil {
		c.Matches = nil
	}
	c.Byes = slices.Clone(st.Byes)
	c.Waiting = slices.Clone(st.Waiting)
	c.Order = slices.Clone(st.Order)
	c.LOrder = slices.Clone(st.LOrder)
	c.Log = slices.Clone(st.Log)
	return &c
}

// game finds a game of the round by its key.
func (st *State) game(key string) (*Match, *Game) {
	for _, m := range st.Matches {
		for _, g := range m.Games {
			if g.Key == key {
				return m, g
			}
		}
	}
	return nil, nil
}

func (m *Match) done() bool {
	for _, g := range m.Games {
		if !g.Done {
			return false
		}
	}
	return true
}

// wins counts the games each player of m won.
func (m *Match) wins() (a, b int) {
	for _, g := range m.Games {
		switch g.Winner {
		case m.A:
			a++
		case m.B:
			b++
		}
	}
	return a, b
}

func (st *State) roundDone() bool {
	for _, m := range st.Matches {
		if !m.done() {
			return false
		}
	}
	return true
}

// in lists the players still in an elimination, in number order.
func (st *State) in() []adjudicator.Side {
	var out []adjudicator.Side
	for _, p := range st.Players {
		if p.Out == 0 {
			out = append(out, p.Side)
		}
	}
	return out
}

func (p *Player) met(o adjudicator.Side) bool { return slices.Contains(p.Met, o) }

// number is a side's player number: 7 for p7.
func number(s adjudicator.Side) int {
	n, _ := strconv.Atoi(string(s)[1:])
	return n
}
