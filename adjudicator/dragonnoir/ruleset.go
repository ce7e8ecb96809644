package dragonnoir

import (
	"embed"
	"errors"
	"fmt"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Version is the version of this rules implementation.
const Version = "0.1.0"

// Ruleset is Dragon Noir 2 — L'Épreuve.
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
	_ adjudicator.Legend           = ruleset{}
)

func (ruleset) Info() adjudicator.Info {
	in := adjudicator.Info{Name: "dragonnoir", Title: "Dragon Noir 2 — L'Épreuve", Version: Version,
		Sides: []adjudicator.Side{Adventurers, Krobs}, Options: knownOptions}
	d, err := builtinData()
	if err != nil {
		return in
	}
	for _, s := range d.Scenarios {
		doc := fmt.Sprintf("module %s, %d turns", d.Info.Name, s.Turns)
		if d.Info.Status == "assumed" || s.Prov.Assumed {
			doc += "; its tables, counters, boards and scenario are assumed, not the printed game's (docs/dragon-noir.md)"
		}
		in.Scenarios = append(in.Scenarios, adjudicator.ScenarioInfo{ID: s.ID, Title: s.Title, Sides: in.Sides, Doc: doc})
	}
	return in
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

// Builtin is the default builtin module, read: La Conquête reads its
// spells (the strategic ones, DN3-MAGIC-5) and casters' sheets from it.
func Builtin() (*Data, error) { return builtinData() }

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

func (ruleset) Due(s adjudicator.State) []adjudicator.Request {
	st := s.(*State)
	if st.Over {
		return nil
	}
	if p := st.Pause.Pending; p != nil {
		return []adjudicator.Request{p.Request()}
	}
	if st.Battle != nil { // DN3 battles (battle_turn.go)
		return battleDue(st)
	}
	switch st.Step {
	case StepAdventurers:
		return []adjudicator.Request{{
			ID: fmt.Sprintf("t%d.adventurers", st.Turn), Side: Adventurers, Kind: "orders", Turn: st.Turn, Phase: StepAdventurers,
			Title:  fmt.Sprintf("turn %d of %d, the Adventurer player-turn", st.Turn, st.Turns),
			Prompt: "Your shots (fire:), spells (spells:), moves (moves:) and attacks (attacks:), each list in the order to resolve it, and any standing orders (standing: casualties, advance…); your defensive fire for the Krob turn goes in the reactions mail due with the Krob player's orders, sealed until both are in: docs/orders/dragon-noir.md.",
			Hidden: true,
		}}
	case StepKrobs:
		out := []adjudicator.Request{{
			ID: fmt.Sprintf("t%d.krobs", st.Turn), Side: Krobs, Kind: "orders", Turn: st.Turn, Phase: StepKrobs,
			Title:  fmt.Sprintf("turn %d of %d, the Krob player-turn", st.Turn, st.Turns),
			Prompt: "Your moves (moves:, with the facing of the Queen and her Guards), the Krobs that will not move (hold:) and your attacks (attacks:, with a Guard's mode and front or rear), each list in the order to resolve it: docs/orders/dragon-noir.md.",
			Hidden: true,
		}}
		if st.reactionsDue() { // fire chapter: the Adventurers' sealed reactions (HID-7)
			out = append(out, reactionsRequest(st))
		}
		return out
	}
	return nil
}

func (ruleset) ParseOrders(s adjudicator.State, req adjudicator.Request, n *yaml.Node) (adjudicator.Orders, error) {
	st := s.(*State)
	if req.ID == adjudicator.ChildSecretsID { // battle_secrets.go
		return parseSecrets(st, n)
	}
	if req.Kind == "decision" {
		return parseAnswer(st, req, n)
	}
	if req.Kind == "setup" { // DN3 battles (battle_setup.go)
		return parseSetup(st, req.Side, n)
	}
	if isReactions(req) { // fire chapter
		return parseReactions(st, req.Side, n)
	}
	return parseOrders(st, req.Side, n)
}

func (ruleset) Decide(r *adjudicator.Resolution, subs []adjudicator.Submission) error {
	st := r.State().(*State)
	w := newWorld(r)
	w.emit(&Resolving{})
	if parts, ok := subs[0].Orders.(battleSecrets); ok { // battle_secrets.go
		w.readSecrets(parts)
		return r.Err()
	}
	if st.Battle != nil {
		w.drawNegotiation() // Step 5 at the battle's first adjudication (battle_people.go)
	}
	if st.Battle != nil && st.Step == StepSetup && st.Pause.Pending == nil { // DN3 battles (battle_setup.go)
		w.setUp(subs)
		return r.Err()
	}
	subs, conceded := w.reactions(subs) // fire chapter: the reactions come with the Krob orders
	if conceded {
		return r.Err()
	}
	if len(subs) != 1 {
		return fmt.Errorf("dragonnoir: one submission is due at a time, got %d", len(subs))
	}
	sub := subs[0]
	switch o := sub.Orders.(type) {
	case *Answer:
		if o.Concede {
			w.concede(sub.Side)
			return r.Err()
		}
		w.resume(o, "player")
	case *Orders:
		if o.Concede {
			w.concede(sub.Side)
			return r.Err()
		}
		if st.Over {
			return errors.New("dragonnoir: nothing to decide: the game is over")
		}
		if o.Traitor && w.announceTraitor(sub.Side) { // the traitor in a battle (battle_traitor.go)
			return r.Err()
		}
		w.standing(sub.Side, o.Standing)
		w.mailReappear(sub.Side, o) // magic chapter: defensive-fire: live (spell_reappear.go)
		w.playTechniques(o)         // chapter: the valley's peoples (orders_peoples.go)
		p := &program{Side: sub.Side, Orders: o, Stage: stageFire, Battle: st.Battle != nil}
		if sub.Side == Krobs && st.Battle == nil { // in a battle both sides shoot (AMB-69)
			p.Stage = stageMoves
		}
		w.run(p)
	default:
		return fmt.Errorf("dragonnoir: orders of an unknown kind %T", sub.Orders)
	}
	return r.Err()
}

func (ruleset) Evolve(s adjudicator.State, ev adjudicator.Event) adjudicator.State {
	st := s.(*State)
	if !st.evolve(ev) {
		panic(fmt.Sprintf("dragonnoir: no fold for event %T", ev))
	}
	return st
}

func (ruleset) Clone(s adjudicator.State) adjudicator.State { return s.(*State).Clone() }

func (ruleset) EventTypes() []adjudicator.EventType { return eventTypes() }

// DefaultOrders is what a side's silence means at a deadline with the
// no-move policy "default" (PBEM-GEN-3): no fire, no spell, no move, no
// attack; to a question, the default its prompt names.
func (ruleset) DefaultOrders(s adjudicator.State, req adjudicator.Request) (string, bool) {
	st := s.(*State)
	if p := st.Pause.Pending; p != nil && req.Kind == "decision" && p.Question.ID == req.ID {
		if p.Question.Default == "" {
			return "", false
		}
		return "answer: " + p.Question.Default, true
	}
	if req.Phase == StepAdventurers || req.Phase == StepKrobs {
		return "{}", true
	}
	if req.Kind == "setup" && st.Battle != nil { // DN3 battles (battle_setup.go)
		return defaultSetUpOrders(st, req.Side)
	}
	return "", false
}
