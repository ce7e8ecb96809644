package dragonnoir

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
	"github.com/umpire-pbem/umpire/adjudicator/pause"
)

// Chapter: archery (A.5, A.6): offensive fire (DN-TURN-5 step 1,
// PBEM-DN-1), defensive fire during the Krob movement (DN-FIRE-12 … 14,
// PBEM-DN-6) by the Adventurers' triggers (fire_trigger.go) or, with the
// option defensive-fire: live, by asking; the line of fire and cover
// (fire_line.go, fire_geometry.go); the fire table (tables.go FireResult).
// The Adventurers' reactions to a Krob turn come in a mail of their own,
// due with the Krob player's and sealed like it (fire_reactions.go).

// Fire flags of a game turn (State.Done).
const (
	flagFiredOff = "fired-offensive"
	flagFiredDef = "fired-defensive"
	flagMoved    = "moved"
	flagAttacked = "attacked"
	flagCast     = "cast"
)

// fireOrder resolves one shot of offensive fire (PBEM-DN-1).
func (w *world) fireOrder(p *program, o *FireOrder) bool {
	st := w.st()
	sh, t := st.Chars[o.Shooter], st.Chars[o.At]
	if why := w.cannotFire(sh, t, flagFiredOff); why != "" {
		w.say(nil, "%s does not fire at %s: %s.", o.Shooter, o.At, why)
		return false
	}
	w.emit(&Flagged{Flag: flagFiredOff, IDs: []string{sh.ID}})
	w.shoot(sh, t, "offensive fire")
	return false
}

// cannotFire says why shooter may not fire at target now, "" if it may:
// it stands (AMB-12) and has a missile weapon (DN-FIRE-1); it has not
// fired in this sequence (DN-FIRE-2); it is not in water (DN-COVER-26); no
// enemy is in position to attack it (DN-FIRE-4); the target is a living
// enemy with no Adventurer it is in position to attack next to it
// (DN-COVER-17), one of whose hexes is within range (DN-FIRE-8) on a clear
// line (A.6) and not in total cover (DN-COVER-1).
func (w *world) cannotFire(sh, t *Char, flag string) string {
	st := w.st()
	switch {
	case sh == nil || !sh.Standing():
		return "the shooter is not on its feet (AMB-12)"
	case st.Kind(sh).Weapon == "":
		return "it has no bow or crossbow (DN-FIRE-1)"
	case st.Is(flag, sh.ID):
		return "it has already fired in this fire sequence (DN-FIRE-2)"
	case st.Terrain(st.loc(sh)).Has(TerrWater):
		return "a character in water cannot fire (DN-COVER-26)"
	case t == nil || !t.Alive() || !Enemy(sh.Side, t.Side):
		return "the target is no living enemy on the map"
	}
	if why := missileProof(t, st.Kind(t)); why != "" { // DN3: the dragon (special_dragon.go)
		return why
	}
	if why := w.cannotFireFromEnt(sh); why != "" { // DN3: from an Ent (special_ent.go)
		return why
	}
	if th := st.ThreatsTo(sh); len(th) > 0 {
		return fmt.Sprintf("%s is in position to attack it: it fights hand to hand (DN-FIRE-4)", th[0].ID)
	}
	for _, a := range st.Living(sh.Side) {
		if a != sh && st.CanAttack(t, a) {
			return fmt.Sprintf("%s is fighting %s: the shot could hit either (DN-COVER-17)", t.ID, a.ID)
		}
	}
	_, _, why := st.aim(sh, t)
	return why
}

// aim is the best shot of sh at t: of the locations t covers (several for
// the Queen and her Guards), one within range (DN-FIRE-8) on a clear line
// with the lowest cover, then the nearest; why says why there is none.
func (s *State) aim(sh, t *Char) (hex.Loc, string, string) {
	from := s.loc(sh)
	var best hex.Loc
	bestCover, why := "", ""
	for _, l := range s.Locs(t) {
		rng, words := s.data.Range, fmt.Sprintf("the %d hexes torches light (DN-FIRE-8)", s.data.Range)
		if s.Battle != nil { // DN3 battles: by day and by night (battle_fatigue.go)
			rng, words = s.battleRange(l)
		}
		if d := s.Distance(from, l); d > rng {
			if why == "" {
				why = fmt.Sprintf("%s is %d hexes away, beyond %s", t.ID, d, words)
			}
			continue
		}
		cover, no := s.LineOfFire(sh, t, l)
		switch {
		case no != "":
			why = "no line of fire: " + no
			continue
		case cover == "total":
			why = "the target is in total cover (DN-COVER-1)"
			continue
		}
		if bestCover == "" || coverRank(cover) < coverRank(bestCover) ||
			cover == bestCover && s.Distance(from, l) < s.Distance(from, best) {
			best, bestCover = l, cover
		}
	}
	if bestCover == "" {
		return best, "", why
	}
	return best, bestCover, ""
}

// shoot rolls one shot and applies its result (DN-FIRE-9 … 11): one d10,
// the modifiers of the shooter and the target (counters.yaml fire-shooter,
// fire-target; +1 for a wounded shooter, who still fires, DN-FIRE-5), the
// weapon's column and the cover's sub-column (AMB-3: read within 1 to 10).
func (w *world) shoot(sh, t *Char, what string) {
	st := w.st()
	k, tk := st.Kind(sh), st.Kind(t)
	weapon := st.fireColumn(sh) // combat_peoples.go: an Elf of La Conquête (AMB-23)
	_, cover, _ := st.aim(sh, t)
	mod, why := 0, []string{}
	if sh.Wounds > 0 {
		mod++
		why = append(why, "+1 wounded shooter (DN-FIRE-5, -10)")
	}
	if n := tk.FireTarget; n != 0 || tk.FireTargetFlaming != 0 {
		if w.flaming(sh) && tk.FireTargetFlaming != 0 { // DN3: a flaming missile at an Ent (DN3-PEOPLE-ENT-12)
			n = tk.FireTargetFlaming
		}
		mod += n
		why = append(why, fmt.Sprintf("%+d %s (%s)", n, tk.Title, tk.cite("fire-target", "DN-FIRE-10")))
	}
	if k.FireShooter != 0 && !st.elfFire(sh) { // AMB-23: not in La Conquête
		mod += k.FireShooter
		why = append(why, fmt.Sprintf("%+d %s (DN-SPEC-5)", k.FireShooter, k.Title))
	}
	if n, words := st.armourFire(t); n != 0 { // combat_peoples.go: AMB-93
		mod += n
		why = append(why, words)
	}
	if n, words := w.fireCharm(sh); n != 0 { // magic chapter: Improve fire
		mod += n
		why = append(why, words)
	}
	if e := st.carrier(sh); e != nil { // DN3: fired from an Ent, which then neither moves nor fights (DN3-PEOPLE-ENT-26)
		mod++
		why = append(why, fmt.Sprintf("+1 from %s (DN3-PEOPLE-ENT-26)", e.ID))
		w.emit(&Flagged{Flag: flagSteady, IDs: []string{e.ID}})
	}
	if n, words := st.armourCharm(t); n != 0 { // magic chapter: the Armour spell
		mod += n
		why = append(why, words)
	}
	if n, words := st.fatigueFire(sh, what); n != 0 { // DN3 battles: Fatigue (battle_fatigue.go)
		mod += n
		why = append(why, words)
	}
	r := w.d10(fmt.Sprintf("%s by %s at %s", what, sh.ID, t.ID))
	code, es, used := st.data.FireResult(weapon, cover, r.Total+mod)
	used = append(used, k.Prov, tk.Prov)
	res := "no effect"
	if code != "-" {
		res = code + ": " + st.data.FireKey[code].Means
	}
	outcome(r, used, "%s, %s cover, %+d makes %d: %s", weapon, cover, mod, modified(r.Total+mod), res)
	w.emit(&Traced{Trace: adjudicator.Trace{Kind: "fire", Unit: sh.ID, Path: []string{sh.At, t.At}, Result: res}})
	mods := "no modifier"
	if len(why) > 0 {
		mods = strings.Join(why, ", ")
	}
	w.say(used, "%s (%s) shoots at %s on %s, %s cover; %s: %s.", sh.ID, weapon, t.ID, t.At, cover, mods, res)
	if out, whyNot := fireEffects(tk, es); whyNot != "" { // DN3: an Ent (special_ent.go)
		w.say(Provs{tk.Prov}, "%s: %s.", t.ID, whyNot)
		es = out
	}
	w.shot = true // chapter: the valley's peoples: a fire result (DN3-PEOPLE-KANDAR-5, -UNIC-5)
	for _, e := range es {
		w.hurt(t, e.What, e.N, []*Char{sh}, used, false)
	}
	w.shot = false
}

// canDefend says why sh may not fire defensively now (DN-FIRE-14): its
// weapon's rate of fire after it moved or fired in its own player-turn
// (weapons.yaml; AMB-25: a short bow may), and the rules of every shot.
func (w *world) canDefend(sh, t *Char) (string, Prov) {
	st := w.st()
	if sh == nil {
		return "no such shooter", Prov{}
	}
	wp := st.rateOf(sh) // combat_peoples.go: an Elf of La Conquête (AMB-23)
	if wp == nil {
		return "it has no bow or crossbow (DN-FIRE-1)", Prov{}
	}
	switch {
	case st.Is(flagMoved, sh.ID) && !wp.DefendAfterMove:
		return fmt.Sprintf("a %s that moved in its own turn cannot fire defensively (DN-FIRE-14)", wp.Title), wp.Prov
	case st.Is(flagFiredOff, sh.ID) && !wp.DefendAfterFire:
		return fmt.Sprintf("a %s that fired in its own turn cannot fire defensively (DN-FIRE-14)", wp.Title), wp.Prov
	}
	return w.cannotFire(sh, t, flagFiredDef), wp.Prov
}

// defensiveFire gives the Adventurers their shots at Krob c where it
// stands now, during its move (DN-FIRE-12): by their triggers, or in live
// mode by asking (PBEM-DN-6). It reports a pause.
func (w *world) defensiveFire(p *program, c *Char) bool {
	st := w.st()
	wk := p.work()
	if wk.Fired {
		return false
	}
	if st.Options.LiveFire {
		if w.askFire(p, c) {
			return true
		}
	} else {
		w.triggerFire([]*Char{c}, "")
	}
	wk.Fired = true
	return false
}

// askFire asks the Adventurer player who fires at c now (live mode,
// PBEM-GEN-4 (b)): only where a shooter has a shot, showing the move up to
// here only. It reports a pause.
func (w *world) askFire(p *program, c *Char) bool {
	st := w.st()
	var can []string
	for _, a := range st.Living(st.defender()) {
		if why, _ := w.canDefend(a, c); why == "" {
			can = append(can, a.ID)
		}
	}
	if len(can) == 0 {
		return false
	}
	ans, ok := w.take()
	if !ok {
		q := pause.Question{Side: st.defender(), Title: fmt.Sprintf("turn %d, defensive fire at %s on %s", st.Turn, c.ID, c.At),
			Prompt:  fmt.Sprintf("%s has moved to %s. Who fires at it now? Answer a list of shooters among %s, or [] for none (DN-FIRE-12).", c.ID, c.At, list(can)),
			Default: "[]", Hidden: true}
		if _, paused := w.pauseFor(p, q); paused {
			return true
		}
	}
	var ids []string
	_ = yaml.Unmarshal([]byte(ans), &ids)
	for _, id := range ids {
		if !slices.Contains(can, id) {
			w.say(nil, "%s cannot fire at %s: it is not one of the shooters who could (%s).", id, c.ID, list(can))
			continue
		}
		if !c.Alive() {
			break
		}
		w.defend(st.Chars[id], c)
	}
	return false
}

// defend fires one defensive shot.
func (w *world) defend(sh, t *Char) {
	w.emit(&Flagged{Flag: flagFiredDef, IDs: []string{sh.ID}})
	w.shoot(sh, t, "defensive fire")
}

// holdFire lets the Adventurers react to the Krobs that did not move, once
// the moves are done (AMB-27): in live mode by asking for each, else by
// the triggers that fire at them after the moves.
func (w *world) holdFire(p *program) bool {
	st := w.st()
	if !st.Options.LiveFire {
		w.unmovedReact(p, unmovedAfter)
		return false
	}
	wk := p.work()
	still := w.unmoved(p)
	for ; wk.Step < len(still); wk.Step++ {
		c := st.Chars[still[wk.Step]]
		if c == nil || !c.Alive() {
			continue
		}
		if !wk.Fired && w.askFire(p, c) {
			return true
		}
		wk.Fired = false
	}
	return false
}
