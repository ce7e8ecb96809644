package conquete

import (
	"fmt"
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir"
)

// Spells after a Battle and outside the Battles (B.14, I.3).
//
// After a Battle (DN3-MAGIC-7, PBEM-DN3-26): once its result is applied,
// before the retreats, its casters still on its map may heal the wounded
// and raise the dead of their side who fought in it; this is the last
// moment: once the troops are back on the strategic map the dead are dead
// for good. What happens here is public, as the Battle was; the PE spent
// and the army sheets' changes are each side's own (E.5, HID-11).
//
// Outside the Battles (DN3-MAGIC-8, AMB-75): at the end of the
// Negotiations & Battles phase, a caster who fought in no Battle of the
// phase and is not at Rest (DN3-MAGIC-11) may cast one spell on counters
// of his side in his own Region. Only healing is left to cast then: the
// dead are dead for good (DN3-MAGIC-7). It happens on no map: everything
// is its side's (HID-11), sealed, its roll too.
//
// The spells are the rows heal and resurrect of dragonnoir's spells.yaml
// (Heal wounds, DN3-SPELL-MAGE-7; Resurrect a dead character,
// DN3-SPELL-MAGE-8), on the caster's sheet; any other is refused
// (not-healing). Each caster casts one (DN3-MAGIC-13: one a game turn; the
// moment counts as one). The roll is Table DN-MAGIC-T1's (ROLL-10): a d10
// + the caster's level (forces.yaml, AMB-73), more than ⌈cost/10⌉ + the
// target's magic resistance (DN3-MAGIC-9, -10: not on himself); the PE are
// spent whatever the roll (DN-MAGIC-10). A healed magician's PE are
// doubled (DN3-MAGIC-13); a raised one comes back with 0 PE (AMB-74), and
// joins his caster's troop.
//
// Both sides are asked at once when either has a caster who could cast
// something (a target, and PE), so that being asked tells a side nothing
// certain of the other's sheet.

// Request phases of this chapter.
const (
	ReqAfterBattle = "after-battle"
	ReqOutside     = "outside-battles"
)

// Error codes of this chapter.
const (
	codeNotHealing  = "not-healing"   // a spell other than Heal wounds or Resurrect a dead character
	codeFought      = "fought"        // outside the Battles, a caster who fought in one (AMB-75)
	codeDeadForGood = "dead-for-good" // raising a counter whose troops are back on the strategic map (DN3-MAGIC-7)
)

// The spells' rows in dragonnoir's spells.yaml.
const (
	spellHeal      = "heal"
	spellResurrect = "resurrect"
)

func init() {
	requestKinds[ReqAfterBattle] = afterBattleRequest
	requestKinds[ReqOutside] = outsideRequest
}

// HealOrder is one spell after or outside a Battle:
// {caster: zacharie, spell: heal, target: konrad}.
type HealOrder struct {
	Caster string `yaml:"caster"`
	Spell  string `yaml:"spell"`
	Target string `yaml:"target"`
}

// HealOrders is a side's answer: its spells, none for an empty list.
type HealOrders struct {
	Spells []HealOrder `yaml:"spells"`
}

var afterBattleRequest = &requestKind{
	Kind: "orders", Title: "spells after the Battle", Hidden: true,
	Prompt: "The Battle is over: your casters still on its map may heal the wounded and raise the dead of your side who fought in it, one spell each (spells: [{caster: zacharie, spell: heal, target: konrad}]; spells: [] for none). This is the last moment: after it the dead are dead for good (DN3-MAGIC-7, PBEM-DN3-26): docs/orders/la-conquete.md.",
	Parse: func(st *State, w Wait, n *yaml.Node) (adjudicator.Orders, error) {
		return parseHeals(st, w, n)
	},
	Decide:  decideHeals,
	Default: func(*State, Wait) (string, bool) { return "{spells: []}", true },
}

var outsideRequest = &requestKind{
	Kind: "orders", Title: "spells outside the Battles", Hidden: true, Sealed: true,
	Prompt: "The Battles are over: each of your casters who fought in none and is not at Rest may cast one spell on counters of your side in his own Region, such as healing (spells: [{caster: zacharie, spell: heal, target: konrad}]; spells: [] for none) (DN3-MAGIC-8, AMB-75): docs/orders/la-conquete.md.",
	Parse: func(st *State, w Wait, n *yaml.Node) (adjudicator.Orders, error) {
		return parseHeals(st, w, n)
	},
	Decide:  decideHeals,
	Default: func(*State, Wait) (string, bool) { return "{spells: []}", true },
}

// healCast is a spell checked: caster, target, row, cost, level.
type healCast struct {
	HealOrder
	caster, target *Counter
	spell          *dragonnoir.Spell
	pe, level      int
	resist         int
	used           Provs
}

// fought reports whether counter id was on the map of a Battle of this
// strategic turn (AMB-75).
func fought(st *State, id string) bool {
	for _, b := range st.Battles {
		if b.Turn == st.Turn && slices.Contains(b.Units, id) {
			return true
		}
	}
	return false
}

// onField reports whether id, of side, is still on the map of the Battle
// being resolved: in one of its side's troops in region, not gone off the
// map (DN3-CAMP-RETREAT-4).
func onField(st *State, side adjudicator.Side, region, id string) bool {
	t := st.TroopOf(id)
	if t == nil || t.Side != side || t.Region != region || t.Stealthy {
		return false
	}
	_, left := st.Region.Left[id]
	return !left
}

// casterTroop is where a caster of side may cast from now, nil if he may
// not: after a Battle, on its map; outside, in no Battle and not at Rest.
func casterTroop(st *State, w Wait, id string) (*Troop, string, string) {
	t := st.TroopOf(id)
	if w.Phase == ReqAfterBattle {
		b := st.battle(w.Key)
		if b == nil || !slices.Contains(b.Units, id) || !onField(st, w.Side, b.Region, id) {
			return nil, adjudicator.CodeBadValue, fmt.Sprintf("%s is not on the map of the Battle that just ended: only its casters still there cast now (DN3-MAGIC-7)", id)
		}
		return t, "", ""
	}
	switch {
	case fought(st, id):
		return nil, codeFought, fmt.Sprintf("%s fought in a Battle this turn: outside the Battles only a caster who fought in none casts (DN3-MAGIC-8, AMB-75)", id)
	case t == nil:
		return nil, adjudicator.CodeUnknownUnit, fmt.Sprintf("%s is in none of your troops", id)
	case t.Rest:
		return nil, codeAtRest, fmt.Sprintf("%s is in troop %s, at Rest: magicians at Rest cast no spell (DN3-MAGIC-11, DN3-CAMP-REST-4)", id, t.ID)
	}
	return t, "", ""
}

// targetCheck says why id may not be the target of spell now, "" if it may.
func targetCheck(st *State, w Wait, spell string, from *Troop, id string) (string, string) {
	c := st.Counters[id]
	if c == nil {
		return adjudicator.CodeUnknownUnit, fmt.Sprintf("no counter %q", id)
	}
	if c.Side != w.Side {
		return codeNotYours, fmt.Sprintf("%s is not one of your counters: your casters heal and raise your own", id)
	}
	if w.Phase == ReqAfterBattle {
		b := st.battle(w.Key)
		if spell == spellResurrect {
			if !c.Dead || !slices.Contains(b.Dead, id) {
				return codeDeadForGood, fmt.Sprintf("%s did not die in this Battle: only its dead may be raised now, the others are dead for good, or alive (DN3-MAGIC-7)", id)
			}
			return "", ""
		}
		switch {
		case c.Dead:
			return adjudicator.CodeBadValue, fmt.Sprintf("%s is dead: Heal wounds does not raise him (spell: resurrect)", id)
		case !slices.Contains(b.Units, id) || !onField(st, w.Side, b.Region, id):
			return adjudicator.CodeBadValue, fmt.Sprintf("%s is not on the map of the Battle that just ended (DN3-MAGIC-7)", id)
		case c.Wounds == 0:
			return adjudicator.CodeBadValue, fmt.Sprintf("%s is not wounded", id)
		}
		return "", ""
	}
	if spell == spellResurrect || c.Dead {
		return codeDeadForGood, fmt.Sprintf("%s: outside the Battles the dead are dead for good (DN3-MAGIC-7)", id)
	}
	t := st.TroopOf(id)
	switch {
	case t == nil || t.Region != from.Region:
		return adjudicator.CodeBadValue, fmt.Sprintf("%s is not in your caster's Region, %s: outside the Battles a spell reaches his own Region only (AMB-75)", id, st.data.regionName(from.Region))
	case c.Wounds == 0:
		return adjudicator.CodeBadValue, fmt.Sprintf("%s is not wounded", id)
	}
	return "", ""
}

// healCost is what spell costs on target (DN3-SPELL-MAGE-7, -8):
// Attack + Defence of its wounded face for a heal, of its healthy face for
// a resurrection, with the provenance of its counter's values.
func healCost(sp *dragonnoir.Spell, k *dragonnoir.Kind) int {
	f := k.Faces["healthy"]
	if sp.Cost.Face != "healthy" {
		if wf, ok := k.Faces["wounded"]; ok && wf != (dragonnoir.Face{}) {
			f = wf
		}
	}
	n := 0
	for _, v := range sp.Cost.Target {
		n += map[string]int{"attack": f.Attack, "defence": f.Defence, "move": f.Move}[v]
	}
	return n
}

// readHeals checks a side's spells; bad ones are added to e.
func readHeals(e *errs, st *State, w Wait, nodes []yaml.Node) []*healCast {
	td := tactical()
	var out []*healCast
	seen := map[string]bool{}
	for i := range nodes {
		n := &nodes[i]
		var o HealOrder
		if !decode(e, n, &o) {
			continue
		}
		c, k, tk := ownMagician(e, st, w.Side, n, o.Caster) // magic.go
		if c == nil {
			continue
		}
		if seen[o.Caster] {
			e.add(key(n, "caster"), codeTwice, "%s casts one spell now, and has one already (DN3-MAGIC-13, AMB-75)", o.Caster)
			continue
		}
		seen[o.Caster] = true
		from, code, why := casterTroop(st, w, o.Caster)
		if from == nil {
			e.add(key(n, "caster"), code, "%s", why)
			continue
		}
		sp := td.Spells[o.Spell]
		if sp == nil || o.Spell != spellHeal && o.Spell != spellResurrect {
			e.add(key(n, "spell"), codeNotHealing, "spell %q: after a Battle and outside the Battles umpire casts heal (Heal wounds) or resurrect (Resurrect a dead character) only (DN3-MAGIC-7, -8, AMB-75)", o.Spell)
			continue
		}
		if !slices.Contains(sp.Lists, tk.SpellList) {
			e.add(key(n, "spell"), codeNotHealing, "%s is not on the %s sheet of %s (DN3-MAGIC-3)", sp.Title, tk.SpellList, o.Caster)
			continue
		}
		if o.Target == "" {
			e.add(n, adjudicator.CodeMissingField, "%s: name its target (target: a counter of your side)", sp.Title)
			continue
		}
		if code, why := targetCheck(st, w, o.Spell, from, o.Target); code != "" {
			e.add(key(n, "target"), code, "%s", why)
			continue
		}
		t := st.Counters[o.Target]
		ttk := td.Kinds[t.Kind]
		if ttk == nil {
			e.add(key(n, "target"), adjudicator.CodeBadValue, "%s has no counter values in the tactical module", o.Target)
			continue
		}
		hc := &healCast{HealOrder: o, caster: c, target: t, spell: sp, pe: healCost(sp, ttk), level: k.Level,
			used: Provs{sp.Prov, k.Prov, ttk.Prov}}
		if t.ID != c.ID { // DN3-MAGIC-9, -10
			hc.resist = ttk.MagicResistance
		}
		if hc.pe > c.PE {
			e.add(key(n, "spell"), codeNoPE, "%s on %s costs %d PE and %s has %d (AMB-20)", sp.Title, o.Target, hc.pe, o.Caster, c.PE)
			continue
		}
		out = append(out, hc)
	}
	return out
}

func parseHeals(st *State, w Wait, n *yaml.Node) (adjudicator.Orders, error) {
	var f struct {
		Spells []yaml.Node `yaml:"spells"`
	}
	e := &errs{}
	if isNull(n) {
		return &HealOrders{}, nil
	}
	if !decode(e, n, &f) {
		return nil, e.err()
	}
	var out HealOrders
	for _, c := range readHeals(e, st, w, f.Spells) {
		out.Spells = append(out.Spells, c.HealOrder)
	}
	return &out, e.err()
}

// decideHeals casts a side's spells in their order.
func decideHeals(x *world, w Wait, o adjudicator.Orders) {
	var nodes []yaml.Node
	for _, s := range o.(*HealOrders).Spells {
		var n yaml.Node
		if err := n.Encode(s); err != nil {
			x.r.Fail(err)
			return
		}
		nodes = append(nodes, n)
	}
	if len(nodes) == 0 {
		if w.Phase == ReqAfterBattle {
			x.say(nil, "%s cast no spell after the Battle.", capital(sideName(w.Side)))
		}
		return
	}
	for i := range nodes {
		e := &errs{}
		cs := readHeals(e, x.st(), w, nodes[i:i+1]) // each against the state the ones before left
		if len(cs) == 0 {
			x.say(nil, "%s casts no spell: %v.", o.(*HealOrders).Spells[i].Caster, e.err())
			continue
		}
		x.castHeal(w, cs[0])
	}
}

// castHeal casts one spell: public after a Battle, the caster's side's
// outside (HID-11).
func (x *world) castHeal(w Wait, c *healCast) {
	st := x.st()
	side := w.Side
	public := w.Phase == ReqAfterBattle
	line := func(format string, args ...any) {
		if public {
			x.say(c.used, format, args...)
		} else {
			x.tell(side, c.used, format, args...)
		}
	}
	ed := newArmyEdit(st, side)
	caster := ed.counter(c.Caster)
	caster.PE -= c.pe
	x.tell(side, c.used, "%s spends %d PE on %s, whether it works or not: %d left (DN-MAGIC-10).", c.Caster, c.pe, c.spell.Title, caster.PE)
	aud, label := adjudicator.Everyone, "a spell after the Battle"
	if !public {
		aud, label = adjudicator.To(side), "a spell outside the Battles"
	}
	r := x.d10(aud, label)
	need := (c.pe + 9) / 10 // Table DN-MAGIC-T1
	total := r.Total + c.level
	worked := total > need+c.resist
	word := map[bool]string{true: "works", false: "fails"}[worked]
	res := ""
	if c.resist > 0 {
		res = fmt.Sprintf(", +%d magic resistance of %s (DN3-MAGIC-9): more than %d", c.resist, c.Target, need+c.resist)
	}
	r.Outcome = mark(c.used, fmt.Sprintf("%s casts %s on %s, +%d level makes %d, needs more than %d%s: %s (Table DN-MAGIC-T1)",
		c.Caster, c.Spell, c.Target, c.level, total, need, res, word))
	line("%s casts %s on %s: it %s (ROLL-10).", c.Caster, c.spell.Title, c.Target, word)
	if worked {
		t := ed.counter(c.Target)
		switch c.Spell {
		case spellHeal:
			t.Wounds = 0
			line("%s is healed (DN3-SPELL-MAGE-7).", c.Target)
			if t.PE > 0 {
				t.PE *= 2
				x.tell(side, nil, "%s's energy is doubled by the healing: %d PE (DN3-MAGIC-13).", c.Target, t.PE)
			}
		case spellResurrect:
			t.Dead, t.Wounds = false, 0
			from := ed.troopOf(c.Caster)
			ed.put(from.ID, from.Region, from.Via, "", c.Target)
			line("%s rises from the dead and joins %s's troop (DN3-SPELL-MAGE-8, DN3-MAGIC-7).", c.Target, c.Caster)
			if x.data().Counters[c.Target].Level > 0 {
				t.PE = 0
				x.tell(side, nil, "%s comes back with 0 PE (AMB-74).", c.Target)
			}
		}
	}
	ed.emit(x) // sealed to the side (HID-11)
}

// canCast reports whether side has a caster who could cast something now:
// a caster allowed to, with PE, and a target his sheet reaches.
func canCast(st *State, w Wait) bool {
	td := tactical()
	for _, id := range st.Living(w.Side) {
		c, k := st.Counters[id], st.data.Counters[id]
		tk := td.Kinds[c.Kind]
		if tk == nil || tk.SpellList == "" || k == nil || k.Level == 0 || c.PE <= 0 {
			continue
		}
		from, _, _ := casterTroop(st, w, id)
		if from == nil {
			continue
		}
		for _, sp := range []string{spellHeal, spellResurrect} {
			row := td.Spells[sp]
			if row == nil || !slices.Contains(row.Lists, tk.SpellList) {
				continue
			}
			for tid, tc := range st.Counters {
				if tc.Side != w.Side {
					continue
				}
				if code, _ := targetCheck(st, w, sp, from, tid); code == "" {
					return true
				}
			}
		}
	}
	return false
}

// askHeals asks both sides at once when either can cast (phase, key).
func (x *world) askHeals(phase, key string) {
	st := x.st()
	can := false
	for _, side := range sides {
		if canCast(st, Wait{Phase: phase, Side: side, Key: key}) {
			can = true
		}
	}
	if !can {
		return
	}
	ws := both(phase)
	for i := range ws {
		ws[i].Key = key
	}
	x.await(ws...)
}
