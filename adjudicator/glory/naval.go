package glory

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/pause"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

// Naval combat (DG-NAVAL, DG-NAVAL-LDR, DG-NAVAL-WIZ). After his moves the
// mover may attack enemy fleets in a position next to his fleets
// (DG-NAVAL-1), one battle per order, in the order written, after his land
// and air attacks (DG-AMB-61: any order is allowed; umpire resolves the
// naval: section after the attacks: section):
//
//	naval:
//	  - {target: "2406", fleets: [black-fleet]}
//
// Every fleet of the target position defends (DG-NAVAL-8). Each round the
// mover names a target for each of his fleets, then the defender for each
// of his (questions with key naval-targets: a list of enemy fleets in order
// of priority, or a mapping fleet: target; "best" is the §18 rule, a
// damaged fleet first, then the highest combat value, ties by a die). Then
// every fleet rolls 1d10 and hits on a roll not over its combat value (its
// face, plus the Tactical Value of a naval leader aboard, plus 3 per
// wizard aboard: DG-NAVAL-LDR-2, DG-NAVAL-WIZ-3, -4). Fire is simultaneous
// and hits add up (DG-NAVAL-5, -12): a hit damages a fleet, a second sinks
// it. Then the defender may retreat all his fleets one position, ending the
// battle; if he does not, the attacker may (DG-NAVAL-6, -7, -9: questions
// with key naval-retreat: yes, no, or {after: N, to: [positions]}); if
// neither does, another round is fought.

// NavalOrder is one naval battle.
type NavalOrder struct {
	Target string   `json:"target" yaml:"target"`
	Fleets []string `json:"fleets" yaml:"fleets"`
}

func parseNaval(st *State, side adjudicator.Side, v *yaml.Node) ([]NavalOrder, error) {
	if v.Kind != yaml.SequenceNode {
		return nil, adjudicator.Errorf(v, adjudicator.CodeBadValue, "naval: is a list of naval battles, e.g. - {target: \"2406\", fleets: [black-fleet]}")
	}
	var out []NavalOrder
	var errs adjudicator.OrderErrors
	used := map[string]bool{}
	for _, n := range v.Content {
		o, err := parseBattle(st, side, n, used)
		if err != nil {
			errs = append(errs, asOrderErrors(n, err)...)
			continue
		}
		out = append(out, o)
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return out, nil
}

func parseBattle(st *State, side adjudicator.Side, n *yaml.Node, used map[string]bool) (NavalOrder, error) {
	var o NavalOrder
	if n.Kind != yaml.MappingNode {
		return o, adjudicator.Errorf(n, adjudicator.CodeBadValue, "a naval battle is a mapping: {target: POSITION, fleets: [your fleets]}")
	}
	var targetN, fleetsN *yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		switch k.Value {
		case "target":
			targetN = val
		case "fleets":
			fleetsN = val
		default:
			return o, yamlx.UnknownField(k, k.Value, []string{"target", "fleets"})
		}
	}
	if targetN == nil || fleetsN == nil {
		return o, adjudicator.Errorf(n, adjudicator.CodeMissingField, "a naval battle names its target: POSITION and fleets: [your fleets]")
	}
	t, err := posOf(st, targetN, false)
	if err != nil {
		return o, err
	}
	o.Target = t
	// With hidden stacks the target is checked only for its enemy fleets'
	// presence, which the attacker sees (DG-HIDE-3).
	if len(st.fleetsAt(t, Other(side))) == 0 {
		return o, adjudicator.Errorf(targetN, codeCannot, "%s holds no enemy fleet to attack (DG-NAVAL-1)", t)
	}
	ns, err := strs(fleetsN)
	if err != nil {
		return o, err
	}
	for _, c := range ns {
		u, err := ownUnit(st, side, c)
		if err != nil {
			return o, err
		}
		if st.Kind(u.ID).Type != Fleet {
			return o, adjudicator.Errorf(c, codeCannot, "%s is not a fleet", u.ID)
		}
		if used[u.ID] {
			return o, adjudicator.Errorf(c, codeTwice, "%s already takes part in a naval battle this step (DG-NAVAL-8)", u.ID)
		}
		used[u.ID] = true
		if u.Where != OnMap {
			return o, adjudicator.Errorf(c, codeNotInPlay, "%s is not on the map (a fleet in the Maelstrom cannot fight, DG-AMB-28)", u.ID)
		}
		if !slices.Contains(st.Geo().posNear(t), u.Hex) {
			return o, adjudicator.Errorf(c, codeNotAdjacent, "%s is at %s, not next to %s (DG-NAVAL-1)", u.ID, u.Hex, t)
		}
		o.Fleets = append(o.Fleets, u.ID)
	}
	return o, nil
}

// battle is a naval battle in progress (the program's Work while a side is
// asked something).
type battle struct {
	Round  int               `json:"round"`
	Phase  int               `json:"phase"` // what comes next in the round: aim, aim back, retreat, retreat back
	Att    []string          `json:"att"`
	Def    []string          `json:"def"`
	AttAim map[string]string `json:"att_aim,omitempty"`
	DefAim map[string]string `json:"def_aim,omitempty"`
}

const (
	phAimAtt = iota
	phAimDef
	phBackDef
	phBackAtt
)

// navalOrder resolves one naval battle; it reports a pause.
func (w *world) navalOrder(p *program, o *NavalOrder, ans *Answer) bool {
	var b battle
	if !loadWork(p, "naval", &b) {
		if !w.startBattle(p, o, &b) {
			return false
		}
	}
	defer w.saving(func() { saveWork(p, "naval", &b) })()
	enemy := Other(p.Side)
	ask := func(q pause.Question) (string, bool) {
		if ans != nil {
			t := ans.Text
			ans = nil
			return t, false
		}
		return w.pauseFor(p, q)
	}
	for {
		st := w.st()
		switch b.Phase {
		case phAimAtt, phAimDef:
			side, own, foes := p.Side, b.Att, b.Def
			if b.Phase == phAimDef {
				side, own, foes = enemy, b.Def, b.Att
			}
			text, paused := ask(pause.Question{
				Side: side, Key: keyNavalAim,
				Title:   fmt.Sprintf("turn %d: naval battle at %s, round %d: your targets", st.Turn, o.Target, b.Round),
				Prompt:  fmt.Sprintf("Name a target for each of your fleets %s among the enemy fleets %s: a list in order of priority (each fleet fires at the first still afloat), a mapping fleet: target, or best (a damaged fleet first, then the highest combat value); e.g. answer: [%s]", strings.Join(own, ", "), strings.Join(foes, ", "), foes[0]),
				Default: "best",
			})
			if paused {
				saveWork(p, "naval", &b)
				return true
			}
			aim := w.aim(text, own, foes)
			if b.Phase == phAimAtt {
				b.AttAim, b.Phase = aim, phAimDef
				continue
			}
			b.DefAim = aim
			w.fire(&b)
			if len(b.Att) == 0 || len(b.Def) == 0 {
				w.endBattle(o, &b)
				return false
			}
			b.Phase = phBackDef
		case phBackDef, phBackAtt:
			side, own := enemy, b.Def
			if b.Phase == phBackAtt {
				side, own = p.Side, b.Att
			}
			text, paused := ask(pause.Question{
				Side: side, Key: keyNavalBack,
				Title:   fmt.Sprintf("turn %d: naval battle at %s after round %d: retreat?", st.Turn, o.Target, b.Round),
				Prompt:  fmt.Sprintf("Do your fleets %s retreat, each one position, ending the battle (DG-NAVAL-6, -7)? Answer no, yes, or {after: N, to: [positions]} to retreat once N rounds are fought, to the first legal position listed; e.g. answer: no", strings.Join(own, ", ")),
				Choice:  nil,
				Default: "no",
			})
			if paused {
				saveWork(p, "naval", &b)
				return true
			}
			if w.retreat(side, own, text, b.Round) {
				w.endBattle(o, &b)
				return false
			}
			if b.Phase == phBackDef {
				b.Phase = phBackAtt
				continue
			}
			b.Round++
			b.Phase, b.AttAim, b.DefAim = phAimAtt, nil, nil
			w.say("Naval battle at %s: round %d.", o.Target, b.Round)
		}
	}
}

// startBattle checks the order again and begins the battle; false when it
// no longer holds.
func (w *world) startBattle(p *program, o *NavalOrder, b *battle) bool {
	st := w.st()
	var att []string
	for _, id := range o.Fleets {
		u := st.Units[id]
		if u.Side == p.Side && u.Where == OnMap && slices.Contains(st.Geo().posNear(o.Target), u.Hex) && !st.Is(flagNaval, id) {
			att = append(att, id)
		} else {
			w.say("%s does not join the naval battle at %s: it is no longer next to it, or has fought this step.", id, o.Target)
		}
	}
	def := unitIDs(st.fleetsAt(o.Target, Other(p.Side)))
	if len(att) == 0 || len(def) == 0 {
		w.say("No naval battle at %s: %s.", o.Target, map[bool]string{true: "no attacking fleet is left", false: "no enemy fleet is there any more"}[len(att) == 0])
		return false
	}
	*b = battle{Round: 1, Att: att, Def: def}
	w.emit(&Flagged{Flag: flagNaval, IDs: slices.Clone(att)}) // one battle per combat step for an attacker; defending does not use it
	reveal := []string{o.Target}
	for _, id := range att {
		reveal = append(reveal, st.Units[id].Hex)
	}
	slices.Sort(reveal)
	w.emit(&Flagged{Flag: "revealed", IDs: slices.Compact(reveal)})
	var path []string
	for _, id := range att {
		path = append(path, st.Units[id].Hex)
	}
	w.emit(&Traced{Trace: drawable(adjudicator.Trace{Kind: "naval", Unit: att[0], Path: append(path, o.Target)})})
	w.say("%s attacks the fleets at %s (%s) with %s (DG-NAVAL-1). Round 1.", p.Side, o.Target, list(def), list(att))
	return true
}

func (w *world) endBattle(o *NavalOrder, b *battle) {
	switch {
	case len(b.Def) == 0:
		w.say("The naval battle at %s ends: every defending fleet is sunk.", o.Target)
	case len(b.Att) == 0:
		w.say("The naval battle at %s ends: every attacking fleet is sunk.", o.Target)
	default:
		w.say("The naval battle at %s ends after round %d.", o.Target, b.Round)
	}
}

// navalValue is fleet id's combat value in a battle and how it is made up
// (DG-NAVAL-3, DG-NAVAL-LDR-2, DG-NAVAL-WIZ-3).
func (s *State) navalValue(id string) (int, string) {
	u := s.Units[id]
	v := s.Face(u).Strength
	parts := []string{strconv.Itoa(v)}
	for _, c := range s.cargo(id) {
		k := s.Kind(c.ID)
		switch {
		case k.Type == Leader && k.Naval:
			tv := s.Face(c).Strength
			v += tv
			parts = append(parts, fmt.Sprintf("%d (%s)", tv, c.ID))
		case k.Type == Wizard:
			v += 3
			parts = append(parts, fmt.Sprintf("3 (%s)", c.ID))
		}
	}
	return v, strings.Join(parts, "+")
}

// aim reads a side's targets for its fleets own among the enemy's foes.
func (w *world) aim(text string, own, foes []string) map[string]string {
	st := w.st()
	out := map[string]string{}
	var n yaml.Node
	var prio []string
	if yaml.Unmarshal([]byte(text), &n) == nil && len(n.Content) > 0 {
		v := n.Content[0]
		switch v.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(v.Content); i += 2 {
				f, t := v.Content[i].Value, v.Content[i+1].Value
				if slices.Contains(own, f) && slices.Contains(foes, t) {
					out[f] = t
				}
			}
		case yaml.SequenceNode:
			for _, c := range v.Content {
				if slices.Contains(foes, c.Value) {
					prio = append(prio, c.Value)
				}
			}
		}
	}
	for _, f := range own {
		if out[f] != "" {
			continue
		}
		if len(prio) > 0 {
			out[f] = prio[0]
			continue
		}
		out[f] = w.bestTarget(st, f, foes)
	}
	return out
}

// bestTarget is the no-answer default (§18): a damaged fleet first, then
// the highest combat value; a die breaks a tie.
func (w *world) bestTarget(st *State, f string, foes []string) string {
	score := func(id string) int {
		v, _ := st.navalValue(id)
		if st.Units[id].Reduced {
			v += 1000
		}
		return v
	}
	best := slices.Clone(foes)
	sort.SliceStable(best, func(i, j int) bool { return score(best[i]) > score(best[j]) })
	var ties []string
	for _, id := range best {
		if score(id) == score(best[0]) {
			ties = append(ties, id)
		}
	}
	if len(ties) == 1 {
		return ties[0]
	}
	r := w.roll(fmt.Sprintf("naval target for %s", f), 1, len(ties))
	r.Outcome = fmt.Sprintf("%s, of the equal targets %s", ties[r.Total-1], strings.Join(ties, ", "))
	return ties[r.Total-1]
}

// fire rolls every fleet's shot of a round and applies the hits.
func (w *world) fire(b *battle) {
	st := w.st()
	hits := map[string]int{}
	shoot := func(f, t string) {
		v, how := st.navalValue(f)
		r := w.roll(fmt.Sprintf("naval fire: %s at %s", f, t), 1, 10)
		if r.Total <= v {
			hits[t]++
			r.Outcome = fmt.Sprintf("hit (needs %d or less: %s)", min(v, 10), how)
		} else {
			r.Outcome = fmt.Sprintf("miss (needs %d or less: %s)", v, how)
		}
	}
	for _, f := range b.Att {
		shoot(f, b.AttAim[f])
	}
	for _, f := range b.Def {
		shoot(f, b.DefAim[f])
	}
	for _, t := range slices.Sorted(maps.Keys(hits)) {
		n := hits[t]
		u := w.st().Units[t]
		if u.Reduced || n >= 2 {
			why := "sunk in a naval battle"
			if !u.Reduced {
				why = "hit twice in one round of a naval battle"
			}
			w.say("%s is hit %d time(s) and sinks (DG-NAVAL-10, -12).", t, n)
			w.sink(t, why)
			b.Att = slices.DeleteFunc(b.Att, func(x string) bool { return x == t })
			b.Def = slices.DeleteFunc(b.Def, func(x string) bool { return x == t })
			continue
		}
		w.reduce(t, "hit in a naval battle")
	}
}

// retreat applies a side's retreat answer after round; true when its
// fleets retreat, ending the battle. Every fleet must have a legal position
// next to it, not the Maelstrom (DG-NAVAL-9, DG-AMB-60).
func (w *world) retreat(side adjudicator.Side, own []string, text string, round int) bool {
	yes, prefs := retreatAnswer(text, round)
	if !yes {
		return false
	}
	st := w.st()
	dest := map[string]string{}
	var moved []string
	for _, f := range own {
		u := st.Units[f]
		var cands []string
		for _, q := range st.Geo().fleetNear(u.Hex) {
			if st.fleetBlocked(q, side, f) != "" {
				continue
			}
			if isHexside(q) && len(st.fleetsAt(q, side))+countVal(dest, q) >= 2 {
				continue
			}
			cands = append(cands, q)
		}
		if len(cands) == 0 {
			w.say("%s's fleets cannot retreat: %s has no position to go to (DG-NAVAL-9); the battle goes on.", side, f)
			return false
		}
		d := ""
		if len(prefs) > 0 {
			d = pickPos("["+strings.Join(quoteAll(prefs), ", ")+"]", cands)
		}
		if d == "" {
			d = cands[0]
		}
		dest[f] = d
		moved = append(moved, f)
	}
	for _, f := range moved {
		w.emit(&Moved{Unit: f, Path: []string{st.Units[f].Hex, dest[f]}, Kind: "retreat"})
		w.emit(&Flagged{Flag: flagFleetMoved, IDs: []string{f}})
		w.say("%s retreats to %s (DG-NAVAL-6).", f, dest[f])
	}
	return true
}

func quoteAll(l []string) []string {
	out := make([]string, len(l))
	for i, s := range l {
		out[i] = strconv.Quote(s)
	}
	return out
}

func countVal(m map[string]string, v string) int {
	n := 0
	for _, x := range m {
		if x == v {
			n++
		}
	}
	return n
}

// retreatAnswer reads a retreat answer after round: whether to retreat
// now, and the preferred positions.
func retreatAnswer(text string, round int) (bool, []string) {
	var n yaml.Node
	if yaml.Unmarshal([]byte(text), &n) != nil || len(n.Content) == 0 {
		return false, nil
	}
	v := n.Content[0]
	switch v.Kind {
	case yaml.ScalarNode:
		return v.Value == "yes" || v.Value == "true", nil
	case yaml.MappingNode:
		after, yes := 1, true
		var to []string
		for i := 0; i+1 < len(v.Content); i += 2 {
			k, val := v.Content[i], v.Content[i+1]
			switch k.Value {
			case "after":
				a, err := strconv.Atoi(val.Value)
				if err != nil {
					return false, nil
				}
				after = a
			case "retreat":
				yes = val.Value == "yes" || val.Value == "true"
			case "to":
				for _, c := range val.Content {
					to = append(to, normalPos(c.Value))
				}
			}
		}
		return yes && round >= after, to
	}
	return false, nil
}

func init() {
	aimCheck := func(st *State, side adjudicator.Side, v *yaml.Node) error {
		fleet := func(n *yaml.Node) error {
			u := st.Units[n.Value]
			if u == nil || st.Kind(u.ID).Type != Fleet {
				return adjudicator.Errorf(n, codeBadAnswer, "%q is not a fleet", n.Value)
			}
			return nil
		}
		switch v.Kind {
		case yaml.ScalarNode:
			if v.Value == "best" {
				return nil
			}
			return fleet(v)
		case yaml.SequenceNode:
			for _, c := range v.Content {
				if err := fleet(c); err != nil {
					return err
				}
			}
			return nil
		case yaml.MappingNode:
			for i := 0; i+1 < len(v.Content); i += 2 {
				if _, err := ownUnit(st, side, v.Content[i]); err != nil {
					return err
				}
				if err := fleet(v.Content[i+1]); err != nil {
					return err
				}
			}
			return nil
		}
		return adjudicator.Errorf(v, codeBadAnswer, "name your targets: a list of enemy fleets, a mapping fleet: target, or best")
	}
	answerCheckers[keyNavalAim] = aimCheck
	standingKeys[keyNavalAim] = aimCheck
	backCheck := func(st *State, side adjudicator.Side, v *yaml.Node) error {
		switch v.Kind {
		case yaml.ScalarNode:
			if slices.Contains([]string{"yes", "no", "true", "false"}, v.Value) {
				return nil
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(v.Content); i += 2 {
				k, val := v.Content[i], v.Content[i+1]
				switch k.Value {
				case "after":
					if a, err := strconv.Atoi(val.Value); err != nil || a < 1 {
						return adjudicator.Errorf(val, codeBadAnswer, "after: the number of rounds fought before retreating, 1 or more")
					}
				case "retreat":
				case "to":
					ns, err := strs(val)
					if err != nil {
						return err
					}
					for _, n := range ns {
						if _, err := posOf(st, n, false); err != nil {
							return err
						}
					}
				default:
					return yamlx.UnknownField(k, k.Value, []string{"after", "retreat", "to"})
				}
			}
			return nil
		}
		return adjudicator.Errorf(v, codeBadAnswer, "answer yes, no, or {after: N, to: [positions]}")
	}
	answerCheckers[keyNavalBack] = backCheck
	standingKeys[keyNavalBack] = backCheck
}
