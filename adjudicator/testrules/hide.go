package testrules

import (
	"fmt"
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

// Hide is a tiny ruleset with hidden state, to test the engine's sealed
// events (adjudicator.Secret) and sealed answers (Request.SealKey): a
// hider hides a treasure in one of 20 regions (A to T) and buries it 1 to
// 3 deep, each in secret; the seeker searches a region a turn. Finding it
// reveals where it is (a Reveal of the key "treasure"), and the seeker
// then digs once: the right depth wins. The depth stays sealed until the
// game ends. With the option given=yes the hider does not choose: the
// game's series does, and seals where the treasure is for the hider
// (adjudicator.ChildSecret, a part named "treasure"), which the game
// reads at its start.
var Hide adjudicator.Ruleset = hide{}

type hide struct{}

// HideState is the game.
type HideState struct {
	Turn     int      `json:"turn"`
	Phase    string   `json:"phase"` // hide, bury, seek, dig
	Turns    int      `json:"turns"` // the last turn the seeker searches
	At       string   `json:"at"`    // "" until hidden
	Depth    int      `json:"depth"` // 0 until buried
	Searched []string `json:"searched"`
	Found    bool     `json:"found"`
	Winner   string   `json:"winner"`
	Over     bool     `json:"over"`
	Given    bool     `json:"given,omitempty"` // the series places the treasure
}

// The hide events. Hidden and Buried are always sealed.
type (
	// Hidden places the treasure.
	Hidden struct {
		At string `json:"at"`
	}
	// Buried sets its depth.
	Buried struct {
		Depth int `json:"depth"`
	}
	// Searched is a search of a region.
	Searched struct {
		Region string `json:"region"`
		Found  bool   `json:"found"`
	}
	// HidePhase moves the game on.
	HidePhase struct {
		Turn  int    `json:"turn"`
		Phase string `json:"phase"`
	}
	// HideOver ends the game.
	HideOver struct {
		Winner string `json:"winner"`
	}
)

func (*Hidden) EventType() string    { return "hide.hidden" }
func (*Buried) EventType() string    { return "hide.buried" }
func (*Searched) EventType() string  { return "hide.searched" }
func (*HidePhase) EventType() string { return "hide.phase" }
func (*HideOver) EventType() string  { return "hide.over" }

var hideSides = []adjudicator.Side{"hider", "seeker"}

// Regions are where the treasure may be.
var Regions = []string{"A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O", "P", "Q", "R", "S", "T"}

func (hide) Info() adjudicator.Info {
	return adjudicator.Info{Name: "hide", Title: "Hide (test ruleset)", Version: "1.0.0", Sides: hideSides,
		Scenarios: []adjudicator.ScenarioInfo{{ID: "hunt", Title: "Treasure hunt", Sides: hideSides}},
		Options: []adjudicator.OptionInfo{{Name: "turns", Default: "3", Values: []string{"1", "2", "3", "4"}, Doc: "the seeker's searches"},
			{Name: "given", Default: "no", Values: []string{"no", "yes"}, Doc: "the game's series places the treasure, sealed for the hider"}}}
}

func (hide) Setup(s adjudicator.Setup) (adjudicator.State, error) {
	if s.Scenario != "hunt" {
		return nil, fmt.Errorf("unknown scenario %q (hide has: hunt)", s.Scenario)
	}
	st := &HideState{Turn: 1, Phase: "hide", Turns: 3, Searched: []string{}}
	for k, v := range s.Options {
		switch {
		case k == "given" && (v == "yes" || v == "no"):
			st.Given = v == "yes"
		case k != "turns" || len(v) != 1 || v[0] < '1' || v[0] > '4':
			return nil, fmt.Errorf("option %s=%q: hide knows turns, from 1 to 4, and given, yes or no", k, v)
		default:
			st.Turns = int(v[0] - '0')
		}
	}
	return st, nil
}

func (hide) Due(s adjudicator.State) []adjudicator.Request {
	st := s.(*HideState)
	if st.Over {
		return nil
	}
	r := adjudicator.Request{ID: fmt.Sprintf("t%d.%s", st.Turn, st.Phase), Side: "seeker", Kind: "orders", Turn: st.Turn, Phase: st.Phase,
		Title: fmt.Sprintf("turn %d, %s", st.Turn, st.Phase)}
	switch {
	case st.Phase == "hide" && st.Given:
		return []adjudicator.Request{adjudicator.ChildSecretsRequest(st.Turn, st.Phase)}
	case st.Phase == "hide":
		r.Side, r.Hidden, r.SealKey = "hider", true, "treasure"
	case st.Phase == "bury":
		r.Side, r.Hidden, r.SealKey = "hider", true, "depth"
	}
	return []adjudicator.Request{r}
}

// HideOrders are the orders of every phase: a region (hide, seek) or a
// depth (bury, dig).
type HideOrders struct {
	At     string `yaml:"at,omitempty"`
	Search string `yaml:"search,omitempty"`
	Depth  int    `yaml:"depth,omitempty"`
}

func (hide) ParseOrders(s adjudicator.State, req adjudicator.Request, n *yaml.Node) (adjudicator.Orders, error) {
	if req.ID == adjudicator.ChildSecretsID {
		parts, err := adjudicator.ParseChildSecrets(n, hideSides)
		if err != nil {
			return nil, err
		}
		if len(parts) != 1 || parts[0].Side != "hider" || parts[0].Name != "treasure" || !slices.Contains(Regions, parts[0].Value) {
			return nil, adjudicator.Errorf(n, adjudicator.CodeBadValue, "give one part, the treasure's region for the hider")
		}
		return parts, nil
	}
	var o HideOrders
	if err := yamlx.Decode(n, &o); err != nil {
		return nil, err
	}
	region := map[string]string{"hide": o.At, "seek": o.Search}[req.Phase]
	switch req.Phase {
	case "hide", "seek":
		if !slices.Contains(Regions, region) {
			return nil, adjudicator.Errorf(n, adjudicator.CodeBadValue, "give a region from A to T, not %q", region)
		}
	case "bury", "dig":
		if o.Depth < 1 || o.Depth > 3 {
			return nil, adjudicator.Errorf(n, adjudicator.CodeBadValue, "give a depth from 1 to 3, not %d", o.Depth)
		}
	}
	return o, nil
}

func (hide) Decide(r *adjudicator.Resolution, subs []adjudicator.Submission) error {
	st := r.State().(*HideState)
	hider := adjudicator.To("hider")
	if parts, ok := subs[0].Orders.([]adjudicator.ChildSecret); ok {
		adjudicator.SealChildSecrets(r, parts)
		r.Emit(adjudicator.Seal(hider, "treasure", &Hidden{At: parts[0].Value}))
		r.Tellf(hider, "your series hid the treasure in %s", parts[0].Value)
		r.Sayf("the treasure is hidden")
		r.Emit(&HidePhase{Turn: st.Turn, Phase: "bury"})
		return nil
	}
	o := subs[0].Orders.(HideOrders)
	switch st.Phase {
	case "hide":
		r.Emit(adjudicator.Seal(hider, "treasure", &Hidden{At: o.At}))
		r.Tellf(hider, "you hid the treasure in %s", o.At)
		r.Sayf("the treasure is hidden")
		r.Emit(&HidePhase{Turn: st.Turn, Phase: "bury"})
	case "bury":
		r.Emit(adjudicator.Seal(hider, "depth", &Buried{Depth: o.Depth}))
		r.Tellf(hider, "you buried it %d deep", o.Depth)
		r.Sayf("the treasure is buried")
		r.Emit(&HidePhase{Turn: st.Turn, Phase: "seek"})
	case "seek":
		found := o.Search == st.At
		r.Emit(&Searched{Region: o.Search, Found: found})
		switch {
		case found:
			r.Sayf("the seeker finds the treasure in %s", o.Search)
			r.Emit(&adjudicator.Reveal{Keys: []string{"treasure"}})
			r.Emit(&HidePhase{Turn: st.Turn, Phase: "dig"})
		case st.Turn >= st.Turns:
			r.Sayf("not in %s; the hider wins", o.Search)
			r.Emit(&HideOver{Winner: "hider"})
		default:
			r.Sayf("not in %s", o.Search)
			r.Emit(&HidePhase{Turn: st.Turn + 1, Phase: "seek"})
		}
	case "dig":
		w := "hider"
		if o.Depth == st.Depth {
			w = "seeker"
		}
		r.Sayf("the seeker digs %d deep: %s wins", o.Depth, w)
		r.Emit(&HideOver{Winner: w})
	}
	return nil
}

func (hide) Evolve(s adjudicator.State, ev adjudicator.Event) adjudicator.State {
	st := s.(*HideState)
	switch e := ev.(type) {
	case *Hidden:
		st.At = e.At
	case *Buried:
		st.Depth = e.Depth
	case *Searched:
		st.Searched = append(st.Searched, e.Region)
		st.Found = st.Found || e.Found
	case *HidePhase:
		st.Turn, st.Phase = e.Turn, e.Phase
	case *HideOver:
		st.Winner, st.Over = e.Winner, true
	}
	return st
}

func (hide) Clone(s adjudicator.State) adjudicator.State {
	st := *s.(*HideState)
	st.Searched = slices.Clone(st.Searched)
	return &st
}

// View: the hider sees the treasure; the seeker once found (the depth only
// when the game is over).
func (hide) View(s adjudicator.State, viewer adjudicator.Side) adjudicator.View {
	st := s.(*HideState)
	v := adjudicator.View{Turn: st.Turn, Phase: st.Phase, Over: st.Over, Winner: adjudicator.Side(st.Winner), Markers: map[string]any{"searched": st.Searched}}
	all := viewer == adjudicator.Referee || viewer == "hider" || st.Over
	if st.At != "" && (all || st.Found) {
		v.Units = append(v.Units, adjudicator.UnitView{ID: "treasure", Side: "hider", Type: "treasure", At: st.At})
	}
	if st.Depth > 0 && all {
		v.Markers["depth"] = st.Depth
	}
	if st.Over {
		v.Result = st.Winner + " wins"
	}
	return v
}

func (hide) EventTypes() []adjudicator.EventType {
	return append(adjudicator.ChildSecretEventTypes(),
		adjudicator.EventType{Name: "hide.hidden", Schema: 1, New: func() adjudicator.Event { return new(Hidden) }},
		adjudicator.EventType{Name: "hide.buried", Schema: 1, New: func() adjudicator.Event { return new(Buried) }},
		adjudicator.EventType{Name: "hide.searched", Schema: 1, New: func() adjudicator.Event { return new(Searched) }},
		adjudicator.EventType{Name: "hide.phase", Schema: 1, New: func() adjudicator.Event { return new(HidePhase) }},
		adjudicator.EventType{Name: "hide.over", Schema: 1, New: func() adjudicator.Event { return new(HideOver) }},
	)
}
