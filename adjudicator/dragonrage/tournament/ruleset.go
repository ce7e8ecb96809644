package tournament

import (
	"fmt"
	"maps"
	"math/bits"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

// Name is the ruleset's registry name.
const Name = "dragonrage-tournament"

// Version of the implementation, recorded in every tournament.
const Version = "0.1.0"

// MaxPlayers is the most players a tournament takes: p1 to p64.
const MaxPlayers = 64

// ScenarioID is the one scenario: a tournament.
const ScenarioID = "tournament"

// Ruleset is a Dragon Rage tournament (FR §5, DR-TOUR-1..9).
var Ruleset adjudicator.Ruleset = ruleset{}

type ruleset struct{}

var sides = func() []adjudicator.Side {
	out := make([]adjudicator.Side, MaxPlayers)
	for i := range out {
		out[i] = adjudicator.Side("p" + strconv.Itoa(i+1))
	}
	return out
}()

var options = []adjudicator.OptionInfo{
	{Name: "format", Default: "single up to 8 players, swiss above", Values: []string{Swiss, Single, Double, SwissTop8},
		Doc: "single or double elimination (DR-TOUR-6), Swiss rounds (DR-TOUR-7), or Swiss rounds then a top-8 single elimination"},
	{Name: "rounds", Default: "ceil(log2 players), 7 above 32 players",
		Doc: "the number of Swiss rounds (formats swiss and swiss-top8), at most the players less one"},
	{Name: "map", Default: "esirien", Values: []string{"esirien", "nurkott"}, Doc: "the map every game is played on (DR-TOUR-5)"},
	{Name: "scenario", Default: "draw", Values: []string{"draw", "1", "2", "3", "4", "5", "6"},
		Doc: "draw the scenario with 1d6 each round (DR-TOUR-8, -9: preferred), or play the numbered scenario given every round (the text names 1)"},
	{Name: "game.OPTION", Default: "",
		Doc: "an option of every game, as the dragonrage ruleset takes it: game.archers=may-melee, game.counter.INF.attack=3; not elowyn, points, goal-adjust or forces (DR-TOUR-1)"},
}

func (ruleset) Info() adjudicator.Info {
	return adjudicator.Info{Name: Name, Series: "tournament", Title: "Dragon Rage tournament", Version: Version, Sides: slices.Clone(sides),
		Scenarios: []adjudicator.ScenarioInfo{{ID: ScenarioID, Title: "a Dragon Rage tournament",
			Sides: slices.Clone(sides), Doc: "the players p1, p2, ... play matches of two games (FR §5)"}},
		Options: slices.Clone(options)}
}

var sideRE = regexp.MustCompile(`^p([1-9][0-9]?)$`)

// refused are the options of a single game a tournament does not take
// (DR-TOUR-1), and why.
var refused = map[string]string{
	"elowyn":        "Elowyn is not used in tournaments (DR-TOUR-1, DR-ELOWYN-14)",
	"points":        "point scenarios are not played in tournaments (DR-TOUR-1)",
	"goal-adjust":   "a tournament game's VP goal is its scenario's: no builder's adjustment or handicap (DR-TOUR-1)",
	"forces":        "tournament games are the printed scenarios, with their forces (DR-TOUR-1, DR-TOUR-8, DR-TOUR-9)",
	"potential":     "campaign rules are not used in tournaments (DR-TOUR-1)",
	"campaign":      "campaign rules are not used in tournaments (DR-TOUR-1)",
	"campaign-game": "campaign rules are not used in tournaments (DR-TOUR-1)",
	"balance-vp":    "campaign rules are not used in tournaments (DR-TOUR-1)",
}

func refusal(name string) (string, bool) {
	name = strings.TrimPrefix(name, "game.")
	for k, why := range refused {
		if name == k || strings.HasPrefix(name, k+".") {
			return why, true
		}
	}
	return "", false
}

// DefaultRounds is the number of Swiss rounds for n players: enough for
// one player to win them all, ceil(log2 n) (5 for 32, FR §5.2), and 7 above
// 32 players, as FR §5.2 gives for 64.
func DefaultRounds(n int) int {
	if n <= 1 {
		return 0
	}
	r := bits.Len(uint(n - 1))
	if n > 32 {
		r = 7
	}
	return min(r, n-1)
}

func (ruleset) Setup(s adjudicator.Setup) (adjudicator.State, error) {
	if s.Position != nil {
		return nil, fmt.Errorf("a tournament starts from its players, not from a position: give scenario %q", ScenarioID)
	}
	if s.Scenario != "" && s.Scenario != ScenarioID {
		if strings.HasPrefix(s.Scenario, "points") {
			return nil, fmt.Errorf("scenario %q: point scenarios are not played in tournaments (DR-TOUR-1); give scenario %q", s.Scenario, ScenarioID)
		}
		return nil, fmt.Errorf("scenario %q: a tournament's only scenario is %q; choose the games' scenario with the option scenario=draw or scenario=1..6, and the map with map=esirien|nurkott", s.Scenario, ScenarioID)
	}
	st := &State{Map: "esirien", Draw: true, Stage: StageSwiss}
	var players []adjudicator.Side
	for _, sd := range s.Sides {
		if !sideRE.MatchString(string(sd)) || number(sd) > MaxPlayers {
			return nil, fmt.Errorf("side %q: a tournament's players are p1 to p%d", sd, MaxPlayers)
		}
		players = append(players, sd)
	}
	sort.Slice(players, func(i, j int) bool { return number(players[i]) < number(players[j]) })
	if len(players) < 2 {
		return nil, fmt.Errorf("a tournament needs at least 2 players (p1, p2, ...); it has %d", len(players))
	}
	for _, p := range players {
		st.Players = append(st.Players, &Player{Side: p})
	}
	n := len(players)
	format := Single
	if n > 8 {
		format = Swiss
	}
	rounds := ""
	for _, k := range slices.Sorted(maps.Keys(s.Options)) {
		v := s.Options[k]
		if why, ok := refusal(k); ok {
			return nil, fmt.Errorf("option %s: %s; remove it", k, why)
		}
		switch {
		case k == "format":
			if !slices.Contains([]string{Swiss, Single, Double, SwissTop8}, v) {
				return nil, fmt.Errorf("option format=%s: use format=swiss, single, double or swiss-top8 (DR-TOUR-6, DR-TOUR-7)", v)
			}
			format = v
		case k == "rounds":
			rounds = v
		case k == "map":
			if v != "esirien" && v != "nurkott" {
				return nil, fmt.Errorf("option map=%s: use map=esirien or map=nurkott", v)
			}
			st.Map = v
		case k == "scenario":
			switch v {
			case "draw":
			case "1", "2", "3", "4", "5", "6":
				st.Draw = false
				st.Fixed, _ = strconv.Atoi(v)
			default:
				if strings.HasPrefix(v, "points") {
					return nil, fmt.Errorf("option scenario=%s: point scenarios are not played in tournaments (DR-TOUR-1); use scenario=draw or a number 1 to 6", v)
				}
				return nil, fmt.Errorf("option scenario=%s: use scenario=draw (1d6 each round, DR-TOUR-8, -9) or the number 1 to 6 of the scenario every round plays", v)
			}
		case strings.HasPrefix(k, "game."):
			if st.Child == nil {
				st.Child = map[string]string{}
			}
			st.Child[strings.TrimPrefix(k, "game.")] = v
		default:
			return nil, fmt.Errorf("option %s: a tournament takes format, rounds, map, scenario and game.OPTION (an option of every game)", k)
		}
	}
	st.Format = format
	if format == SwissTop8 && n <= 8 {
		return nil, fmt.Errorf("option format=swiss-top8: a top 8 needs more than 8 players, and this tournament has %d; use format=single, double or swiss", n)
	}
	if format == Swiss || format == SwissTop8 {
		st.Rounds = DefaultRounds(n)
		if rounds != "" {
			r, err := strconv.Atoi(rounds)
			if err != nil || r < 1 || r > n-1 {
				return nil, fmt.Errorf("option rounds=%s: give a number from 1 to %d (the players less one: more would force rematches)", rounds, n-1)
			}
			st.Rounds = r
		}
	} else {
		st.Stage = StageElimination
		if rounds != "" {
			return nil, fmt.Errorf("option rounds=%s: an elimination (format=%s) plays until one player is left; rounds is for format=swiss or swiss-top8", rounds, format)
		}
	}
	var err error
	if st.Scenarios, err = dragonrage.NumberedScenarios(st.Map); err != nil {
		return nil, err
	}
	if st.TotalVP, st.Assumed, err = dragonrage.MapVP(st.Map); err != nil {
		return nil, err
	}
	if st.Child != nil {
		// The games' options are checked now, on the map's first scenario,
		// rather than when a game is created mid-tournament.
		if _, err := dragonrage.Ruleset.Setup(adjudicator.Setup{Scenario: st.Scenarios[0], Options: st.Child,
			Sides: []adjudicator.Side{dragonrage.Invader, dragonrage.Defender}}); err != nil {
			return nil, fmt.Errorf("the games' options (game.*): %v", err)
		}
	}
	return st, nil
}

func (ruleset) Due(s adjudicator.State) []adjudicator.Request {
	st := s.(*State)
	if st.Over {
		return nil
	}
	if st.Round == 0 {
		return []adjudicator.Request{adjudicator.AutoRequest("start", 1, "the draw of round 1")}
	}
	var out []adjudicator.Request
	for _, m := range st.Matches {
		for _, g := range m.Games {
			if !g.Done {
				out = append(out, adjudicator.ResultRequest(g.Key, st.Round,
					fmt.Sprintf("game %s (%s, %s invading, %s defending)", g.Key, st.Scenario, g.Invader, g.Defender)))
			}
		}
	}
	return out
}

func (ruleset) ParseOrders(s adjudicator.State, req adjudicator.Request, n *yaml.Node) (adjudicator.Orders, error) {
	st := s.(*State)
	switch req.Kind {
	case adjudicator.KindAuto:
		if n.Kind != yaml.MappingNode || len(n.Content) > 0 {
			return nil, adjudicator.Errorf(n, adjudicator.CodeBadValue, "the start of a tournament takes no orders: write \"orders: {}\"")
		}
		return map[string]string{}, nil
	case adjudicator.KindResult:
		res, err := adjudicator.ParseChildResult(req, n)
		if err != nil {
			return nil, err
		}
		m, g := st.game(res.Key)
		if g == nil {
			return nil, adjudicator.Errorf(yamlx.Value(n, "key"), adjudicator.CodeBadValue, "round %d has no game %q", st.Round, res.Key)
		}
		inv, def := res.PlayerOf(dragonrage.Invader), res.PlayerOf(dragonrage.Defender)
		if len(res.Players) != 2 || inv == "" || def == "" || !(inv == m.A && def == m.B || inv == m.B && def == m.A) {
			return nil, adjudicator.Errorf(yamlx.Value(n, "players"), adjudicator.CodeBadValue,
				"game %s is played by %s and %s, one invader and one defender: give players [{side: invader, player: %s}, {side: defender, player: %s}]",
				g.Key, m.A, m.B, g.Invader, g.Defender)
		}
		if res.Winner != "" && res.Winner != dragonrage.Invader && res.Winner != dragonrage.Defender {
			return nil, adjudicator.Errorf(yamlx.Value(n, "winner"), adjudicator.CodeBadValue,
				"winner %q: a game's winner is invader or defender, or none for a draw", res.Winner)
		}
		view := yamlx.Value(n, "view")
		if view == nil {
			view = n
		}
		if !res.View.Over {
			return nil, adjudicator.Errorf(view, adjudicator.CodeBadValue, "game %s is not over: its final view must say \"over: true\"", g.Key)
		}
		vp, ok := res.View.Score[dragonrage.Invader]
		if !ok {
			return nil, adjudicator.Errorf(view, adjudicator.CodeMissingField,
				"game %s's view gives no invader score: resistance points are read from it (DR-TOUR-4); add \"score: {invader: VP}\" under view", g.Key)
		}
		if vp < 0 {
			return nil, adjudicator.Errorf(view, adjudicator.CodeBadValue, "game %s's invader score is %d: it is the VP destroyed, 0 or more", g.Key, vp)
		}
		return res, nil
	}
	return nil, adjudicator.Rejection(adjudicator.CodeNotYourTurn, "a tournament waits for nothing of kind %q", req.Kind)
}

func (ruleset) Decide(r *adjudicator.Resolution, subs []adjudicator.Submission) error {
	for _, s := range subs {
		d := &decider{r: r}
		switch s.Request.Kind {
		case adjudicator.KindAuto:
			d.nextRound()
		case adjudicator.KindResult:
			d.result(s.Orders.(*adjudicator.ChildResult))
		}
		if r.Err() != nil {
			return r.Err()
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
