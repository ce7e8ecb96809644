package glory

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/pause"
)

// The Maelstrom (DG-MAEL). It is one area off the coast (DG-AMB-28): a
// fleet inside it is in no hex (Unit.Where is InMael), cannot fight and
// carries its cargo along. Its owner rolls 1d10 on the Maelstrom Table as
// it enters (by movement, or escaping an enemy's approach), and again at
// the start of his own movement step of each later turn it spends inside:
//
//	1     the fleet sinks
//	2-5   it stays in the Maelstrom for the rest of the turn
//	6-8   it leaves into a hex next to the Maelstrom the OPPONENT chooses
//	9-0   it leaves into a hex next to the Maelstrom its OWNER chooses
//
// The exit hex is a question (key maelstrom-exit) to the side that
// chooses; a standing order lists preferred hexes, the first legal one
// answers; with no answer a die picks one of the legal hexes (§18).

// stageMael is the mover's step before his orders: his fleets caught in the
// Maelstrom roll (DG-MAEL-4, DG-TURN-12).
const stageMael = "maelstrom"

// Question keys of this chapter (each is also a standing order).
const (
	keyMaelExit   = "maelstrom-exit"
	keyMaelEscape = "maelstrom-escape"
	keyDisplace   = "displace"
	keyNavalAim   = "naval-targets"
	keyNavalBack  = "naval-retreat"
)

// maelRun is one fleet's Maelstrom roll in progress.
type maelRun struct {
	Fleet   string           `json:"fleet"`
	Entered bool             `json:"entered,omitempty"` // it entered this step: leaving ends its movement (DG-AMB-29)
	Rolled  int              `json:"rolled,omitempty"`
	Chooser adjudicator.Side `json:"chooser,omitempty"`
	Exits   []string         `json:"exits,omitempty"`
}

// maelstromStart rolls for the mover's fleets caught in the Maelstrom at
// the start of his movement step (DG-MAEL-4), before he sends his orders: a
// fleet that comes out may then move with its full MP (DG-AMB-29). A fleet
// that escaped into it during this turn stays for the rest of the turn.
func (w *world) maelstromStart() {
	w.maelstromRolls(&program{Side: w.st().Mover, Stage: stageMael}, nil)
}

type maelStart struct {
	Done []string `json:"done,omitempty"`
	Mael *maelRun `json:"mael,omitempty"`
}

// maelstromRolls makes the start-of-step rolls from where p stands; it
// reports a pause.
func (w *world) maelstromRolls(p *program, ans *Answer) bool {
	var ms maelStart
	loadWork(p, "mael", &ms)
	defer w.saving(func() { saveWork(p, "mael", &ms) })()
	if ms.Mael != nil {
		if w.maelstromFate(p, ms.Mael, ans) {
			saveWork(p, "mael", &ms)
			return true
		}
		ms.Done, ms.Mael = append(ms.Done, ms.Mael.Fleet), nil
	}
	st := w.st()
	var caught []string
	for _, u := range st.Sorted() {
		if u.Side == p.Side && u.Where == InMael && st.Kind(u.ID).Type == Fleet && !st.Is(flagEscaped, u.ID) && !slices.Contains(ms.Done, u.ID) {
			caught = append(caught, u.ID)
		}
	}
	for _, id := range caught {
		w.fleetSay(p.Side, "%s is caught in the Maelstrom and rolls again at the start of %s's movement (DG-MAEL-4).", id, p.Side)
		ms.Mael = &maelRun{Fleet: id}
		if w.maelstromFate(p, ms.Mael, nil) {
			saveWork(p, "mael", &ms)
			return true
		}
		ms.Done, ms.Mael = append(ms.Done, id), nil
	}
	return false
}

// maelstromFate rolls on the Maelstrom Table for a fleet in it and applies
// the result; with the roll made, ans answers the exit question. It reports
// a pause for that question.
func (w *world) maelstromFate(p *program, m *maelRun, ans *Answer) bool {
	st := w.st()
	u := st.Units[m.Fleet]
	owner := u.Side
	if m.Rolled == 0 {
		r := w.fleetRoll(owner, "maelstrom: "+m.Fleet, 10)
		m.Rolled = r.Total
		switch {
		case m.Rolled == 1:
			r.Outcome = "1: the fleet sinks"
		case m.Rolled <= 5:
			r.Outcome = "2-5: the fleet stays in the Maelstrom for the rest of the turn"
		case m.Rolled <= 8:
			r.Outcome = fmt.Sprintf("6-8: the fleet leaves the Maelstrom into a hex %s chooses", Other(owner))
		default:
			r.Outcome = fmt.Sprintf("9-0: the fleet leaves the Maelstrom into a hex %s chooses", owner)
		}
		switch {
		case m.Rolled == 1:
			w.sink(m.Fleet, "sunk in the Maelstrom")
			return false
		case m.Rolled <= 5:
			w.fleetSay(owner, "%s stays in the Maelstrom for the rest of the turn (DG-MAEL-3).", m.Fleet)
			return false
		case m.Rolled <= 8:
			m.Chooser = Other(owner)
		default:
			m.Chooser = owner
		}
		for _, h := range st.Geo().maelExits() {
			if st.fleetBlocked(h, owner, m.Fleet) == "" {
				m.Exits = append(m.Exits, h)
			}
		}
		if len(m.Exits) == 0 {
			w.fleetSay(owner, "%s finds no hex it may enter next to the Maelstrom and stays in it for the rest of the turn (DG-AMB-30).", m.Fleet)
			return false
		}
		if len(m.Exits) > 1 {
			q := pause.Question{
				Side: m.Chooser, Key: keyMaelExit,
				Title:   fmt.Sprintf("turn %d: where %s leaves the Maelstrom", st.Turn, m.Fleet),
				Prompt:  fmt.Sprintf("%s (%s's) leaves the Maelstrom. Choose the hex it comes out in, one of %s, or \"random\" to let a die choose; e.g. answer: %q", m.Fleet, owner, strings.Join(m.Exits, ", "), m.Exits[0]),
				Choice:  append(slices.Clone(m.Exits), "random"),
				Default: "random",
			}
			text, paused := w.pauseFor(p, q)
			if paused {
				return true
			}
			ans = &Answer{Text: text}
		} else {
			ans = &Answer{Text: m.Exits[0]}
		}
	}
	if ans == nil {
		return false
	}
	h := pickPos(ans.Text, m.Exits)
	if h == "" {
		r := w.fleetRoll(owner, "maelstrom exit for "+m.Fleet, len(m.Exits))
		h = m.Exits[r.Total-1]
		r.Outcome = fmt.Sprintf("comes out in %s (of %s)", h, strings.Join(m.Exits, ", "))
	}
	w.emit(&Put{Units: []string{m.Fleet}, Where: OnMap, Hex: h, Why: "maelstrom"})
	w.emit(&Flagged{Flag: flagFleetMoved, IDs: []string{m.Fleet}})
	if m.Entered {
		w.fleetSay(owner, "%s leaves the Maelstrom at %s; its movement ends for this step (DG-MAEL-3, DG-AMB-29).", m.Fleet, h)
	} else {
		w.fleetSay(owner, "%s leaves the Maelstrom at %s and may move this step (DG-MAEL-4, DG-AMB-29).", m.Fleet, h)
	}
	return false
}

// pickPos reads an answer naming a position (or a list of them, in order
// of preference) and returns the first of cands it names; "" when it names
// none (or says "random").
func pickPos(text string, cands []string) string {
	for _, n := range answerNames(text) {
		if n = normalPos(n); slices.Contains(cands, n) {
			return n
		}
	}
	return ""
}

// answerNames reads an answer's YAML as a list of scalars (one scalar is a
// list of one).
func answerNames(text string) []string {
	var n yaml.Node
	if yaml.Unmarshal([]byte(text), &n) != nil || len(n.Content) == 0 {
		return nil
	}
	v := n.Content[0]
	var out []string
	switch v.Kind {
	case yaml.ScalarNode:
		out = append(out, v.Value)
	case yaml.SequenceNode:
		for _, c := range v.Content {
			if c.Kind == yaml.ScalarNode {
				out = append(out, c.Value)
			}
		}
	}
	return out
}

// escapeCandidates lists the non-mover's fleets that may escape into the
// Maelstrom as a fleet of mover enters pos: next to pos, in a hex next to
// the Maelstrom, and not yet escaped this turn (DG-MAEL-6, -7, DG-AMB-31).
func (s *State) escapeCandidates(mover adjudicator.Side, pos string, declined []string) []string {
	var out []string
	g := s.Geo()
	for _, q := range g.posNear(pos) {
		if !g.nextToMael(q) {
			continue
		}
		for _, u := range s.fleetsAt(q, Other(mover)) {
			if !s.Is(flagEscaped, u.ID) && !slices.Contains(declined, u.ID) {
				out = append(out, u.ID)
			}
		}
	}
	slices.Sort(out)
	return out
}

// escapeOffers asks the non-mover, for each of his fleets next to the
// Maelstrom that the mover's fleet has just come next to, whether it
// escapes into the Maelstrom (DG-MAEL-6, -7). It reports a pause.
func (w *world) escapeOffers(p *program, mover string, run *fleetRun, ans *Answer) bool {
	enemy := Other(p.Side)
	if run.Wait == "escape-exit" {
		if w.maelstromFate(p, run.Mael, ans) {
			return true
		}
		run.Mael, run.Wait, ans = nil, "", nil
	}
	for {
		st := w.st()
		var f string
		if run.Wait == "escape" && ans != nil {
			f = run.Offer
		} else {
			c := st.escapeCandidates(p.Side, st.Units[mover].Hex, run.Declined)
			if len(c) == 0 {
				run.Wait, run.Offer = "", ""
				return false
			}
			f = c[0]
			run.Offer, run.Wait = f, "escape"
			q := pause.Question{
				Side: enemy, Key: keyMaelEscape,
				Title:   fmt.Sprintf("turn %d: %s may escape into the Maelstrom", st.Turn, f),
				Prompt:  fmt.Sprintf("An enemy fleet has come next to %s at %s. Does %s escape into the Maelstrom, rolling on its table at once (DG-MAEL-6)? It may try once a turn. Answer yes or no; e.g. answer: no", f, st.Units[f].Hex, f),
				Choice:  []string{"yes", "no"},
				Default: "no",
			}
			text, paused := w.pauseFor(p, q)
			if paused {
				return true
			}
			ans = &Answer{Text: text}
		}
		yes := escapeYes(ans.Text, f)
		ans, run.Wait, run.Offer = nil, "", ""
		if !yes {
			run.Declined = append(run.Declined, f)
			continue
		}
		w.emit(&Flagged{Flag: flagEscaped, IDs: []string{f}})
		w.emit(&Flagged{Flag: flagFleetMoved, IDs: []string{f}})
		w.emit(&Put{Units: []string{f}, Where: InMael, Why: "escape"})
		w.say("%s escapes into the Maelstrom (DG-MAEL-6).", f)
		run.Mael, run.Wait = &maelRun{Fleet: f, Entered: true}, "escape-exit"
		if w.maelstromFate(p, run.Mael, nil) {
			return true
		}
		run.Mael, run.Wait = nil, ""
	}
}

// escapeYes reads an escape answer for fleet f: yes or no, or (as a
// standing order) the list of the fleets that escape.
func escapeYes(text string, f string) bool {
	names := answerNames(text)
	if len(names) == 1 && (names[0] == "yes" || names[0] == "true") {
		return true
	}
	return slices.Contains(names, f)
}

// Answer and standing-order checks.
func init() {
	posList := func(st *State, side adjudicator.Side, v *yaml.Node) error {
		ns, err := strs(v)
		if err != nil {
			return err
		}
		for _, n := range ns {
			if n.Value == "random" {
				continue
			}
			if _, err := posOf(st, n, false); err != nil {
				return err
			}
		}
		return nil
	}
	choiceOr := func(check func(*State, adjudicator.Side, *yaml.Node) error) func(*State, adjudicator.Side, *yaml.Node) error {
		return func(st *State, side adjudicator.Side, v *yaml.Node) error {
			if err := check(st, side, v); err != nil {
				return err
			}
			if p := st.Pause.Pending; p != nil && v.Kind == yaml.ScalarNode && len(p.Question.Choice) > 0 && !slices.Contains(p.Question.Choice, normalPos(v.Value)) {
				return adjudicator.Errorf(v, codeBadAnswer, "answer one of %s", strings.Join(p.Question.Choice, ", "))
			}
			return nil
		}
	}
	answerCheckers[keyMaelExit] = choiceOr(posList)
	standingKeys[keyMaelExit] = posList
	answerCheckers[keyDisplace] = choiceOr(posList)
	standingKeys[keyDisplace] = posList
	escape := func(st *State, side adjudicator.Side, v *yaml.Node) error {
		if v.Kind == yaml.ScalarNode && (v.Value == "yes" || v.Value == "no" || v.Value == "true" || v.Value == "false") {
			return nil
		}
		if v.Kind == yaml.SequenceNode {
			for _, n := range v.Content {
				if _, err := ownUnit(st, side, n); err != nil {
					return err
				}
			}
			return nil
		}
		return adjudicator.Errorf(v, codeBadAnswer, "answer yes or no (or, as a standing order, the list of your fleets that escape)")
	}
	answerCheckers[keyMaelEscape] = escape
	standingKeys[keyMaelEscape] = escape
}

// normalPos writes a position as the rules name it ("1713/1613" is
// "1613/1713").
func normalPos(s string) string {
	if a, b, ok := strings.Cut(strings.TrimSpace(s), "/"); ok {
		return hexsideName(a, b)
	}
	return strings.TrimSpace(s)
}
