package dragonrage

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// Fire is one fire attack: the firers and the hex they shoot at; or, in
// the invader's fire phase, a major monster's breath (major_breath.go).
type Fire struct {
	Breathe string   `yaml:"breathe,omitempty"` // the monster breathing (DR-DRAGON-BREATH-1)
	Units   []string `yaml:"fire,omitempty"`
	At      string   `yaml:"at"`
	Target  string   `yaml:"target,omitempty"` // a monster in a mixed hex
	Area    string   `yaml:"area,omitempty"`   // the area aimed at on a major monster (DR-FIRE-8, DR-AMB-43)
	node    *yaml.Node
}

const fireExample = `  - fire: [ARH-1, ARH-2]
    at: 1108`

// firer reports whether a unit shoots: archers and goblins (DR-FIRE-1),
// ballistas and catapults (DR-SIEGE-3).
func (st *State) firer(u *Unit) bool { return st.typ(u).Fires() }

// canFire reports whether side has a firer that could shoot at someone.
func (w *world) canFire(side adjudicator.Side) bool {
	if w.canBreathe(side) {
		return true // the breath phase is the invader's fire phase (DR-DRAGON-BREATH-1)
	}
	// The phase is offered when some firer that may still fire has an
	// enemy within its reach (DR-FIRE-6: its own range, a catapult's
	// minimum, a tower's +1), as docs/orders/dragon-rage.md says. Sight
	// and the other conditions are checked on the order itself, which
	// then says what blocks the shot.
	for _, u := range w.st.alive(side) {
		if !w.st.firer(u) || u.Hex == "" || u.Attacked || u.NoAttack {
			continue
		}
		a := w.st.hexOf(u)
		for _, e := range w.st.alive(other(side)) {
			if e.Hex == "" {
				continue
			}
			t := w.st.hexOf(e)
			if lo, hi := w.fireRange(u, t, false); hex.Distance(a, t) >= lo && hex.Distance(a, t) <= hi {
				return true
			}
		}
	}
	return false
}

// fireRange is the reach of u at a target in t (DR-FIRE-6, DR-BAL-1,
// DR-CAT-1); inMelee drops the tower's +1 (DR-FIRE-6 [Inference]), and so
// does a target in flight, as one in a tower (DR-FIRE-6, DR-FIRE-7).
func (w *world) fireRange(u *Unit, t hex.Hex, inMelee bool) (min, max int) {
	return w.st.typ(u).FireRange(w.m.Terrain(w.st.hexOf(u)) == "tower", w.m.Terrain(t) == "tower" || w.flyerIn(t, u.Side) != nil, inMelee)
}

// sees reports whether a firer in a can see hex b (DR-LOS-1..7).
func (w *world) sees(u *Unit, a, b hex.Hex) (bool, string) {
	switch {
	case !w.st.typ(u).NeedsSight():
		return true, "" // it lobs its shots (DR-CAT-3)
	case w.m.Terrain(a) == "tower":
		return true, "" // DR-LOS-2
	case w.m.Terrain(b) == "tower":
		return true, "" // DR-LOS-3
	case w.flyerIn(b, u.Side) != nil:
		return true, "" // the ground always sees a flyer (DR-LOS-3)
	}
	if f, has := w.feature(a, b); has && w.m.IsEntrance(f.Kind) {
		e := w.entrance(f.Side.String())
		if e.Broken || (e.OpenUntil > 0 && e.OpenUntil >= w.st.Turn) {
			return true, "" // through an open entrance, at the hex beyond it (DR-LOS-5)
		}
	}
	obstacles := hex.Obstacles{
		Side: func(s hex.Hexside) bool {
			f, ok := w.m.Feature(s)
			if !ok || !(w.m.IsBarrier(f.Kind) || w.m.IsEntrance(f.Kind)) {
				return false
			}
			if f.Kind == "palisade" && s.Has(a) {
				return false // Nurkott: fire through the palisade next to the firer (DR-LOS-7)
			}
			return true
		},
		Hex: func(h hex.Hex) bool { return h != a && h != b && w.m.Terrain(h) == "tower" },
	}
	if hex.LineOfSight(a, b, obstacles, hex.Strict) {
		return true, ""
	}
	blk := hex.Blockers(a, b, obstacles, hex.Strict)
	what := "a wall or tower"
	if len(blk) > 0 {
		what = "the wall on " + blk[0].Side.String()
	}
	return false, fmt.Sprintf("%s blocks the line from %s to %s (DR-LOS-4, touching counts: DR-HEX-11)", what, a, b)
}

// checkShot says why u may not shoot at hex t, or "".
func (w *world) checkShot(u *Unit, t hex.Hex, inMelee bool) (string, string) {
	if !w.st.firer(u) {
		return codeCannot, fmt.Sprintf("%s does not shoot: only archers, goblins, ballistas and catapults fire (DR-FIRE-1)", u.ID)
	}
	if u.Attacked {
		return codeTwice, fmt.Sprintf("%s has already attacked or fired this turn (DR-FIRE-5)", u.ID)
	}
	if u.NoAttack {
		return codeCannot, fmt.Sprintf("%s may not attack or fire this turn (it climbed, or destroyed a VP hex or bridge)", u.ID)
	}
	if u.Hex == "" {
		return codeCannot, fmt.Sprintf("%s is not on the map", u.ID)
	}
	if why := w.shotAtFlyer(u, t); why != "" {
		return codeCannot, why // DR-CAT-3
	}
	a := w.st.hexOf(u)
	lo, hi := w.fireRange(u, t, inMelee)
	if d := hex.Distance(a, t); d < lo || d > hi {
		return codeOutOfRange, fmt.Sprintf("%s in %s is %s from %s; it reaches %d to %d (DR-FIRE-6)", u.ID, a, plural(d, "hex", "hexes"), t, lo, hi)
	}
	if ok, why := w.sees(u, a, t); !ok {
		return codeNoLOS, fmt.Sprintf("%s cannot see %s: %s", u.ID, t, why)
	}
	if why := w.submerged(t); why != "" {
		return codeCannot, why
	}
	if why := w.magicBlocksAttack(a, t); why != "" {
		return codeCannot, why
	}
	return "", ""
}

func (w *world) parseFire(side adjudicator.Side, n *yaml.Node) (*Orders, error) {
	list, err := items(n, fireExample)
	if err != nil {
		return nil, err
	}
	o := &Orders{}
	used := map[string]bool{}
	for _, item := range list {
		f, err := fields(item, "breathe", "fire", "at", "target", "area")
		if err != nil {
			return nil, err
		}
		if f["breathe"] != nil {
			fi, err := w.parseBreath(side, item, f, used)
			if err != nil {
				return nil, err
			}
			o.Fires = append(o.Fires, fi)
			continue
		}
		if f["fire"] == nil || f["at"] == nil {
			return nil, adjudicator.Errorf(item, adjudicator.CodeMissingField, "a fire order names the firers and the hex: \n%s", fireExample)
		}
		at, err := w.parseHex(f["at"])
		if err != nil {
			return nil, err
		}
		th, _ := hex.Parse(at)
		us, err := w.unitList(f["fire"], side)
		if err != nil {
			return nil, err
		}
		fi := &Fire{At: at, node: item}
		if err := w.checkTarget(side, th, f["at"], f["target"], &fi.Target); err != nil {
			return nil, err
		}
		if err := w.checkMajorArea(side, th, item, f, fi); err != nil {
			return nil, err // DR-FIRE-8, DR-AMB-43
		}
		for i, u := range us {
			node := f["fire"]
			if node.Kind == yaml.SequenceNode {
				node = node.Content[i]
			}
			if used[u.ID] {
				return nil, adjudicator.Errorf(node, codeTwice, "%s fires twice; a unit fires once a turn (DR-FIRE-5)", u.ID)
			}
			used[u.ID] = true
			if code, why := w.checkShot(u, th, false); why != "" {
				return nil, adjudicator.Errorf(node, code, "%s", why)
			}
			fi.Units = append(fi.Units, u.ID)
		}
		o.Fires = append(o.Fires, fi)
	}
	return o, nil
}

// checkTarget checks that hex t holds enemies of side, and which one a
// "target:" names when the hex mixes a monster and other units.
func (w *world) checkTarget(side adjudicator.Side, t hex.Hex, atNode, targetNode *yaml.Node, target *string) error {
	var enemies []*Unit
	for _, u := range w.st.at(t.String()) {
		if u.Side != side {
			enemies = append(enemies, u)
		}
	}
	if len(enemies) == 0 {
		return adjudicator.Errorf(atNode, codeIllegalMove, "there is no enemy unit in %s", t)
	}
	if targetNode == nil {
		return nil
	}
	id := strings.ToUpper(targetNode.Value)
	for _, e := range enemies {
		if e.ID == id {
			*target = id
			return nil
		}
	}
	return adjudicator.Errorf(targetNode, adjudicator.CodeUnknownUnit, "%s is not in %s", id, t)
}

// targets returns the enemy units an attack on hex t strikes: a monster is
// attacked alone (DR-MATK-6); other units in the hex together (DR-MELEE-6).
func (w *world) targets(side adjudicator.Side, t string, named string) (monster *Unit, others []*Unit) {
	var enemies []*Unit
	for _, u := range w.st.at(t) {
		if u.Side != side {
			enemies = append(enemies, u)
		}
	}
	for _, u := range enemies {
		if w.st.isMonster(u) && (named == "" || named == u.ID) {
			return u, nil
		}
	}
	for _, u := range enemies {
		if !w.st.isMonster(u) {
			others = append(others, u)
		}
	}
	return nil, others
}

func (w *world) resolveFire(o *Orders) {
	for _, fi := range o.Fires {
		if fi.Breathe != "" {
			w.resolveBreath(fi)
		} else {
			w.fireAtArea(fi.Units, fi.At, fi.Target, fi.Area, false)
		}
		if w.st.Over {
			return
		}
	}
}

// fireAt resolves one fire attack, alone (fire phase) or as part of a melee
// (then the strengths are returned to add to it instead).
func (w *world) fireAt(ids []string, at, named string, inMelee bool) (strength int, firers []*Unit) {
	return w.fireAtArea(ids, at, named, "", inMelee)
}

// fireAtArea is fireAt naming the area aimed at when the target is a
// major monster (DR-FIRE-8, DR-AMB-43).
func (w *world) fireAtArea(ids []string, at, named, area string, inMelee bool) (strength int, firers []*Unit) {
	t, _ := hex.Parse(at)
	var side adjudicator.Side
	for _, id := range ids {
		u := w.st.unit(id)
		side = u.Side
		if u.Gone {
			w.sayf("%s does not fire at %s: it was eliminated earlier this phase", id, at)
			continue
		}
		if _, why := w.checkShot(u, t, inMelee); why != "" {
			w.sayf("%s does not fire: %s", id, why)
			continue
		}
		firers = append(firers, u)
	}
	if len(firers) == 0 {
		return 0, nil
	}
	if m := w.majorTarget(side, at, named); m != nil {
		w.fireAtMajor(firers, m, t, area) // DR-FIRE-7..11
		return 0, nil
	}
	monster, others := w.targets(side, at, named)
	if monster == nil && len(others) == 0 {
		w.sayf("no enemy left in %s: %s hold their fire", at, strings.Join(ids, ", "))
		return 0, nil
	}
	for _, u := range firers {
		w.emit(&Flagged{Unit: u.ID, Attacked: true})
		w.trace("fire", u.ID, []string{u.Hex, at}, "")
	}
	if monster != nil {
		for i, u := range firers {
			w.shootMonster(u, monster, t)
			if monster.Gone && i+1 < len(firers) {
				w.sayf("%s: %s already destroyed, so %s hold their fire", at, monster.ID, unitIDs(firers[i+1:]))
				break
			}
		}
		return 0, nil
	}
	for _, u := range firers {
		strength += w.st.typ(u).FireStrength(hex.Distance(w.st.hexOf(u), t)) // DR-BAL-4
	}
	if inMelee {
		return strength, firers
	}
	def := w.defence(others)
	w.wizardAttacked(others...) // DR-SPELL-ELEM-8
	label := fmt.Sprintf("fire on %s by %s", at, unitIDs(firers))
	hit, how := w.resolveCRT(label, strength, def, 0)
	w.sayf("%s: strength %d v %d, %s", label, strength, def, how)
	if hit {
		for _, d := range others {
			w.kill(d, label)
		}
	}
	return 0, nil
}

// shootMonster is one firer's shot at a monster (DR-FIRE-7..13).
func (w *world) shootMonster(u, m *Unit, t hex.Hex) {
	d := hex.Distance(w.st.hexOf(u), t)
	need := w.st.typ(u).MonsterNeed(d) // DR-FIRE-8, DR-BAL-3, DR-CAT-4
	if mt := w.st.typ(m); mt.Hit > 5 && mt.Hit > need {
		// giants and the T-rex only on a 6 (DR-AMB-13); a serpent's 5+ is
		// the general number, which the ballista's table replaces (DR-BAL-3)
		need = mt.Hit
	}
	mod, modText := 0, ""
	if w.heroNear(u) {
		mod, modText = 1, " +1 hero aura (DR-FIRE-13)"
	}
	label := fmt.Sprintf("fire on %s in %s by %s", m.ID, t, u.ID)
	r := w.roll(label, 1)
	hit := r.Total+mod >= need
	r.Outcome = fmt.Sprintf("needs %d+%s: %s", need, modText, map[bool]string{true: "hit, 1 damage (DR-FIRE-12)", false: "missed"}[hit])
	w.sayf("%s: %s", label, r.Outcome)
	if hit {
		w.damage(m, 1, w.st.typ(u).MissileName())
	}
}

func unitIDs(us []*Unit) string {
	ids := make([]string, len(us))
	for i, u := range us {
		ids[i] = u.ID
	}
	return strings.Join(ids, ", ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
