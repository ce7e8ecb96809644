package testrules

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
)

// League is a series for tests: the two players race each other Games
// times, swapping colours every race; whoever wins more races wins the
// league (a tie: blue's player of the first race, to keep it short). It
// starts by itself (an automatic answer) and reaches each race when the one
// before ends, which is all the engine's series machinery needs.
var League adjudicator.Ruleset = league{}

type league struct{}

// LeagueState is a league.
type LeagueState struct {
	Games   int            `json:"games"`
	Started bool           `json:"started"`
	Played  int            `json:"played"`
	Wins    map[string]int `json:"wins"`
	Turns   string         `json:"turns"`            // the races' option turns
	Refuse  string         `json:"refuse,omitempty"` // a race whose result the league refuses (to test a ruleset that does)
	Hunts   bool           `json:"hunts,omitempty"`  // its games are hide's hunts, the treasure placed by the league
	Over    bool           `json:"over"`
	Winner  string         `json:"winner,omitempty"`
}

// LeagueRaced is one race's result, as the league read it.
type LeagueRaced struct {
	Key    string `json:"key"`
	Winner string `json:"winner"` // the league's side whose player won
}

// LeagueStarted marks the league's start.
type LeagueStarted struct{}

// LeagueOver ends the league.
type LeagueOver struct {
	Winner string `json:"winner"`
}

func (*LeagueRaced) EventType() string   { return "league.raced" }
func (*LeagueStarted) EventType() string { return "league.started" }
func (*LeagueOver) EventType() string    { return "league.over" }

func (league) Info() adjudicator.Info {
	return adjudicator.Info{Name: "league", Title: "League of races (test series)", Version: Version, Sides: sides, Series: "campaign",
		Scenarios: []adjudicator.ScenarioInfo{{ID: "league", Title: "League", Sides: sides}},
		Options: []adjudicator.OptionInfo{{Name: "games", Default: "3", Doc: "races to run"},
			{Name: "turns", Default: "2", Doc: "each race's turns"},
			{Name: "refuse", Doc: "a race whose result the league refuses, as a faulty ruleset would"},
			{Name: "child", Default: "race", Values: []string{"race", "hide"}, Doc: "its games: races, or hunts whose treasure the league places (sealed parts of their position)"}}}
}

func (league) Setup(s adjudicator.Setup) (adjudicator.State, error) {
	st := &LeagueState{Games: 3, Wins: map[string]int{}, Turns: "2"}
	for k, v := range s.Options {
		switch k {
		case "games":
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > 20 {
				return nil, fmt.Errorf("option games=%q: give a whole number from 1 to 20", v)
			}
			st.Games = n
		case "turns":
			st.Turns = v
		case "refuse":
			st.Refuse = v
		case "child":
			if v != "race" && v != "hide" {
				return nil, fmt.Errorf("option child=%q: give race or hide", v)
			}
			st.Hunts = v == "hide"
		default:
			return nil, fmt.Errorf("unknown option %q (league knows: games, turns, refuse, child)", k)
		}
	}
	return st, nil
}

func (league) Due(s adjudicator.State) []adjudicator.Request {
	st := s.(*LeagueState)
	switch {
	case st.Over:
		return nil
	case !st.Started:
		return []adjudicator.Request{adjudicator.AutoRequest("start", 1, "the league's start")}
	}
	n := st.Played + 1
	return []adjudicator.Request{adjudicator.ResultRequest(raceKey(n), n, fmt.Sprintf("race %d of %d", n, st.Games))}
}

func raceKey(n int) string { return "r" + strconv.Itoa(n) }

func (league) ParseOrders(s adjudicator.State, req adjudicator.Request, n *yaml.Node) (adjudicator.Orders, error) {
	if req.Kind == adjudicator.KindResult {
		r, err := adjudicator.ParseChildResult(req, n)
		if err == nil && r.Key == s.(*LeagueState).Refuse {
			return nil, adjudicator.Errorf(n, adjudicator.CodeBadValue, "the league refuses the result of %s (its option refuse)", r.Key)
		}
		return r, err
	}
	return struct{}{}, nil
}

// race reaches race n: red's player of the league plays red in odd races.
func (st *LeagueState) race(r *adjudicator.Resolution, n int) {
	red, blue := adjudicator.Side("red"), adjudicator.Side("blue")
	if n%2 == 0 {
		red, blue = blue, red
	}
	if st.Hunts {
		// red's player of this game hides; the league places the
		// treasure, sealed for him alone.
		at := Regions[(7*n)%len(Regions)]
		r.Emit(adjudicator.Seal(adjudicator.To(red), "", &adjudicator.ChildSecret{Child: raceKey(n), Side: "hider", Name: "treasure", Value: at}))
		r.Emit(&adjudicator.ChildGame{Key: raceKey(n), Title: fmt.Sprintf("hunt %d of %d", n, st.Games), Ruleset: "hide", Scenario: "hunt",
			Options: map[string]string{"turns": "1", "given": "yes"},
			Players: []adjudicator.ChildPlayer{{Side: "hider", Player: red}, {Side: "seeker", Player: blue}}})
		r.Sayf("hunt %d: %s's player hides", n, red)
		return
	}
	r.Emit(&adjudicator.ChildGame{Key: raceKey(n), Title: fmt.Sprintf("race %d of %d", n, st.Games), Ruleset: "race", Scenario: "sprint",
		Options: map[string]string{"turns": st.Turns},
		Players: []adjudicator.ChildPlayer{{Side: "red", Player: red}, {Side: "blue", Player: blue}}})
	r.Sayf("race %d: %s's player runs red", n, red)
}

func (league) Decide(r *adjudicator.Resolution, subs []adjudicator.Submission) error {
	st := r.State().(*LeagueState)
	for _, sub := range subs {
		switch o := sub.Orders.(type) {
		case *adjudicator.ChildResult:
			w := string(o.WinnerPlayer())
			r.Emit(&LeagueRaced{Key: o.Key, Winner: w})
			r.Sayf("%s: won by %s's player (%s)", o.Key, w, o.Result)
			if st.Played < st.Games {
				st.race(r, st.Played+1)
				continue
			}
			w = "blue"
			if st.Wins["red"] > st.Wins["blue"] {
				w = "red"
			}
			r.Emit(&LeagueOver{Winner: w})
			r.Sayf("the league is over: %s wins, %d to %d", w, st.Wins[w], st.Wins[other(w)])
		default:
			r.Emit(&LeagueStarted{})
			st.race(r, 1)
		}
	}
	return nil
}

func (league) Evolve(s adjudicator.State, ev adjudicator.Event) adjudicator.State {
	st := s.(*LeagueState)
	switch e := ev.(type) {
	case *LeagueStarted:
		st.Started = true
	case *LeagueRaced:
		st.Played++
		st.Wins[e.Winner]++
	case *LeagueOver:
		st.Over, st.Winner = true, e.Winner
	}
	return st
}

func (league) Clone(s adjudicator.State) adjudicator.State {
	b, _ := json.Marshal(s)
	var c LeagueState
	_ = json.Unmarshal(b, &c)
	return &c
}

func (league) View(s adjudicator.State, viewer adjudicator.Side) adjudicator.View {
	st := s.(*LeagueState)
	v := adjudicator.View{Turn: st.Played + 1, Phase: "league", Over: st.Over, Winner: adjudicator.Side(st.Winner),
		Score: map[adjudicator.Side]int{"red": st.Wins["red"], "blue": st.Wins["blue"]}}
	if st.Over {
		v.Result = st.Winner + " wins the league"
	}
	return v
}

func (league) EventTypes() []adjudicator.EventType {
	return append(adjudicator.SeriesEventTypes(),
		adjudicator.EventType{Name: "league.raced", Schema: 1, New: func() adjudicator.Event { return new(LeagueRaced) }},
		adjudicator.EventType{Name: "league.started", Schema: 1, New: func() adjudicator.Event { return new(LeagueStarted) }},
		adjudicator.EventType{Name: "league.over", Schema: 1, New: func() adjudicator.Event { return new(LeagueOver) }})
}

// Lookup finds the test rulesets by name: race, modrace, league, patrol and hide.
var Lookup game.Lookup = func(name string) (adjudicator.Ruleset, bool) {
	switch name {
	case "race":
		return Race, true
	case "modrace":
		return ModRace, true
	case "league":
		return League, true
	case "patrol":
		return Patrol, true
	case "hide":
		return Hide, true
	}
	return nil, false
}

// Answer is the orders section of a valid answer to request r of a race
// in state s, as tests play races out: a bid of 1 (or what energy is
// left), R1 or B1 forward, every trapped runner held. The envelope (turn,
// phase) comes first.
func Answer(s adjudicator.State, r adjudicator.Request) string {
	st := s.(*State)
	src := fmt.Sprintf("turn: %d\nphase: %s\norders:\n", r.Turn, r.Phase)
	switch r.Phase {
	case "bid":
		src += fmt.Sprintf("  bid: %d\n", min(1, st.Energy[string(r.Side)]))
	case "move":
		src += "  - advance: " + strings.ToUpper(string(r.Side[:1])) + "1\n"
	case "trap":
		for _, id := range st.Trapped {
			src += "  " + id + ": hold\n"
		}
	default:
		src += "  {}\n"
	}
	return src
}
