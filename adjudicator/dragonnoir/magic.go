package dragonnoir

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// Chapter: magic (A.11). Zacharie and Shaman are the magicians (DN-MAGIC-1:
// their kinds have a level in counters.yaml; a scenario or position may set
// each one's level, DN-MAGIC-2), with level × 100 PE (DN-MAGIC-6), halved
// when wounded (results.go) and doubled when healed (the heal effect). Each
// casts one spell a game turn, in either player-turn (DN-MAGIC-9, AMB-19):
// in the Adventurer turn by the mail's spells:, before a stage or before one
// named action; in the Krob turn by the standing spell-trigger
// (spell_triggers.go, PBEM-DN-7). A spell is checked (on its feet, not yet
// cast, not silenced, level 2 for detection, the one-cave rule DN-MAGIC-11,
// its PE AMB-20), paid whether it works or not (DN-MAGIC-10), and rolled
// (ROLL-10, Table DN-MAGIC-T1: more than ⌈cost/10⌉, + the level DN-MAGIC-8,
// −1 a hex beyond the range DN-MAGIC-12, -13, measured to the farthest hex
// DN-MAGIC-14). What a spell does is its row's effect (spell_effects.go);
// what lasts is a charm (spell_charms.go). A magician's PE are his side's
// secret (E.5): every line that tells them goes to his side only.

// spellRange is how far a magician of each level reaches (DN-MAGIC-12);
// beyond level 2 it grows by 3 a level (AMB-72's progression).
func spellRange(level int) int { return 7 + 3*(level-1) }

// level is c's magician level: its own (a scenario's, DN-MAGIC-2), else
// its kind's; 0 for a character who is no magician.
func (s *State) level(c *Char) int {
	if c.Level > 0 {
		return c.Level
	}
	if k := s.Kind(c); s.valley() && k.ValleyLevel > 0 {
		return k.ValleyLevel // AMB-73 (spell_lists.go)
	}
	return s.Kind(c).Level
}

// spellsBefore casts the spells due at moment: a stage (fire, moves,
// attacks, end) as it starts, or "STAGE#I" before the stage's I-th order
// (AMB-19). In the Krob turn it casts the Adventurers' triggers due then
// (PBEM-DN-7). It reports a pause (none: a spell never asks).
func (w *world) spellsBefore(p *program, moment string) bool {
	defer w.triggersAt(p, moment) // the other side's standing triggers, after the mail's own (spell_triggers.go)
	for i := range p.Orders.Spells {
		o := &p.Orders.Spells[i]
		if slices.Contains(p.Spelled, i) || spellMoment(p.Orders, o) != moment {
			continue
		}
		p.Spelled = append(p.Spelled, i)
		w.cast(o, nil)
	}
	return false
}

// spellStages are the moments before: names, with the order kind a
// "before: KIND UNIT" names.
var spellStages = map[string]string{"fire": stageFire, "move": stageMoves, "attack": stageAttacks}

// spellMoment is when o is cast: "fire", "moves", "attacks" or "end"; or
// "STAGE#I" for "before: move konrad" (before konrad's move, the I-th of
// moves:). "" when it names no order of the mail (parse refuses that).
func spellMoment(os *Orders, o *SpellOrder) string {
	kind, unit, ok := strings.Cut(o.Before, " ")
	if !ok {
		return o.Before
	}
	stage := spellStages[kind]
	i := -1
	switch kind {
	case "fire":
		i = slices.IndexFunc(os.Fire, func(f FireOrder) bool { return f.Shooter == unit })
	case "move":
		i = slices.IndexFunc(os.Moves, func(m MoveOrder) bool { return m.Unit == unit })
	case "attack":
		i = slices.IndexFunc(os.Attacks, func(a AttackOrder) bool { return slices.Contains(a.Attackers, unit) })
	}
	if i < 0 {
		return ""
	}
	return fmt.Sprintf("%s#%d", stage, i)
}

// spellTarget is what a spell order aims at, resolved: the character
// (Unit), the locations it affects (Locs, the farthest counting for range,
// DN-MAGIC-14), the hexsides (Sides) and the destination (To).
type spellTarget struct {
	Unit  *Char
	Locs  []hex.Loc
	Sides []hex.Hexside
	To    *hex.Loc
}

// cast resolves one spell (DN-MAGIC-6 … 14, ROLL-10); trigger is the Krob
// whose move set it off, if any (PBEM-DN-7).
func (w *world) cast(o *SpellOrder, trigger *Char) { w.castSpell(o, trigger, false) }

// castSpell is cast; before, a spell cast before the first turn, which is
// no game turn's spell (DN3-MAGIC-6, spell_valley.go).
func (w *world) castSpell(o *SpellOrder, trigger *Char, before bool) {
	st := w.st()
	c := st.Chars[o.Caster]
	sp := st.spellFor(c, o.Spell)   // the row of that name on c's sheet (spell_data.go)
	used := Provs{st.spellProv(sp)} // in the valley, the printed sheet's (spell_lists.go)
	no := func(format string, args ...any) {
		w.say(used, "%s does not cast %s: %s.", o.Caster, sp.Title, fmt.Sprintf(format, args...))
	}
	if c == nil || !c.Standing() {
		no("not on its feet (AMB-12)")
		return
	}
	if st.Is(flagCast, c.ID) && !before {
		no("it has already cast a spell this game turn (DN-MAGIC-9)")
		return
	}
	lvl := st.level(c)
	if sp.Category == "detection" && lvl < 2 {
		no("only a magician of the second level senses from afar (DN-MAGIC-3)")
		return
	}
	for _, l := range st.Locs(c) {
		if ch := st.charmOn("silence", l); ch != nil {
			no("%s is under a Silence: no spell is cast from it (%s)", locString(st.board, l), st.sheetRule(st.data.Spells[ch.Spell], st.Chars[ch.Caster], "DN3-SPELL-MAGE-21"))
			return
		}
	}
	tg, why := w.spellTarget(c, sp, o, trigger)
	if why != "" {
		no("%s", why)
		return
	}
	if why := w.reach(c, sp, tg); why != "" && !st.valley() { // AMB-72: outdoors, the whole battle map
		no("%s", why)
		return
	}
	far := 0
	for _, l := range tg.Locs {
		far = max(far, st.distanceTo(c, l))
	}
	beyond := max(0, far-spellRange(lvl))
	if beyond > 0 && sp.Effect == "teleport" {
		no("its destination is %d hexes away, beyond its range of %d (AMB-81)", far, spellRange(lvl))
		return
	}
	if why := w.spellCheck(c, sp, o, tg); why != "" {
		no("%s", why)
		return
	}
	pe, why := w.spellCost(c, sp, o, tg)
	if why != "" {
		no("%s", why)
		return
	}
	if cost := sp.Cost; tg.Unit != nil {
		if sp.OnOther != nil && tg.Unit != c {
			cost = *sp.OnOther
		}
		if len(cost.Target) > 0 || cost.Heavy > 0 { // the target's values or armour: its counter's provenance
			used = append(used, st.Kind(tg.Unit).Prov)
		}
	}
	if pe > c.PE {
		w.tell(toOwner(c), used, "%s cannot cast %s: it costs %d PE and %d are left (AMB-20).", c.ID, sp.Title, pe, c.PE)
		w.say(nil, "%s casts no spell.", c.ID)
		return
	}
	need := (pe + 9) / 10                     // DN-MAGIC-T1: more than 1 for 1-10 PE, 2 for 11-20 …
	res, resWords := st.resistance(c, sp, tg) // DN3-MAGIC-9, -10 (spell_lists.go)
	if !before {
		w.emit(&Flagged{Flag: flagCast, IDs: []string{c.ID}})
	}
	w.emit(&Energy{Unit: c.ID, PE: c.PE - pe})
	w.tell(toOwner(c), used, "%s spends %d PE on %s, whether it works or not: %d left (DN-MAGIC-10).", c.ID, pe, sp.Title, c.PE)
	r := w.d10(fmt.Sprintf("%s cast by %s", sp.Key(), c.ID))
	total := r.Total + lvl - beyond
	ok := total > need+res
	worked := "fails"
	if ok {
		worked = "works"
	}
	if res > 0 {
		outcome(r, used, "+%d level, -%d beyond range makes %d, needs more than %d, %s: more than %d: %s", lvl, beyond, total, need, resWords, need+res, worked)
	} else {
		outcome(r, used, "+%d level, -%d beyond range makes %d, needs more than %d: %s", lvl, beyond, total, need, worked)
	}
	w.say(used, "%s casts %s%s: it %s.", c.ID, sp.Title, w.aimWords(c, sp, tg), worked)
	if ok {
		spellEffects[sp.Effect](w, c, sp, o, tg, used)
	}
}

// aimWords says what a spell was aimed at, for the report: never a
// secret destination (HID-6).
func (w *world) aimWords(c *Char, sp *Spell, tg *spellTarget) string {
	st := w.st()
	switch {
	case sp.Effect == "invisible" || sp.Aim == "none":
		return ""
	case tg.Unit != nil && tg.Unit != c:
		return " on " + tg.Unit.ID
	case tg.Unit != nil && tg.To != nil:
		return " to " + locString(st.board, *tg.To)
	case tg.Unit != nil:
		return ""
	case sp.Radius > 0:
		return " on " + locString(st.board, tg.Locs[0])
	case len(tg.Sides) > 0:
		var s []string
		for _, x := range tg.Sides {
			s = append(s, x.String())
		}
		return " on " + strings.Join(s, ", ")
	}
	var s []string
	for _, l := range tg.Locs {
		s = append(s, locString(st.board, l))
	}
	return " on " + strings.Join(s, ", ")
}

// distanceTo is the hexes from magician c to l, not counting his own
// (DN-MAGIC-12): from the nearest of his locations.
func (s *State) distanceTo(c *Char, l hex.Loc) int {
	d := 1 << 30
	for _, m := range s.Locs(c) {
		d = min(d, s.Distance(m, l))
	}
	return d
}

// spellTarget resolves what o aims at by its spell's aim: the caster
// (self), a character (at: its ID), a location (at: a location or a
// character's), locations or hexsides (hexes:); a destination (to:).
func (w *world) spellTarget(c *Char, sp *Spell, o *SpellOrder, trigger *Char) (*spellTarget, string) {
	st := w.st()
	tg := &spellTarget{}
	at := o.At
	if at == "" && trigger != nil && (sp.Aim == "character" || sp.Aim == "hex") {
		at = trigger.ID // PBEM-DN-7: the Krob that set the trigger off
	}
	switch sp.Aim {
	case "self":
		tg.Unit, tg.Locs = c, st.Locs(c)
	case "character":
		t := st.Chars[at]
		switch {
		case t == nil:
			return nil, fmt.Sprintf("name the character it is cast on under at: (not %q)", at)
		case sp.Effect == "resurrect" && (t.Face != Killed || t.At == ""):
			return nil, fmt.Sprintf("%s is not lying dead on the map", t.ID)
		case sp.Effect != "resurrect" && !t.Alive():
			return nil, fmt.Sprintf("%s is not on the map", t.ID)
		}
		tg.Unit = t
		if t.Alive() {
			tg.Locs = st.Locs(t)
		} else {
			tg.Locs = []hex.Loc{st.loc(t)}
		}
		if sp.Effect == "levitation" {
			for _, s := range o.Hexes {
				l, err := locOn(st.board, s)
				if err != nil {
					return nil, err.Error()
				}
				tg.Locs = append(tg.Locs, l)
			}
		}
	case "hex":
		l, why := w.hexOf(at)
		if why != "" {
			return nil, why
		}
		tg.Locs = append([]hex.Loc{l}, st.around(l, sp.Radius)...) // spell_nature.go: a cloud's hexes
	case "hexes":
		for _, s := range o.Hexes {
			if a, b, ok := strings.Cut(s, "/"); ok {
				side, why := hexsideOf(st, a, b)
				if why != "" {
					return nil, why
				}
				tg.Sides = append(tg.Sides, side)
				ha, hb := side.Hexes()
				tg.Locs = append(tg.Locs, st.board.FloorLoc(ha), st.board.FloorLoc(hb))
				continue
			}
			l, err := locOn(st.board, s)
			if err != nil {
				return nil, err.Error()
			}
			tg.Locs = append(tg.Locs, l)
		}
		if len(o.Hexes) == 0 {
			return nil, "list the hexes it is cast on under hexes:"
		}
	}
	if o.To != "" {
		l, err := locOn(st.board, o.To)
		if err != nil {
			return nil, "to: " + err.Error()
		}
		tg.To = &l
		if sp.Effect == "teleport" {
			tg.Locs = append(tg.Locs, l) // its range is to the destination (AMB-81)
		}
	}
	return tg, ""
}

// hexOf is the location s names: a location, or a character's.
func (w *world) hexOf(s string) (hex.Loc, string) {
	st := w.st()
	if t := st.Chars[s]; t != nil {
		if !t.Alive() {
			return hex.Loc{}, fmt.Sprintf("%s is not on the map", s)
		}
		return st.loc(t), ""
	}
	l, err := locOn(st.board, s)
	if err != nil {
		return l, fmt.Sprintf("at: name a location or a character (%v)", err)
	}
	return l, ""
}

// hexsideOf is the hexside between hexes a and b ("0202/0203").
func hexsideOf(st *State, a, b string) (hex.Hexside, string) {
	ha, err1 := hex.Parse(a)
	hb, err2 := hex.Parse(b)
	if err1 != nil || err2 != nil || !st.board.OnMap(ha) || !st.board.OnMap(hb) {
		return hex.Hexside{}, fmt.Sprintf("%s/%s: a hexside is written as two hexes of the map next to each other, \"0202/0203\"", a, b)
	}
	side, ok := st.board.SideBetween(ha, hb)
	if !ok {
		return side, fmt.Sprintf("%s and %s are not next to each other", a, b)
	}
	return side, ""
}

// spellCost is what o costs (DN3-SPELL-GEN-3, -4, AMB-21, AMB-100).
func (w *world) spellCost(c *Char, sp *Spell, o *SpellOrder, tg *spellTarget) (int, string) {
	st := w.st()
	cost := sp.Cost
	t := tg.Unit
	if sp.OnOther != nil && t != nil && t != c {
		cost = *sp.OnOther
	}
	switch {
	case cost.Fixed > 0:
		return cost.Fixed, ""
	case cost.Per != "":
		n := 0
		switch cost.Per {
		case "mp", "point":
			if o.Units < 1 {
				return 0, fmt.Sprintf("say how many %s it buys (units:)", map[string]string{"mp": "MP", "point": "points"}[cost.Per])
			}
			n = o.Units
		case "hex":
			n = len(o.Hexes) // hexes, hexsides, or a levitation's path (AMB-83)
		case "distance":
			if tg.To == nil {
				return 0, "name its destination under to:"
			}
			n = st.distanceTo(c, *tg.To)
		}
		each := cost.Each
		if t != nil && cost.Wounded > 0 && t.Wounds > 0 {
			each = cost.Wounded
		}
		if t != nil && cost.Heavy > 0 && (st.Kind(t).Armoured || st.Kind(t).Has(TagHeavy)) {
			each = cost.Heavy
		}
		return each * n, ""
	case len(cost.Sizes) > 0:
		n := len(o.Hexes)
		v, ok := cost.Sizes[n]
		if !ok {
			return 0, fmt.Sprintf("%d hexes is not one of its sizes (%v)", n, slices.Sorted(maps.Keys(cost.Sizes)))
		}
		return v, ""
	case len(cost.Target) > 0:
		if t == nil {
			return 0, "its cost depends on its target: name a character under at:"
		}
		f, _ := st.Values(t)
		if cost.Face == "healthy" {
			f = st.Kind(t).Faces["healthy"]
		}
		n := 0
		for _, v := range cost.Target {
			n += map[string]int{"attack": f.Attack, "defence": f.Defence, "move": f.Move}[v]
		}
		return n, ""
	}
	return 0, "the module gives it no cost"
}
