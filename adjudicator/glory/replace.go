package glory

import (
	"fmt"
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

// Step 1: the Dark Temple, the draconian it brings in, and replacements
// (DG-DRAC, DG-REPL). The Highlord's temple and draconian come first, then
// the Highlord's replacements, then the Whitestone's (DG-AMB-72).

// Order error codes of steps 1 to 4 (docs/orders/dragons-of-glory.md).
const (
	codeNotInPool  = "not-in-pool"   // a replacement names a counter that is not in the side's pool
	codeNotAPair   = "not-a-pair"    // two counters that do not make a pair or a rebuild
	codeNoHome     = "bad-placement" // a hex where the counter may not be placed
	codeNotNeutral = "not-neutral"   // a nation that cannot be activated now
)

// Nationality is a counter's colour combination (DG-COMP-9): its nation, or
// for a counter that belongs to no nation (draconians, the Knights of the
// Tower) its kind.
func (k *CounterKind) Nationality() string {
	if k.Nation != "" {
		return k.Nation
	}
	return k.ID
}

// Draconian reports whether the counter is a draconian army (DG-DRAC).
func (k *CounterKind) Draconian() bool { return k.IsArmy() && k.Race == "draconian" }

// checker reads the orders of steps 1 to 4 against the state as it is when
// they are sent.
type checker struct {
	st     *State
	side   adjudicator.Side
	used   map[string]*yaml.Node // counters already named by a rebuild or a replacement
	pooled map[string]bool       // counters a rebuild puts in the pool (DG-REPL-7)
}

func newChecker(st *State, side adjudicator.Side) *checker {
	return &checker{st: st, side: side, used: map[string]*yaml.Node{}, pooled: map[string]bool{}}
}

// unit reads a counter of the side, and checks it is named once.
func (c *checker) unit(v *yaml.Node, add func(error)) (*Unit, bool) {
	u, err := ownUnit(c.st, c.side, v)
	if err != nil {
		add(err)
		return nil, false
	}
	if prev := c.used[u.ID]; prev != nil {
		add(adjudicator.Errorf(v, codeTwice, "%s is already named at line %d: a counter takes part in one rebuild or replacement a turn", u.ID, prev.Line))
		return nil, false
	}
	c.used[u.ID] = v
	return u, true
}

func (c *checker) temple(v *yaml.Node, add func(error)) (string, bool) {
	h, err := hexOf(c.st, v)
	if err != nil {
		add(err)
		return "", false
	}
	if why := c.st.templeProblem(c.side, h); why != "" {
		add(adjudicator.Errorf(v, codeCannot, "%s", why))
		return "", false
	}
	return h, true
}

// templeProblem says why side may not put the Dark Temple at h now, or ""
// (DG-DRAC-2, DG-AMB-69): the Highlord, once, in a fortress or fortified
// city he controls.
func (s *State) templeProblem(side adjudicator.Side, h string) string {
	switch {
	case side != Highlord:
		return "only the Highlord places the Dark Temple (DG-DRAC-2)"
	case s.Temple != "":
		return fmt.Sprintf("the Dark Temple is already at %s and stays there for the rest of the game (DG-DRAC-2)", s.Temple)
	case s.Geo().Fort(h) == "" || s.capitalDismantled(h):
		return fmt.Sprintf("%s is not a fortress or fortified city: the Dark Temple goes in one the Highlord controls (DG-DRAC-2)", h)
	case s.Controller(h) != Highlord:
		return fmt.Sprintf("the Highlord does not control %s: the Dark Temple goes in a fortress or fortified city he controls (DG-DRAC-2)", h)
	}
	return ""
}

func (c *checker) rebuilds(v *yaml.Node, add func(error)) []Rebuild {
	if v.Kind != yaml.SequenceNode {
		add(adjudicator.Errorf(v, adjudicator.CodeBadValue, "rebuild: is a list, e.g. \"- {keep: valen-inf-1, pool: valen-inf-2}\""))
		return nil
	}
	var out []Rebuild
	for _, e := range v.Content {
		var r Rebuild
		if err := yamlx.Decode(e, &r); err != nil {
			add(err)
			continue
		}
		kn, pn := yamlx.Value(e, "keep"), yamlx.Value(e, "pool")
		if kn == nil || pn == nil {
			add(adjudicator.Errorf(e, adjudicator.CodeMissingField, "a rebuild names the army to keep and the one to put in the pool: {keep: A, pool: B}"))
			continue
		}
		_, ok1 := c.unit(kn, add)
		_, ok2 := c.unit(pn, add)
		if !ok1 || !ok2 {
			continue
		}
		if why := c.st.rebuildProblem(c.side, r.Keep, r.Pool); why != "" {
			add(adjudicator.Errorf(e, codeNotAPair, "%s", why))
			continue
		}
		c.pooled[r.Pool] = true
		delete(c.used, r.Pool) // it may pair at once (DG-REPL-7)
		out = append(out, r)
	}
	return out
}

// rebuildProblem says why side may not rebuild keep by putting pool in the
// pool, or "" (DG-REPL-6, -11): two reduced armies of one nationality
// stacked together, neither a dragon, griffon or pegasus.
func (s *State) rebuildProblem(side adjudicator.Side, keep, pool string) string {
	if keep == pool {
		return "a rebuild takes two different armies"
	}
	for _, id := range []string{keep, pool} {
		u, k := s.Units[id], s.Kind(id)
		switch {
		case u.Side != side:
			return fmt.Sprintf("%s is not yours", id)
		case !k.IsArmy():
			return fmt.Sprintf("%s is not an army: only armies are rebuilt (DG-REPL-6)", id)
		case k.Permanent():
			return fmt.Sprintf("%s is a %s: dragons, griffons, pegasi and fleets are never rebuilt (DG-REPL-11)", id, k.Race)
		case u.Where != OnMap:
			return fmt.Sprintf("%s is not on the map", id)
		case !u.Reduced:
			return fmt.Sprintf("%s is at full strength: a rebuild takes two reduced armies (DG-REPL-6)", id)
		}
	}
	a, b := s.Units[keep], s.Units[pool]
	if a.Hex != b.Hex {
		return fmt.Sprintf("%s is at %s and %s at %s: a rebuild takes two armies stacked in one hex (DG-REPL-6)", keep, a.Hex, pool, b.Hex)
	}
	if s.Kind(keep).Nationality() != s.Kind(pool).Nationality() {
		return fmt.Sprintf("%s (%s) and %s (%s) are not of one nationality (DG-REPL-6)", keep, s.Kind(keep).Nationality(), pool, s.Kind(pool).Nationality())
	}
	return ""
}

func (c *checker) replacements(v *yaml.Node, add func(error)) []Replacement {
	if v.Kind != yaml.SequenceNode {
		add(adjudicator.Errorf(v, adjudicator.CodeBadValue, "replace: is a list, e.g. \"- {back: valen-inf-1, retire: valen-inf-2, at: \"1006\"}\""))
		return nil
	}
	var out []Replacement
	for _, e := range v.Content {
		var r Replacement
		if err := yamlx.Decode(e, &r); err != nil {
			add(err)
			continue
		}
		bn, rn := yamlx.Value(e, "back"), yamlx.Value(e, "retire")
		if bn == nil || rn == nil {
			add(adjudicator.Errorf(e, adjudicator.CodeMissingField, "a replacement names the army that comes back and the one that leaves the game: {back: A, retire: B, at: HEX}"))
			continue
		}
		_, ok1 := c.unit(bn, add)
		_, ok2 := c.unit(rn, add)
		if !ok1 || !ok2 {
			continue
		}
		if code, why := c.st.pairProblem(c.side, r.Back, r.Retire, c.pooled); why != "" {
			add(adjudicator.Errorf(e, code, "%s", why))
			continue
		}
		if an := yamlx.Value(e, "at"); an != nil {
			h, err := hexOf(c.st, an)
			if err != nil {
				add(err)
				continue
			}
			r.At = h
			homes, why := c.st.homes(r.Back)
			if why == "" && !slices.Contains(homes, h) {
				why = fmt.Sprintf("%s may come back only at %s (DG-REPL-8, -12)", r.Back, list(homes))
			}
			if why == "" && c.st.EnemyArmiesAt(h, c.side) {
				why = fmt.Sprintf("%s holds enemy armies (DG-REPL-9)", h)
			}
			if why != "" {
				add(adjudicator.Errorf(an, codeNoHome, "%s", why))
				continue
			}
		}
		out = append(out, r)
	}
	return out
}

// pairProblem says why back and retire are not a pair of side's pool, or ""
// (DG-REPL-4, -5): two armies of one nationality in the pool, whatever
// their type. pooled are counters a rebuild of the same orders puts there.
func (s *State) pairProblem(side adjudicator.Side, back, retire string, pooled map[string]bool) (code, why string) {
	if back == retire {
		return codeNotAPair, "a pair is two different armies"
	}
	for _, id := range []string{back, retire} {
		if u := s.Units[id]; u.Side != side || (u.Where != InPool && !pooled[id]) {
			return codeNotInPool, fmt.Sprintf("%s is not in your replacement pool (DG-REPL-4)", id)
		}
	}
	if s.Kind(back).Nationality() != s.Kind(retire).Nationality() {
		return codeNotAPair, fmt.Sprintf("%s (%s) and %s (%s) are not of one nationality: a pair is two armies of the same colours (DG-REPL-4)", back, s.Kind(back).Nationality(), retire, s.Kind(retire).Nationality())
	}
	return "", ""
}

// homes lists the hexes where army id may come back from the pool, before
// stacking and enemy armies are looked at, or says why it has none: a
// draconian at the Dark Temple while the Whitestone has not taken it
// (DG-REPL-12, DG-DRAC-7, -8); a Knight of the Tower in the Tower; any other
// army in a fortress or fortified city of its own nation (DG-REPL-8,
// DG-AMB-7), or in its re-established capital and nowhere while the capital
// is dismantled (DG-CAP-9, optional rule).
func (s *State) homes(id string) ([]string, string) {
	k := s.Kind(id)
	switch {
	case k.Draconian():
		if s.Temple == "" {
			return nil, "the Dark Temple is not on the map: draconians come back there (DG-REPL-12)"
		}
		if s.TempleTaken {
			return nil, "the Whitestone has taken the Dark Temple: draconian losses are no longer replaced (DG-DRAC-8)"
		}
		return []string{s.Temple}, ""
	case k.Tower:
		if t := s.Tower(); t != "" {
			return []string{t}, ""
		}
		return nil, "the map has no High Clerist's Tower (a point of kind tower)"
	case k.Nation == "":
		return nil, fmt.Sprintf("%s belongs to no nation and has no fortress to come back to", id)
	}
	n := s.Nations[k.Nation]
	if s.Options.Capitals && s.data.Nations[k.Nation].SemiHuman {
		if n.Back > 0 {
			return nil, fmt.Sprintf("%s's capital is dismantled until turn %d: its replacements wait in the pool (DG-CAP-9)", k.Nation, n.Back)
		}
		if n.Capital != "" {
			return []string{n.Capital}, ""
		}
	}
	var out []string
	for _, h := range s.Geo().Forts(k.Nation) {
		if !s.capitalDismantled(h) {
			out = append(out, h)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Sprintf("%s has no fortress or fortified city (DG-REPL-8)", k.Nation)
	}
	return out, ""
}

// templeAndDraconian is the Highlord's part of step 1: the Dark Temple if
// he places it now, then this turn's draconian (DG-DRAC-2, -4, -6, -8, -9).
func (w *world) templeAndDraconian(o *StrategicOrders) {
	st := w.st()
	if o.Temple != "" {
		if why := st.templeProblem(Highlord, o.Temple); why != "" {
			w.say("The Dark Temple is not placed at %s: %s.", o.Temple, why)
		} else {
			w.emit(&TempleChanged{Hex: o.Temple, Draconians: st.Draconians})
			w.say("The Highlord places the Dark Temple at %s; it stays there for the rest of the game (DG-DRAC-2).", o.Temple)
		}
	}
	if o.Draconian != nil && !*o.Draconian {
		if st.Temple != "" && !st.TempleTaken {
			w.say("The Highlord brings in no draconian this turn (DG-DRAC-4, DG-AMB-6).")
		}
		return
	}
	if st.Temple == "" || st.TempleTaken {
		return
	}
	var next string
	total := 0
	for _, u := range st.Sorted() {
		if k := st.Kind(u.ID); k.Draconian() && k.Side == string(Highlord) {
			total++
			if next == "" && u.Where == InReserve {
				next = u.ID
			}
		}
	}
	if next == "" {
		if total > 0 {
			w.say("All %d draconian counters have been brought into play: the Dark Temple makes no more (DG-DRAC-6).", total)
		}
		return
	}
	if why := st.StackProblem(st.Temple, Highlord, []string{next}); why != "" {
		w.say("No draconian enters at the Dark Temple this turn: %s; it stays available for later turns (DG-DRAC-9, DG-AMB-70).", why)
		return
	}
	w.emit(&Put{Units: []string{next}, Where: OnMap, Hex: st.Temple, Side: Highlord, Why: "draconian"})
	w.emit(&TempleChanged{Draconians: st.Draconians + 1})
	w.tell(adjudicator.To(Highlord), "%s enters at the Dark Temple (%s) (DG-DRAC-4).", next, st.Temple)
	w.sayHidden(Highlord, "A draconian enters at the Dark Temple (%s): %d of %d are now in play (DG-DRAC-4, -6).", st.Temple, st.Draconians, total)
	w.entered(next, st.Temple, false)
}

// sayHidden says a line to everyone, except that with hidden stacks it
// goes to side alone (the other side may not learn what side has where,
// DG-HIDE-3): used for what a side's own counters do off the battlefield.
func (w *world) sayHidden(side adjudicator.Side, format string, args ...any) {
	if w.st().Options.Hidden {
		w.tell(adjudicator.To(side), format, args...)
		return
	}
	w.say(format, args...)
}

// replacements is one side's rebuilds, then its pairs (DG-REPL-4 to -13).
// Each is checked again: an earlier one, the draconian or the other side's
// orders may have changed what is legal.
func (w *world) replacements(side adjudicator.Side, o *StrategicOrders) {
	for _, r := range o.Rebuild {
		st := w.st()
		if why := st.rebuildProblem(side, r.Keep, r.Pool); why != "" {
			w.tell(adjudicator.To(side), "No rebuild of %s with %s: %s.", r.Keep, r.Pool, why)
			continue
		}
		w.emit(&Put{Units: []string{r.Pool}, Where: InPool, Why: "rebuild"})
		w.emit(&Flipped{Unit: r.Keep, Reduced: false})
		w.sayHidden(side, "%s puts %s in its replacement pool and rebuilds %s to full strength (DG-REPL-6).", side, r.Pool, r.Keep)
	}
	for _, r := range o.Replace {
		st := w.st()
		if _, why := st.pairProblem(side, r.Back, r.Retire, nil); why != "" {
			w.tell(adjudicator.To(side), "The pair %s and %s is not used: %s.", r.Back, r.Retire, why)
			continue
		}
		h, why := st.replacementHex(side, r.Back, r.At)
		if why != "" {
			w.tell(adjudicator.To(side), "The pair %s and %s is not used and both stay in the pool: %s (DG-REPL-10).", r.Back, r.Retire, why)
			continue
		}
		w.emit(&Put{Units: []string{r.Retire}, Where: Out, Why: "replacement"})
		w.emit(&Put{Units: []string{r.Back}, Where: OnMap, Hex: h, Side: side, Why: "replacement"})
		w.sayHidden(side, "%s brings %s back from its pool at full strength at %s; %s leaves the game (DG-REPL-4).", side, r.Back, h, r.Retire)
		w.entered(r.Back, h, false) // a fortification the enemy took and left is taken back (DG-AMB-9)
	}
}

// replacementHex is where army id comes back: at, if given and legal, else
// the first legal home; or why there is none (DG-REPL-8 to -10).
func (s *State) replacementHex(side adjudicator.Side, id, at string) (string, string) {
	homes, why := s.homes(id)
	if why != "" {
		return "", why
	}
	legal := func(h string) string {
		if s.EnemyArmiesAt(h, side) {
			return fmt.Sprintf("%s holds enemy armies (DG-REPL-9)", h)
		}
		return s.StackProblem(h, side, []string{id})
	}
	if at != "" {
		if !slices.Contains(homes, at) {
			return "", fmt.Sprintf("%s may come back only at %s", id, list(homes))
		}
		if why := legal(at); why != "" {
			return "", why
		}
		return at, ""
	}
	var whys []string
	for _, h := range homes {
		why := legal(h)
		if why == "" {
			return h, ""
		}
		whys = append(whys, why)
	}
	return "", fmt.Sprintf("no hex may take %s: %s", id, list(whys))
}
