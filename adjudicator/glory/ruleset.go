package glory

import (
	"embed"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Version is the version of this rules implementation.
const Version = "0.1.0"

// Ruleset is Dragons of Glory.
var Ruleset adjudicator.Ruleset = ruleset{}

type ruleset struct{}

//go:embed data
var dataFS embed.FS

// builtins are the modules shipped in umpire, the default first.
var builtins = adjudicator.Builtins{FS: dataFS, Dir: "data", Names: []string{"demo"}}

var knownOptions = []adjudicator.OptionInfo{
	{Name: "hidden-stacks", Default: "off", Values: []string{"on", "off"}, Doc: "the optional hidden-stacks rule (DG-HIDE): each side sees of the other's stacks only which hexes it holds (and \"enemy fleet\" at sea), until an attack on a stack reveals it (DG-HIDE-3)"},
	{Name: "capitals", Default: "off", Values: []string{"on", "off"}, Doc: "the optional rule of moving semi-human capitals (DG-CAP)"},
}

func (ruleset) Info() adjudicator.Info {
	in := adjudicator.Info{Name: "glory", Title: "Dragons of Glory", Version: Version, Sides: []adjudicator.Side{Highlord, Whitestone}, Options: knownOptions}
	m, _ := builtins.Or(nil)
	d, err := LoadModule(m)
	if err != nil {
		return in
	}
	for _, s := range d.Scenarios {
		doc := fmt.Sprintf("module %s, turns %d to %d", m.Name, s.Start, s.End)
		if d.Info.Status == "assumed" || s.Prov.Assumed() {
			doc += "; its map, counters and scenario are assumed (docs/dragons-of-glory.md)"
		}
		in.Scenarios = append(in.Scenarios, adjudicator.ScenarioInfo{ID: s.ID, Title: s.Title, Sides: in.Sides, Doc: doc})
	}
	return in
}

// BuiltinModules lists the modules shipped in umpire.
func (ruleset) BuiltinModules() []string { return builtins.List() }

// BuiltinModule returns a shipped module.
func (ruleset) BuiltinModule(name string) (adjudicator.Module, bool) { return builtins.Module(name) }

// CheckModule reads and checks every file of m.
func (ruleset) CheckModule(m adjudicator.Module) error {
	_, err := parseModule(m)
	return err
}

func (ruleset) Setup(s adjudicator.Setup) (adjudicator.State, error) {
	m, err := builtins.Or(s.Module)
	if err != nil {
		return nil, err
	}
	d, err := LoadModule(m)
	if err != nil {
		return nil, fmt.Errorf("module %s: %w", m.Name, err)
	}
	opts, err := parseOptions(s.Options)
	if err != nil {
		return nil, err
	}
	if len(s.Position) > 0 {
		return positionSetup(d, opts, s.Position)
	}
	return scenarioSetup(d, opts, s.Scenario)
}

func parseOptions(o map[string]string) (Rules, error) {
	var r Rules
	for k, v := range o {
		var on bool
		switch v {
		case "on", "yes", "true":
			on = true
		case "off", "no", "false":
		default:
			return r, fmt.Errorf("option %s=%s: write on or off", k, v)
		}
		switch k {
		case "hidden-stacks":
			r.Hidden = on
		case "capitals":
			r.Capitals = on
		default:
			return r, fmt.Errorf("unknown option %q (Dragons of Glory knows hidden-stacks and capitals)", k)
		}
	}
	return r, nil
}

// newState is the state before any counter is placed: every counter in
// its nation's reserve (or on its side's track when it has no nation).
func newState(d *Data, opts Rules) *State {
	st := &State{data: d, Module: d.Digest, Options: opts, Units: map[string]*Unit{}, Nations: map[string]*NationState{}}
	for _, n := range d.NationIDs() {
		st.Nations[n] = &NationState{}
	}
	for _, id := range d.CounterIDs() {
		k := d.Counters[id]
		u := &Unit{ID: id, Where: InReserve}
		if k.Side != "" {
			u.Side = adjudicator.Side(k.Side)
		}
		st.Units[id] = u
	}
	return st
}

func scenarioSetup(d *Data, opts Rules, id string) (*State, error) {
	if id == "" && len(d.Scenarios) > 0 {
		id = d.Scenarios[0].ID
	}
	sc, ok := d.Scenario(id)
	if !ok {
		var ids []string
		for _, s := range d.Scenarios {
			ids = append(ids, s.ID)
		}
		return nil, fmt.Errorf("module %s has no scenario %q; it has %v", d.Info.Name, id, ids)
	}
	st := newState(d, opts)
	st.Scenario, st.Turn, st.End, st.Step = sc.ID, sc.Start, sc.End, StepStrategic
	st.Initiative = adjudicator.Side(sc.Initiative)
	for n, side := range sc.Allies {
		st.Nations[n].Side = side
		for _, u := range st.Units {
			if k := d.Counters[u.ID]; k.Nation == n && u.Side == "" {
				u.Side = side
			}
		}
	}
	for _, p := range sc.Units {
		for _, id := range p.Units {
			u := st.Units[id]
			if u.Side == "" {
				u.Side = adjudicator.Side(p.Side)
			}
			if u.Side == "" {
				return nil, fmt.Errorf("scenario %s: %s starts on the map but its nation %s is neutral: give the placement a side", sc.ID, id, d.Counters[id].Nation)
			}
			u.Where, u.Hex = OnMap, p.At
		}
	}
	for _, p := range sc.Track {
		for _, id := range p.Units {
			u := st.Units[id]
			if p.Side != "" {
				u.Side = adjudicator.Side(p.Side)
			}
			u.Where, u.Turn, u.Hex = OnTrack, p.Turn, p.At
		}
	}
	// An allied nation's counters the scenario does not place are not in
	// this game; a side's own counters (draconians, wizards, dragons that an
	// event brings) and neutral nations' wait in reserve.
	for _, u := range st.Units {
		if k := d.Counters[u.ID]; u.Where == InReserve && k.Nation != "" && st.Nations[k.Nation].Side != "" {
			u.Where = Unused
		}
	}
	cup := sc.Cup
	if cup == nil { // DG-AMB-12: every counter due by the starting turn
		for _, id := range slices.Sorted(maps.Keys(d.Events)) {
			if d.Events[id].Enter <= sc.Start {
				cup = append(cup, id)
			}
		}
	}
	st.Cup = append([]string(nil), cup...)
	sort.Strings(st.Cup)
	st.Temple = sc.Temple
	st.Strength = map[adjudicator.Side]int{}
	for _, u := range st.Units {
		if u.Where == OnMap && d.Counters[u.ID].IsArmy() {
			st.Strength[u.Side] += st.Face(u).Strength
		}
	}
	return st, nil
}

func (ruleset) Due(s adjudicator.State) []adjudicator.Request {
	st := s.(*State)
	if st.Over {
		return nil
	}
	if p := st.Pause.Pending; p != nil {
		return []adjudicator.Request{p.Request()}
	}
	switch st.Step {
	case StepStrategic:
		var out []adjudicator.Request
		for _, side := range []adjudicator.Side{Highlord, Whitestone} {
			out = append(out, adjudicator.Request{
				ID: fmt.Sprintf("t%d.%s.strategic", st.Turn, side), Side: side, Kind: "orders",
				Turn: st.Turn, Phase: StepStrategic, Hidden: true,
				Title:  fmt.Sprintf("turn %d (%s), %s: replacements, activation and initiative", st.Turn, st.TurnLabel(), side),
				Prompt: st.strategicPrompt(side),
			})
		}
		return out
	case StepMove:
		step := "steps 5 and 6"
		if st.Mover != st.First {
			step = "step 7"
		}
		return []adjudicator.Request{{
			ID: fmt.Sprintf("t%d.%s.move", st.Turn, st.Mover), Side: st.Mover, Kind: "orders",
			Turn: st.Turn, Phase: StepMove,
			Title:  fmt.Sprintf("turn %d (%s), %s movement and combat (%s)", st.Turn, st.TurnLabel(), st.Mover, step),
			Prompt: st.movePrompt(st.Mover),
		}}
	}
	return nil
}

// TurnLabel is the turn track's box for the current turn: "Mar/Apr 348".
func (s *State) TurnLabel() string {
	for _, t := range s.data.Info.Calendar {
		if t.Turn == s.Turn {
			return t.Label
		}
	}
	return "turn " + strconv.Itoa(s.Turn)
}

func (ruleset) ParseOrders(s adjudicator.State, req adjudicator.Request, n *yaml.Node) (adjudicator.Orders, error) {
	st := s.(*State)
	switch {
	case req.Kind == "decision":
		return parseAnswer(st, req, n)
	case req.Phase == StepStrategic:
		return parseStrategic(st, req.Side, n)
	case req.Phase == StepMove:
		return parseMove(st, req.Side, n)
	}
	return nil, fmt.Errorf("glory: no orders are parsed for %s", req.ID)
}

func (ruleset) Decide(r *adjudicator.Resolution, subs []adjudicator.Submission) error {
	st := r.State().(*State)
	w := newWorld(r)
	w.emit(&Resolving{})
	for _, sub := range subs {
		if c, ok := sub.Orders.(conceder); ok && c.conceded() {
			w.concede(sub.Side)
			return r.Err()
		}
	}
	switch {
	case st.Pause.Pending != nil:
		a := subs[0].Orders.(*Answer)
		w.resume(a)
	case st.Step == StepStrategic:
		w.strategic(subs)
	case st.Step == StepMove:
		o := subs[0].Orders.(*MoveOrders)
		w.standing(subs[0].Side, o.Standing)
		w.run(&program{Side: subs[0].Side, Orders: o, Stage: stageFleets})
	default:
		return errors.New("glory: nothing to decide: the game is over")
	}
	return r.Err()
}

func (ruleset) Evolve(s adjudicator.State, ev adjudicator.Event) adjudicator.State {
	st := s.(*State)
	if !st.evolve(ev) {
		panic(fmt.Sprintf("glory: no fold for event %T", ev))
	}
	return st
}

func (ruleset) Clone(s adjudicator.State) adjudicator.State { return s.(*State).Clone() }

func (ruleset) EventTypes() []adjudicator.EventType {
	return append(coreEvents(), strategicEvents()...)
}

var _ adjudicator.Defaulter = ruleset{}

// DefaultOrders is what a side's silence means at a deadline, with the
// game's no-move policy "default": in steps 1 to 4, no replacement, no
// activation attempt, the draconian brought in as the rules default it
// (DG-AMB-6) and, with the initiative, moving first; in a mover's step,
// no move and no attack (DG-MOVE-3, DG-COMBAT-7); to a question, the
// default its prompt names (the DG-PBEM tables).
func (ruleset) DefaultOrders(s adjudicator.State, req adjudicator.Request) (string, bool) {
	st := s.(*State)
	if p := st.Pause.Pending; p != nil && req.Kind == "decision" && p.Question.ID == req.ID {
		if p.Question.Default == "" {
			return "", false
		}
		return "answer: " + p.Question.Default, true
	}
	switch req.Phase {
	case StepStrategic, StepMove:
		return "{}", true
	}
	return "", false
}
