package glory

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/pause"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

// Steps 1 to 4 of a turn (DG-TURN-1): replacements and the Dark Temple,
// the strategic event, activation of neutral nations, initiative. Each side
// answers them in one mail, at the same time, so a turn's paperwork costs
// one round trip: what a side will do if it gets the chance (which nation
// to try, where its forces go, which side moves first if it wins the
// initiative) is said in advance.

// StrategicOrders are a side's orders for steps 1 to 4.
type StrategicOrders struct {
	Temple     string            `json:"temple,omitempty" yaml:"temple,omitempty"`         // HL: the Dark Temple's hex (DG-DRAC-2)
	Draconian  *bool             `json:"draconian,omitempty" yaml:"draconian,omitempty"`   // HL: bring in this turn's draconian (default yes, DG-DRAC-4)
	Replace    []Replacement     `json:"replace,omitempty" yaml:"replace,omitempty"`       // pairs from the pool (DG-REPL-4)
	Rebuild    []Rebuild         `json:"rebuild,omitempty" yaml:"rebuild,omitempty"`       // two reduced armies stacked (DG-REPL-6)
	Activate   []string          `json:"activate,omitempty" yaml:"activate,omitempty"`     // the nation to try, then fallbacks (DG-ACT-7)
	Place      map[string]string `json:"place,omitempty" yaml:"place,omitempty"`           // where an activated nation's counters go: counter → hex
	Capital    map[string]string `json:"capital,omitempty" yaml:"capital,omitempty"`       // WS: where a dismantled capital is set up again: nation → hex (DG-CAP-7)
	Initiative string            `json:"initiative,omitempty" yaml:"initiative,omitempty"` // first or second, if this side wins it (DG-TURN-6)
	Standing   Standing          `json:"standing,omitempty" yaml:"standing,omitempty"`
	Concede    bool              `json:"concede,omitempty" yaml:"concede,omitempty"`
}

func (o *StrategicOrders) conceded() bool { return o.Concede }

// Replacement brings back Back from the pool at At and puts Retire out of
// play (DG-REPL-4). At may be left out: the first legal hex is taken.
type Replacement struct {
	Back   string `json:"back" yaml:"back"`
	Retire string `json:"retire" yaml:"retire"`
	At     string `json:"at,omitempty" yaml:"at,omitempty"`
}

// Rebuild puts Pool in the pool and restores Keep (DG-REPL-6).
type Rebuild struct {
	Keep string `json:"keep" yaml:"keep"`
	Pool string `json:"pool" yaml:"pool"`
}

var strategicKeys = []string{"temple", "draconian", "replace", "rebuild", "activate", "place", "capital", "initiative", "standing", "concede"}

// parseStrategic reads a side's orders for steps 1 to 4, key by key, and
// checks each against the state as it is now. Every mistake is reported,
// each at its line.
func parseStrategic(st *State, side adjudicator.Side, n *yaml.Node) (adjudicator.Orders, error) {
	o := &StrategicOrders{}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return o, nil
	}
	if n.Kind != yaml.MappingNode {
		return nil, adjudicator.Errorf(n, adjudicator.CodeBadValue, "orders for steps 1 to 4 are a mapping with any of %s (each may be left out)", strings.Join(strategicKeys, ", "))
	}
	var errs adjudicator.OrderErrors
	add := func(err error) {
		switch e := err.(type) {
		case nil:
		case adjudicator.OrderErrors:
			errs = append(errs, e...)
		case *adjudicator.OrderError:
			errs = append(errs, e)
		default:
			errs = append(errs, adjudicator.Errorf(n, adjudicator.CodeBadValue, "%v", err))
		}
	}
	c := newChecker(st, side)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch k.Value {
		case "temple":
			o.Temple, _ = c.temple(v, add)
		case "draconian":
			var b bool
			if err := yamlx.Decode(v, &b); err != nil {
				add(adjudicator.Errorf(v, adjudicator.CodeBadValue, "draconian: write yes or no: whether the Highlord brings in a draconian at the Dark Temple this turn (DG-DRAC-4)"))
				continue
			}
			if side != Highlord {
				add(adjudicator.Errorf(k, codeCannot, "only the Highlord brings in draconians (DG-DRAC-4)"))
			}
			o.Draconian = &b
		case "rebuild":
			o.Rebuild = c.rebuilds(v, add)
		case "replace":
			// read after the rebuilds, which may put counters in the pool (DG-REPL-7)
		case "activate":
			o.Activate = c.activate(v, add)
		case "place":
			o.Place = c.place(v, add)
		case "capital":
			o.Capital = c.capital(v, add)
		case "initiative":
			if v.Value != "first" && v.Value != "second" {
				add(adjudicator.Errorf(v, adjudicator.CodeBadValue, "initiative: write first or second: whether your side moves first if it wins the initiative (DG-TURN-6)"))
			}
			o.Initiative = v.Value
		case "standing":
			s, err := parseStanding(v)
			if err == nil {
				err = checkStanding(st, side, v)
			}
			add(err)
			o.Standing = s
		case "concede":
			b, err := parseConcede(v)
			add(err)
			o.Concede = b
		default:
			add(yamlx.UnknownField(k, k.Value, strategicKeys))
		}
	}
	if v := yamlx.Value(n, "replace"); v != nil {
		o.Replace = c.replacements(v, add)
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return o, nil
}

// strategic resolves steps 1 to 4 from both sides' orders.
func (w *world) strategic(subs []adjudicator.Submission) {
	orders := map[adjudicator.Side]*StrategicOrders{Highlord: {}, Whitestone: {}}
	for _, s := range subs {
		orders[s.Side] = s.Orders.(*StrategicOrders)
		w.standing(s.Side, orders[s.Side].Standing)
	}
	st := w.st()
	w.capitalsDue(orders[Whitestone]) // the start of step 1 (DG-CAP-9)
	if w.r.Err() != nil || w.st().Over {
		return
	}
	w.templeAndDraconian(orders[Highlord]) // step 1 (DG-AMB-72: HL's temple and draconian first)
	w.replacements(Highlord, orders[Highlord])
	w.replacements(Whitestone, orders[Whitestone])
	drawer := Whitestone // step 2 (DG-TURN-3)
	if st.Turn%2 == 1 {
		drawer = Highlord
	}
	w.drawEvent(drawer)
	w.activations(drawer, orders) // step 3
	if w.r.Err() != nil || w.st().Over {
		return
	}
	w.initiative(orders) // step 4
}

// resumeStrategic continues steps 1 to 4 after a question asked during
// them. None is asked today: every step-1-to-4 choice is given in advance.
func (w *world) resumeStrategic(p pause.Pending, a *Answer) {
	w.r.Fail(fmt.Errorf("glory: no question is asked during steps 1 to 4, but %s was answered", p.Question.ID))
}

// initiative is step 4: each side rolls 1d4, the higher wins, a tie goes to
// the side that had it last turn (DG-TURN-5) or, on a scenario's first turn
// with no holder, is rolled again (DG-AMB-3). The winner's choice of who
// moves first was given with his orders (DG-TURN-6); it defaults to
// moving first.
func (w *world) initiative(orders map[adjudicator.Side]*StrategicOrders) {
	st := w.st()
	var winner adjudicator.Side
	for winner == "" {
		hl := w.roll("initiative highlord", 1, 4)
		ws := w.roll("initiative whitestone", 1, 4)
		switch {
		case hl.Total > ws.Total:
			winner = Highlord
		case ws.Total > hl.Total:
			winner = Whitestone
		case st.Initiative != "":
			winner = st.Initiative
			hl.Outcome = fmt.Sprintf("tie: %s had the initiative last turn and keeps it", winner)
		default:
			hl.Outcome = "tie with no holder: rolled again (DG-AMB-3)"
		}
		if winner != "" && hl.Outcome == "" {
			hl.Outcome = fmt.Sprintf("%s wins the initiative", winner)
		}
		if w.r.Err() != nil {
			return
		}
	}
	first := winner
	if orders[winner].Initiative == "second" {
		first = Other(winner)
	}
	w.say("%s wins the initiative and has %s move first.", winner, first)
	w.emit(&Stepped{Turn: st.Turn, Step: StepMove, Mover: first, First: first, Initiative: winner})
	w.startMoverStep()
}

// startMoverStep begins a side's movement step: fleets caught in the
// Maelstrom roll first (DG-MAEL-4, DG-TURN-12).
func (w *world) startMoverStep() {
	w.maelstromStart()
}

// startTurn begins a turn: the event counters marked for it go into the cup
// before the draw (DG-EVT-4), and counters due from the turn track enter.
func (w *world) startTurn() {
	st := w.st()
	var due []string
	for _, id := range slices.Sorted(maps.Keys(st.data.Events)) {
		e := st.data.Events[id]
		if e.Enter == st.Turn && e.Enter > 1 && !slices.Contains(st.Cup, id) && !slices.Contains(st.Drawn, id) {
			due = append(due, id)
		}
	}
	if len(due) > 0 {
		w.emit(&CupChanged{Added: due})
		w.say("Event counters E%d go into the cup: %s.", st.Turn, list(due))
	}
	w.trackArrivals()
}

// trackArrivals places the counters the turn track brings in this turn, at
// the hex the scenario gives (DG-GAP-8: the module says where and when).
func (w *world) trackArrivals() {
	st := w.st()
	byHex := map[string][]string{}
	var hexes []string
	for _, u := range st.Sorted() {
		if u.Where == OnTrack && u.Turn == st.Turn {
			if _, ok := byHex[u.Hex]; !ok {
				hexes = append(hexes, u.Hex)
			}
			byHex[u.Hex] = append(byHex[u.Hex], u.ID)
		}
	}
	for _, h := range hexes {
		w.emit(&Put{Units: byHex[h], Where: OnMap, Hex: h, Why: "reinforcement"})
		w.say("Reinforcements enter at %s: %s.", h, list(byHex[h]))
		for _, id := range byHex[h] {
			w.entered(id, h, false) // a counter placed on the map enters its hex (DG-CONQ-2, DG-INV-10)
		}
	}
}
