package conquete

import (
	"embed"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Name is the ruleset's registry name.
const Name = "dragonnoir-conquete"

// Version of the implementation, recorded in every game.
const Version = "0.1.0"

// ScenarioID is the one scenario: the campaign.
const ScenarioID = "conquete"

// Ruleset is Dragon Noir 3 — La Conquête, the campaign.
var Ruleset adjudicator.Ruleset = ruleset{}

type ruleset struct{}

//go:embed data
var dataFS embed.FS

// builtins are the modules shipped in umpire, the default first.
var builtins = adjudicator.Builtins{FS: dataFS, Dir: "data", Names: []string{"assumed"}}

var (
	_ adjudicator.Modular          = ruleset{}
	_ adjudicator.ModuleSummarizer = ruleset{}
	_ adjudicator.Defaulter        = ruleset{}
)

var knownOptions = []adjudicator.OptionInfo{
	{Name: "length", Default: "module",
		Doc: "the last strategic turn, as DAY-SLOT (3-soir, 4-nuit): the game ends after it (AMB-97; the module's default is the end of the Soir of day 3)"},
	{Name: "battles", Default: "tactical",
		Doc: "tactical: the players play each Battle as a Dragon Noir game; referee: the referee decides each Battle, ending its game with the result in words (dead:, wounded:, left:, pe:, negotiation:; docs/la-conquete.md)"},
	{Name: "battle-module", Default: "builtin",
		Doc: "the Dragon Noir module the Battles are played from: a module of the data file's library (umpire module list dragonnoir), with a group's own counters or boards; builtin: the one umpire ships"},
}

func (ruleset) Info() adjudicator.Info {
	doc := "the valley campaign: the Rebels against the Reptilians, Battles played as Dragon Noir games (docs/la-conquete.md)"
	if d, err := builtinData(); err == nil && d.Info.Status == "assumed" {
		doc += "; its valley, counters, calendar and victory conditions are assumed, not the draft's"
	}
	return adjudicator.Info{Name: Name, Title: "Dragon Noir 3 — La Conquête", Version: Version, Series: "campaign",
		Sides: slices.Clone(sides),
		Scenarios: []adjudicator.ScenarioInfo{{ID: ScenarioID, Title: "La Conquête, the campaign in the valley of Ekal'ussa d'Assi",
			Sides: slices.Clone(sides), Doc: doc}},
		Options: slices.Clone(knownOptions)}
}

// builtinData is the default builtin module, read once: it is embedded in
// the binary, so neither its files nor their digest can change.
var builtinData = sync.OnceValues(func() (*Data, error) {
	m, err := builtins.Or(nil)
	if err != nil {
		return nil, err
	}
	return LoadModule(m)
})

// ChildModules is the Battles' module when the option battle-module names
// one: umpire checks it exists when the campaign is created.
func (ruleset) ChildModules(s adjudicator.State) []adjudicator.ModuleUse {
	if st := s.(*State); st.BattleModule != "" {
		return []adjudicator.ModuleUse{{Ruleset: BattleRuleset, Module: st.BattleModule, Option: "battle-module"}}
	}
	return nil
}

// BuiltinModules lists the modules shipped in umpire.
func (ruleset) BuiltinModules() []string { return builtins.List() }

// BuiltinModule returns a shipped module.
func (ruleset) BuiltinModule(name string) (adjudicator.Module, bool) { return builtins.Module(name) }

// CheckModule reads and checks every file of m. A module that passed once
// is not read again: LoadModule keeps it by digest (the SHA-256 of every
// file's bytes and path), and the check depends on nothing else.
func (ruleset) CheckModule(m adjudicator.Module) error {
	_, err := LoadModule(m)
	return err
}

// options are a game's options, read.
type options struct {
	lastDay, lastSlot int
	refereeBattles    bool
	battleModule      string // "" for the builtin
}

func parseOptions(d *Data, o map[string]string) (options, error) {
	opt := options{lastDay: d.Length.Day, lastSlot: d.slot(d.Length.Slot)}
	for _, k := range slices.Sorted(maps.Keys(o)) {
		v := o[k]
		switch k {
		case "length":
			if v == "module" {
				continue
			}
			day, slot, ok := strings.Cut(v, "-")
			n, err := strconv.Atoi(day)
			s := d.slot(slot)
			if !ok || err != nil || n < 1 || s < 0 {
				var ids []string
				for _, s := range d.Slots {
					ids = append(ids, s.ID)
				}
				return opt, fmt.Errorf("option length=%s: write DAY-SLOT, a day from 1 and one of %s (e.g. 3-soir)", v, strings.Join(ids, ", "))
			}
			if n < d.Start.Day || n == d.Start.Day && s < d.slot(d.Start.Slot) {
				return opt, fmt.Errorf("option length=%s: the campaign starts on day %d, %s", v, d.Start.Day, d.Start.Slot)
			}
			opt.lastDay, opt.lastSlot = n, s
		case "battles":
			switch v {
			case "tactical":
			case "referee":
				opt.refereeBattles = true
			default:
				return opt, fmt.Errorf("option battles=%s: write tactical (the players play each Battle) or referee (the referee decides it)", v)
			}
		case "battle-module":
			if v == "" || strings.ContainsAny(v, " /\\\t") {
				return opt, fmt.Errorf("option battle-module=%q: name a module of the data file's library (umpire module list dragonnoir), or builtin", v)
			}
			if v != "builtin" {
				opt.battleModule = v
			}
		default:
			return opt, fmt.Errorf("unknown option %q (La Conquête knows length, battles and battle-module)", k)
		}
	}
	return opt, nil
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
	opt, err := parseOptions(d, s.Options)
	if err != nil {
		return nil, err
	}
	for _, want := range sides {
		if !slices.Contains(s.Sides, want) {
			return nil, fmt.Errorf("La Conquête is played by the Rebels and the Reptilians (DN3-CAMP-SIDE-2): give the %s' player too", want)
		}
	}
	if len(s.Position) > 0 {
		return positionSetup(d, opt, s.Position)
	}
	if s.Scenario != "" && s.Scenario != ScenarioID {
		return nil, fmt.Errorf("scenario %q: La Conquête's only scenario is %q (the individual scenarios are still to be written, DN3-WORLD-4)", s.Scenario, ScenarioID)
	}
	return newGame(d, opt), nil
}

func (ruleset) Due(s adjudicator.State) []adjudicator.Request {
	st := s.(*State)
	if st.Over {
		return nil
	}
	out := make([]adjudicator.Request, 0, len(st.Waits))
	for _, w := range st.Waits {
		out = append(out, st.request(w))
	}
	return out
}

func (ruleset) ParseOrders(s adjudicator.State, req adjudicator.Request, n *yaml.Node) (adjudicator.Orders, error) {
	st := s.(*State)
	w, ok := st.waitFor(req)
	if !ok {
		return nil, adjudicator.Rejection(adjudicator.CodeNotYourTurn, "%s is not due", req.Title)
	}
	return requestKinds[w.Phase].Parse(st, w, n)
}

func (ruleset) Decide(r *adjudicator.Resolution, subs []adjudicator.Submission) error {
	x := &world{r: r}
	st := x.st()
	if st.Over {
		return errors.New("conquete: the game is over")
	}
	type answer struct {
		w Wait
		o adjudicator.Orders
	}
	var answers []answer
	for _, w := range st.Waits {
		id := st.requestID(w)
		for _, s := range subs {
			if s.Request.ID == id {
				answers = append(answers, answer{w, s.Orders})
			}
		}
	}
	if len(answers) != len(subs) {
		return fmt.Errorf("conquete: %d answers for %d requests due", len(subs), len(st.Waits))
	}
	x.emit(&Await{})
	for _, a := range answers {
		requestKinds[a.w.Phase].Decide(x, a.w, a.o)
		if r.Err() != nil {
			return r.Err()
		}
	}
	x.advance()
	return r.Err()
}

func (ruleset) Evolve(s adjudicator.State, ev adjudicator.Event) adjudicator.State {
	st := s.(*State)
	if !st.evolve(ev) {
		panic(fmt.Sprintf("conquete: no fold for event %T", ev))
	}
	return st
}

func (ruleset) Clone(s adjudicator.State) adjudicator.State { return s.(*State).Clone() }

func (ruleset) EventTypes() []adjudicator.EventType { return eventTypes() }

// DefaultOrders is what a side's silence means at a deadline
// (PBEM-GEN-3): no change in a reorganisation, a pass in movement, no
// reveal, the first eligible Region, no attack, fight.
func (ruleset) DefaultOrders(s adjudicator.State, req adjudicator.Request) (string, bool) {
	st := s.(*State)
	w, ok := st.waitFor(req)
	if !ok || requestKinds[w.Phase].Default == nil {
		return "", false
	}
	return requestKinds[w.Phase].Default(st, w)
}
