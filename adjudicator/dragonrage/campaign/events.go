package campaign

import (
	"github.com/umpire-pbem/umpire/adjudicator"
)

// Events of a campaign. Each carries the decision made; Evolve only
// applies it.

// GameStarted starts game N: the potentials it is recruited with and the
// options its child game is created with (the adjudicator.ChildGame event
// that follows it).
type GameStarted struct {
	N        int               `json:"n"`
	Key      string            `json:"key"`
	Options  map[string]string `json:"options"`
	Invader  int               `json:"invader"`
	Defender int               `json:"defender"`
	Cap      int               `json:"cap"`
	Balance  int               `json:"balance,omitempty"`
	Adjust   int               `json:"adjust,omitempty"`
}

// GameScored records game N's result and what it adds to each potential
// (Table DR-TABLE-CAMPAIGN, DR-CAMP-14).
type GameScored struct {
	N            int              `json:"n"`
	Child        string           `json:"child"`
	Winner       adjudicator.Side `json:"winner,omitempty"` // the series side, "" for a draw
	Result       string           `json:"result"`
	VP           int              `json:"vp"`
	Kills        []Kill           `json:"kills,omitempty"`
	InvaderGain  int              `json:"invader_gain"`
	DefenderGain int              `json:"defender_gain"`
}

// Ended ends the campaign (DR-CAMP-15).
type Ended struct {
	Winner adjudicator.Side `json:"winner,omitempty"` // "" for a drawn campaign
	Result string           `json:"result"`
}

func (*GameStarted) EventType() string { return "dragonrage-campaign.game-started" }
func (*GameScored) EventType() string  { return "dragonrage-campaign.game-scored" }
func (*Ended) EventType() string       { return "dragonrage-campaign.ended" }

func eventTypes() []adjudicator.EventType {
	return append([]adjudicator.EventType{
		{Name: "dragonrage-campaign.game-started", Schema: 1, New: func() adjudicator.Event { return new(GameStarted) }},
		{Name: "dragonrage-campaign.game-scored", Schema: 1, New: func() adjudicator.Event { return new(GameScored) }},
		{Name: "dragonrage-campaign.ended", Schema: 1, New: func() adjudicator.Event { return new(Ended) }},
	}, adjudicator.SeriesEventTypes()...)
}

func evolve(st *State, ev adjudicator.Event) {
	switch e := ev.(type) {
	case *GameStarted:
		st.Game = e.N
		st.Games = append(st.Games, &Game{N: e.N, Key: e.Key, Options: e.Options, Invader: e.Invader, Defender: e.Defender,
			Cap: e.Cap, Balance: e.Balance, Adjust: e.Adjust})
	case *GameScored:
		g := st.current()
		g.Done, g.Child, g.Winner, g.Result, g.VP = true, e.Child, e.Winner, e.Result, e.VP
		g.Kills, g.InvaderGain, g.DefenderGain = e.Kills, e.InvaderGain, e.DefenderGain
		st.Invader += e.InvaderGain
		st.Defender += e.DefenderGain
	case *Ended:
		st.Over, st.Winner, st.Result = true, e.Winner, e.Result
	case *adjudicator.ChildGame:
		// The games service creates the child; GameStarted has the rest.
	}
}
