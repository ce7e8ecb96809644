package dragonrage

// Major monsters (§18) in the fire phases and under the spells: a Dragon's
// breath in the invader's fire phase, the breath phase (DR-DRAGON-BREATH-*,
// DR-YDRAGON-4); missile fire at major monsters (DR-FIRE-7..13,
// DR-DRAGON-FIRE-1, DR-ROC-13, DR-WYVERN-9); Lightning on them
// (DR-SPELL-LIGHT-3..5, DR-AMB-54); and a Whirlwind cast or drifting onto a
// flyer (DR-SPELL-WHIRL-6, -7, DR-AMB-6, DR-AMB-57). The orders are the
// fire phase's: fire.go reads them and hands the breath and the shots at a
// major monster to this file.

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

const breathExample = `  - breathe: DRAGON-1
    at: "0809"`

// HitsFlyers reports whether a firer may shoot at a monster in flight: a
// firer that lobs its shots is not accurate enough to (DR-CAT-3, DR-DICE-7).
func (t *UnitType) HitsFlyers() bool { return !t.Lobs }

// breathHit is one hex a breath reaches, and whether the fire came into it
// through an open or smashed entrance (a tower's VP fall only then when the
// Dragon is on the ground, DR-DRAGON-BREATH-8).
type breathHit struct {
	h    hex.Hex
	open bool
}

// canBreathe reports whether one of side's monsters could breathe now to
// some effect. The fire phase is then offered even with no firer in reach
// (DR-DRAGON-BREATH-1).
func (w *world) canBreathe(side adjudicator.Side) bool {
	for _, u := range w.st.alive(side) {
		if w.mayBreathe(u) {
			return true
		}
	}
	return false
}

// mayBreathe reports whether u could breathe now to some effect: into one
// of its front hexes, on a unit it may hit or a VP hex it would destroy.
func (w *world) mayBreathe(u *Unit) bool {
	if m := w.st.major(u); m == nil || m.Breath == 0 || u.Hex == "" {
		return false
	}
	if _, _, why := w.breathBlocked(u); why != "" {
		return false
	}
	for _, h := range hex.FrontThree(w.st.hexOf(u), u.facing()) {
		if !w.m.OnMap(h) {
			continue
		}
		if _, _, why := w.checkBreath(u, h); why != "" {
			continue
		}
		hits, _ := w.breathPath(u, h)
		for _, bh := range hits {
			if w.burns(u, bh) {
				return true
			}
		}
	}
	return false
}

// burns reports whether a breath would do something in a hex it reaches:
// hit a unit, or destroy its VP.
func (w *world) burns(u *Unit, bh breathHit) bool {
	tower := w.m.Terrain(bh.h) == "tower"
	if u.Flying && !tower || w.whirlwindIn(bh.h) {
		return false
	}
	for _, x := range w.st.at(bh.h.String()) {
		if !w.st.typ(x).IsMajor() {
			return true
		}
	}
	return w.vpHex(bh.h) > 0 && !w.doorVP(bh.h) && (!tower || u.Flying || bh.open)
}

// breathBlocked says why u cannot breathe at all this phase: the field of
// the order to blame, the error code and the reason; "" if it may.
func (w *world) breathBlocked(u *Unit) (field, code, why string) {
	m := w.st.major(u)
	switch {
	case m == nil || m.Breath == 0:
		return "breathe", codeCannot, fmt.Sprintf("%s does not breathe fire: only Dragons and Young Dragons do (DR-DRAGON-BREATH-1, DR-YDRAGON-4; DR-ROC-6, DR-WYVERN-6)", u.ID)
	case w.st.Phase != phInvFire:
		return "breathe", codeCannot, "a Dragon breathes only in the invader's fire phase, the breath phase before melee (DR-DRAGON-BREATH-1, DR-TURN-1)"
	case u.Hex == "":
		return "breathe", codeCannot, fmt.Sprintf("%s is not on the map", u.ID)
	case w.st.sheet(u).Berserk():
		return "breathe", codeCannot, fmt.Sprintf("%s's head is destroyed: it can no longer breathe (DR-DRAGON-BREATH-10, DR-DRAGON-DEF-2)", u.ID)
	case u.Breaths >= m.Breath:
		return "breathe", codeCannot, fmt.Sprintf("%s has used its %s: a %s breathes %s a game (DR-DRAGON-BREATH-9, DR-YDRAGON-4)", u.ID, plural(m.Breath, "breath", "breaths"), w.st.typ(u).Name, times(m.Breath))
	case slices.Contains(u.Used, "head"):
		return "breathe", codeTwice, fmt.Sprintf("%s's head has already breathed or attacked this turn (DR-DRAGON-BREATH-3)", u.ID)
	case u.NoAttack:
		return "breathe", codeCannot, fmt.Sprintf("%s may not attack this turn", u.ID)
	case u.Mode == modeCrash:
		return "breathe", codeCannot, fmt.Sprintf("%s crashed this turn: it makes no attack and no breath (docs/rulings/dragon-rage.md)", u.ID)
	case u.Mode == modeSlither:
		return "breathe", codeCannot, fmt.Sprintf("%s slithered this turn: a slithering Dragon cannot breathe (DR-DRAGON-BREATH-1, DR-DRAGON-SLITHER-4)", u.ID)
	case u.TookOff && m.BreathAloft:
		return "breathe", codeCannot, fmt.Sprintf("%s took off this turn: a flying Dragon breathes on a tower only in a turn it neither took off nor landed (DR-DRAGON-BREATH-2)", u.ID)
	case u.Mode == modeFly && !u.Flying:
		return "breathe", codeCannot, fmt.Sprintf("%s flew this turn and is now on the ground: a Dragon that flew may breathe only on a tower, from the air, in a turn it neither took off nor landed (DR-DRAGON-BREATH-2, DR-DRAGON-FLY-8)", u.ID)
	case u.Flying && !m.BreathAloft:
		return "breathe", codeCannot, fmt.Sprintf("%s is flying: a %s never breathes in flight, not even on a tower (DR-YDRAGON-4)", u.ID, w.st.typ(u).Name)
	case w.inFog(w.st.hexOf(u)):
		return "breathe", codeCannot, fmt.Sprintf("%s is in fog: no breath into, out of or through fog (DR-DRAGON-BREATH-10, DR-SPELL-FOG-4)", u.ID)
	}
	return "", "", ""
}

// checkBreath says why u may not breathe with first as the first hex: the
// field to blame, the error code and the reason, or "" for the reason.
func (w *world) checkBreath(u *Unit, first hex.Hex) (field, code, why string) {
	if field, code, why = w.breathBlocked(u); why != "" {
		return field, code, why
	}
	at := w.st.hexOf(u)
	front := hex.FrontThree(at, u.facing())
	if !slices.Contains(front[:], first) {
		var fs []string
		for _, h := range front {
			if w.m.OnMap(h) {
				fs = append(fs, h.String())
			}
		}
		slices.Sort(fs)
		return "at", codeIllegalMove, fmt.Sprintf("%s is not one of %s's three front hexes: facing %s from %s, it breathes into %s (DR-DRAGON-BREATH-4)", first, u.ID, u.Facing, at, strings.Join(fs, ", "))
	}
	if !w.m.OnMap(first) {
		return "at", codeBadHex, fmt.Sprintf("%s is off the map", first)
	}
	if w.inFog(first) {
		return "at", codeCannot, fmt.Sprintf("%s is in fog: no breath into, out of or through fog (DR-DRAGON-BREATH-10, DR-SPELL-FOG-4)", first)
	}
	hits, stop := w.breathPath(u, first)
	if len(hits) == 0 {
		return "at", codeCannot, fmt.Sprintf("%s cannot breathe into %s: %s", u.ID, first, stop)
	}
	if u.Flying {
		for _, bh := range hits {
			if w.m.Terrain(bh.h) == "tower" {
				return "", "", ""
			}
		}
		var hs []string
		for _, bh := range hits {
			hs = append(hs, bh.h.String())
		}
		return "at", codeCannot, fmt.Sprintf("%s is flying: in flight a Dragon breathes only on tower hexes, and its breath into %s reaches no tower (DR-DRAGON-BREATH-2)", u.ID, strings.Join(hs, " and "))
	}
	return "", "", ""
}

// breathPath is the hexes a breath from u into first reaches: the first
// hex, then the hex directly beyond it in a straight line from the
// monster (DR-DRAGON-BREATH-4; a Young Dragon's reaches the first only,
// DR-AMB-21). It stops at a tower (DR-DRAGON-BREATH-5), at the edge of the
// map, before fog (DR-SPELL-FOG-4), and on the ground at a wall or a closed
// entrance (DR-DRAGON-BREATH-5, DR-AMB-8). From the air walls do not stop
// it. stop says why it stopped short, or why it cannot enter the first hex
// when no hex is returned.
func (w *world) breathPath(u *Unit, first hex.Hex) (hits []breathHit, stop string) {
	m := w.st.major(u)
	at := w.st.hexOf(u)
	d, _ := at.DirectionTo(first)
	prev, h := at, first
	for i := 0; i < max(m.BreathReach, 1); i++ {
		if i > 0 {
			switch {
			case !w.m.OnMap(h):
				return hits, "the map ends there"
			case w.m.Terrain(prev) == "tower":
				return hits, fmt.Sprintf("%s is a tower: the fire goes no further (DR-DRAGON-BREATH-5, DR-AMB-8)", prev)
			case w.inFog(h):
				return hits, fmt.Sprintf("%s is in fog, which the breath may not enter (DR-DRAGON-BREATH-10, DR-SPELL-FOG-4)", h)
			}
		}
		open := false
		if !u.Flying {
			ok, o, why := w.breathCrosses(prev, h, i == 0)
			if !ok {
				return hits, why
			}
			open = o
		}
		hits = append(hits, breathHit{h: h, open: open})
		prev, h = h, h.Neighbour(d)
	}
	return hits, ""
}

// breathCrosses says whether a breath on the ground passes from hex a into
// the next hex b, and whether it goes through an open or smashed entrance:
// never across a wall or a closed entrance, nor through a tower's walls
// (DR-DRAGON-BREATH-5), except that a tower may be the first hex, opening
// or not (DR-AMB-8).
func (w *world) breathCrosses(a, b hex.Hex, first bool) (ok, open bool, why string) {
	intoTower := first && w.m.Terrain(b) == "tower" // DR-AMB-8
	f, has := w.feature(a, b)
	switch {
	case has && w.m.IsEntrance(f.Kind):
		if e := w.entrance(f.Side.String()); e.Broken || (e.OpenUntil > 0 && e.OpenUntil >= w.st.Turn) {
			return true, true, ""
		}
		if intoTower {
			return true, false, ""
		}
		return false, false, fmt.Sprintf("the %s between %s and %s is closed: breath crosses walls only through an opening (DR-DRAGON-BREATH-5, DR-AMB-8)", f.Kind, a, b)
	case has && w.m.IsBarrier(f.Kind):
		if intoTower {
			return true, false, ""
		}
		return false, false, fmt.Sprintf("a %s stands between %s and %s: breath does not pass through walls (DR-DRAGON-BREATH-5)", f.Kind, a, b)
	case (w.m.Terrain(a) == "tower") != (w.m.Terrain(b) == "tower"):
		if intoTower {
			return true, false, ""
		}
		return false, false, fmt.Sprintf("a tower's walls stand between %s and %s: breath goes into a tower only as its first hex, or through an open entrance (DR-DRAGON-BREATH-5, DR-AMB-8)", a, b)
	}
	return true, false, ""
}

// parseBreath reads a breath order: the monster and its first hex.
func (w *world) parseBreath(side adjudicator.Side, item *yaml.Node, f map[string]*yaml.Node, used map[string]bool) (*Fire, error) {
	for _, k := range []string{"fire", "target", "area"} {
		if f[k] != nil {
			return nil, adjudicator.Errorf(f["@"+k], adjudicator.CodeBadValue, "a breath order names the monster and the first hex it breathes into, and takes no %q: the breath hits every unit in its hexes (DR-DRAGON-BREATH-6):\n%s", k, breathExample)
		}
	}
	if f["at"] == nil {
		return nil, adjudicator.Errorf(item, adjudicator.CodeMissingField, "a breath order names the first hex, one of the monster's three front hexes; the second follows in line (DR-DRAGON-BREATH-4):\n%s", breathExample)
	}
	u, err := w.ownUnit(f["breathe"], side)
	if err != nil {
		return nil, err
	}
	at, err := w.parseHex(f["at"])
	if err != nil {
		return nil, err
	}
	if used[u.ID] {
		return nil, adjudicator.Errorf(f["breathe"], codeTwice, "%s is ordered twice: it breathes once a turn, and its head is then spent (DR-DRAGON-BREATH-3)", u.ID)
	}
	used[u.ID] = true
	th, _ := hex.Parse(at)
	if field, code, why := w.checkBreath(u, th); why != "" {
		return nil, adjudicator.Errorf(f[field], code, "%s", why)
	}
	return &Fire{Breathe: u.ID, At: at, node: item}, nil
}

// resolveBreath carries out a breath: every unit in the hexes it reaches
// rolls to escape or is destroyed, and their VP fall (DR-DRAGON-BREATH-6..8).
// It uses one of the monster's breaths and its head for the turn
// (DR-DRAGON-BREATH-3, -9).
func (w *world) resolveBreath(fi *Fire) {
	u := w.st.unit(fi.Breathe)
	first, _ := hex.Parse(fi.At)
	if u.Gone {
		w.sayf("%s does not breathe: it was eliminated earlier this phase", u.ID)
		return
	}
	if _, _, why := w.checkBreath(u, first); why != "" {
		w.sayf("%s does not breathe: %s", u.ID, why)
		return
	}
	m := w.st.major(u)
	hits, stop := w.breathPath(u, first)
	var hexes []string
	for _, bh := range hits {
		hexes = append(hexes, bh.h.String())
	}
	w.emit(&Breathed{Unit: u.ID, Hexes: hexes})
	w.emit(&GroupsUsed{Unit: u.ID, Groups: []string{"head"}})
	w.trace("fire", u.ID, append([]string{u.Hex}, hexes...), "breath")
	w.sayf("%s breathes fire from %s into %s (breath %d of %d this game, DR-DRAGON-BREATH-4, -9); its head has strength 0 for the rest of the turn (DR-DRAGON-BREATH-3)",
		u.ID, u.Hex, strings.Join(hexes, " and "), u.Breaths, m.Breath)
	switch {
	case m.BreathReach == 1:
		w.sayf("a %s's breath reaches its first hex only (DR-AMB-21)", w.st.typ(u).Name)
	case stop != "":
		w.sayf("the fire stops in %s: %s", hexes[len(hexes)-1], stop)
	}
	for _, bh := range hits {
		w.burn(u, bh)
		if w.st.Over {
			return
		}
	}
}

// burn is the breath in one hex: each unit in it but a major monster rolls
// to escape, and the hex's VP are destroyed, a tower's only from the air or
// through an open entrance (DR-DRAGON-BREATH-6..8, DR-VP-3 (d)). A unit in
// a Whirlwind cannot be hit (DR-SPELL-WHIRL-5).
func (w *world) burn(u *Unit, bh breathHit) {
	h := bh.h
	tower := w.m.Terrain(h) == "tower"
	if u.Flying && !tower {
		w.sayf("%s is not a tower: a Dragon in flight burns only tower hexes (DR-DRAGON-BREATH-2)", h)
		return
	}
	if x := w.whirlwindAt(h); x != nil {
		if len(w.st.at(h.String())) > 0 {
			w.sayf("a Whirlwind %d stands in %s: the breath cannot hit the units in it (DR-SPELL-WHIRL-5, DR-DRAGON-BREATH-10)", x.Age, h)
		}
		return // its VP went with the Whirlwind (DR-SPELL-WHIRL-9)
	}
	m := w.st.major(u)
	for _, x := range w.st.at(h.String()) {
		if x.Gone || x.ID == u.ID {
			continue
		}
		if w.st.typ(x).IsMajor() {
			w.sayf("%s is a major monster: the breath in %s has no effect on it (DR-AMB-73)", x.ID, h)
			continue
		}
		mod, why := 0, []string{}
		if m.BreathEscape > 0 {
			mod += m.BreathEscape
			why = append(why, fmt.Sprintf("+%d against a %s's breath (DR-YDRAGON-4)", m.BreathEscape, w.st.typ(u).Name))
		}
		if tower {
			mod += 2
			why = append(why, "+2 in a tower (DR-DRAGON-BREATH-6)")
		}
		if w.boosted(x) {
			mod++
			why = append(why, "+1 Boost Morale (DR-SPELL-MORALE-6)")
		}
		if x.Killer && m.Enraged {
			mod -= 2
			why = append(why, "-2 Killer marker against an enraged Dragon (DR-YDRAGON-9)")
		}
		if len(why) > 0 && w.st.typ(x).Escape > 0 {
			w.sayf("%s rolls to escape the breath at %+d: %s", x.ID, mod, strings.Join(why, ", "))
		}
		w.escapeOrDie(x, mod, "from "+u.ID+"'s breath", fmt.Sprintf("burned by %s's breath (DR-DRAGON-BREATH-6)", u.ID))
		if w.st.Over {
			return
		}
	}
	if b, ok := w.m.Bridge(h); ok && b.Kind == "wooden" && w.bridgeState(h) != "burned" {
		w.sayf("the wooden bridge in %s stands: breath destroys no bridge (only a bound, a landing or a crash does, DR-BRIDGE-6, DR-BRIDGE-8)", h)
	}
	switch {
	case w.vpHex(h) == 0:
	case w.doorVP(h):
		w.sayf("%s is a Nurkott VP hex with a door: it falls only when its door is smashed, not to the breath (DR-VP-12, DR-AMB-31)", h)
	case tower && !u.Flying && !bh.open:
		w.sayf("the tower %s keeps its VP: from the ground, breath destroys a tower only through an open entrance (DR-DRAGON-BREATH-8, DR-AMB-8)", h)
	default:
		w.destroyVP(h, u, u.ID+"'s breath (DR-DRAGON-BREATH-8, DR-VP-3)")
	}
}

// times says how many times a game: "once", "twice", "3 times".
func times(n int) string {
	switch n {
	case 1:
		return "once"
	case 2:
		return "twice"
	}
	return fmt.Sprintf("%d times", n)
}

// flyerIn returns an enemy of side flying over hex t: a major monster in
// the air (DR-COMP-11), or nil.
func (w *world) flyerIn(t hex.Hex, side adjudicator.Side) *Unit {
	for _, x := range w.st.at(t.String()) {
		if x.Side != side && x.Flying && w.st.typ(x).IsMajor() {
			return x
		}
	}
	return nil
}

// shotAtFlyer says why u may not shoot into t because a monster flies
// there, or "": a catapult is not accurate enough (DR-CAT-3).
func (w *world) shotAtFlyer(u *Unit, t hex.Hex) string {
	if f := w.flyerIn(t, u.Side); f != nil && !w.st.typ(u).HitsFlyers() {
		return fmt.Sprintf("%s is flying: a %s is not accurate enough to fire at a flying target (DR-CAT-3)", f.ID, w.st.typ(u).Name)
	}
	return ""
}

// majorTarget returns the enemy major monster a fire attack on hex at
// strikes: the one named, or the one there; nil if there is none.
func (w *world) majorTarget(side adjudicator.Side, at, named string) *Unit {
	for _, x := range w.st.at(at) {
		if x.Side != side && w.st.typ(x).IsMajor() && (named == "" || named == x.ID) {
			return x
		}
	}
	return nil
}

// fireAreas are the areas of a major monster a missile may aim at: head,
// wings and legs, never the belly (DR-FIRE-9, DR-WYVERN-9).
func fireAreas(m *MajorDef) []string {
	var out []string
	for _, a := range m.AreaNames() {
		if a != "belly" {
			out = append(out, a)
		}
	}
	return out
}

// checkMajorArea reads the "area:" of a fire order: needed when the target
// is a major monster on the ground, one of the areas a missile may aim at
// and not one already destroyed (DR-FIRE-8, DR-FIRE-9, DR-AMB-43); refused
// on anything else.
func (w *world) checkMajorArea(side adjudicator.Side, t hex.Hex, item *yaml.Node, f map[string]*yaml.Node, fi *Fire) error {
	m := w.majorTarget(side, t.String(), fi.Target)
	if m == nil {
		if f["area"] != nil {
			return adjudicator.Errorf(f["@area"], adjudicator.CodeBadValue, "\"area:\" names the area a shot at a major monster aims at, and there is none in %s", t)
		}
		return nil
	}
	aims := fireAreas(w.st.major(m))
	if f["area"] == nil {
		if m.Flying {
			return nil // a hit on a flyer goes to its belly, whatever is named (DR-FIRE-9, DR-AMB-43)
		}
		return adjudicator.Errorf(item, adjudicator.CodeMissingField, "%s is a %s: say where the shots aim, \"area:\" %s, before the dice are rolled (DR-FIRE-8, DR-AMB-43)", m.ID, w.st.typ(m).Name, strings.Join(aims, ", "))
	}
	v, err := scalar(f["area"], "the area aimed at: "+strings.Join(aims, ", "))
	if err != nil {
		return err
	}
	v = strings.ToLower(strings.TrimSpace(v))
	if !slices.Contains(aims, v) {
		return adjudicator.Errorf(f["area"], adjudicator.CodeBadValue, "a missile aimed at %s hits its %s, not %q (DR-FIRE-9; the belly only by a hit while it flies)", m.ID, strings.Join(aims, ", "), v)
	}
	if !m.Flying && w.st.sheet(m).Destroyed(v) {
		var left []string
		for _, a := range aims {
			if !w.st.sheet(m).Destroyed(a) {
				left = append(left, a)
			}
		}
		msg := "every area a missile may hit is destroyed"
		if len(left) > 0 {
			msg = "aim at its " + strings.Join(left, " or ")
		}
		return adjudicator.Errorf(f["area"], codeCannot, "%s's %s is already destroyed, so a hit there would do nothing (DR-MATK-11): %s", m.ID, v, msg)
	}
	fi.Area = v
	return nil
}

// fireAtMajor resolves shots at a major monster: each firer rolls on its
// own (DR-FIRE-11) at the area named (DR-AMB-43).
func (w *world) fireAtMajor(firers []*Unit, m *Unit, t hex.Hex, area string) {
	if area == "" && !m.Flying {
		w.sayf("%s hold their fire at %s: a shot at a major monster names the area it aims at, head, wings or legs (DR-FIRE-8, DR-AMB-43)", unitIDs(firers), m.ID)
		return
	}
	for _, u := range firers {
		w.emit(&Flagged{Unit: u.ID, Attacked: true})
		w.trace("fire", u.ID, []string{u.Hex, t.String()}, "")
	}
	for i, u := range firers {
		if m.Gone {
			w.sayf("%s: %s already dead, so %s hold their fire", t, m.ID, unitIDs(firers[i:]))
			return
		}
		w.shootMajor(u, m, t, area)
	}
}

// shootMajor is one firer's shot at a major monster: 1d6, 5+ at range 1
// when it is not flying, else 6, by the firer's own row (DR-FIRE-8,
// DR-BAL-3, DR-CAT-4), +1 with an unwounded hero by the firer (DR-FIRE-13,
// DR-AMB-74). A hit does 1 point to the area named, or 2 to the belly if
// the monster flies (DR-FIRE-9, DR-ROC-13, DR-AMB-43, DR-AMB-67).
func (w *world) shootMajor(u, m *Unit, t hex.Hex, area string) {
	d := hex.Distance(w.st.hexOf(u), t)
	need := w.st.typ(u).MonsterNeed(d)
	needText := ""
	if m.Flying && need < 6 {
		need, needText = 6, " against a flyer (DR-FIRE-8)"
	}
	mod, modText := 0, ""
	if w.heroNear(u) {
		mod, modText = 1, " +1 hero aura (DR-FIRE-13, DR-AMB-74)"
	}
	label := fmt.Sprintf("fire on %s in %s by %s, at the %s", m.ID, t, u.ID, area)
	if m.Flying {
		label = fmt.Sprintf("fire on %s flying over %s by %s", m.ID, t, u.ID)
	}
	r := w.roll(label, 1)
	hit := r.Total+mod >= need
	what, n := fmt.Sprintf("1 damage to the %s (DR-FIRE-9)", area), 1
	if m.Flying {
		what, n, area = "2 damage to the belly, as it flies (DR-FIRE-9, DR-ROC-13)", 2, "belly"
	}
	r.Outcome = fmt.Sprintf("needs %d+%s%s: %s", need, needText, modText, map[bool]string{true: "hit, " + what, false: "missed"}[hit])
	w.sayf("%s: %s", label, r.Outcome)
	if hit {
		w.damageMajor(m, area, n, u, fmt.Sprintf("%s from %s", w.st.typ(u).MissileName(), u.ID))
	}
}

// spreadPart is the points of a Lightning one area takes.
type spreadPart struct {
	Area   string
	Points int
}

// lightningSpread spreads n points over a major monster's areas as
// DR-AMB-54 requires, one point at a time: while an area not destroyed is
// still undamaged, the point goes to such an area; otherwise to an area
// that has had no more points from this bolt than any other not
// destroyed. Destroyed areas are skipped; points with nowhere to go are
// lost (DR-MATK-11). Among the areas allowed, the owner's choice is his
// standing order (owner: "crash:" on a move, DR-PBEM-39), then the default
// order of crashOrder: legs, wings, head, belly, which keeps the head and
// belly whole longest. The parts come in the order
// their first point was given; the points left over are returned.
func lightningSpread(s Sheet, n int, owner []string) (parts []spreadPart, lost int) {
	hits := slices.Clone(s.hits)
	sh := Sheet{def: s.def, hits: hits}
	got := map[string]int{}
	order := crashOrder(s.def, owner)
	for p := 0; p < n; p++ {
		var cands []string
		for _, a := range order {
			if !sh.Destroyed(a) {
				cands = append(cands, a)
			}
		}
		if len(cands) == 0 {
			return parts, n - p
		}
		pool := slices.DeleteFunc(slices.Clone(cands), func(a string) bool { return sh.Lost(a) > 0 })
		if len(pool) == 0 {
			least := got[cands[0]]
			for _, a := range cands {
				least = min(least, got[a])
			}
			pool = slices.DeleteFunc(cands, func(a string) bool { return got[a] > least })
		}
		a := pool[0]
		absorb(s.def, hits, a, 1)
		if got[a] == 0 {
			parts = append(parts, spreadPart{Area: a})
		}
		got[a]++
		for i := range parts {
			if parts[i].Area == a {
				parts[i].Points++
			}
		}
	}
	return parts, 0
}

// lightningOnMajor strikes a major monster: it hits with no roll and does
// damage equal to its power, spread over the areas by the monster's owner
// (DR-SPELL-LIGHT-3..5, DR-PBEM-39). umpire spreads it by DR-AMB-54 in the
// default order of lightningSpread: the owner is not asked.
func (w *world) lightningOnMajor(t *Unit, power int, wz *Unit) {
	parts, lost := lightningSpread(w.st.sheet(t), power, t.Spread)
	var ps []string
	for _, p := range parts {
		ps = append(ps, fmt.Sprintf("%d to the %s", p.Points, p.Area))
	}
	whose := fmt.Sprintf("in umpire's order for the %s, legs, wings, head, belly", t.Side)
	if t.Spread != nil {
		whose = fmt.Sprintf("in the %s's standing order, %s", t.Side, strings.Join(crashOrder(w.st.major(t), t.Spread), ", "))
	}
	msg := fmt.Sprintf("the Lightning hits %s with no roll for %d damage (DR-SPELL-LIGHT-3, -5), spread one point to each area before any takes a second, the undamaged areas first (DR-SPELL-LIGHT-4, DR-AMB-54), %s: %s",
		t.ID, power, whose, strings.Join(ps, ", "))
	if lost > 0 {
		msg += fmt.Sprintf("; %d more are lost, every area being destroyed (DR-MATK-11)", lost)
	}
	w.sayf("%s", msg)
	for _, p := range parts {
		if t.Gone {
			return
		}
		w.damageMajor(t, p.Area, p.Points, wz, "Lightning from "+wz.ID)
	}
}

// whirlwindOnFlyers makes every monster flying in h roll for a crash at
// once, when a Whirlwind is cast on it (DR-SPELL-WHIRL-7) or drifts onto
// it (DR-AMB-57 (c)); how is "is cast" or "drifts".
func (w *world) whirlwindOnFlyers(h hex.Hex, how string) {
	for _, u := range w.st.at(h.String()) {
		if w.st.Over {
			return
		}
		if u.Gone || !u.Flying || !w.st.typ(u).IsMajor() {
			continue
		}
		rule := "DR-SPELL-WHIRL-7"
		if how != "is cast" {
			rule += ", a drift counts as a cast: DR-AMB-57 (c)"
		}
		w.sayf("the Whirlwind %s onto %s, flying over %s: it rolls for a crash at once (%s)", how, u.ID, h, rule)
		if !w.whirlwindCrashRoll(u, h.String()) {
			w.sayf("%s stays in the air; it may fly out of %s in its movement phase with no second roll (DR-SPELL-WHIRL-7, DR-AMB-6)", u.ID, h)
		}
	}
}

// whirlwindCrashRoll is a flying or bounding monster's crash check in a
// Whirlwind: 1d6, a crash on 4+ (DR-SPELL-WHIRL-6, DR-AMB-6, DR-DICE-17).
// The crash is in the monster's hex, so place it in where first. It
// reports whether the monster crashed.
func (w *world) whirlwindCrashRoll(u *Unit, where string) bool {
	r := w.roll(fmt.Sprintf("Whirlwind crash check of %s in %s", u.ID, where), 1)
	crashed := r.Total >= 4
	r.Outcome = "crashes on 4+: " + map[bool]string{true: "it crashes", false: "it holds"}[crashed]
	w.sayf("%s: %s (DR-SPELL-WHIRL-6, DR-AMB-6)", r.Label, r.Outcome)
	if crashed {
		w.crash(u, fmt.Sprintf("caught by the Whirlwind in %s (DR-SPELL-WHIRL-6, DR-DRAGON-CRASH-1)", where), nil)
	}
	return crashed
}
