// Package campaign is the Dragon Rage campaign (FR §4, DR-CAMP-1..15): a
// series of five linked point games between the same two players, each
// keeping his side, on one map. Each player has a potential, 60 at the
// start, which is the size of the army he recruits for every game; after
// each game Table DR-TABLE-CAMPAIGN (and +5 for killing a Hero or a
// Dragon) adds to it, and after five games the higher potential wins the
// campaign, a tie playing a sixth game.
//
// The campaign is a series (docs/architecture.md, "Series"): it creates
// each game as a child, an ordinary dragonrage point game (points-esirien
// or points-nurkott, both armies built in secret) with the options the
// campaign sets (points, campaign-game, balance-vp, goal-adjust, elowyn:
// dragonrage/campaign_game.go), and reads its result when it ends.
package campaign

import (
	"fmt"
	"maps"
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

// Name is the ruleset's registry name.
const Name = "dragonrage-campaign"

// Version of the implementation, recorded in every campaign.
const Version = "0.1.0"

// ScenarioID is the one scenario: a campaign.
const ScenarioID = "campaign"

// The campaign's sides: each player keeps his side for every game
// (DR-CAMP-1).
const (
	Invader  = dragonrage.Invader
	Defender = dragonrage.Defender
)

// Games is the number of games of a campaign (DR-CAMP-1); a tie after
// them plays one more (DR-CAMP-15).
const Games = 5

// StartPotential is each player's potential at the start (DR-CAMP-2).
const StartPotential = 60

// Ruleset is the Dragon Rage campaign.
var Ruleset adjudicator.Ruleset = ruleset{}

type ruleset struct{}

var sides = []adjudicator.Side{Invader, Defender}

var options = []adjudicator.OptionInfo{
	{Name: "map", Default: "esirien", Values: []string{"esirien", "nurkott"},
		Doc: "the map of all five games, chosen together at the start (DR-CAMP-1, DR-CAMP-3)"},
	{Name: "elowyn", Default: "off", Values: []string{"on", "off"},
		Doc: "play every game with the optional character Elowyn (+1 to the goal, DR-CAMP-9)"},
	{Name: "weaker-loser", Default: "gains-10", Values: []string{"gains-10", "loses-10"},
		Doc: "DR-AMB-28: with more than 10 points between the potentials, the weaker player who loses a game gains 10 (default: every number of the table is added) or loses 10 (\"perd 10\" read literally)"},
}

func (ruleset) Info() adjudicator.Info {
	return adjudicator.Info{Name: Name, Series: "campaign", Title: "Dragon Rage campaign", Version: Version, Sides: slices.Clone(sides),
		Scenarios: []adjudicator.ScenarioInfo{{ID: ScenarioID, Title: "a Dragon Rage campaign",
			Sides: slices.Clone(sides),
			Doc:   "five linked point games on one map, each player keeping his side; potentials start at 60 (FR §4)"}},
		Options: slices.Clone(options)}
}

func (ruleset) Setup(s adjudicator.Setup) (adjudicator.State, error) {
	if s.Position != nil {
		return nil, fmt.Errorf("a campaign starts from its two players, not from a position: give scenario %q", ScenarioID)
	}
	if s.Scenario != "" && s.Scenario != ScenarioID {
		return nil, fmt.Errorf("scenario %q: a campaign's only scenario is %q; choose the map with the option map=esirien or map=nurkott (DR-CAMP-3)", s.Scenario, ScenarioID)
	}
	st := &State{Map: "esirien", Invader: StartPotential, Defender: StartPotential, Games: []*Game{}}
	for _, k := range slices.Sorted(maps.Keys(s.Options)) {
		v := s.Options[k]
		switch k {
		case "map":
			if v != "esirien" && v != "nurkott" {
				return nil, fmt.Errorf("option map=%s: use map=esirien or map=nurkott (DR-CAMP-1)", v)
			}
			st.Map = v
		case "elowyn":
			if v != "on" && v != "off" {
				return nil, fmt.Errorf("option elowyn=%s: say on or off", v)
			}
			st.Elowyn = v == "on"
		case "weaker-loser":
			if v != "gains-10" && v != "loses-10" {
				return nil, fmt.Errorf("option weaker-loser=%s: say gains-10 (the default reading of DR-AMB-28) or loses-10", v)
			}
			st.WeakerLoses = v == "loses-10"
		default:
			return nil, fmt.Errorf("unknown option %q; a campaign knows map, elowyn and weaker-loser (each game's own options are set by the campaign: points, campaign-game, balance-vp, goal-adjust)", k)
		}
	}
	for _, want := range sides {
		if !slices.Contains(s.Sides, want) {
			return nil, fmt.Errorf("a campaign is played by an invader and a defender, each for all five games (DR-CAMP-1): give the %s's player too", want)
		}
	}
	return st, nil
}

// title names game n for people.
func title(n int) string {
	if n > Games {
		return fmt.Sprintf("game %d, the tie-break", n)
	}
	return fmt.Sprintf("game %d of %d", n, Games)
}

func (ruleset) Due(s adjudicator.State) []adjudicator.Request {
	st := s.(*State)
	switch {
	case st.Over:
		return nil
	case st.Game == 0:
		return []adjudicator.Request{adjudicator.AutoRequest("start", 1, "the start of the campaign")}
	}
	g := st.current()
	return []adjudicator.Request{adjudicator.ResultRequest(g.Key, g.N, title(g.N))}
}

// start is the (empty) answer to the campaign's start.
type start struct{}

func (ruleset) ParseOrders(s adjudicator.State, req adjudicator.Request, n *yaml.Node) (adjudicator.Orders, error) {
	st := s.(*State)
	switch req.Kind {
	case adjudicator.KindAuto:
		if n.Kind != yaml.MappingNode || len(n.Content) > 0 {
			return nil, adjudicator.Errorf(n, adjudicator.CodeBadValue, "the start of a campaign takes no orders: write \"orders: {}\"")
		}
		return &start{}, nil
	case adjudicator.KindResult:
		return parseResult(st, req, n)
	}
	return nil, adjudicator.Errorf(n, adjudicator.CodeBadValue, "a campaign waits for nothing but its start and its games' results")
}

// parseResult reads a game's result and checks it is one this campaign
// can score: the game over, its winner one of its sides (or none), and
// played by the campaign's invader as invader and defender as defender.
func parseResult(st *State, req adjudicator.Request, n *yaml.Node) (*adjudicator.ChildResult, error) {
	res, err := adjudicator.ParseChildResult(req, n)
	if err != nil {
		return nil, err
	}
	at := func(key string) *yaml.Node {
		if v := yamlx.Value(n, key); v != nil {
			return v
		}
		return n
	}
	g := st.current()
	switch {
	case !res.View.Over:
		return nil, adjudicator.Errorf(at("view"), adjudicator.CodeBadValue, "%s is not over (its view says over: false): a result is recorded when the game ends", title(g.N))
	case res.Winner != "" && res.Winner != Invader && res.Winner != Defender:
		return nil, adjudicator.Errorf(at("winner"), adjudicator.CodeBadValue, "winner %q: a game's winner is invader or defender, or none for a draw", res.Winner)
	case res.Winner != res.View.Winner:
		return nil, adjudicator.Errorf(at("winner"), adjudicator.CodeBadValue, "the result names winner %q but the game's view %q: they are the same game's end", res.Winner, res.View.Winner)
	case len(res.Players) != 2 || res.PlayerOf(Invader) != Invader || res.PlayerOf(Defender) != Defender:
		return nil, adjudicator.Errorf(at("players"), adjudicator.CodeBadValue,
			"each player keeps his side for the whole campaign (DR-CAMP-1): give players [{side: invader, player: invader}, {side: defender, player: defender}]")
	}
	return res, nil
}

func (ruleset) Decide(r *adjudicator.Resolution, subs []adjudicator.Submission) error {
	for _, s := range subs {
		switch o := s.Orders.(type) {
		case *start:
			startGame(r, 1)
		case *adjudicator.ChildResult:
			score(r, o)
		}
	}
	return r.Err()
}

func (ruleset) Evolve(s adjudicator.State, ev adjudicator.Event) adjudicator.State {
	st := s.(*State)
	evolve(st, ev)
	return st
}

func (ruleset) Clone(s adjudicator.State) adjudicator.State { return s.(*State).clone() }

func (ruleset) EventTypes() []adjudicator.EventType { return eventTypes() }
