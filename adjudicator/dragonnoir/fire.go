package dragonnoir

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/pause"
	"gopkg.in/yaml.v3"
)

// Chapter: archery (A.5, A.6): offensive fire (DN-TURN-5 step 1), defensive
// fire during the Krob movement (DN-FIRE-12 … 14, PBEM-DN-6) in standing
// or live mode (option defensive-fire), the line of fire and cover
// (geo.go LineOfFire), the fire table (tables.go FireResult).
//
// First implementation: one shot per order, the modifiers of DN-FIRE-10
// and DN-SPEC-5 from counters.yaml (fire-target, fire-shooter), the
// wounded shooter's +1, the highest single cover (AMB-6). Left to the
// fire chapter: windows, arrow slits, doors, talus and bridge cover cases
// (DN-COVER-5 … 29) beyond what terrain.yaml's cover and hexside rows give.

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
// it stands and has a missile weapon; it has not fired in this sequence
// (DN-FIRE-2); it is not in water (DN-COVER-26); no enemy is in position to
// attack it (DN-FIRE-4); the target is a living enemy within range
// (DN-FIRE-8) with no Adventurer it is in position to attack next to it
// (DN-COVER-17); the line of fire is clear and the target not in total
// cover (A.6).
func (w *world) cannotFire(sh, t *Char, flag string) string {
	st := w.st()
	k := st.Kind(sh)
	switch {
	case sh == nil || !sh.Standing():
		return "the shooter is not on its feet"
	case k.Weapon == "":
		return "it has no bow or crossbow (DN-FIRE-1)"
	case st.Is(flag, sh.ID):
		return "it has already fired in this fire sequence (DN-FIRE-2)"
	case st.Terrain(st.loc(sh)).Has(TerrWater):
		return "a character in water cannot fire (DN-COVER-26)"
	case t == nil || !t.Alive() || !Enemy(sh.Side, t.Side):
		return "the target is no living enemy on the map"
	}
	from := st.loc(sh)
	if th := st.Threats(string(sh.Side), from); len(th) > 0 {
		return fmt.Sprintf("%s is in position to attack it: it fights hand to hand (DN-FIRE-4)", th[0].ID)
	}
	to := st.loc(t)
	if d := st.Distance(from, to); d > st.data.Range {
		return fmt.Sprintf("%s is %d hexes away, beyond the %d hexes torches light (DN-FIRE-8)", t.ID, d, st.data.Range)
	}
	for _, a := range st.Living(sh.Side) {
		if a != sh && st.CanAttack(t, a) {
			return fmt.Sprintf("%s is fighting %s: the shot could hit either (DN-COVER-17)", t.ID, a.ID)
		}
	}
	cover, why := st.LineOfFire(sh, to)
	switch {
	case why != "":
		return "no line of fire: " + why
	case cover == "total":
		return "the target is in total cover (DN-COVER-1)"
	}
	return ""
}

// shoot rolls one shot and applies its result (DN-FIRE-9 … 11).
func (w *world) shoot(sh, t *Char, what string) {
	st := w.st()
	k, tk := st.Kind(sh), st.Kind(t)
	cover, _ := st.LineOfFire(sh, st.loc(t))
	mod, why := 0, []string{}
	if sh.Wounds > 0 {
		mod++
		why = append(why, "+1 wounded shooter (DN-FIRE-10)")
	}
	if tk.FireTarget != 0 {
		mod += tk.FireTarget
		why = append(why, fmt.Sprintf("%+d %s (DN-FIRE-10)", tk.FireTarget, tk.Title))
	}
	if k.FireShooter != 0 {
		mod += k.FireShooter
		why = append(why, fmt.Sprintf("%+d %s (DN-SPEC-5)", k.FireShooter, k.Title))
	}
	if n, words := w.fireCharm(sh); n != 0 { // magic chapter: Improve fire
		mod += n
		why = append(why, words)
	}
	r := w.d10(fmt.Sprintf("%s by %s at %s", what, sh.ID, t.ID))
	code, es, used := st.data.FireResult(k.Weapon, cover, r.Total+mod)
	used = append(used, k.Prov, tk.Prov)
	res := "no effect"
	if code != "-" {
		res = code + ": " + st.data.FireKey[code].Means
	}
	outcome(r, used, "%s, %s cover, %+d makes %d: %s", k.Weapon, cover, mod, modified(r.Total+mod), res)
	w.emit(&Traced{Trace: adjudicator.Trace{Kind: "fire", Unit: sh.ID, Path: []string{sh.At, t.At}, Result: res}})
	mods := "no modifier"
	if len(why) > 0 {
		mods = strings.Join(why, ", ")
	}
	w.say(used, "%s (%s) shoots at %s, %s cover; %s: %s.", sh.ID, k.Weapon, t.ID, cover, mods, res)
	for _, e := range es {
		w.hurt(t, e.What, e.N, []*Char{sh}, used, false)
	}
}

// canDefend says why sh may not fire defensively now (DN-FIRE-14): its
// weapon's rate of fire after it moved or fired in its own player-turn
// (weapons.yaml), and the rules of every shot.
func (w *world) canDefend(sh, t *Char) (string, Prov) {
	st := w.st()
	wp := st.data.Weapons[st.Kind(sh).Weapon]
	if wp == nil {
		return "it has no bow or crossbow", Prov{}
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
// stands now, during its move (DN-FIRE-12): by their standing triggers, or
// in live mode by asking (PBEM-DN-6). It reports a pause.
func (w *world) defensiveFire(p *program, c *Char) bool {
	st := w.st()
	wk := p.work()
	if wk.Fired {
		return false
	}
	if st.Options.LiveFire {
		var can []string
		for _, a := range st.Living(Adventurers) {
			if why, _ := w.canDefend(a, c); why == "" {
				can = append(can, a.ID)
			}
		}
		if len(can) == 0 {
			return false
		}
		ans, ok := w.take()
		if !ok {
			q := pause.Question{Side: Adventurers, Title: fmt.Sprintf("turn %d, defensive fire at %s on %s", st.Turn, c.ID, c.At),
				Prompt:  fmt.Sprintf("%s has moved to %s. Who fires at it now? Answer a list of shooters among %s, or [] for none (DN-FIRE-12).", c.ID, c.At, list(can)),
				Default: "[]", Hidden: true}
			if _, paused := w.pauseFor(p, q); paused {
				return true
			}
		}
		wk.Fired = true
		var ids []string
		_ = yaml.Unmarshal([]byte(ans), &ids)
		for _, id := range ids {
			if !slices.Contains(can, id) {
				w.say(nil, "%s cannot fire at %s: it is not one of the shooters who could (%s).", id, c.ID, list(can))
				continue
			}
			w.defend(st.Chars[id], c)
		}
		return false
	}
	wk.Fired = true
	var ts []Trigger
	if txt, ok := st.Pause.Lookup(Adventurers, KeyDefensiveFire); ok {
		_ = yaml.Unmarshal([]byte(txt), &ts)
	}
	for _, t := range ts {
		sh := st.Chars[t.Shooter]
		if sh == nil || !t.matches(st, c) {
			continue
		}
		if t.Within > 0 && st.Distance(st.loc(sh), st.loc(c)) > t.Within {
			continue
		}
		if why, _ := w.canDefend(sh, c); why == "" {
			w.defend(sh, c)
		}
	}
	return false
}

// defend fires one defensive shot.
func (w *world) defend(sh, t *Char) {
	w.emit(&Flagged{Flag: flagFiredDef, IDs: []string{sh.ID}})
	w.shoot(sh, t, "defensive fire")
}

// matches reports whether the trigger names Krob c: any, its ID, or
// kind:KIND.
func (t Trigger) matches(st *State, c *Char) bool {
	switch {
	case t.At == "any" || t.At == c.ID:
		return true
	case strings.HasPrefix(t.At, "kind:"):
		return c.Kind == strings.TrimPrefix(t.At, "kind:")
	}
	return false
}

// holdFire lets the Adventurers fire at the Krobs the Krob player said
// would not move, once their moves are done (AMB-27).
func (w *world) holdFire(p *program) bool {
	st := w.st()
	wk := p.work()
	for ; wk.Step < len(p.Orders.Hold); wk.Step++ {
		c := st.Chars[p.Orders.Hold[wk.Step]]
		if c == nil || !c.Alive() {
			continue
		}
		if w.defensiveFire(p, c) {
			return true
		}
		wk.Fired = false
	}
	return false
}
