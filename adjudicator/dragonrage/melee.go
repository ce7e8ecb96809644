package dragonrage

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// Attack is one melee attack on a hex (DR-MELEE-1..12).
type Attack struct {
	At     string   `yaml:"attack"`
	With   []string `yaml:"with,omitempty"`
	Fire   []string `yaml:"fire,omitempty"`   // archers and goblins adding their fire (DR-FIRE-4)
	Target string   `yaml:"target,omitempty"` // a monster in a mixed hex
	Open   bool     `yaml:"open,omitempty"`   // the defender opens the entrances it attacks through (DR-ENTR-9)
	Groups []string `yaml:"groups,omitempty"` // a major monster's groups that attack (major_melee.go)
	Area   string   `yaml:"area,omitempty"`   // the area of a major monster attacked (major_melee.go)
}

const meleeExample = `  - attack: 1108
    with: [INF-1, INF-2]
    fire: [ARH-3]`

// canMelee reports whether side has a unit next to an enemy that could
// attack it.
func (w *world) canMelee(side adjudicator.Side) bool {
	for _, u := range w.st.alive(side) {
		if u.Hex == "" || u.Attacked || u.NoAttack || w.st.typ(u).DefenceOnly || w.st.typ(u).Attack == 0 {
			continue
		}
		// Archers melee only when the game's ruling lets them (DR-AMB-24),
		// exactly as checkAttacker accepts their attack.
		if ty := w.st.typ(u); !ty.Melees() && !(ty.Melee == MeleeByFire && w.st.ruling("archers") == "may-melee") {
			continue
		}
		for _, n := range w.st.hexOf(u).Neighbours() {
			if w.enemyOnGround(n.String(), u) { // a flyer cannot be meleed (DR-MATK-2)
				return true
			}
		}
	}
	return w.serpentCanAttackVP(side) || w.majorCanMelee(side) // DR-SERP-8; major monsters
}

// checkAttacker says why u may not join a melee on hex t, or "".
func (w *world) checkAttacker(u *Unit, t hex.Hex, open bool) (string, string) {
	if code, why := w.mayMelee(u); why != "" {
		return code, why
	}
	a := w.st.hexOf(u)
	if !a.Adjacent(t) {
		return codeNotAdjacent, fmt.Sprintf("%s in %s is not next to %s (DR-MELEE-1)", u.ID, a, t)
	}
	if why := w.serpentMelee(u, a, t, w.meleeBlocked(a, t)); why != "" {
		if open && u.Side == Defender && w.canOpen(u, a, t) {
			return "", ""
		}
		return codeCannot, fmt.Sprintf("%s cannot attack %s: %s", u.ID, t, why)
	}
	if why := w.magicBlocksAttack(a, t); why != "" {
		return codeCannot, why
	}
	return "", ""
}

// mayMelee says why u makes no melee attack at all this turn, or "".
func (w *world) mayMelee(u *Unit) (string, string) {
	ty := w.st.typ(u)
	switch {
	case u.Hex == "":
		return codeCannot, fmt.Sprintf("%s is not on the map", u.ID)
	case u.Attacked:
		return codeTwice, fmt.Sprintf("%s has already attacked or fired this turn (DR-MELEE-8)", u.ID)
	case u.NoAttack:
		return codeCannot, fmt.Sprintf("%s may not attack this turn (it climbed, or destroyed a VP hex or a bridge)", u.ID)
	case ty.DefenceOnly || ty.Attack == 0:
		return codeCannot, fmt.Sprintf("%s fights only in defence (DR-COMP-5, DR-WZD-2)", u.ID)
	case ty.Melee == MeleeByFire && w.st.ruling("archers") != "may-melee":
		return codeCannot, fmt.Sprintf("archers attack with the fire rules, even when adjacent: put %s under \"fire:\" (DR-ARH-1, DR-AMB-24; the game option archers=may-melee allows melee)", u.ID)
	case ty.Melee == MeleeNever:
		return codeCannot, fmt.Sprintf("%s cannot make melee attacks; it may add its fire (DR-SIEGE-3)", u.ID)
	}
	return "", ""
}

// canOpen reports whether defender unit u may open the entrance between a
// and t to attack out: it controls it, from a tower or from behind it
// (DR-ENTR-9).
func (w *world) canOpen(u *Unit, a, t hex.Hex) bool {
	f, ok := w.feature(a, t)
	return ok && w.m.IsEntrance(f.Kind) && w.passable(f, Defender)
}

func (w *world) parseMelee(side adjudicator.Side, n *yaml.Node) (*Orders, error) {
	list, err := items(n, meleeExample)
	if err != nil {
		return nil, err
	}
	o := &Orders{}
	used := map[string]bool{}
	for _, item := range list {
		f, err := fields(item, "attack", "with", "fire", "target", "open", "groups", "area")
		if err != nil {
			return nil, err
		}
		if f["attack"] == nil || (f["with"] == nil && f["fire"] == nil) {
			return nil, adjudicator.Errorf(item, adjudicator.CodeMissingField, "a melee order names the hex and the attackers:\n%s", meleeExample)
		}
		at, err := w.parseHex(f["attack"])
		if err != nil {
			return nil, err
		}
		th, _ := hex.Parse(at)
		if w.isMajorMelee(side, at, f) { // by or on a major monster (major_melee.go)
			a, err := w.parseMajorMelee(side, f, at, used, o.Attacks)
			if err != nil {
				return nil, err
			}
			o.Attacks = append(o.Attacks, a)
			continue
		}
		a := &Attack{At: at}
		if len(w.st.at(at)) == 0 { // a sea serpent "attacks" an empty VP hex (DR-SERP-8)
			if err := w.checkVPAttack(side, a, f, used, o.Attacks); err != nil {
				return nil, err
			}
			o.Attacks = append(o.Attacks, a)
			continue
		}
		if x := f["open"]; x != nil {
			if x.Value != "true" && x.Value != "false" {
				return nil, adjudicator.Errorf(x, adjudicator.CodeBadValue, "write \"open: true\" to open the entrance")
			}
			a.Open = x.Value == "true"
			if a.Open && side != Defender {
				return nil, adjudicator.Errorf(x, codeCannot, "only the defender opens entrances to attack out (DR-ENTR-9)")
			}
		}
		if err := w.checkTarget(side, th, f["attack"], f["target"], &a.Target); err != nil {
			return nil, err
		}
		for _, group := range []struct {
			key  string
			fire bool
		}{{"with", false}, {"fire", true}} {
			node := f[group.key]
			if node == nil {
				continue
			}
			check := func(u *Unit) (string, string) {
				code, why := w.checkAttacker(u, th, a.Open)
				if why == "" {
					code, why = w.checkMilitia(u, side, at, a.Target)
				}
				return code, why
			}
			if group.fire {
				check = func(u *Unit) (string, string) { return w.checkShot(u, th, true) }
			}
			ids, err := w.attackUnits(node, side, used, check)
			if err != nil {
				return nil, err
			}
			if group.fire {
				a.Fire = append(a.Fire, ids...)
			} else {
				a.With = append(a.With, ids...)
			}
		}
		o.Attacks = append(o.Attacks, a)
	}
	if err := w.forcedAttacks(side, o, n); err != nil {
		return nil, err // DR-TREX-4
	}
	if err := w.checkMajorOrders(side, o, n); err != nil {
		return nil, err // DR-AMB-58
	}
	return o, nil
}

// monsterStruck returns the monster an attack by side on hex t strikes:
// a minor monster with hit points, or an Elemental (a special minor
// monster, FR §2.2, §2.11.4, fought on the CRT), or nil.
func (w *world) monsterStruck(side adjudicator.Side, t, named string) *Unit {
	monster, others := w.targets(side, t, named)
	if monster != nil {
		return monster
	}
	for _, u := range others {
		if w.st.isMonsterType(u) {
			return u
		}
	}
	return nil
}

// checkMilitia says why militia unit u will not join an attack on hex t,
// or "": militia attack Dragons and monsters, major or minor, only with a
// hero (wounded or not) in its hex or next to it, or under Boost Morale
// (DR-MIL-1, FR §2.10.1.1; DR-SPELL-MORALE-7). Both are known when the
// orders arrive: no unit moves in a melee phase and the attacking side's
// hero cannot die in it, so such an attack is refused then (DR-GEN-3)
// rather than dropped in resolution.
func (w *world) checkMilitia(u *Unit, side adjudicator.Side, t, named string) (string, string) {
	if !w.st.typ(u).NeedsHeroVsMonsters() || w.heroBy(u, true) || w.boosted(u) {
		return "", ""
	}
	m := w.monsterStruck(side, t, named)
	if m == nil {
		return "", ""
	}
	return codeCannot, fmt.Sprintf("%s will not attack %s in %s: militia attack monsters only with a hero in their hex or next to them, or under Boost Morale (DR-MIL-1); move a hero next to %s first, boost it in your magic phase, or leave it out of this attack", u.ID, m.ID, t, u.ID)
}

func (w *world) resolveMelee(o *Orders) {
	if w.berserkAttacks(o); w.st.Over { // DR-AMB-58
		return
	}
	for _, a := range o.Attacks {
		w.attack(a)
		if w.st.Over {
			return
		}
	}
	w.berserkDeaths() // DR-DRAGON-DEF-4
}

// attack resolves one melee attack, re-checking it first: earlier attacks
// may have emptied the hex or killed attackers (DR-MELEE-4, DR-PBEM-4).
func (w *world) attack(a *Attack) {
	if w.vpAttack(a) {
		return // DR-SERP-8
	}
	if w.majorMelee(a) {
		return // by or on a major monster
	}
	t, _ := hex.Parse(a.At)
	attackers := w.readyAttackers(a, t, nil)
	var side adjudicator.Side
	for _, id := range slices.Concat(a.With, a.Fire) {
		side = w.st.unit(id).Side
	}
	monster, others := w.targets(side, a.At, a.Target)
	if monster == nil && len(others) == 0 {
		w.sayf("the attack on %s does not happen: no enemy is left there", a.At)
		return
	}
	if a.Open {
		w.openEntrances(attackers, t)
	}
	if monster != nil {
		w.meleeMonster(attackers, a.Fire, monster, t)
		return
	}
	if elm := w.monsterStruck(side, a.At, a.Target); elm != nil {
		kept := w.willAttack(attackers, elm) // an Elemental is a minor monster (DR-MIL-1, DR-MATK-17)
		for _, u := range attackers {
			if !slices.Contains(kept, u) {
				w.emit(&Flagged{Unit: u.ID, Attacked: true}) // it may not attack again this turn
			}
		}
		attackers = kept
	}
	fireStrength, firers := w.fireAt(a.Fire, a.At, a.Target, true)
	if len(attackers) == 0 && len(firers) == 0 {
		w.sayf("the attack on %s does not happen: none of %s attacks", a.At, unitIDs(append(w.units(a.With), w.units(a.Fire)...)))
		return
	}
	strength, boosted := w.troopsAttack(attackers, a.At)
	strength += fireStrength + w.boltPower(side, others) // a Lightning kept for this melee (DR-SPELL-LIGHT-7)
	mod, note := boostMod(boosted, strength)
	def := w.defence(others)
	w.wizardAttacked(others...) // DR-SPELL-ELEM-8
	label := fmt.Sprintf("melee on %s by %s", a.At, unitIDs(append(attackers, firers...)))
	hit, how := w.resolveCRT(label, strength, def, mod)
	w.sayf("%s: strength %d v %d%s, %s", label, strength, def, note, how)
	if hit {
		for _, d := range others {
			w.kill(d, label)
		}
	}
}

// meleeMonster resolves attacks on a minor monster: each attacker rolls on
// its own to hit it and does its strength in damage (DR-MATK-6, -13, -14).
func (w *world) meleeMonster(attackers []*Unit, fire []string, m *Unit, t hex.Hex) {
	for i, u := range attackers {
		if m.Gone {
			w.sayf("%s: %s already destroyed, so %s %s no attack", t, m.ID, unitIDs(attackers[i:]), plural(len(attackers[i:]), "makes", "make"))
			break
		}
		w.emit(&Flagged{Unit: u.ID, Attacked: true})
		w.trace("melee", u.ID, []string{u.Hex, t.String()}, "")
		if len(w.willAttack([]*Unit{u}, m)) == 0 {
			continue
		}
		w.meleedMonster(u, m) // DR-TREX-4
		need := w.st.typ(m).Hit
		mod, why := 0, ""
		switch {
		case w.heroNear(u):
			mod, why = 1, " +1 hero aura (DR-HERO-2)"
		case w.boosted(u):
			mod, why = 1, " +1 Boost Morale (DR-SPELL-MORALE-5)"
		}
		label := fmt.Sprintf("melee on %s in %s by %s", m.ID, t, u.ID)
		r := w.roll(label, 1)
		hit := r.Total+mod >= need
		dmg := w.meleeStrength(u)
		r.Outcome = fmt.Sprintf("needs %d+%s: %s", need, why, map[bool]string{true: fmt.Sprintf("hit, %d damage", dmg), false: "missed"}[hit])
		w.sayf("%s: %s", label, r.Outcome)
		if hit {
			w.damage(m, dmg, u.ID+"'s attack")
		}
	}
	switch {
	case len(fire) == 0:
	case m.Gone:
		w.sayf("%s: %s already destroyed, so %s hold their fire", t, m.ID, joinIDs(fire))
	default:
		w.fireAt(fire, t.String(), m.ID, true)
	}
}

// willAttack returns the attackers that go through with an attack on
// monster m (a minor monster, or an Elemental): militia only with a hero by
// them or under Boost Morale (DR-MIL-1; refused when the orders arrive, so
// this is only a safeguard), and a demoralized unit only after passing its
// morale check (DR-MATK-17). Those that do not are reported.
func (w *world) willAttack(attackers []*Unit, m *Unit) []*Unit {
	var out []*Unit
	for _, u := range attackers {
		if w.st.typ(u).NeedsHeroVsMonsters() && !w.heroBy(u, true) && !w.boosted(u) {
			w.sayf("%s will not attack %s: militia attack monsters only with a hero by them or under Boost Morale (DR-MIL-1)", u.ID, m.ID)
			continue
		}
		if w.demoralized(u.Side) && !w.moraleCheck(u, m) {
			continue
		}
		out = append(out, u)
	}
	return out
}

// units returns the units of the given ids.
func (w *world) units(ids []string) []*Unit {
	out := make([]*Unit, 0, len(ids))
	for _, id := range ids {
		out = append(out, w.st.unit(id))
	}
	return out
}

func joinIDs(ids []string) string { return strings.Join(ids, ", ") }

// moraleCheck is the roll a demoralized unit makes before attacking a
// monster: 1d6 + 1 (+1 more under Boost Morale) against its escape number
// (DR-MATK-17, DR-MATK-19).
func (w *world) moraleCheck(u, m *Unit) bool {
	esc := w.st.typ(u).Escape
	mod := 1
	if w.boosted(u) {
		mod++
	}
	r := w.roll(fmt.Sprintf("morale of %s before attacking %s", u.ID, m.ID), 1)
	ok := r.Total+mod >= esc
	r.Outcome = fmt.Sprintf("+%d, needs %d: %s", mod, esc, map[bool]string{true: "it attacks", false: "it will not attack this turn (all its heroes are dead, DR-MATK-17)"}[ok])
	w.sayf("morale of %s: %s", u.ID, r.Outcome)
	return ok
}

// openEntrances opens the entrances the defender attacks through; they stay
// open through the invader's next turn (DR-ENTR-9).
func (w *world) openEntrances(attackers []*Unit, t hex.Hex) {
	for _, u := range attackers {
		a := w.st.hexOf(u)
		f, ok := w.feature(a, t)
		if !ok || !w.m.IsEntrance(f.Kind) {
			continue
		}
		e := w.entrance(f.Side.String())
		if e.Broken || e.OpenUntil > w.st.Turn {
			continue
		}
		w.emit(&EntranceChanged{Side: f.Side.String(), Controller: e.Controller, OpenUntil: w.st.Turn + 1})
		w.sayf("the defender opens the %s %s to attack out: it stays open through the invader's next turn (DR-ENTR-9)", f.Kind, f.Side)
	}
}

// troopsAttack adds up the attackers' melee strengths for one attack on
// hex at, each marked as having attacked and traced; boosted is the part
// of the strength under Boost Morale.
func (w *world) troopsAttack(attackers []*Unit, at string) (strength, boosted int) {
	for _, u := range attackers {
		s := w.meleeStrength(u)
		strength += s
		if w.boosted(u) {
			boosted += s
		}
		w.emit(&Flagged{Unit: u.ID, Attacked: true})
		w.trace("melee", u.ID, []string{u.Hex, at}, "")
	}
	return strength, boosted
}

// boostMod is Boost Morale's +1 on the CRT, when at least half the attack's
// strength is boosted (DR-SPELL-MORALE-4), and the report's note of it.
func boostMod(boosted, strength int) (int, string) {
	if boosted > 0 && 2*boosted >= strength {
		return 1, ", +1 Boost Morale (DR-SPELL-MORALE-4)"
	}
	return 0, ""
}

// attackUnits reads the units of a "with:" or "fire:" list of an attack,
// each attacking once a turn (DR-MELEE-8) and each checked by check, which
// says why it may not (an error code and a reason) or "".
func (w *world) attackUnits(node *yaml.Node, side adjudicator.Side, used map[string]bool, check func(*Unit) (string, string)) ([]string, error) {
	us, err := w.unitList(node, side)
	if err != nil {
		return nil, err
	}
	var ids []string
	for i, u := range us {
		un := node
		if node.Kind == yaml.SequenceNode {
			un = node.Content[i]
		}
		if used[u.ID] {
			return nil, adjudicator.Errorf(un, codeTwice, "%s attacks twice; each unit attacks once a turn (DR-MELEE-8)", u.ID)
		}
		used[u.ID] = true
		if code, why := check(u); why != "" {
			return nil, adjudicator.Errorf(un, code, "%s", why)
		}
		ids = append(ids, u.ID)
	}
	return ids, nil
}

// readyAttackers are the units of an attack's with: list, skip left out,
// that may still attack now it is resolved; the report says why any other
// does not (eliminated, or out of reach since the orders came).
func (w *world) readyAttackers(a *Attack, t hex.Hex, skip *Unit) []*Unit {
	var out []*Unit
	for _, id := range a.With {
		u := w.st.unit(id)
		switch {
		case u == skip:
		case u.Gone:
			w.sayf("%s does not attack %s: it was eliminated earlier this phase", id, a.At)
		default:
			if _, why := w.checkAttacker(u, t, a.Open); why != "" {
				w.sayf("%s does not attack: %s", id, why)
				continue
			}
			out = append(out, u)
		}
	}
	return out
}
