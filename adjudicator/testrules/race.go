// Package testrules is a small ruleset that exists only to test the engine
// core: a foot race on a 12-square track between two teams of runners. It is
// imported by tests alone, never registered, never shipped in the binary.
//
// It exercises everything the real rulesets need from the core: simultaneous
// hidden orders (each side bids energy), a roll-off interrupt on a tie,
// alternating phases (the higher bidder moves first), a decision the
// non-moving side must make in the middle of a turn (a runner that stops on a
// trap square may be pushed back), dice, options and a per-side view.
package testrules

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

// Race is the ruleset value.
var Race adjudicator.Ruleset = race{}

// Version is reported in Info and recorded in games.
var Version = "1.0.0"

const trapStep = 5 // squares 5, 10, 15… are traps

type race struct{}

// State is the race.
type State struct {
	Turn     int               `json:"turn"`
	Phase    string            `json:"phase"` // bid, move-1, trap, move-2
	Turns    int               `json:"turns"` // last turn
	Track    int               `json:"track"` // squares to the finish
	Energy   map[string]int    `json:"energy"`
	Bids     map[string]int    `json:"bids"`
	First    string            `json:"first"` // side that moves first this turn
	Runners  []Runner          `json:"runners"`
	Trapped  []string          `json:"trapped"` // runners waiting for the trap decision
	Resume   string            `json:"resume"`  // the phase after the trap decision
	Winner   string            `json:"winner"`
	Over     bool              `json:"over"`
	Options  map[string]string `json:"options"`
	Sequence int               `json:"sequence"` // events applied, to make every state distinct
}

// Runner is one counter.
type Runner struct {
	ID   string `json:"id"`
	Side string `json:"side"`
	At   int    `json:"at"`
}

var sides = []adjudicator.Side{"red", "blue"}

func (race) Info() adjudicator.Info {
	return adjudicator.Info{
		Name: "race", Title: "Race (test ruleset)", Version: Version, Sides: sides,
		Scenarios: []adjudicator.ScenarioInfo{{ID: "sprint", Title: "Sprint", Sides: sides}},
		Options: []adjudicator.OptionInfo{{Name: "turns", Default: "10", Doc: "the last turn"},
			{Name: "track", Default: "12", Doc: "squares to the finish (long tracks make long games for benchmarks)"},
			{Name: "scout", Default: "no", Values: []string{"no", "yes"}, Doc: "red scouts at each bid: a roll and a line for red alone, and a note for the referee alone (to test sealed parts)"}},
	}
}

// position is the inline setup format.
type position struct {
	Runners map[string]int `yaml:"runners"` // id → square; the id's first letter names the side (R red, B blue)
	Energy  map[string]int `yaml:"energy"`
	Turn    int            `yaml:"turn"`
}

func (race) Setup(s adjudicator.Setup) (adjudicator.State, error) {
	st := &State{Turn: 1, Phase: "bid", Turns: 10, Track: 12, Energy: map[string]int{"red": 6, "blue": 6}, Bids: map[string]int{}, Options: map[string]string{}}
	for k, v := range s.Options {
		switch k {
		case "turns":
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return nil, fmt.Errorf("option turns=%q: give a whole number from 1", v)
			}
			st.Turns = n
		case "track":
			n, err := strconv.Atoi(v)
			if err != nil || n < 2 {
				return nil, fmt.Errorf("option track=%q: give a whole number from 2", v)
			}
			st.Track = n
		case "scout":
			if v != "yes" && v != "no" {
				return nil, fmt.Errorf("option scout=%q: give yes or no", v)
			}
		default:
			return nil, fmt.Errorf("unknown option %q (race knows: turns, track, scout)", k)
		}
		st.Options[k] = v
	}
	switch {
	case s.Position != nil:
		var p position
		if err := yamlx.Unmarshal(s.Position, &p); err != nil {
			return nil, fmt.Errorf("position: %w", err)
		}
		for id, at := range p.Runners {
			side := map[byte]string{'R': "red", 'B': "blue"}[id[0]]
			if side == "" {
				return nil, fmt.Errorf("position: runner %q must start with R or B", id)
			}
			st.Runners = append(st.Runners, Runner{ID: id, Side: side, At: at})
		}
		for k, v := range p.Energy {
			st.Energy[k] = v
		}
		if p.Turn > 0 {
			st.Turn = p.Turn
		}
	case s.Scenario == "sprint":
		st.Runners = []Runner{{"B1", "blue", 0}, {"B2", "blue", 0}, {"R1", "red", 0}, {"R2", "red", 0}}
	default:
		return nil, fmt.Errorf("unknown scenario %q (race has: sprint)", s.Scenario)
	}
	sort.Slice(st.Runners, func(i, j int) bool { return st.Runners[i].ID < st.Runners[j].ID })
	return st, nil
}

func other(s string) string {
	if s == "red" {
		return "blue"
	}
	return "red"
}

func (race) Due(s adjudicator.State) []adjudicator.Request {
	st := s.(*State)
	if st.Over {
		return nil
	}
	req := func(side, phase, kind, title string) adjudicator.Request {
		return adjudicator.Request{ID: fmt.Sprintf("t%d.%s.%s", st.Turn, phase, side), Side: adjudicator.Side(side), Kind: kind,
			Turn: st.Turn, Phase: phase, Title: fmt.Sprintf("turn %d, %s", st.Turn, title)}
	}
	switch st.Phase {
	case "bid":
		r, b := req("red", "bid", "orders", "bids"), req("blue", "bid", "orders", "bids")
		r.Hidden, b.Hidden = true, true
		return []adjudicator.Request{r, b}
	case "move-1":
		return []adjudicator.Request{req(st.First, "move", "orders", st.First+" moves")}
	case "move-2":
		return []adjudicator.Request{req(other(st.First), "move", "orders", other(st.First)+" moves")}
	case "trap":
		victim := st.runner(st.Trapped[0]).Side
		r := req(other(victim), "trap", "decision", "trap on "+strings.Join(st.Trapped, ", "))
		r.Prompt = "push each trapped runner back 2 squares, or hold"
		r.Choice = []string{"push", "hold"}
		return []adjudicator.Request{r}
	}
	return nil
}

func (st *State) runner(id string) *Runner {
	for i := range st.Runners {
		if st.Runners[i].ID == id {
			return &st.Runners[i]
		}
	}
	return nil
}

// Bid, Moves and Answers are the parsed orders.
type Bid struct {
	Bid int `yaml:"bid"`
}

// Move is one runner's advance.
type Move struct {
	Advance string `yaml:"advance"`
}

// Answers maps a trapped runner to push or hold.
type Answers map[string]string

func (race) ParseOrders(s adjudicator.State, req adjudicator.Request, n *yaml.Node) (adjudicator.Orders, error) {
	st := s.(*State)
	switch req.Phase {
	case "bid":
		var b Bid
		if err := yamlx.Decode(n, &b); err != nil {
			return nil, err
		}
		if b.Bid < 0 || b.Bid > st.Energy[string(req.Side)] {
			return nil, adjudicator.Errorf(n, "bad-bid", "bid %d: bid from 0 to your energy, %d", b.Bid, st.Energy[string(req.Side)])
		}
		return b, nil
	case "move":
		var ms []Move
		if err := yamlx.Decode(n, &ms); err != nil {
			return nil, err
		}
		var errs adjudicator.OrderErrors
		seen := map[string]bool{}
		for i, m := range ms {
			item := n.Content[i]
			r := st.runner(m.Advance)
			switch {
			case r == nil:
				ids := make([]string, 0, len(st.Runners))
				for _, r := range st.Runners {
					ids = append(ids, r.ID)
				}
				msg := fmt.Sprintf("no runner %q", m.Advance)
				if s := yamlx.Nearest(m.Advance, ids); s != "" {
					msg += fmt.Sprintf(" (did you mean %q?)", s)
				}
				errs = append(errs, adjudicator.Errorf(item, adjudicator.CodeUnknownUnit, "%s", msg))
			case r.Side != string(req.Side):
				errs = append(errs, adjudicator.Errorf(item, "not-yours", "runner %s is %s's", r.ID, r.Side))
			case seen[r.ID]:
				errs = append(errs, adjudicator.Errorf(item, "twice", "runner %s is ordered twice; each runner advances once a turn", r.ID))
			}
			seen[m.Advance] = true
		}
		if errs != nil {
			return nil, errs
		}
		return ms, nil
	case "trap":
		var a Answers
		if err := yamlx.Decode(n, &a); err != nil {
			return nil, err
		}
		for _, id := range st.Trapped {
			v, ok := a[id]
			if !ok {
				return nil, adjudicator.Errorf(n, adjudicator.CodeMissingField, "say push or hold for %s", id)
			}
			if v != "push" && v != "hold" {
				return nil, adjudicator.Errorf(n, adjudicator.CodeBadValue, "%s: answer push or hold, not %q", id, v)
			}
		}
		if len(a) != len(st.Trapped) {
			return nil, adjudicator.Errorf(n, adjudicator.CodeUnknownUnit, "answer only for the trapped runners: %s", strings.Join(st.Trapped, ", "))
		}
		return a, nil
	}
	return nil, adjudicator.Errorf(n, adjudicator.CodeWrongTurn, "phase %q takes no orders", req.Phase)
}

// DefaultOrders: a bid of 0, no runner advanced, every trapped runner held.
func (race) DefaultOrders(s adjudicator.State, req adjudicator.Request) (string, bool) {
	st := s.(*State)
	switch req.Phase {
	case "bid":
		return "{bid: 0}", true
	case "move":
		return "[]", true
	case "trap":
		var b strings.Builder
		for _, id := range st.Trapped {
			b.WriteString("\n  " + id + ": hold")
		}
		return b.String(), true
	}
	return "", false
}
