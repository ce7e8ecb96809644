package dragonnoir

import (
	"fmt"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// Chapter: magic (A.11): one spell per magician per game turn, in either
// player-turn (DN-MAGIC-9, AMB-19), PE spent whether it works or not
// (DN-MAGIC-6, -10), the casting roll (DN-MAGIC-7, -8, Table DN-MAGIC-T1),
// range and the penalty beyond it (DN-MAGIC-12, -13, AMB-22), the spells
// of spells.yaml (GAP-12).
//
// First implementation: spells in the Adventurer mail, cast before the
// fire, moves or attacks they name or at the end; the effects summon
// (spectre.go), fireball and heal. Left to the magic chapter: the other
// spells' effects, spells in the Krob turn (standing key spell-trigger,
// PBEM-DN-7), one map only (DN-MAGIC-11), several hexes (DN-MAGIC-14).

// spellRange is how far a magician of each level reaches (DN-MAGIC-12).
var spellRange = map[int]int{1: 7, 2: 10}

// spellsBefore casts the spells of the mail due before stage. It reports a
// pause (none yet).
func (w *world) spellsBefore(p *program, stage string) bool {
	for i := range p.Orders.Spells {
		o := &p.Orders.Spells[i]
		if o.Before != stage || containsInt(p.Spelled, i) {
			continue
		}
		p.Spelled = append(p.Spelled, i)
		w.cast(o)
	}
	return false
}

func containsInt(l []int, v int) bool {
	for _, x := range l {
		if x == v {
			return true
		}
	}
	return false
}

// cost is what spell sp costs as ordered (DN3 lists, GAP-12).
func (w *world) cost(sp *Spell, o *SpellOrder) (int, string) {
	c := sp.Cost
	switch {
	case c.Fixed > 0:
		return c.Fixed, ""
	case c.Per != "":
		if o.Units < 1 {
			return 0, fmt.Sprintf("say how many %s it buys (units:)", c.Per)
		}
		return c.Each * o.Units, ""
	case len(c.Sizes) > 0:
		v, ok := c.Sizes[o.Units]
		if !ok {
			return 0, fmt.Sprintf("units: %d is not one of its sizes", o.Units)
		}
		return v, ""
	}
	t := w.st().Chars[o.At]
	if t == nil {
		return 0, "its cost depends on its target: name a character under at:"
	}
	f, _ := w.st().Values(t)
	n := 0
	for _, v := range c.Target {
		n += map[string]int{"attack": f.Attack, "defence": f.Defence, "move": f.Move}[v]
	}
	return n, ""
}

// cast resolves one spell (DN-MAGIC-6 … 14, ROLL-10).
func (w *world) cast(o *SpellOrder) {
	st := w.st()
	c := st.Chars[o.Caster]
	sp := st.data.Spells[o.Spell]
	k := st.Kind(c)
	used := Provs{sp.Prov}
	switch {
	case !c.Standing():
		w.say(nil, "%s cannot cast %s: not on its feet (AMB-12).", c.ID, sp.Title)
		return
	case st.Is(flagCast, c.ID):
		w.say(nil, "%s has already cast a spell this turn (DN-MAGIC-9).", c.ID)
		return
	}
	pe, why := w.cost(sp, o)
	if why != "" {
		w.say(nil, "%s does not cast %s: %s.", c.ID, sp.Title, why)
		return
	}
	if pe > c.PE {
		w.tell(toOwner(c), used, "%s cannot cast %s: it costs %d PE and %d are left (AMB-20).", c.ID, sp.Title, pe, c.PE)
		w.say(nil, "%s casts no spell.", c.ID)
		return
	}
	target := c.At
	if o.At != "" {
		target = o.At
		if t := st.Chars[o.At]; t != nil && t.Alive() {
			target = t.At
		}
	}
	tl, err := locOn(st.board, target)
	if err != nil {
		w.say(nil, "%s does not cast %s: %v.", c.ID, sp.Title, err)
		return
	}
	beyond := max(0, st.Distance(st.loc(c), tl)-spellRange[k.Level])
	need := (pe + 9) / 10 // DN-MAGIC-T1: more than 1 for 1-10 PE, 2 for 11-20 …
	w.emit(&Flagged{Flag: flagCast, IDs: []string{c.ID}})
	w.emit(&Energy{Unit: c.ID, PE: c.PE - pe})
	w.tell(toOwner(c), used, "%s spends %d PE on %s: %d left (DN-MAGIC-10).", c.ID, pe, sp.Title, c.PE)
	r := w.d10(fmt.Sprintf("%s cast by %s", sp.ID, c.ID))
	total := r.Total + k.Level - beyond
	ok := total > need
	res := "fails"
	if ok {
		res = "works"
	}
	outcome(r, used, "+%d level, -%d beyond range makes %d, needs more than %d: %s", k.Level, beyond, total, need, res)
	w.say(used, "%s casts %s on %s: it %s.", c.ID, sp.Title, locString(st.board, tl), res)
	if !ok {
		return
	}
	switch sp.Effect {
	case "summon":
		w.summon(c, sp, locString(st.board, tl), used)
	case "fireball":
		w.fireball(c, sp, tl, used)
	case "heal":
		if t := st.Chars[o.At]; t != nil && t.Alive() && t.Wounds > 0 {
			w.emit(&Conditioned{Unit: t.ID, Face: Healthy, Berserk: t.Berserk})
			w.say(used, "%s is healed.", t.ID)
			if t.PE > 0 {
				w.emit(&Energy{Unit: t.ID, PE: 2 * t.PE}) // DN-MAGIC-6
			}
		}
	}
}

// fireball strikes every character at l (DN3-SPELL-MAGE-26, ROLL-11):
// the spell's rolls, its armour modifier, the Queen's and Guards'
// resistance (DN-KROB-13), and webs burnt (DN-KROB-14).
func (w *world) fireball(c *Char, sp *Spell, l hex.Loc, used Provs) {
	st := w.st()
	at := locString(st.board, l)
	if st.Web(at) {
		w.emit(&Webbed{At: at, Intact: false})
		w.say(nil, "The fireball burns the web on %s (DN-KROB-14).", at)
	}
	for _, t := range st.At(l) {
		if !t.Alive() {
			continue
		}
		tk := st.Kind(t)
		mod := 0
		if tk.Armoured {
			mod = sp.Armoured
		}
		r := w.d10(fmt.Sprintf("fireball on %s", t.ID))
		code := sp.Rolls[modified(r.Total+mod)-1]
		es, _ := parseEffects(code)
		es, resists := fireballEffects(tk, es) // special.go: DN-KROB-13
		outcome(r, used, "%+d makes %d: %s", mod, modified(r.Total+mod), effectWords(es))
		if resists != "" {
			w.say(Provs{tk.Prov}, "%s: %s.", t.ID, resists)
		}
		for _, e := range es {
			w.hurt(t, e.What, e.N, []*Char{c}, used, false)
		}
	}
}
