package testrules

import (
	"fmt"
	"slices"
	"sort"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

// Patrol is a ruleset played on a map of regions, for the generic parts
// that draw one (adjudicator.RegionMaps): two sides, red and blue, move
// troops from region to region along paths, both at once and in secret.
// A side sees the regions where it has a troop and those next to them;
// the rest is fog to it, where it sees nothing of the other side. An
// observer sees the map and no troop. The game ends after its turns
// (option turns, 3 by default).
var Patrol adjudicator.Ruleset = patrol{}

type patrol struct{}

var _ adjudicator.RegionMaps = patrol{}

// The patrol's map: its regions, in drawing order, and its paths.
var (
	patrolRegions = []adjudicator.RegionNode{
		{ID: "gate", Name: "Gate", X: 0, Y: 50, Kind: "exit"},
		{ID: "meadow", Name: "Meadow", X: 25, Y: 50, Kind: "plain"},
		{ID: "wood", Name: "Wood", X: 50, Y: 15, Kind: "forest"},
		{ID: "ford", Name: "Ford", X: 50, Y: 85, Kind: "water"},
		{ID: "hill", Name: "Hill", X: 75, Y: 50, Kind: "hills"},
		{ID: "keep", Name: "Keep", X: 100, Y: 50, Kind: "fort"},
	}
	patrolPaths = []adjudicator.RegionPath{
		{A: "gate", B: "meadow", Kind: "road"},
		{A: "meadow", B: "wood"},
		{A: "meadow", B: "ford"},
		{A: "wood", B: "hill"},
		{A: "ford", B: "hill"},
		{A: "wood", B: "ford", Kind: "tunnel"},
		{A: "hill", B: "keep", Kind: "road"},
	}
)

// PatrolState is a patrol game.
type PatrolState struct {
	Turn   int           `json:"turn"`
	Turns  int           `json:"turns"`
	Over   bool          `json:"over"`
	Troops []PatrolTroop `json:"troops"`
	// Moved are the moves of the last adjudication, for the pictures.
	Moved []PatrolMoved `json:"moved,omitempty"`
}

// PatrolTroop is one troop: its ID starts with R (red) or B (blue).
type PatrolTroop struct {
	ID   string `json:"id"`
	Side string `json:"side"`
	At   string `json:"at"`
	From string `json:"from,omitempty"` // the region it came from this turn
}

// PatrolMove is one troop's order.
type PatrolMove struct {
	Troop string `yaml:"troop"`
	To    string `yaml:"to"`
}

// The patrol's events.
type (
	// PatrolMoves opens an adjudication's moves: those of the one
	// before are forgotten.
	PatrolMoves struct{}
	// PatrolMoved moves a troop along a path.
	PatrolMoved struct {
		Troop string `json:"troop"`
		From  string `json:"from"`
		To    string `json:"to"`
	}
	// PatrolTurn starts a turn (or, past the last, ends the game).
	PatrolTurn struct {
		Turn int  `json:"turn"`
		Over bool `json:"over,omitempty"`
	}
)

func (*PatrolMoves) EventType() string { return "patrol.moves" }
func (*PatrolMoved) EventType() string { return "patrol.moved" }
func (*PatrolTurn) EventType() string  { return "patrol.turn" }

func (patrol) Info() adjudicator.Info {
	return adjudicator.Info{
		Name: "patrol", Title: "Patrol (test ruleset)", Version: Version, Sides: sides,
		Scenarios: []adjudicator.ScenarioInfo{{ID: "skirmish", Title: "Skirmish", Sides: sides}},
		Options:   []adjudicator.OptionInfo{{Name: "turns", Default: "3", Doc: "the last turn"}},
	}
}

func (patrol) Setup(s adjudicator.Setup) (adjudicator.State, error) {
	st := &PatrolState{Turn: 1, Turns: 3}
	for k, v := range s.Options {
		if k != "turns" {
			return nil, fmt.Errorf("unknown option %q (patrol knows: turns)", k)
		}
		if _, err := fmt.Sscan(v, &st.Turns); err != nil || st.Turns < 1 {
			return nil, fmt.Errorf("option turns=%q: give a whole number from 1", v)
		}
	}
	at := map[string]string{"R1": "meadow", "R2": "gate", "B1": "hill", "B2": "keep"}
	switch {
	case s.Position != nil:
		var p struct {
			Troops map[string]string `yaml:"troops"`
		}
		if err := yamlx.Unmarshal(s.Position, &p); err != nil {
			return nil, fmt.Errorf("position: %w", err)
		}
		at = p.Troops
	case s.Scenario != "skirmish":
		return nil, fmt.Errorf("unknown scenario %q (patrol has: skirmish)", s.Scenario)
	}
	for id, r := range at {
		side := map[byte]string{'R': "red", 'B': "blue"}[id[0]]
		if side == "" || !patrolRegion(r) {
			return nil, fmt.Errorf("position: troop %q at %q: an ID starts with R or B, and stands in a region of the map", id, r)
		}
		st.Troops = append(st.Troops, PatrolTroop{ID: id, Side: side, At: r})
	}
	sort.Slice(st.Troops, func(i, j int) bool { return st.Troops[i].ID < st.Troops[j].ID })
	return st, nil
}

func patrolRegion(id string) bool {
	return slices.ContainsFunc(patrolRegions, func(r adjudicator.RegionNode) bool { return r.ID == id })
}

func patrolJoined(a, b string) bool {
	return slices.ContainsFunc(patrolPaths, func(p adjudicator.RegionPath) bool {
		return p.A == a && p.B == b || p.A == b && p.B == a
	})
}

func (st *PatrolState) troop(id string) *PatrolTroop {
	for i := range st.Troops {
		if st.Troops[i].ID == id {
			return &st.Troops[i]
		}
	}
	return nil
}

func (patrol) Due(s adjudicator.State) []adjudicator.Request {
	st := s.(*PatrolState)
	if st.Over {
		return nil
	}
	var out []adjudicator.Request
	for _, side := range sides {
		out = append(out, adjudicator.Request{ID: fmt.Sprintf("t%d.move.%s", st.Turn, side), Side: side, Kind: "orders",
			Turn: st.Turn, Phase: "move", Title: fmt.Sprintf("turn %d, %s moves", st.Turn, side), Hidden: true})
	}
	return out
}

func (patrol) ParseOrders(s adjudicator.State, req adjudicator.Request, n *yaml.Node) (adjudicator.Orders, error) {
	st := s.(*PatrolState)
	var ms []PatrolMove
	if err := yamlx.Decode(n, &ms); err != nil {
		return nil, err
	}
	var errs adjudicator.OrderErrors
	for i, m := range ms {
		t := st.troop(m.Troop)
		switch {
		case t == nil:
			errs = append(errs, adjudicator.Errorf(n.Content[i], adjudicator.CodeUnknownUnit, "no troop %q", m.Troop))
		case t.Side != string(req.Side):
			errs = append(errs, adjudicator.Errorf(n.Content[i], "not-yours", "troop %s is %s's", t.ID, t.Side))
		case !patrolJoined(t.At, m.To):
			errs = append(errs, adjudicator.Errorf(n.Content[i], adjudicator.CodeBadValue, "troop %s is at %s: no path leads from there to %q", t.ID, t.At, m.To))
		}
	}
	if errs != nil {
		return nil, errs
	}
	return ms, nil
}

func (patrol) Decide(r *adjudicator.Resolution, subs []adjudicator.Submission) error {
	st := r.State().(*PatrolState)
	r.Emit(&PatrolMoves{})
	for _, s := range subs {
		for _, m := range s.Orders.([]PatrolMove) {
			t := st.troop(m.Troop)
			r.Tellf(adjudicator.To(s.Side), "%s goes from %s to %s", t.ID, t.At, m.To)
			r.Emit(&PatrolMoved{Troop: t.ID, From: t.At, To: m.To})
		}
	}
	r.Emit(&PatrolTurn{Turn: st.Turn + 1, Over: st.Turn >= st.Turns})
	return nil
}

func (patrol) Evolve(s adjudicator.State, ev adjudicator.Event) adjudicator.State {
	st := s.(*PatrolState)
	switch e := ev.(type) {
	case *PatrolMoves:
		st.Moved = nil
		for i := range st.Troops {
			st.Troops[i].From = ""
		}
	case *PatrolMoved:
		t := st.troop(e.Troop)
		t.At, t.From = e.To, e.From
		st.Moved = append(st.Moved, *e)
	case *PatrolTurn:
		if e.Over {
			st.Over = true
			return st
		}
		st.Turn = e.Turn
	}
	return st
}

func (patrol) Clone(s adjudicator.State) adjudicator.State {
	st := *s.(*PatrolState)
	st.Troops = slices.Clone(st.Troops)
	st.Moved = slices.Clone(st.Moved)
	return &st
}

func (patrol) EventTypes() []adjudicator.EventType {
	return []adjudicator.EventType{
		{Name: "patrol.moves", Schema: 1, New: func() adjudicator.Event { return new(PatrolMoves) }},
		{Name: "patrol.moved", Schema: 1, New: func() adjudicator.Event { return new(PatrolMoved) }},
		{Name: "patrol.turn", Schema: 1, New: func() adjudicator.Event { return new(PatrolTurn) }},
	}
}

// sees lists the regions viewer sees into: everywhere for the referee,
// nowhere for an observer, else where it has troops and next to them.
func (st *PatrolState) sees(viewer adjudicator.Side) map[string]bool {
	out := map[string]bool{}
	for _, r := range patrolRegions {
		out[r.ID] = viewer == adjudicator.Referee
	}
	for _, t := range st.Troops {
		if adjudicator.Side(t.Side) != viewer {
			continue
		}
		out[t.At] = true
		for _, p := range patrolPaths {
			if p.A == t.At {
				out[p.B] = true
			}
			if p.B == t.At {
				out[p.A] = true
			}
		}
	}
	return out
}

// visible says whether viewer sees troop t: its own, or in a region it
// sees into.
func (st *PatrolState) visible(t PatrolTroop, sees map[string]bool, viewer adjudicator.Side) bool {
	return adjudicator.Side(t.Side) == viewer || sees[t.At]
}

func (patrol) View(s adjudicator.State, viewer adjudicator.Side) adjudicator.View {
	st := s.(*PatrolState)
	v := adjudicator.View{Turn: st.Turn, Phase: "move", Over: st.Over}
	sees := st.sees(viewer)
	for _, t := range st.Troops {
		if st.visible(t, sees, viewer) {
			v.Units = append(v.Units, adjudicator.UnitView{ID: t.ID, Side: adjudicator.Side(t.Side), Type: "troop", At: t.At})
		}
	}
	return v
}

// RegionGraph is the map as viewer sees it: fog where it does not see,
// its troops and those of the other side it sees, and the moves it saw
// (both ends seen, or its own).
func (patrol) RegionGraph(s adjudicator.State, viewer adjudicator.Side) (adjudicator.RegionGraph, bool) {
	st := s.(*PatrolState)
	sees := st.sees(viewer)
	g := adjudicator.RegionGraph{Title: "The patrol's valley", Paths: slices.Clone(patrolPaths),
		Legend: []string{"R1, B1: the troops of red and blue"}}
	for _, r := range patrolRegions {
		r.Fog = !sees[r.ID]
		for _, t := range st.Troops {
			if t.At == r.ID && st.visible(t, sees, viewer) {
				r.Items = append(r.Items, adjudicator.RegionItem{Side: adjudicator.Side(t.Side), Label: t.ID, At: t.From})
			}
		}
		g.Regions = append(g.Regions, r)
	}
	for _, m := range st.Moved {
		t := st.troop(m.Troop)
		if adjudicator.Side(t.Side) == viewer || sees[m.From] && sees[m.To] {
			g.Traces = append(g.Traces, adjudicator.RegionTrace{Side: adjudicator.Side(t.Side), Path: []string{m.From, m.To}, Label: t.ID})
		}
	}
	return g, true
}
