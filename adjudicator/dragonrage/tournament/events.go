package tournament

import (
	"github.com/umpire-pbem/umpire/adjudicator"
)

// Events of a tournament. Each carries the decision made; Evolve only
// applies it.

// Paired starts a round: its scenario, its matches, its byes.
type Paired struct {
	Round    int                `json:"round"`
	Stage    string             `json:"stage"`
	Scenario string             `json:"scenario"`
	Matches  []Pair             `json:"matches"`
	Byes     []Bye              `json:"byes,omitempty"`
	Waiting  []adjudicator.Side `json:"waiting,omitempty"`
	Floats   []adjudicator.Side `json:"floats,omitempty"` // Swiss: players paired with someone with fewer points
	Order    []adjudicator.Side `json:"order,omitempty"`
	LOrder   []adjudicator.Side `json:"lorder,omitempty"`
	// TieBreak: the round before eliminated nobody (every match tied), so
	// in this one a tie is decided by resistance (umpire's ruling).
	TieBreak bool `json:"tie-break,omitempty"`
}

// Pair is one match of a round.
type Pair struct {
	Key     string           `json:"key"`
	A       adjudicator.Side `json:"a"`
	B       adjudicator.Side `json:"b"`
	Bracket string           `json:"bracket"`
}

// Scored is a game's result: its game point and resistance points.
type Scored struct {
	Key         string           `json:"key"`
	Winner      adjudicator.Side `json:"winner,omitempty"` // the player; "" for a draw
	Invader     adjudicator.Side `json:"invader"`
	Defender    adjudicator.Side `json:"defender"`
	InvaderRes  int              `json:"invader-res"`
	DefenderRes int              `json:"defender-res"`
	Result      string           `json:"result,omitempty"`
}

// Decided ends an elimination match: who goes through, who loses, who is
// out.
type Decided struct {
	Match  string             `json:"match"`
	Winner adjudicator.Side   `json:"winner,omitempty"` // "" for a tie: both go through
	Loser  adjudicator.Side   `json:"loser,omitempty"`
	Out    []adjudicator.Side `json:"out,omitempty"`
	Line   string             `json:"line"`
}

// Seeded ends the Swiss rounds of a swiss-top8 tournament: the eight who
// go on, in seed order; the others are out.
type Seeded struct {
	Seeds []adjudicator.Side `json:"seeds"`
	Order []adjudicator.Side `json:"order"` // the bracket order: seeds 1, 8, 4, 5, 2, 7, 3, 6
	Out   []adjudicator.Side `json:"out"`
}

// Ended ends the tournament.
type Ended struct {
	Winner adjudicator.Side `json:"winner,omitempty"`
	Result string           `json:"result"`
}

const prefix = "dragonrage-tournament."

// EventType implements adjudicator.Event.
func (*Paired) EventType() string  { return prefix + "paired" }
func (*Scored) EventType() string  { return prefix + "scored" }
func (*Decided) EventType() string { return prefix + "decided" }
func (*Seeded) EventType() string  { return prefix + "seeded" }
func (*Ended) EventType() string   { return prefix + "ended" }

func eventTypes() []adjudicator.EventType {
	out := []adjudicator.EventType{
		{Name: prefix + "paired", Schema: 1, New: func() adjudicator.Event { return &Paired{} }},
		{Name: prefix + "scored", Schema: 1, New: func() adjudicator.Event { return &Scored{} }},
		{Name: prefix + "decided", Schema: 1, New: func() adjudicator.Event { return &Decided{} }},
		{Name: prefix + "seeded", Schema: 1, New: func() adjudicator.Event { return &Seeded{} }},
		{Name: prefix + "ended", Schema: 1, New: func() adjudicator.Event { return &Ended{} }},
	}
	return append(out, adjudicator.SeriesEventTypes()...)
}

// evolve applies ev to st.
func evolve(st *State, ev adjudicator.Event) {
	switch e := ev.(type) {
	case *Paired:
		if st.Round > 0 {
			st.Log = append(st.Log, roundLine(st))
		}
		st.Round, st.Stage, st.Scenario, st.TieBreak = e.Round, e.Stage, e.Scenario, e.TieBreak
		st.Matches = nil
		for _, p := range e.Matches {
			m := &Match{Key: p.Key, A: p.A, B: p.B, Bracket: p.Bracket, Games: []*Game{
				{Key: p.Key + "-a", Invader: p.A, Defender: p.B},
				{Key: p.Key + "-b", Invader: p.B, Defender: p.A},
			}}
			st.Matches = append(st.Matches, m)
			a, b := st.player(p.A), st.player(p.B)
			a.Met = append(a.Met, p.B)
			b.Met = append(b.Met, p.A)
		}
		st.Byes = e.Byes
		for _, b := range e.Byes {
			p := st.player(b.Player)
			p.Byes++
			p.Points += b.Points
		}
		st.Waiting = e.Waiting
		for _, f := range e.Floats {
			st.player(f).Floated++
		}
		if e.Stage == StageElimination {
			st.Order, st.LOrder = e.Order, e.LOrder
		}
	case *Scored:
		_, g := st.game(e.Key)
		g.Done, g.Winner, g.Result = true, e.Winner, e.Result
		g.Invader, g.Defender = e.Invader, e.Defender
		g.InvaderRes, g.DefenderRes = e.InvaderRes, e.DefenderRes
		for _, s := range []adjudicator.Side{e.Invader, e.Defender} {
			st.player(s).Played++
		}
		st.player(e.Invader).Resistance += e.InvaderRes
		st.player(e.Defender).Resistance += e.DefenderRes
		if e.Winner != "" {
			w := st.player(e.Winner)
			w.Points++
			w.Won++
		}
	case *Decided:
		for _, m := range st.Matches {
			if m.Key == e.Match {
				m.Decided, m.Winner, m.Loser = true, e.Winner, e.Loser
			}
		}
		if e.Loser != "" {
			st.player(e.Loser).Losses++
		}
		for _, s := range e.Out {
			st.player(s).Out = st.Round
		}
	case *Seeded:
		for _, s := range e.Out {
			st.player(s).Out = st.Round
		}
		st.Order = e.Order
	case *Ended:
		st.Log = append(st.Log, roundLine(st))
		st.Over, st.Winner, st.Result = true, e.Winner, e.Result
	case *adjudicator.ChildGame:
		// The games service creates the child; nothing changes here.
	}
}
