package dragonrage

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// Decisions the other player makes in the middle of a phase (DR-PBEM-3,
// §29.4). umpire pauses for them: the resolution stops, the state records
// the question and what is left of the phase, Due asks the deciding side
// with a request of kind "decision", and its answer resumes the phase.
//
// The one decision of this kind in the playable scenarios is DR-PBEM-38: an
// invader climbs into a hex holding only a defending hero and/or wizard,
// and the defender says where each of them goes (DR-CLIMB-6).

// Decision is the question the game is waiting on.
type Decision struct {
	Side  adjudicator.Side `json:"side"`           // who answers
	Unit  string           `json:"unit"`           // the climber
	From  string           `json:"from"`           // the hex it climbs from
	Hex   string           `json:"hex"`            // the hex it climbed into
	Units []string         `json:"units"`          // the hero and/or wizard to move away
	Rest  []EndAction      `json:"rest,omitempty"` // the end-of-movement actions still to resolve
}

// EndAction is a smash or climb resolved at the end of the movement phase
// (DR-SMASH-6, DR-CLIMB-2).
type EndAction struct {
	Unit  string `json:"unit"`
	Smash string `json:"smash,omitempty"`
	Climb string `json:"climb,omitempty"`
}

func (d *Decision) clone() *Decision {
	if d == nil {
		return nil
	}
	c := *d
	c.Units = slices.Clone(d.Units)
	c.Rest = slices.Clone(d.Rest)
	return &c
}

// Events of a decision.
type (
	// DecisionAsked pauses the phase for the other player's answer.
	DecisionAsked struct {
		Decision Decision `json:"decision"`
	}
	// DecisionQueued records what is left of the phase behind the question.
	DecisionQueued struct {
		Rest []EndAction `json:"rest"`
	}
	// Displaced moves a hero or wizard out of the way of a climber.
	Displaced struct {
		Unit string `json:"unit"`
		From string `json:"from"`
		To   string `json:"to"`
	}
	// DecisionSettled ends the pause.
	DecisionSettled struct{}
)

func (*DecisionAsked) EventType() string   { return "dragonrage.decision-asked" }
func (*DecisionQueued) EventType() string  { return "dragonrage.decision-queued" }
func (*Displaced) EventType() string       { return "dragonrage.displaced" }
func (*DecisionSettled) EventType() string { return "dragonrage.decision-settled" }

var decisionEvents = []adjudicator.EventType{
	{Name: "dragonrage.decision-asked", Schema: 1, New: func() adjudicator.Event { return new(DecisionAsked) }},
	{Name: "dragonrage.decision-queued", Schema: 1, New: func() adjudicator.Event { return new(DecisionQueued) }},
	{Name: "dragonrage.displaced", Schema: 1, New: func() adjudicator.Event { return new(Displaced) }},
	{Name: "dragonrage.decision-settled", Schema: 1, New: func() adjudicator.Event { return new(DecisionSettled) }},
}

func evolveDecision(st *State, ev adjudicator.Event) bool {
	switch e := ev.(type) {
	case *DecisionAsked:
		st.Pending = e.Decision.clone()
	case *DecisionQueued:
		st.Pending.Rest = slices.Clone(e.Rest)
	case *Displaced:
		st.unit(e.Unit).Hex = e.To
	case *DecisionSettled:
		st.Pending = nil
	default:
		return false
	}
	return true
}

// endActions lists the smashes and climbs of the movement orders, in order.
func endActions(moves []*Move) []EndAction {
	var out []EndAction
	for _, mv := range moves {
		if mv.major != nil && mv.major.gate != "" {
			continue // a Dragon's gate is smashed in its move (major_move.go)
		}
		if mv.Smash != "" || mv.Climb != "" {
			out = append(out, EndAction{Unit: mv.Unit, Smash: mv.Smash, Climb: mv.Climb})
		}
	}
	return out
}

// endOfMovement resolves the smashes and climbs at the end of the movement
// phase, in the order given, stopping if one needs a decision.
func (w *world) endOfMovement(actions []EndAction) {
	for i, a := range actions {
		u := w.st.unit(a.Unit)
		if u.Gone || u.Hex == "" {
			continue
		}
		if a.Smash != "" {
			w.resolveSmash(u, a.Smash)
		}
		if a.Climb != "" {
			w.resolveClimb(u, a.Climb)
		}
		if w.st.Pending != nil {
			if rest := actions[i+1:]; len(rest) > 0 {
				w.emit(&DecisionQueued{Rest: slices.Clone(rest)})
			}
			return
		}
		w.checkVictory()
		if w.st.Over {
			return
		}
	}
}

// climbBlocked says why u cannot climb into target now, or "": the hex must
// be empty or hold only enemy heroes and wizards with somewhere to go
// (DR-CLIMB-6).
func (w *world) climbBlocked(u *Unit, target string) string {
	for _, x := range w.st.at(target) {
		if x.Side == u.Side || !w.st.isCharacter(x) || isElowyn(x) {
			return fmt.Sprintf("%s is there, and a climb needs an empty hex or one holding only a hero or wizard (DR-CLIMB-6)", x.ID)
		}
		if len(w.displaceHexes(x, u.Hex, target)) == 0 {
			return fmt.Sprintf("%s stands there and has no hex to step aside into, so the climb is impossible (DR-CLIMB-6)", x.ID)
		}
	}
	return ""
}

// displaceHexes are the hexes next to target that character c may step
// into to make way for a climber coming from hex from.
func (w *world) displaceHexes(c *Unit, from, target string) []string {
	th, _ := hex.Parse(target)
	var out []string
	for _, n := range w.m.Neighbours(th) {
		if n.String() == from {
			continue
		}
		var st step
		if w.crossing(c, th, n, &st) != "" || st.Smash != "" || w.entering(c, n, true, &st) != "" {
			continue
		}
		out = append(out, n.String())
	}
	sort.Strings(out)
	return out
}

// displaceFirst pauses a successful climb into a hex holding a hero or
// wizard: the defender first says where each goes (DR-CLIMB-6,
// DR-PBEM-38). It reports whether it paused.
func (w *world) displaceFirst(u *Unit, target string) bool {
	var ids []string
	for _, x := range w.st.at(target) {
		if x.Side != u.Side {
			ids = append(ids, x.ID)
		}
	}
	if len(ids) == 0 {
		return false
	}
	w.emit(&DecisionAsked{Decision: Decision{Side: other(u.Side), Unit: u.ID, From: u.Hex, Hex: target, Units: ids}})
	w.sayf("%s is over the wall into %s, where %s stands: the %s now says where %s (DR-CLIMB-6, DR-PBEM-38)",
		u.ID, target, strings.Join(ids, " and "), other(u.Side), map[bool]string{true: "each goes", false: "it goes"}[len(ids) > 1])
	return true
}

// decisionRequest is the request for the pending decision.
func (st *State) decisionRequest() adjudicator.Request {
	d := st.Pending
	w := newWorld(st, nil)
	var choice, lines []string
	for _, id := range d.Units {
		hexes := w.displaceHexes(st.unit(id), d.From, d.Hex)
		for _, h := range hexes {
			choice = append(choice, id+": "+h)
		}
		lines = append(lines, fmt.Sprintf("%s to one of %s", id, strings.Join(hexes, ", ")))
	}
	example := "UNIT: HEX"
	if len(choice) > 0 {
		example = choice[0]
	}
	return adjudicator.Request{
		ID:     fmt.Sprintf("t%d%s.%s.climb.%s", st.Turn, map[bool]string{true: "pre", false: ""}[st.Pre], st.Phase, d.Unit),
		Side:   d.Side,
		Kind:   "decision",
		Turn:   st.Turn,
		Phase:  "decision",
		Title:  st.phaseTitle() + ", " + string(d.Side) + " decision",
		Prompt: fmt.Sprintf("%s has climbed from %s into %s: move %s (DR-CLIMB-6). Answer one line per unit, e.g. \"%s\"", d.Unit, d.From, d.Hex, strings.Join(lines, "; "), example),
		Choice: choice,
	}
}

// parseDecision reads the answer: "UNIT: HEX" for each hero or wizard.
func (w *world) parseDecision(req adjudicator.Request, n *yaml.Node) (*Orders, error) {
	d := w.st.Pending
	if n.Kind != yaml.MappingNode {
		return nil, adjudicator.Errorf(n, adjudicator.CodeBadValue, "answer one line per unit, \"UNIT: HEX\": %s", req.Prompt)
	}
	o := &Orders{Place: map[string]string{}}
	count := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		u, err := w.ownUnit(k, req.Side)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(d.Units, u.ID) {
			return nil, adjudicator.Errorf(k, adjudicator.CodeUnknownUnit, "%s is not in %s: the units to move are %s", u.ID, d.Hex, strings.Join(d.Units, ", "))
		}
		if _, dup := o.Place[u.ID]; dup {
			return nil, adjudicator.Errorf(k, codeTwice, "%s is given twice", u.ID)
		}
		h, err := w.parseHex(v)
		if err != nil {
			return nil, err
		}
		if legal := w.displaceHexes(u, d.From, d.Hex); !slices.Contains(legal, h) {
			return nil, adjudicator.Errorf(v, codeIllegalMove, "%s cannot step from %s into %s; it may go to %s (DR-CLIMB-6)", u.ID, d.Hex, h, strings.Join(legal, ", "))
		}
		count[h]++
		if count[h]+len(w.st.at(h)) > 2 {
			return nil, adjudicator.Errorf(v, codeStacking, "%s would hold more than two counters (DR-STACK-2)", h)
		}
		o.Place[u.ID] = h
	}
	var missing []string
	for _, id := range d.Units {
		if _, ok := o.Place[id]; !ok {
			missing = append(missing, id)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return nil, adjudicator.Errorf(n, codeMissing, "say where %s goes: %s", strings.Join(missing, " and "), req.Prompt)
	}
	return o, nil
}

// resolveDecision moves the heroes and wizards as answered, puts the
// climber over the wall and resumes the end of the movement phase.
func (w *world) resolveDecision(o *Orders) {
	d := w.st.Pending.clone()
	for _, id := range d.Units {
		w.emit(&Displaced{Unit: id, From: d.Hex, To: o.Place[id]})
		w.trace("displace", id, []string{d.Hex, o.Place[id]}, "")
		w.sayf("the %s moves %s from %s to %s to make way for %s (DR-CLIMB-6)", d.Side, id, d.Hex, o.Place[id], d.Unit)
	}
	w.emit(&DecisionSettled{})
	if u := w.st.unit(d.Unit); !u.Gone && u.Hex == d.From {
		w.climbInto(u, d.Hex)
	}
	w.checkVictory()
	if !w.st.Over {
		w.endOfMovement(d.Rest)
	}
}
