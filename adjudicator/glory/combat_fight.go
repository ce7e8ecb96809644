package glory

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/pause"
)

// combat is one combat in progress, kept in the program's Work while a side
// is asked something, so that it goes on where it stopped.
type combat struct {
	Side      adjudicator.Side  `json:"side"` // the attacker
	Target    string            `json:"target"`
	Taunt     bool              `json:"taunt,omitempty"`
	Attackers []string          `json:"attackers"`
	From      []string          `json:"from,omitempty"` // the attacking hexes
	Defenders []string          `json:"defenders,omitempty"`
	Advance   []string          `json:"advance,omitempty"`
	Beyond    map[string]string `json:"beyond,omitempty"`
	Stage     string            `json:"stage,omitempty"`
	Att       Result            `json:"att"`
	Def       Result            `json:"def"`
	Stay      []string          `json:"stay,omitempty"`   // defenders ignoring an R in their fortification
	Lost      []string          `json:"lost,omitempty"`   // leaders and wizards whose stack was wiped out
	LostI     int               `json:"lost_i,omitempty"` // the next of them to resolve
}

// Stages of a combat, in order.
const (
	cbOpen     = ""
	cbPre      = "pre"
	cbRoll     = "roll"
	cbAttD     = "att-d"
	cbAttN     = "att-n"
	cbAttR     = "att-r"
	cbDefD     = "def-d"
	cbDefN     = "def-n"
	cbDefFort  = "def-fort"
	cbDefR     = "def-r"
	cbLeaders  = "leaders"
	cbAdvance  = "advance"
	cbFinished = "done"
)

func loadCombat(p *program) (*combat, bool) {
	s, ok := p.Work["combat"].(string)
	if !ok {
		return nil, false
	}
	var c combat
	if err := json.Unmarshal([]byte(s), &c); err != nil {
		return nil, false
	}
	return &c, true
}

func saveCombat(p *program, c *combat) {
	b, _ := json.Marshal(c)
	if p.Work == nil {
		p.Work = map[string]any{}
	}
	p.Work["combat"] = string(b)
}

// askIn asks q within combat c: c is kept first, so that the answer finds
// it. It returns the answer, or true when the game now waits for it.
func (w *world) askIn(p *program, c *combat, q pause.Question) (string, bool) {
	saveCombat(p, c)
	return w.pauseFor(p, q)
}

// take returns the answer just received, once.
func take(ans **Answer) (string, bool) {
	if *ans == nil {
		return "", false
	}
	t := (*ans).Text
	*ans = nil
	return t, true
}

// fight carries combat c on from its stage to its end; true when it waits
// for an answer.
func (w *world) fight(p *program, c *combat, ans *Answer) bool {
	for {
		if w.r.Err() != nil || w.st().Over {
			return true
		}
		st := w.st()
		switch c.Stage {
		case cbOpen:
			w.open(c)
			c.Stage = cbPre
		case cbPre:
			if w.preRetreat(p, c, &ans) {
				return true
			}
			c.Stage = cbRoll
			if len(c.Defenders) == 0 {
				w.say("Every defender of %s withdrew before the roll: no die is rolled, and the attack counts as made (DG-PRE-6).", c.Target)
				w.trace(c, "withdrew")
				c.Stage = cbAdvance
			}
		case cbRoll:
			w.combatRoll(c)
			c.Stage = cbAttD
		case cbAttD:
			w.applyAll(c.Att, w.living(c.Attackers), c.Side, "attacking "+c.Target)
			c.Stage = cbAttN
		case cbAttN:
			if w.reductions(p, c, &ans, c.Side, c.Att.extra(), w.living(c.Attackers), "attacking "+c.Target) {
				return true
			}
			c.Stage = cbAttR
		case cbAttR:
			if !c.Att.E && c.Att.R {
				if w.combatRetreat(p, c, &ans, c.Side, w.living(c.Attackers)) {
					return true
				}
			}
			c.Stage = cbDefD
		case cbDefD:
			w.applyAll(c.Def, w.living(c.Defenders), c.enemy(), "defending "+c.Target)
			c.Stage = cbDefN
		case cbDefN:
			if w.reductions(p, c, &ans, c.enemy(), c.Def.extra(), w.living(c.Defenders), "defending "+c.Target) {
				return true
			}
			c.Stage = cbDefFort
		case cbDefFort:
			if !c.Def.E && c.Def.R && len(w.living(c.Defenders)) > 0 && st.fortified(c.Target) != "" {
				if w.fortress(p, c, &ans) {
					return true
				}
			}
			c.Stage = cbDefR
		case cbDefR:
			if !c.Def.E && c.Def.R {
				var leaving []string
				for _, id := range w.living(c.Defenders) {
					if !slices.Contains(c.Stay, id) {
						leaving = append(leaving, id)
					}
				}
				if len(leaving) > 0 && w.combatRetreat(p, c, &ans, c.enemy(), leaving) {
					return true
				}
			}
			c.Stage = cbLeaders
		case cbLeaders:
			if c.Lost == nil {
				c.Lost = w.strandedLeaders(c)
			}
			for c.LostI < len(c.Lost) {
				saveCombat(p, c)
				if w.combatLeaderLoss(p, c.Lost[c.LostI], "its stack was eliminated", ans) {
					return true
				}
				ans = nil
				c.LostI++
			}
			c.Stage = cbAdvance
		case cbAdvance:
			w.advance(c)
			c.Stage = cbFinished
		default:
			delete(p.Work, "combat")
			return false
		}
	}
}

// living lists those of ids still on the map.
func (w *world) living(ids []string) []string { return w.st().onMap(ids) }

// open declares the combat: the attacking armies and hexes are used for
// this combat step, the stacks are revealed (DG-HIDE-1, -3), and the
// defenders are named.
func (w *world) open(c *combat) {
	st := w.st()
	for _, id := range c.Attackers {
		if h := st.Units[id].Hex; !slices.Contains(c.From, h) {
			c.From = append(c.From, h)
		}
	}
	slices.Sort(c.From)
	for _, u := range st.Armies(c.Target, c.enemy()) {
		c.Defenders = append(c.Defenders, u.ID)
	}
	w.emit(&Flagged{Flag: "attacked", IDs: slices.Sorted(slices.Values(c.Attackers))})
	var hexes []string
	for _, h := range c.From {
		hexes = append(hexes, string(c.Side)+"/"+h)
	}
	w.emit(&Flagged{Flag: "attacking-hex", IDs: hexes})
	if !c.Taunt { // a taunt's attack does not use the kender hex (DG-TAUNT-8)
		w.emit(&Flagged{Flag: "defended-hex", IDs: []string{string(c.Side) + "/" + c.Target}})
	}
	if st.Options.Hidden {
		w.emit(&Flagged{Flag: "revealed", IDs: append(slices.Clone(c.From), c.Target)})
	}
	w.say("%s: %s attacks %s from %s with %s; %s defends with %s%s.", titleCase(c.String()), c.Side, c.Target, list(c.From),
		list(w.withSupport(c.Attackers, c.From, c.Side)), c.enemy(), list(w.withSupport(c.Defenders, []string{c.Target}, c.enemy())),
		map[bool]string{true: " (the stacks are revealed, DG-HIDE-1)", false: ""}[st.Options.Hidden])
}

// withSupport lists armies and then the leaders and wizards of side in hexes.
func (w *world) withSupport(armies, hexes []string, side adjudicator.Side) []string {
	out := slices.Clone(armies)
	for _, id := range w.st().support(hexes, side) {
		out = append(out, id)
	}
	return out
}

// support lists side's leaders and wizards in hexes.
func (s *State) support(hexes []string, side adjudicator.Side) []string {
	var out []string
	for _, h := range hexes {
		for _, u := range s.At(h) {
			if k := s.Kind(u.ID); u.Side == side && (k.Type == Leader || k.Type == Wizard) {
				out = append(out, u.ID)
			}
		}
	}
	return out
}

func titleCase(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// trace records the combat for the pictures.
func (w *world) trace(c *combat, result string) {
	kind := "attack"
	if c.Taunt {
		kind = "taunt-attack"
	}
	w.emit(&Traced{Trace: adjudicator.Trace{Kind: kind, Path: append(slices.Clone(c.From), c.Target), Result: result}})
}

// combatRoll works out the strengths, the odds column and the modifiers,
// and rolls (DG-COMBAT-11 to -15).
func (w *world) combatRoll(c *combat) {
	st := w.st()
	tab, err := TheCRT()
	if err != nil {
		w.r.Fail(fmt.Errorf("glory: the combat results table: %w", err))
		return
	}
	att, def, mods := st.strengths(c)
	col := tab.Column(att, def)
	total := 0
	var parts []string
	for _, m := range mods {
		total += m.N
		parts = append(parts, fmt.Sprintf("%s %+d", m.Why, m.N))
	}
	defNote := fmt.Sprint(def)
	if f := st.fortified(c.Target); f != "" {
		defNote = fmt.Sprintf("%d (%s)", def, fortMultiplierNote(f))
	}
	if len(parts) == 0 {
		w.say("Strengths %d against %s: odds %s; no modifier.", att, defNote, tab.Columns[col])
	} else {
		w.say("Strengths %d against %s: odds %s; modifiers: %s; total %+d.", att, defNote, tab.Columns[col], strings.Join(parts, ", "), total)
	}
	r := w.roll(fmt.Sprintf("combat on %s", c.Target), 1, 10)
	mod := r.Total + total
	c.Att, c.Def = tab.Cell(col, mod)
	res := c.Att.String() + "/" + c.Def.String()
	r.Outcome = fmt.Sprintf("%+d makes %d at %s: %s", total, mod, tab.Columns[col], res)
	w.say("The combat result is %s: %s for %s, %s for %s.", res, describe(c.Att), c.Side, describe(c.Def), c.enemy())
	w.trace(c, res)
}

func fortMultiplierNote(f string) string {
	switch f {
	case "fortified-city":
		return "doubled in a fortified city"
	}
	return "tripled in a " + strings.ReplaceAll(f, "-", " ")
}

// extra is the numbered reductions a result adds to its D, none with an E
// (DG-CRT-16).
func (r Result) extra() int {
	if r.E {
		return 0
	}
	return r.N
}

// describe says a result in words.
func describe(r Result) string {
	if r.None() {
		return "no effect"
	}
	var out []string
	if r.E {
		return "every army eliminated"
	}
	if r.D {
		out = append(out, "every army reduced")
	}
	switch r.N {
	case 1:
		out = append(out, "one reduction")
	case 2:
		out = append(out, "two reductions")
	}
	if r.R {
		out = append(out, "retreat")
	}
	return strings.Join(out, ", then ")
}

// applyAll applies the E or D of a result to every affected army
// (DG-CRT-4, -10, -16).
func (w *world) applyAll(r Result, ids []string, side adjudicator.Side, why string) {
	switch {
	case r.E:
		for _, id := range ids {
			w.eliminate(id, why+": E")
		}
	case r.D:
		for _, id := range ids {
			w.reduce(id, why+": D")
		}
	}
}
