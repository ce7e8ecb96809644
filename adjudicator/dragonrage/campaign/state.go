package campaign

import (
	"maps"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// State is a campaign: its map and options, the two potentials, the games
// played and the one being played.
type State struct {
	Map         string           `json:"map"`          // esirien or nurkott, for every game (DR-CAMP-1)
	Elowyn      bool             `json:"elowyn"`       // every game with Elowyn
	WeakerLoses bool             `json:"weaker_loses"` // DR-AMB-28's other reading (option weaker-loser=loses-10)
	Game        int              `json:"game"`         // the game being played, from 1; 0 before the start
	Invader     int              `json:"invader"`      // the invader's potential now (DR-CAMP-2)
	Defender    int              `json:"defender"`     // the defender's
	Games       []*Game          `json:"games"`        // every game started, in order
	Over        bool             `json:"over"`
	Winner      adjudicator.Side `json:"winner,omitempty"`
	Result      string           `json:"result,omitempty"`
}

// Game is one game of the campaign: what it started with and, once its
// result came, how it ended and what it changed.
type Game struct {
	N        int               `json:"n"`
	Key      string            `json:"key"`
	Options  map[string]string `json:"options"`           // the child's options
	Invader  int               `json:"invader"`           // the potentials before the game (DR-CAMP-13)
	Defender int               `json:"defender"`          //
	Cap      int               `json:"cap"`               // units per army (DR-CAMP-7)
	Balance  int               `json:"balance,omitempty"` // VP the invader may mark destroyed (DR-CAMP-10)
	Adjust   int               `json:"adjust,omitempty"`  // added to the goal (DR-CAMP-11)

	Done         bool             `json:"done,omitempty"`
	Child        string           `json:"child,omitempty"`  // the child game's id
	Winner       adjudicator.Side `json:"winner,omitempty"` // the series side that won, "" for a draw
	Result       string           `json:"result,omitempty"`
	VP           int              `json:"vp,omitempty"`
	Kills        []Kill           `json:"kills,omitempty"`
	InvaderGain  int              `json:"invader_gain,omitempty"`
	DefenderGain int              `json:"defender_gain,omitempty"`
}

// Kill is a Hero or Dragon a player destroyed in a game (DR-CAMP-14).
type Kill struct {
	By   adjudicator.Side `json:"by"`   // the series side that killed it
	Unit string           `json:"unit"` // HERO-2
	Type string           `json:"type"` // HERO or DRAGON
}

// current is the game being played, nil before the start.
func (st *State) current() *Game {
	if len(st.Games) == 0 {
		return nil
	}
	return st.Games[len(st.Games)-1]
}

// potential is side's potential now.
func (st *State) potential(side adjudicator.Side) int {
	if side == Invader {
		return st.Invader
	}
	return st.Defender
}

func (st *State) clone() *State {
	c := *st
	c.Games = make([]*Game, len(st.Games))
	for i, g := range st.Games {
		x := *g
		x.Options = maps.Clone(g.Options)
		x.Kills = slices.Clone(g.Kills)
		c.Games[i] = &x
	}
	return &c
}
