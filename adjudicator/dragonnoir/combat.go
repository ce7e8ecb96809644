package dragonnoir

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/pause"
)

// Chapter: combat (A.9): odds rounded for the defender (DN-COMBAT-3, -4),
// never below 1-1 (DN-COMBAT-5, AMB-4), terrain shifts (DN-TERRAIN,
// shifts.yaml), several attackers and defenders (DN-MULTI), armour
// (DN-ARMOR), the Killers' -1 (DN-KROB-4), the Guards' modes and the
// Queen's and Guards' rear (DN-KROB-1 … 3), the casualty choice
// (PBEM-DN-9) and the advance after combat (DN-ADV, PBEM-DN-10) as pauses,
// and webs (DN-WEB).
//
// The Krob-specific parts (the Guards' modes and "between the legs", the
// rear, the Killers) are the special rules' (special.go, DN-KROB); this
// file is the procedure: who may fight, the odds, the roll, the results in
// order with their questions, the advance (advance.go), retreats
// (retreat.go) and webs (web.go).

// combatWork is a combat in progress: who fights, the result rolled, how
// many of its effects are applied, and what the losers left.
type combatWork struct {
	Side      adjudicator.Side `json:"side"`
	Attackers []string         `json:"attackers"`
	Defenders []string         `json:"defenders"`
	Effects   []Effect         `json:"effects,omitempty"`
	Applied   int              `json:"applied"`
	Used      Provs            `json:"used,omitempty"`
	// Vacated: the locations the defenders (D) or attackers (A) left, or
	// where one was stunned or killed (DN-ADV-2).
	VacatedD []string `json:"vacated_d,omitempty"`
	VacatedA []string `json:"vacated_a,omitempty"`
	Advanced bool     `json:"advanced,omitempty"`
	// Victim is who takes the effect being applied, once chosen
	// (PBEM-DN-9); Done who of the group has already retreated for it.
	Victim string   `json:"victim,omitempty"`
	Done   []string `json:"done,omitempty"`
	// Retreat is a retreat waiting for its owner's path (PBEM-DN-11).
	Retreat *retreatWork `json:"retreat,omitempty"`
}

const flagAttackedTwice = "attacked-twice"

// attackOrder resolves one combat of a player's orders (PBEM-DN-4, -8).
func (w *world) attackOrder(p *program, o *AttackOrder) bool {
	wk := p.work()
	if wk.Combat == nil {
		if o.Web != "" {
			w.tearWeb(o)
			return false
		}
		if o.Ram != "" { // DN3: special_ent.go
			w.ramOrder(o)
			return false
		}
		cw, why := w.declare(p.Side, o)
		if why != "" {
			w.say(nil, "%s do not attack %s: %s.", list(o.Attackers), list(o.Defenders), why)
			return false
		}
		if !w.rollCombat(cw, o) {
			return false
		}
		wk.Combat = cw
	}
	return w.applyCombat(p, wk.Combat)
}

// declare checks an attack (DN-COMBAT-1, -2, -6, -7, DN-MULTI-1, -2) and
// flags its attackers; why says why it cannot be made.
func (w *world) declare(side adjudicator.Side, o *AttackOrder) (*combatWork, string) {
	st := w.st()
	cw := &combatWork{Side: side}
	for _, id := range o.Attackers {
		a := st.Chars[id]
		switch {
		case a == nil || !a.Standing() || a.Side != side:
			return nil, fmt.Sprintf("%s is not on its feet", id)
		case st.Is(flagAttacked, id) && !w.mayAttackAgain(a): // special.go: a Guard's two attacks
			return nil, fmt.Sprintf("%s has already attacked this turn (DN-COMBAT-2)", id)
		}
		cw.Attackers = append(cw.Attackers, id)
	}
	for _, id := range o.Defenders {
		d := st.Chars[id]
		if d == nil || !d.Alive() || !Enemy(side, d.Side) {
			return nil, fmt.Sprintf("%s is no living enemy on the map", id)
		}
		if why := st.wardedChar(d); why != "" { // magic chapter
			return nil, why
		}
		cw.Defenders = append(cw.Defenders, id)
	}
	for _, id := range cw.Attackers {
		if !slices.ContainsFunc(cw.Defenders, func(d string) bool { return st.CanAttack(st.Chars[id], st.Chars[d]) }) {
			return nil, fmt.Sprintf("%s is not in position to attack any of them (DN-COMBAT-6, -7)", id)
		}
	}
	for _, d := range cw.Defenders {
		if !slices.ContainsFunc(cw.Attackers, func(a string) bool { return st.CanAttack(st.Chars[a], st.Chars[d]) }) {
			return nil, fmt.Sprintf("no attacker is in position to attack %s (DN-COMBAT-7)", d)
		}
	}
	if why := w.declareSpecial(cw, o); why != "" { // special.go: Guards' modes, front and rear, co-defenders
		return nil, why
	}
	if why := w.declarePeoples(cw, o); why != "" { // chapter: the valley's peoples (combat_peoples.go): a charge
		return nil, why
	}
	return cw, ""
}

// spend marks cw's attackers as having made their attack of the turn
// (DN-COMBAT-2; a Guard's second, DN-KROB-1). An attack the odds forbid
// was never made and spends nothing.
func (w *world) spend(cw *combatWork) {
	st := w.st()
	for _, id := range cw.Attackers {
		flag := flagAttacked
		if st.Is(flagAttacked, id) {
			flag = flagAttackedTwice
		}
		w.emit(&Flagged{Flag: flag, IDs: []string{id}})
	}
}

// adjacent reports whether a and b touch.
func (w *world) adjacent(a, b *Char) bool {
	st := w.st()
	for _, la := range st.Locs(a) {
		for _, lb := range st.Locs(b) {
			if st.Touch(la, lb) {
				return true
			}
		}
	}
	return false
}

// rollCombat works out the odds, shifts and modifiers and rolls on the
// Combat Table (DN-COMBAT-3, ROLL-2). false when the odds leave the table.
func (w *world) rollCombat(cw *combatWork, o *AttackOrder) bool {
	st := w.st()
	var used Provs
	att, def := 0, 0
	legs := o.Mode == "legs"
	attTerr, defTerr := "+", "-"
	killer := false
	for _, id := range cw.Attackers {
		a := st.Chars[id]
		f, p := st.Values(a)
		used = append(used, p)
		v := f.Attack
		if legs && st.Kind(a).Has(TagGuard) || st.doubled(a, o) {
			v *= 2 // DN-KROB-1; an Ent's two attacks (DN3-PEOPLE-ENT-9)
		}
		att += v
		t, tp := st.CombatTerrain(a)
		used = append(used, tp...)
		if rank(t) < rank(attTerr) {
			attTerr = t // DN-MULTI-5: the least advantageous
		}
		killer = killer || st.Kind(a).Has(TagKiller)
	}
	armoured, bySpell := true, false
	for _, id := range cw.Defenders {
		d := st.Chars[id]
		f, p := st.Values(d)
		used = append(used, p)
		v := f.Defence
		if o.From == "rear" && f.Rear > 0 {
			v = f.Rear
		}
		def += v
		t, tp := st.CombatTerrain(d)
		used = append(used, tp...)
		if rank(t) > rank(defTerr) {
			defTerr = t // AMB-31: the most advantageous
		}
		armoured = armoured && (st.Kind(d).Armoured || st.spellArmoured(d)) // magic chapter: the Armour spell (DN3-SPELL-SORC-9)
		bySpell = bySpell || !st.Kind(d).Armoured
	}
	w.carriedWords(cw) // DN3: who fights as on negative terrain (special_ent.go)
	n := att / def     // rounded in the defender's favour (DN-COMBAT-4)
	who := fmt.Sprintf("%s (%d) against %s (%d)", list(cw.Attackers), att, list(cw.Defenders), def)
	if n < 1 {
		w.say(used, "%s: odds below 1-1, the attack is impossible (DN-COMBAT-5).", who)
		return false
	}
	shift, sp := st.data.Shift(attTerr, defTerr)
	used = append(used, sp)
	why := []string{fmt.Sprintf("terrain %s against %s %+d", attTerr, defTerr, shift)}
	together, noShift, giantMod, giantWords := w.giantMods(cw, o) // DN3: the Ents (special_ent.go)
	if text := w.unicornShift(cw); together && text != "" {       // combat_peoples.go: foot characters against a unicorn (DN3-PEOPLE-UNIC-2)
		together, noShift = false, text
	}
	if together {
		shift++
		why = append(why, "together +1 (DN-MULTI-2)")
	}
	if noShift != "" {
		why = append(why, noShift)
	}
	if legs {
		shift++
		why = append(why, "between the legs +1 (DN-KROB-1)")
	}
	if n, words := st.fatigueShift(cw); len(words) > 0 { // DN3 battles: Fatigue (battle_fatigue.go)
		shift += n
		why = append(why, words...)
	}
	if n, text, p := w.peoplesShifts(cw, o); len(text) > 0 { // chapter: the valley's peoples: Grey Dwarves, a charge
		shift += n
		why = append(why, text...)
		used = append(used, p...)
	}
	col, ok := st.data.Column(n + shift)
	if !ok {
		w.say(used, "%s: odds %d-1, shifted %+d, fall left of the Combat Table: the attack cannot be made (AMB-4).", who, n, shift)
		return false
	}
	used = append(used, col.Prov)
	mod := 0
	var mods []string
	if armoured {
		mod++
		mods = append(mods, "+1 armoured defence (DN-ARMOR-1)")
		if bySpell {
			mods[len(mods)-1] = "+1 armoured defence (DN-ARMOR-1; the Armour spell, DN3-SPELL-SORC-9)"
		}
	}
	if killer {
		mod--
		mods = append(mods, "-1 Killer (DN-KROB-4)")
	}
	mod += giantMod
	mods = append(mods, giantWords...)
	if cw.Side != Gharvs {
		w.spend(cw)
		w.declared(cw, o)    // special.go: what a Guard attacked (DN-KROB-1)
		w.entDeclared(cw, o) // special_ent.go: what an Ent attacked (DN3-PEOPLE-ENT-9)
	}
	r := w.d10(fmt.Sprintf("combat on %s by %s", list(cw.Defenders), list(cw.Attackers)))
	code, es, _ := col.Combat(r.Total + mod)
	res := "no effect"
	if k := st.data.Key[code]; k != nil {
		res = code + ": " + k.Means
		used = append(used, k.Prov)
	}
	outcome(r, used, "%+d makes %d at %s: %s", mod, modified(r.Total+mod), col.Odds, res)
	cw.Effects, cw.Used = es, used
	modText := ""
	if len(mods) > 0 {
		modText = "; " + strings.Join(mods, ", ")
	}
	w.say(used, "%s: odds %d-1, %s: column %s%s; %s.", who, n, strings.Join(why, ", "), col.Odds, modText, res)
	var path []string
	for _, id := range append(slices.Clone(cw.Attackers), cw.Defenders...) {
		path = append(path, st.Chars[id].At)
	}
	w.emit(&Traced{Trace: adjudicator.Trace{Kind: "melee", Unit: cw.Attackers[0], Path: path, Result: res}})
	return true
}

// applyCombat applies a combat's effects from where it stands, asking the
// owner which of several characters takes a stunned, wounded or killed
// result (PBEM-DN-9) and, inside a retreat, its path (PBEM-DN-11), then
// offers the advance after combat (DN-ADV). It reports a pause.
func (w *world) applyCombat(p *program, cw *combatWork) bool {
	st := w.st()
	w.fight = &fightCtx{p: p, cw: cw}
	defer func() { w.fight = nil }()
	for ; cw.Applied < len(cw.Effects); cw.Applied, cw.Victim, cw.Done = cw.Applied+1, "", nil {
		e := cw.Effects[cw.Applied]
		group, by, vac := cw.Defenders, cw.Attackers, &cw.VacatedD
		if e.Who == 'A' {
			group, by, vac = cw.Attackers, cw.Defenders, &cw.VacatedA
		}
		bys := chars(st, by)
		if rw := cw.Retreat; rw != nil { // resumed with the path of this retreat
			c := st.Chars[rw.Unit]
			before := st.Locs(c)
			w.retreat(c, rw.N, chars(st, rw.From))
			if w.fight.paused {
				return true
			}
			*vac = addNew(*vac, w.left(c, before)...)
			if e.What != Retreat {
				continue
			}
			cw.Done = append(cw.Done, c.ID)
		}
		if e.What == Retreat { // DN-MULTI-4: everyone retreats
			for _, id := range group {
				c := st.Chars[id]
				if !c.Alive() || slices.Contains(cw.Done, id) {
					continue
				}
				before := st.Locs(c)
				w.hurt(c, Retreat, e.N, bys, cw.Used, true)
				if w.fight.paused {
					return true
				}
				cw.Done = append(cw.Done, id)
				*vac = addNew(*vac, w.left(c, before)...)
			}
			continue
		}
		var alive []*Char
		for _, id := range group {
			if c := st.Chars[id]; c.Alive() {
				alive = append(alive, c)
			}
		}
		if len(alive) == 0 {
			continue
		}
		if cw.Victim == "" {
			victim := alive[0]
			if len(alive) > 1 {
				c, paused := w.casualty(p, alive, e)
				if paused {
					return true
				}
				victim = c
			}
			cw.Victim = victim.ID
		}
		victim := st.Chars[cw.Victim]
		before := st.Locs(victim)
		w.hurt(victim, e.What, e.N, bys, cw.Used, true)
		if w.fight.paused {
			return true
		}
		*vac = addNew(*vac, w.left(victim, before)...) // DN-ADV-2: and the hex of the stunned or killed
	}
	w.fight = nil // an advance's infiltration takes the referee's retreat paths
	if !cw.Advanced {
		if paused := w.advance(p, cw); paused {
			return true
		}
		cw.Advanced = true
	}
	return false
}

func chars(st *State, ids []string) []*Char {
	out := make([]*Char, 0, len(ids))
	for _, id := range ids {
		out = append(out, st.Chars[id])
	}
	return out
}

// addNew appends the values of vs l does not hold yet.
func addNew(l []string, vs ...string) []string {
	for _, v := range vs {
		if !slices.Contains(l, v) {
			l = append(l, v)
		}
	}
	return l
}

// casualty asks the owner of alive which of them takes effect e
// (DN-MULTI-3, PBEM-DN-9). A standing priority list answers at once: its
// first entry naming one of them, by ID or as kind:KIND, takes it. The
// default, at a deadline or when the answer names none of them, is the one
// with the lowest current attack, the first named on a tie (PBEM-GEN-3).
func (w *world) casualty(p *program, alive []*Char, e Effect) (*Char, bool) {
	st := w.st()
	ids := make([]string, len(alive))
	low := alive[0]
	for i, c := range alive {
		ids[i] = c.ID
		f, _ := st.Values(c)
		if lf, _ := st.Values(low); f.Attack < lf.Attack {
			low = c
		}
	}
	ans, ok := w.take()
	if !ok {
		q := pause.Question{Side: alive[0].Side, Key: KeyCasualties,
			Title:   fmt.Sprintf("turn %d, who of %s is %s", st.Turn, list(ids), e.What),
			Prompt:  fmt.Sprintf("One of %s is %s (DN-MULTI-3). Answer who, or a priority list of IDs and kind:KIND entries, first first; with none of them, %s (the lowest attack) takes it.", list(ids), e.What, low.ID),
			Default: low.ID}
		var paused bool
		if ans, paused = w.pauseFor(p, q); paused {
			return nil, true
		}
	}
	var pick []string
	if err := yaml.Unmarshal([]byte(ans), &pick); err != nil {
		pick = []string{strings.TrimSpace(ans)}
	}
	for _, id := range pick {
		for _, c := range alive {
			if c.ID == id || strings.HasPrefix(id, "kind:") && c.Kind == strings.TrimPrefix(id, "kind:") {
				w.say(nil, "%s takes the %s result (DN-MULTI-3).", c.ID, e.What)
				return c, false
			}
		}
	}
	w.say(nil, "%s takes the %s result: the lowest attack (PBEM-GEN-3).", low.ID, e.What)
	return low, false
}
