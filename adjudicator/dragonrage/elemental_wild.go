package dragonrage

// What Elementals do by themselves at the start of a phase: lose control
// (DR-SPELL-ELEM-8), move when out of control (DR-SPELL-ELEM-10), and make
// the attack they owe on the units they stopped with (DR-SPELL-ELEM-7).

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// elementalsAct runs at the start of every phase.
func (w *world) elementalsAct() {
	if len(w.st.Magic.Elementals) == 0 {
		return
	}
	w.checkControl()
	side := phases[w.st.Phase].side
	for _, rec := range w.st.Magic.clone().Elementals {
		u := w.st.unit(rec.Unit)
		if u.Gone || u.Hex == "" || w.st.Over {
			continue
		}
		wild := u.Side == ""
		switch w.st.Phase {
		case phInvMovement, phDefMovement:
			if wild {
				w.wildMove(u)
			}
		case phInvMelee, phDefMelee:
			if wild || u.Side == side {
				w.elementalAttack(u, rec, wild)
			}
		}
	}
}

// wildMove moves an uncontrolled Elemental toward the nearest unit of
// either side, into its hex if it can reach it (DR-SPELL-ELEM-10). It
// takes the cheapest path; among equal ones, the first found going round
// clockwise from north [umpire's ruling].
func (w *world) wildMove(e *Unit) {
	t := w.wildTarget(e)
	if t == nil {
		return
	}
	from := w.st.hexOf(e)
	goal := w.st.hexOf(t)
	cost, prev := w.elementalPaths(e, from, w.st.typ(e).MP)
	end := from
	if _, ok := cost[goal]; ok {
		end = goal
	} else {
		for h, c := range cost {
			d, bd := hex.Distance(h, goal), hex.Distance(end, goal)
			if d < bd || d == bd && (c < cost[end] || c == cost[end] && h.Less(end)) {
				end = h
			}
		}
	}
	if end == from {
		w.sayf("%s (out of control) stays in %s: %s in %s is the nearest unit (DR-SPELL-ELEM-10)", e.ID, e.Hex, t.ID, t.Hex)
		return
	}
	var path []string
	for h := end; h != from; h = prev[h] {
		path = append([]string{h.String()}, path...)
	}
	w.emit(&Moved{Unit: e.ID, From: from.String(), Path: path})
	w.trace("move", e.ID, append([]string{from.String()}, path...), "out of control")
	w.sayf("%s (out of control) goes for %s in %s, the nearest unit: %s (DR-SPELL-ELEM-10)", e.ID, t.ID, t.Hex, strings.Join(path, " "))
	for _, s := range path {
		h, _ := hex.Parse(s)
		w.destroyVP(h, e, "entered by the Elemental "+e.ID+" (DR-SPELL-ELEM-11, DR-AMB-44)")
		if w.st.Over {
			return
		}
	}
}

// elementalPaths returns the cheapest MP cost of every hex the Elemental
// can reach from a with mp MP, and the hex each is reached from.
func (w *world) elementalPaths(e *Unit, a hex.Hex, mp int) (map[hex.Hex]int, map[hex.Hex]hex.Hex) {
	cost := map[hex.Hex]int{a: 0}
	prev := map[hex.Hex]hex.Hex{}
	done := map[hex.Hex]bool{}
	for {
		var cur hex.Hex
		found := false
		for h, c := range cost {
			if !done[h] && (!found || c < cost[cur] || c == cost[cur] && h.Less(cur)) {
				cur, found = h, true
			}
		}
		if !found {
			return cost, prev
		}
		done[cur] = true
		for _, n := range cur.Neighbours() {
			if done[n] || w.elementalStep(cur, n) != "" {
				continue
			}
			c := cost[cur] + 1 + w.whirlwindCost(cur.String(), n.String(), e)
			if old, ok := cost[n]; c <= mp && (!ok || c < old) {
				cost[n], prev[n] = c, cur
			}
		}
	}
}

// wildTarget picks the nearest unit; among equally near ones a wizard, then
// a Dragon, a hero, another monster, then the strongest attacker; a die
// settles what is left (DR-SPELL-ELEM-10).
func (w *world) wildTarget(e *Unit) *Unit {
	eh := w.st.hexOf(e)
	var cands []*Unit
	best := -1
	for _, u := range w.st.Units {
		if u.ID == e.ID || u.Gone || u.Pool || u.Hex == "" {
			continue
		}
		d := hex.Distance(eh, w.st.hexOf(u))
		switch {
		case best < 0 || d < best:
			best, cands = d, []*Unit{u}
		case d == best:
			cands = append(cands, u)
		}
	}
	rank := func(u *Unit) int {
		switch {
		case w.st.typ(u).Casts():
			return 0
		case w.st.typ(u).IsDragon():
			return 1
		case w.st.typ(u).Leads():
			return 2
		case w.st.isMonsterType(u):
			return 3
		}
		return 1000 - w.st.typ(u).Attack // the strongest first
	}
	sort.SliceStable(cands, func(i, j int) bool { return rank(cands[i]) < rank(cands[j]) })
	byHex := map[string]*Unit{}
	var hexes []string
	for _, u := range cands {
		if rank(u) != rank(cands[0]) {
			break
		}
		if byHex[u.Hex] == nil {
			byHex[u.Hex] = u
			hexes = append(hexes, u.Hex)
		}
	}
	if len(hexes) <= 1 {
		if len(cands) == 0 {
			return nil
		}
		return cands[0]
	}
	sort.Strings(hexes)
	return byHex[hexes[w.tieBreak(e, hexes)]]
}

// tieBreak rolls 1d6 to choose one of the hexes, the faces split evenly
// between them (rolled again when they do not split evenly).
func (w *world) tieBreak(e *Unit, hexes []string) int {
	k := len(hexes)
	per := max(6/k, 1)
	for {
		r := w.roll(fmt.Sprintf("%s chooses between %s", e.ID, strings.Join(hexes, ", ")), 1)
		if r.Total <= per*k || per == 1 && k > 6 {
			i := (r.Total - 1) / per % k
			r.Outcome = fmt.Sprintf("%s (equally near and of equal priority, DR-SPELL-ELEM-10)", hexes[i])
			return i
		}
		r.Outcome = "no choice on this face: rolled again"
	}
}

// elementalAttack is the attack an Elemental must make on the units in its
// hex (DR-SPELL-ELEM-7); an uncontrolled one attacks whoever is there, in
// either side's melee phase (DR-SPELL-ELEM-10). It fights on the CRT; a
// monster with hit points it hits on that monster's number and does its
// strength in damage (DR-SPELL-ELEM-10 [Inference]). Made alone, at the
// start of the phase [umpire's ruling].
func (w *world) elementalAttack(e *Unit, rec Elemental, wild bool) {
	var others []*Unit
	for _, u := range w.st.at(e.Hex) {
		if u.ID != e.ID && (wild || u.Side != e.Side) && !u.Flying { // a flyer is above the hex
			others = append(others, u)
		}
	}
	if len(others) == 0 {
		return
	}
	if rec.Turn == w.st.Turn && rec.Pre == w.st.Pre {
		w.sayf("%s was summoned this turn and does not attack %s yet (DR-SPELL-ELEM-3)", e.ID, unitIDs(others))
		return
	}
	h := w.st.hexOf(e)
	if why := w.magicBlocksAttack(h, h); why != "" {
		w.sayf("%s does not attack %s: %s", e.ID, unitIDs(others), why)
		return
	}
	if !wild {
		w.emit(&Flagged{Unit: e.ID, Attacked: true})
	}
	w.trace("melee", e.ID, []string{e.Hex, e.Hex}, "")
	if !wild && w.demoralized(e.Side) {
		// A controlled Elemental is one of its side's troops and no Dragon
		// or major monster, so it is demoralized with them: before
		// attacking a monster it checks morale, and a failure means it
		// cannot attack this turn, its forced attack included (FR
		// §2.10.5.5, DR-MATK-16, DR-MATK-17; docs/rulings/dragon-rage.md).
		for _, m := range others {
			if w.st.isMonsterType(m) {
				if !w.moraleCheck(e, m) {
					return
				}
				break
			}
		}
	}
	strength := w.st.typ(e).Attack
	for _, m := range others {
		if w.st.typ(m).IsMajor() {
			w.elementalUnder(e, m, strength)
			return
		}
		if w.st.isMonster(m) {
			label := fmt.Sprintf("melee on %s in %s by %s", m.ID, e.Hex, e.ID)
			r := w.roll(label, 1)
			need := w.st.typ(m).Hit
			hit := r.Total >= need
			r.Outcome = fmt.Sprintf("needs %d+: %s", need, map[bool]string{true: fmt.Sprintf("hit, %d damage", strength), false: "missed"}[hit])
			w.sayf("%s must attack the unit it stopped with (DR-SPELL-ELEM-7): %s: %s", e.ID, label, r.Outcome)
			if hit {
				w.damage(m, strength, e.ID+"'s attack")
			}
			return
		}
	}
	w.wizardAttacked(others...)
	def := w.defence(others)
	label := fmt.Sprintf("melee on %s by %s", e.Hex, e.ID)
	hit, how := w.resolveCRT(label, strength, def, 0)
	w.sayf("%s must attack the units it stopped with (DR-SPELL-ELEM-7): %s: strength %d v %d, %s", e.ID, label, strength, def, how)
	if hit {
		for _, d := range others {
			w.kill(d, label)
		}
	}
}

// elementalUnder is an Elemental's attack on the major monster whose hex it
// stopped in: from underneath it reaches the areas attacked from there, and
// it strikes the easiest to hit that is not destroyed (the belly of a
// Dragon, 4+), a roll on its own doing its strength in damage
// (DR-SPELL-ELEM-7, DR-MATK-3, DR-MATK-5; docs/rulings/dragon-rage.md).
func (w *world) elementalUnder(e, m *Unit, strength int) {
	s := w.st.sheet(m)
	var best *Area
	for _, a := range s.def.Areas {
		if slices.Contains(a.From, posUnder) && !s.Destroyed(a.Name) && (best == nil || a.Hit < best.Hit) {
			best = a
		}
	}
	if best == nil {
		w.sayf("%s stands under %s but can reach no area of it", e.ID, m.ID)
		return
	}
	label := fmt.Sprintf("melee on %s's %s in %s by %s", m.ID, best.Name, e.Hex, e.ID)
	r := w.roll(label, 1)
	hit := r.Total >= best.Hit
	r.Outcome = fmt.Sprintf("needs %d+: %s", best.Hit, map[bool]string{true: fmt.Sprintf("hit, %d damage", strength), false: "missed"}[hit])
	w.sayf("%s must attack the unit it stopped with, from underneath (DR-SPELL-ELEM-7): %s: %s", e.ID, label, r.Outcome)
	if hit {
		w.damageMajor(m, best.Name, strength, e, e.ID+"'s attack")
	}
}
