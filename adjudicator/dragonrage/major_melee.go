package dragonrage

// Melee by and against the major monsters (§18, §12.1–12.2).
//
// By a major monster: the order names the monster in "with:" and the
// groups that attack in "groups:" (an area, "wings", stands for its groups
// still able to attack; a group is "wings.2"; no "groups:" means every
// group able to reach the hex). Each group reaches the hexes its area's
// "attacks" list gives around the facing (DR-DRAGON-ATK-3, DR-HEX-8),
// attacks once a turn (DR-AMB-42), never in a turn the monster flew or
// slithered (DR-DRAGON-ATK-6; a Roc that landed may, DR-ROC-7, DR-AMB-75),
// across a wall or into or out of a tower only through an opening, but
// the head and wings strike an adjacent tower "above" (DR-DRAGON-ATK-7,
// DR-AMB-11, DR-AMB-78). The groups' strengths are added (with any troops
// that join) and resolved on the CRT against the whole hex
// (DR-DRAGON-ATK-5, -8, -9), tripled against Killers (DR-DRAGON-ATK-10).
// Two major monsters never combine and never attack the same hex
// (DR-DRAGON-ATK-7, DR-MAJOR-1).
//
// On a major monster: "area:" names the area; each unit rolls on its own
// against the area's to-hit number from the positions its record sheet
// allows, and a hit does the attacker's strength in damage through
// damageMajor (DR-MATK-1..8, DR-MATK-6).
//
// Berserk monsters attack by themselves (DR-AMB-58) and roll to die after
// each invader melee phase (DR-DRAGON-DEF-4).

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// majorGroup is one group of a major monster's record sheet.
type majorGroup struct {
	area *Area
	i    int // index in the area, from 0
}

// key is the group as GroupsUsed records it: "head", "wings-2" (major.go).
func (g majorGroup) key() string {
	if len(g.area.Groups) == 1 {
		return g.area.Name
	}
	return fmt.Sprintf("%s-%d", g.area.Name, g.i+1)
}

// name is the group as players write it and the view shows it: "head",
// "wings.2".
func (g majorGroup) name() string {
	if len(g.area.Groups) == 1 {
		return g.area.Name
	}
	return fmt.Sprintf("%s.%d", g.area.Name, g.i+1)
}

// attackGroups returns the groups of a record sheet that can attack (every
// area but the belly, DR-DRAGON-ATK-1), in sheet order.
func attackGroups(m *MajorDef) []majorGroup {
	var out []majorGroup
	for _, a := range m.Areas {
		if a.Strength == 0 {
			continue
		}
		for i := range a.Groups {
			out = append(out, majorGroup{area: a, i: i})
		}
	}
	return out
}

// groupNamed finds a group by its name or key.
func groupNamed(m *MajorDef, name string) (majorGroup, bool) {
	for _, g := range attackGroups(m) {
		if g.name() == name || g.key() == name {
			return g, true
		}
	}
	return majorGroup{}, false
}

// intact reports whether the group is not destroyed (DR-MATK-10).
func (s Sheet) intact(g majorGroup) bool { return s.lost(g.area.Name)[g.i] < g.area.Groups[g.i] }

// leaping reports whether a monster bounded or landed this turn (a Roc's
// legs strike at 3 then, DR-ROC-9).
func (u *Unit) leaping() bool {
	return u.Mode == modeBound || (u.Mode == modeFly && !u.Flying)
}

// groupStrength is a group's attack strength this turn (DR-DRAGON-ATK-2,
// DR-YDRAGON-2, DR-ROC-9, DR-WYVERN-8).
func (w *world) groupStrength(u *Unit, g majorGroup) int {
	m := w.st.major(u)
	if g.area.Name == "legs" && m.LeapLegs > 0 && u.leaping() {
		return m.LeapLegs
	}
	return g.area.Strength
}

// breathedThisTurn reports whether u breathed this turn: the breath marks
// the head as used (GroupsUsed "head", DR-DRAGON-BREATH-3).
func breathedThisTurn(u *Unit) bool {
	return u.Breaths > 0 && slices.Contains(u.Used, "head")
}

// majorMayAttack says why the major monster u makes no attack at all this
// turn, or "".
func (w *world) majorMayAttack(u *Unit) string {
	m := w.st.major(u)
	switch {
	case u.Hex == "":
		return fmt.Sprintf("%s is not on the map", u.ID)
	case u.Flying:
		return fmt.Sprintf("%s is flying: a monster in the air makes no melee attack (DR-DRAGON-FLY-8, DR-AMB-75)", u.ID)
	case u.Mode == modeSlither:
		return fmt.Sprintf("%s slithered this turn and cannot attack (DR-DRAGON-ATK-6, DR-DRAGON-SLITHER-1)", u.ID)
	case u.Mode == modeFly && !m.LandAttack:
		return fmt.Sprintf("%s flew this turn and cannot attack (DR-DRAGON-ATK-6, DR-DRAGON-FLY-8)", u.ID)
	case u.Mode == modeCrash:
		return fmt.Sprintf("%s crashed this turn and cannot attack (DR-DRAGON-CRASH-1; docs/rulings/dragon-rage.md)", u.ID)
	case u.NoAttack:
		return fmt.Sprintf("%s may not attack this turn", u.ID)
	}
	return ""
}

// positionWords says a list of positions (DR-HEX-8) in words.
func positionWords(list []string) string {
	words := map[string]string{
		posFront: "directly in front", posFront3: "the three front hexes", posFront5: "the front and the four side hexes",
		posSides: "the four side hexes", posBehind: "directly behind", posNotBack: "every hex but the one directly behind",
		posAround: "all around", posUnder: "underneath", posAbove: "above (an adjacent tower)", posAnywhere: "anywhere",
	}
	var out []string
	for _, p := range list {
		out = append(out, words[p])
	}
	switch len(out) {
	case 0:
		return "nowhere"
	case 1:
		return out[0]
	}
	return strings.Join(out[:len(out)-1], ", ") + " and " + out[len(out)-1]
}

// whereIs says where hex h stands from the monster u.
func (w *world) whereIs(u *Unit, h hex.Hex) string {
	rel := w.relation(u, h)
	switch {
	case slices.Contains(rel, posUnder):
		return "underneath it"
	case slices.Contains(rel, posFront):
		return "directly in front of it"
	case slices.Contains(rel, posBehind):
		return "directly behind it"
	case slices.Contains(rel, posFront3):
		return "one of its front hexes, beside the one it faces"
	case slices.Contains(rel, posSides):
		return "one of its rear side hexes"
	}
	return "not next to it"
}

// verb picks the verb for an area's name: "the head reaches", "the wings
// reach".
func verb(area, one, many string) string {
	if strings.HasSuffix(area, "s") {
		return many
	}
	return one
}

// reachesAbove reports whether a list of positions takes in "above".
func reachesAbove(list []string) bool {
	return slices.Contains(list, posAbove) || slices.Contains(list, posNotBack) || slices.Contains(list, posAnywhere)
}

// areaStrikes says why the groups of area a of monster u cannot strike
// hex t, or "": t must be among the positions the area attacks into
// (DR-DRAGON-ATK-3, DR-YDRAGON-3, DR-ROC-8, DR-WYVERN-7), and no wall or
// tower may stand between them, except through an opening or, for the
// areas that reach "above", into an adjacent tower (DR-DRAGON-ATK-7,
// DR-AMB-11, DR-AMB-78).
func (w *world) areaStrikes(u *Unit, a *Area, t hex.Hex) string {
	at := w.st.hexOf(u)
	rel := w.relation(u, t)
	if rel == nil {
		return fmt.Sprintf("%s is not next to %s in %s (DR-MELEE-1)", t, u.ID, at)
	}
	if !w.reaches(u, t, a.Attacks) {
		return fmt.Sprintf("%s's %s %s %s; %s is %s (DR-DRAGON-ATK-3, DR-HEX-8)", u.ID, a.Name, verb(a.Name, "reaches", "reach"), positionWords(a.Attacks), t, w.whereIs(u, t))
	}
	if t == at {
		return ""
	}
	blocked := w.meleeBlocked(at, t)
	switch {
	case blocked == "":
		return ""
	case w.m.Terrain(t) == "tower" && reachesAbove(a.Attacks):
		return "" // "above": the head and wings strike an adjacent tower with no opening (DR-AMB-11)
	case w.m.Terrain(t) == "tower":
		return fmt.Sprintf("%s; %s's %s %s not reach above, into a tower, except through an opening (DR-DRAGON-ATK-7, DR-AMB-11)", blocked, u.ID, a.Name, verb(a.Name, "does", "do"))
	case w.m.Terrain(at) == "tower":
		return fmt.Sprintf("%s; %s stands on a tower: it attacks the ground only through an opening (DR-AMB-78)", blocked, u.ID)
	}
	return fmt.Sprintf("%s; a major monster strikes across a wall only through an opening (DR-DRAGON-ATK-7)", blocked)
}

// groupWhyNot says why group g of u may not attack hex t now, or "".
// earlier holds the groups given to earlier attacks of the same orders,
// with the hex each attacks.
func (w *world) groupWhyNot(u *Unit, g majorGroup, t hex.Hex, earlier map[string]string) string {
	s := w.st.sheet(u)
	switch {
	case !s.intact(g):
		return fmt.Sprintf("%s's %s is destroyed: a destroyed group no longer attacks (DR-MATK-10)", u.ID, g.name())
	case earlier[g.key()] != "":
		return fmt.Sprintf("%s's %s already attacks %s in an earlier order: each group attacks once a turn (DR-AMB-42)", u.ID, g.name(), earlier[g.key()])
	case g.key() == "head" && breathedThisTurn(u):
		return fmt.Sprintf("%s breathed this turn: its head has strength 0 and cannot attack (DR-DRAGON-BREATH-3)", u.ID)
	case slices.Contains(u.Used, g.key()):
		return fmt.Sprintf("%s's %s has already attacked this turn (DR-AMB-42)", u.ID, g.name())
	case w.whirlwindIn(w.st.hexOf(u)) && g.area.Name != "head" && g.area.Name != "legs":
		return fmt.Sprintf("%s stands in a Whirlwind: only its head and legs may attack (DR-DRAGON-ATK-11, DR-SPELL-WHIRL-5)", u.ID)
	}
	return w.areaStrikes(u, g.area, t)
}

// ableGroups returns the groups of u that may attack t now.
func (w *world) ableGroups(u *Unit, t hex.Hex, earlier map[string]string) []majorGroup {
	var out []majorGroup
	for _, g := range attackGroups(w.st.major(u)) {
		if w.groupWhyNot(u, g, t, earlier) == "" {
			out = append(out, g)
		}
	}
	return out
}

// strikable returns the units of hex t that side's attack strikes on the
// CRT, all together (DR-MELEE-6): the enemies but the major monsters,
// which are attacked by area (DR-AMB-73).
func (w *world) strikable(side adjudicator.Side, t string) []*Unit {
	var out []*Unit
	for _, u := range w.st.at(t) {
		if u.Side == side || w.st.typ(u).IsMajor() {
			continue
		}
		out = append(out, u)
	}
	return out
}

// enemyMajor returns an enemy major monster in hex t, or nil; one on the
// ground first.
func (w *world) enemyMajor(side adjudicator.Side, t string) *Unit {
	var found *Unit
	for _, u := range w.st.at(t) {
		if u.Side != side && w.st.typ(u).IsMajor() && (found == nil || found.Flying) {
			found = u
		}
	}
	return found
}

// majorIn returns the first major monster of side among the ids, or nil.
func (w *world) majorIn(ids []string, side adjudicator.Side) *Unit {
	for _, id := range ids {
		if u := w.st.unit(id); u != nil && u.Side == side && w.st.typ(u).IsMajor() {
			return u
		}
	}
	return nil
}

// isMajorMelee reports whether a melee order is one of this file's: it
// names a major monster's groups or area, puts one of side's major
// monsters in "with:", or attacks a hex that holds an enemy major monster.
func (w *world) isMajorMelee(side adjudicator.Side, at string, f map[string]*yaml.Node) bool {
	if f["groups"] != nil || f["area"] != nil || w.enemyMajor(side, at) != nil {
		return true
	}
	if n := f["with"]; n != nil {
		list := []*yaml.Node{n}
		if n.Kind == yaml.SequenceNode {
			list = n.Content
		}
		for _, x := range list {
			if u := w.st.unit(strings.ToUpper(strings.TrimSpace(x.Value))); u != nil && u.Side == side && w.st.typ(u).IsMajor() {
				return true
			}
		}
	}
	return false
}

// parseMajorMelee reads a melee order by or on a major monster (see the
// file comment). used holds the units given an attack already; earlier
// the attacks before this one.
func (w *world) parseMajorMelee(side adjudicator.Side, f map[string]*yaml.Node, at string, used map[string]bool, earlier []*Attack) (*Attack, error) {
	th, _ := hex.Parse(at)
	a := &Attack{At: at}
	if err := w.checkTarget(side, th, f["attack"], f["target"], &a.Target); err != nil {
		return nil, err
	}
	var with []*Unit
	var withNodes []*yaml.Node
	if n := f["with"]; n != nil {
		us, err := w.unitList(n, side)
		if err != nil {
			return nil, err
		}
		with = us
		for i := range us {
			if n.Kind == yaml.SequenceNode {
				withNodes = append(withNodes, n.Content[i])
			} else {
				withNodes = append(withNodes, n)
			}
		}
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
	var mon *Unit
	for i, u := range with {
		if !w.st.typ(u).IsMajor() {
			continue
		}
		if mon != nil {
			return nil, adjudicator.Errorf(withNodes[i], codeCannot, "%s and %s are both major monsters: they never combine their attacks; each attacks a different hex on its own (DR-DRAGON-ATK-7, DR-MAJOR-1)", mon.ID, u.ID)
		}
		mon = u
	}
	for i, u := range with {
		if used[u.ID] && u != mon {
			return nil, adjudicator.Errorf(withNodes[i], codeTwice, "%s attacks twice; each unit attacks once a turn (DR-MELEE-8); a major monster splits its groups between attacks on different hexes in one order each", u.ID)
		}
	}
	if mon != nil {
		if err := w.parseAttackBy(side, mon, a, f, with, withNodes, earlier); err != nil {
			return nil, err
		}
	} else if err := w.parseAttackOn(side, a, f, with, withNodes); err != nil {
		return nil, err
	}
	if mon != nil {
		a.With = append(a.With, mon.ID) // the monster first: its groups are the heart of the attack
	}
	for _, u := range with {
		if u != mon {
			a.With = append(a.With, u.ID)
		}
		used[u.ID] = true
	}
	if n := f["fire"]; n != nil {
		ids, err := w.attackUnits(n, side, used, func(u *Unit) (string, string) { return w.checkShot(u, th, true) })
		if err != nil {
			return nil, err
		}
		a.Fire = append(a.Fire, ids...)
	}
	return a, nil
}

// parseAttackBy checks the part of an attack that a major monster makes:
// its groups, its reach, the limits of DR-DRAGON-ATK-6 and -7, and the
// troops that join it (DR-MELEE-12).
func (w *world) parseAttackBy(side adjudicator.Side, mon *Unit, a *Attack, f map[string]*yaml.Node, with []*Unit, nodes []*yaml.Node, earlier []*Attack) error {
	th, _ := hex.Parse(a.At)
	if n := f["area"]; n != nil {
		return adjudicator.Errorf(f["@area"], codeCannot, "\"area:\" names the area of a major monster you attack; %s attacks with its groups: write \"groups:\" (e.g. groups: [head, legs])", mon.ID)
	}
	if why := w.majorMayAttack(mon); why != "" {
		return adjudicator.Errorf(f["with"], codeCannot, "%s", why)
	}
	if len(w.strikable(side, a.At)) == 0 {
		return adjudicator.Errorf(f["attack"], codeIllegalMove, "there is no enemy unit %s can attack in %s", mon.ID, a.At)
	}
	if a.Target != "" && w.st.typ(w.st.unit(a.Target)).IsMajor() {
		return adjudicator.Errorf(f["target"], codeCannot, "%s attacks units, not another major monster", mon.ID)
	}
	mh := w.st.hexOf(mon)
	if why := w.magicBlocksAttack(mh, th); why != "" {
		return adjudicator.Errorf(f["attack"], codeCannot, "%s", why)
	}
	before := map[string]string{}
	for i, e := range earlier {
		other := w.majorIn(e.With, side)
		switch {
		case other == nil:
		case other == mon && e.At == a.At:
			return adjudicator.Errorf(f["attack"], codeTwice, "%s already attacks %s in order %d: put all the groups that attack one hex in one order (DR-DRAGON-ATK-5, DR-AMB-42)", mon.ID, a.At, i+1)
		case other == mon:
			for _, k := range e.Groups {
				if g, ok := groupNamed(w.st.major(mon), k); ok {
					before[g.key()] = e.At
				}
			}
		case e.At == a.At:
			return adjudicator.Errorf(f["attack"], codeCannot, "%s already attacks %s: two major monsters never attack the same hex (DR-DRAGON-ATK-7, DR-MAJOR-1)", other.ID, a.At)
		}
	}
	groups, err := w.parseGroups(mon, th, f["groups"], f["with"], before)
	if err != nil {
		return err
	}
	for _, g := range groups {
		a.Groups = append(a.Groups, g.name())
	}
	// Troops joining the monster's attack (DR-MELEE-12).
	for i, u := range with {
		if u == mon {
			continue
		}
		code, why := w.checkAttacker(u, th, false)
		if why == "" {
			code, why = w.checkMilitia(u, side, a.At, a.Target)
		}
		if why != "" {
			return adjudicator.Errorf(nodes[i], code, "%s", why)
		}
	}
	return nil
}

// parseGroups reads the "groups:" of a major monster's attack on t: areas
// (their groups able to attack) and groups, or, when there is none, every
// group able to reach t.
func (w *world) parseGroups(mon *Unit, t hex.Hex, n, withNode *yaml.Node, earlier map[string]string) ([]majorGroup, error) {
	m := w.st.major(mon)
	if n == nil {
		out := w.ableGroups(mon, t, earlier)
		if len(out) == 0 {
			return nil, adjudicator.Errorf(withNode, codeCannot, "%s has no group that can attack %s: %s", mon.ID, t, w.whyNoGroup(mon, t, earlier))
		}
		return out, nil
	}
	list := []*yaml.Node{n}
	if n.Kind == yaml.SequenceNode {
		list = n.Content
	}
	if len(list) == 0 {
		return nil, adjudicator.Errorf(n, adjudicator.CodeBadValue, "name the groups that attack, e.g. groups: [head, wings], or leave \"groups:\" out for every group that reaches")
	}
	var out []majorGroup
	seen := map[string]bool{}
	for _, x := range list {
		if x.Kind != yaml.ScalarNode {
			return nil, adjudicator.Errorf(x, adjudicator.CodeBadValue, "give a group (\"wings.1\") or an area (\"wings\") here")
		}
		area, idx, ok := readGroup(m, x.Value)
		if !ok {
			return nil, adjudicator.Errorf(x, adjudicator.CodeBadValue, "%q is not one of %s's groups: they are %s, or an area: %s", x.Value, mon.ID, groupList(m), strings.Join(attackAreas(m), ", "))
		}
		if area.Strength == 0 {
			return nil, adjudicator.Errorf(x, codeCannot, "the %s never attacks (DR-DRAGON-ATK-1)", area.Name)
		}
		var picked []majorGroup
		if idx >= 0 {
			g := majorGroup{area: area, i: idx}
			if seen[g.key()] {
				return nil, adjudicator.Errorf(x, codeTwice, "%s is named twice", g.name())
			}
			if why := w.groupWhyNot(mon, g, t, earlier); why != "" {
				return nil, adjudicator.Errorf(x, codeCannot, "%s", why)
			}
			picked = []majorGroup{g}
		} else {
			var why string
			s := w.st.sheet(mon)
			for i := range area.Groups {
				g := majorGroup{area: area, i: i}
				if seen[g.key()] || !s.intact(g) || earlier[g.key()] != "" {
					continue // named already, destroyed, or given to an earlier attack
				}
				if why = w.groupWhyNot(mon, g, t, earlier); why == "" {
					picked = append(picked, g)
				}
			}
			if len(picked) == 0 {
				if s.Destroyed(area.Name) {
					why = fmt.Sprintf("%s's %s %s destroyed: a destroyed group no longer attacks (DR-MATK-10)", mon.ID, area.Name, verb(area.Name, "is", "are"))
				}
				if why == "" {
					why = fmt.Sprintf("%s's %s have no group left to attack with: each is destroyed or attacks elsewhere (DR-MATK-10, DR-AMB-42)", mon.ID, area.Name)
				}
				return nil, adjudicator.Errorf(x, codeCannot, "%s", why)
			}
		}
		for _, g := range picked {
			seen[g.key()] = true
		}
		out = append(out, picked...)
	}
	return out, nil
}

// whyNoGroup says, area by area, why no group of u can attack t.
func (w *world) whyNoGroup(u *Unit, t hex.Hex, earlier map[string]string) string {
	var parts []string
	last := ""
	for _, g := range attackGroups(w.st.major(u)) {
		if why := w.groupWhyNot(u, g, t, earlier); why != "" && why != last {
			parts = append(parts, why)
			last = why
		}
	}
	return strings.Join(parts, "; ")
}

// readGroup reads a group or area as players write it: "head", "wings",
// "wing", "wings.2", "wings-2", "wing 2", "legs2". idx is -1 for a whole
// area.
func readGroup(m *MajorDef, s string) (area *Area, idx int, ok bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	name, num := s, ""
	if i := strings.IndexAny(s, ".- "); i >= 0 {
		name, num = strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+1:])
	} else if j := strings.IndexFunc(s, func(r rune) bool { return r >= '0' && r <= '9' }); j > 0 {
		name, num = s[:j], s[j:]
	}
	area = m.area(name)
	if area == nil {
		area = m.area(name + "s")
	}
	if area == nil {
		return nil, 0, false
	}
	if num == "" {
		return area, -1, true
	}
	k, err := strconv.Atoi(num)
	if err != nil || k < 1 || k > len(area.Groups) {
		return nil, 0, false
	}
	return area, k - 1, true
}

// groupList names every attacking group of a sheet.
func groupList(m *MajorDef) string {
	var out []string
	for _, g := range attackGroups(m) {
		out = append(out, g.name())
	}
	return strings.Join(out, ", ")
}

// attackAreas names the areas that attack.
func attackAreas(m *MajorDef) []string {
	var out []string
	for _, a := range m.Areas {
		if a.Strength > 0 {
			out = append(out, a.Name)
		}
	}
	return out
}

// parseAttackOn checks an attack by troops on a hex holding an enemy major
// monster: on the monster, by area (DR-MATK-1..8), or on the units that
// share its hex, on the CRT (DR-AMB-73).
func (w *world) parseAttackOn(side adjudicator.Side, a *Attack, f map[string]*yaml.Node, with []*Unit, nodes []*yaml.Node) error {
	if n := f["groups"]; n != nil {
		return adjudicator.Errorf(f["@groups"], codeCannot, "\"groups:\" names the groups of your own major monster that attack; none is in \"with:\"")
	}
	m := w.enemyMajor(side, a.At)
	others := w.strikable(side, a.At)
	named := (*Unit)(nil)
	if a.Target != "" {
		named = w.st.unit(a.Target)
	}
	if named != nil && w.st.typ(named).IsMajor() {
		m = named
	}
	areaNode := f["area"]
	switch {
	case areaNode == nil && m != nil && (named == m || len(others) == 0):
		if m.Flying {
			return adjudicator.Errorf(f["attack"], codeCannot, "%s is flying: a monster in the air cannot be meleed (DR-MATK-2, DR-DRAGON-FLY-11)", m.ID)
		}
		return adjudicator.Errorf(f["attack"], adjudicator.CodeMissingField, "name the area of %s you attack, e.g. \"area: legs\" (DR-MATK-3): %s", m.ID, w.reachableAreas(with, m, a.Open))
	case areaNode == nil && m != nil && !m.Flying && a.Target == "":
		return adjudicator.Errorf(f["attack"], adjudicator.CodeMissingField, "%s holds %s and %s: write \"area:\" to attack %s (%s), or \"target: %s\" to attack the units (DR-AMB-73)", a.At, m.ID, unitIDs(others), m.ID, w.reachableAreas(with, m, a.Open), others[0].ID)
	case areaNode == nil:
		return w.parseUnitsUnder(side, a, f, with, nodes, others)
	case m == nil || (named != nil && named != m):
		return adjudicator.Errorf(f["@area"], codeCannot, "\"area:\" names the area of a major monster you attack; there is none to attack in %s", a.At)
	}
	a.Target = m.ID
	if len(with) == 0 {
		return adjudicator.Errorf(f["attack"], adjudicator.CodeMissingField, "name the units that attack %s in \"with:\"", m.ID)
	}
	if m.Flying {
		return adjudicator.Errorf(f["attack"], codeCannot, "%s is flying: a monster in the air cannot be meleed (DR-MATK-2, DR-DRAGON-FLY-11)", m.ID)
	}
	def := w.st.major(m)
	name, err := scalar(areaNode, "an area such as legs")
	if err != nil {
		return err
	}
	area, idx, ok := readGroup(def, name)
	if !ok || idx >= 0 {
		return adjudicator.Errorf(areaNode, adjudicator.CodeBadValue, "%q is not an area of %s: its areas are %s (an area is attacked as a whole; its first group takes the damage first, DR-MATK-9)", name, m.ID, strings.Join(def.AreaNames(), ", "))
	}
	if f["fire"] != nil && !slices.Contains(fireAreas(def), area.Name) {
		return adjudicator.Errorf(f["@fire"], codeCannot, "fire added to this attack aims at the %s too, and a missile hits a major monster's %s, never its %s (DR-FIRE-9): fire in your fire phase, or in another attack on an area it may hit", area.Name, strings.Join(fireAreas(def), ", "), area.Name)
	}
	if w.st.sheet(m).Destroyed(area.Name) {
		return adjudicator.Errorf(areaNode, codeCannot, "%s's %s %s already destroyed: further hits there have no effect (DR-MATK-11)", m.ID, area.Name, verb(area.Name, "is", "are"))
	}
	a.Area = area.Name
	for i, u := range with {
		code, why := w.mayStrikeMajor(u, m, area, a.Open)
		if why == "" {
			code, why = w.militiaVsMajor(u, m)
		}
		if why != "" {
			return adjudicator.Errorf(nodes[i], code, "%s", why)
		}
	}
	return nil
}

// parseUnitsUnder checks an attack on the units of a hex that also holds
// an enemy major monster (under it, or below it in flight): they are
// attacked together on the CRT, the monster left out (DR-AMB-73).
func (w *world) parseUnitsUnder(side adjudicator.Side, a *Attack, f map[string]*yaml.Node, with []*Unit, nodes []*yaml.Node, others []*Unit) error {
	th, _ := hex.Parse(a.At)
	if len(others) == 0 {
		return adjudicator.Errorf(f["attack"], codeIllegalMove, "there is no enemy unit you can attack in %s", a.At)
	}
	for i, u := range with {
		code, why := w.checkAttacker(u, th, a.Open)
		if why == "" && w.st.typ(u).NeedsHeroVsMonsters() && !w.heroBy(u, true) && !w.boosted(u) && slices.ContainsFunc(others, w.st.isMonsterType) {
			code, why = codeCannot, fmt.Sprintf("%s will not attack a monster in %s: militia attack monsters only with a hero in their hex or next to them, or under Boost Morale (DR-MIL-1)", u.ID, a.At)
		}
		if why != "" {
			return adjudicator.Errorf(nodes[i], code, "%s", why)
		}
	}
	return nil
}

// mayStrikeMajor says why unit u may not make a melee attack on area a of
// the major monster m, or "" (see strikeProblem); when the trouble is where
// u stands, it says which areas u can reach from there.
func (w *world) mayStrikeMajor(u, m *Unit, a *Area, open bool) (string, string) {
	code, why, place := w.strikeProblem(u, m, a, open)
	if place {
		why += ": " + w.reachableAreas([]*Unit{u}, m, open)
	}
	return code, why
}

// strikeProblem says why unit u may not make a melee attack on area a of
// the major monster m, or "": a unit that attacks, in m's hex or next to
// it (DR-MATK-1), at an area its position reaches (DR-MATK-4, DR-TABLE-MMT;
// the head from all three front hexes once both wings and all legs are
// lost, DR-DRAGON-DEF-1), never a flyer (DR-MATK-2), not across a wall nor
// into or out of a tower except through an opening, but the head and
// wings from an adjacent tower, as "above" (DR-MATK-2, DR-AMB-12); from
// the ground, a monster on a tower only at its legs (DR-AMB-78). place
// says the trouble is where u stands.
func (w *world) strikeProblem(u, m *Unit, a *Area, open bool) (code, why string, place bool) {
	if code, why := w.mayMelee(u); why != "" {
		return code, why, false
	}
	if m.Flying {
		return codeCannot, fmt.Sprintf("%s is flying: a monster in the air cannot be meleed (DR-MATK-2)", m.ID), false
	}
	uh, mh := w.st.hexOf(u), w.st.hexOf(m)
	rel := w.relation(m, uh)
	if rel == nil {
		return codeNotAdjacent, fmt.Sprintf("%s in %s is neither in nor next to %s's hex %s (DR-MATK-1)", u.ID, uh, m.ID, mh), false
	}
	from := w.attackedFrom(m, a)
	if !anyOf(rel, from) {
		return codeCannot, fmt.Sprintf("%s's %s %s attacked only from %s; %s in %s is %s (%s)", m.ID, a.Name, verb(a.Name, "is", "are"), positionWords(from), u.ID, uh, w.whereIs(m, uh), a.Rule), true
	}
	if uh != mh {
		inTower, onTower := w.m.Terrain(uh) == "tower", w.m.Terrain(mh) == "tower"
		blocked := w.meleeBlocked(uh, mh)
		if blocked != "" && open && u.Side == Defender && w.canOpen(u, uh, mh) {
			blocked = ""
		}
		switch {
		case inTower && reachesAbove(from) && slices.Contains(rel, posAbove):
			// from an adjacent tower, "above": no opening needed (DR-AMB-12)
		case blocked != "" && inTower:
			return codeCannot, fmt.Sprintf("%s; from a tower, with no opening, only the areas attacked from above can be reached (DR-MATK-2, DR-AMB-12)", blocked), true
		case blocked != "":
			return codeCannot, fmt.Sprintf("%s; a major monster is meleed across a wall, or into or out of a tower, only through an opening (DR-MATK-2)", blocked), true
		case onTower && !inTower && !slices.Contains(from, posAround) && !slices.Contains(from, posAnywhere):
			return codeCannot, fmt.Sprintf("%s stands on a tower: from the ground only its legs can be reached (DR-AMB-78)", m.ID), true
		}
	}
	if why := w.magicBlocksAttack(uh, mh); why != "" {
		return codeCannot, why, false
	}
	return "", "", false
}

// attackedFrom is where an area may be attacked from now: its sheet's
// list, and for the head also the three front hexes once both wings and
// all legs are lost (DR-DRAGON-DEF-1).
func (w *world) attackedFrom(m *Unit, a *Area) []string {
	from := slices.Clone(a.From)
	s := w.st.sheet(m)
	if a.Name == "head" && s.Destroyed("wings") && s.Destroyed("legs") {
		from = append(from, posFront3)
	}
	return from
}

func anyOf(have, want []string) bool {
	for _, p := range have {
		if slices.Contains(want, p) {
			return true
		}
	}
	return false
}

// reachableAreas lists, for the units, the areas of m each can attack from
// where it stands.
func (w *world) reachableAreas(us []*Unit, m *Unit, open bool) string {
	var parts []string
	s := w.st.sheet(m)
	for _, u := range us {
		var areas []string
		for _, a := range w.st.major(m).Areas {
			if _, why, _ := w.strikeProblem(u, m, a, open); why == "" && !s.Destroyed(a.Name) {
				areas = append(areas, a.Name)
			}
		}
		if len(areas) == 0 {
			parts = append(parts, fmt.Sprintf("%s can reach no area of %s from %s", u.ID, m.ID, u.Hex))
		} else {
			parts = append(parts, fmt.Sprintf("%s can reach its %s from %s", u.ID, strings.Join(areas, ", "), u.Hex))
		}
	}
	if len(parts) == 0 {
		return "its areas are " + strings.Join(w.st.major(m).AreaNames(), ", ")
	}
	return strings.Join(parts, "; ")
}

// militiaVsMajor says why militia unit u will not attack the major monster
// m: only with a hero (wounded or not) in its hex or next to it, or under
// Boost Morale (DR-MIL-1); known when the orders arrive (DR-GEN-3).
func (w *world) militiaVsMajor(u, m *Unit) (string, string) {
	if !w.st.typ(u).NeedsHeroVsMonsters() || w.heroBy(u, true) || w.boosted(u) {
		return "", ""
	}
	return codeCannot, fmt.Sprintf("%s will not attack %s: militia attack Dragons and monsters only with a hero in their hex or next to them, or under Boost Morale (DR-MIL-1); move a hero next to %s first, boost it in your magic phase, or leave it out of this attack", u.ID, m.ID, u.ID)
}

// checkMajorOrders checks, once every melee order of side is read, the
// attacks its berserk monsters owe: one attack, on the enemy it must go
// for, with every group able to reach it (DR-AMB-58). A berserk monster
// left out of the orders attacks by itself (berserkAttacks).
func (w *world) checkMajorOrders(side adjudicator.Side, o *Orders, n *yaml.Node) error {
	for _, u := range w.st.alive(side) {
		if !w.st.typ(u).IsMajor() || !w.st.sheet(u).Berserk() {
			continue
		}
		targets := w.berserkTargets(u)
		var mine []int
		for i, a := range o.Attacks {
			if slices.Contains(a.With, u.ID) {
				mine = append(mine, i)
			}
		}
		if len(targets) == 0 {
			continue
		}
		if len(mine) == 0 {
			if free := w.freeTargets(u, targets, o); len(free) == 0 {
				return adjudicator.Errorf(n, codeCannot, "%s is berserk and attacks %s by itself (DR-AMB-58), but another major monster of yours attacks there, and two never attack the same hex (DR-DRAGON-ATK-7): send the other one elsewhere", u.ID, hexList(targets))
			}
			continue
		}
		node := n
		if n.Kind == yaml.SequenceNode && mine[0] < len(n.Content) {
			node = n.Content[mine[0]]
		}
		if len(mine) > 1 {
			return adjudicator.Errorf(node, codeCannot, "%s is berserk: it makes one attack, on the nearest enemy, with every group able to reach it (DR-AMB-58)", u.ID)
		}
		a := o.Attacks[mine[0]]
		th, _ := hex.Parse(a.At)
		if !slices.Contains(targets, th) {
			return adjudicator.Errorf(node, codeCannot, "%s is berserk: it must attack the nearest enemy, in %s (DR-DRAGON-DEF-3, DR-AMB-58)", u.ID, hexList(targets))
		}
		var missing []string
		for _, g := range w.ableGroups(u, th, nil) {
			if !slices.Contains(a.Groups, g.name()) {
				missing = append(missing, g.name())
			}
		}
		if len(missing) > 0 {
			return adjudicator.Errorf(node, codeCannot, "%s is berserk: it attacks with every group able to reach %s (DR-AMB-58): add %s, or leave \"groups:\" out", u.ID, a.At, strings.Join(missing, ", "))
		}
	}
	return nil
}

func hexList(hs []hex.Hex) string {
	var out []string
	for _, h := range hs {
		out = append(out, h.String())
	}
	if len(out) > 1 {
		return "one of " + strings.Join(out, ", ")
	}
	return strings.Join(out, "")
}

// berserkTargets returns the hexes a berserk monster must attack: the
// enemies under it if its groups can strike them, else the enemy it faces
// (it turned to face the nearest, DR-DRAGON-DEF-3), else every adjacent
// hex with an enemy it can strike, all equally near (DR-AMB-58).
func (w *world) berserkTargets(u *Unit) []hex.Hex {
	if w.majorMayAttack(u) != "" {
		return nil
	}
	h := w.st.hexOf(u)
	able := func(t hex.Hex) bool {
		return len(w.strikable(u.Side, t.String())) > 0 && w.magicBlocksAttack(h, t) == "" && len(w.ableGroups(u, t, nil)) > 0
	}
	if able(h) {
		return []hex.Hex{h}
	}
	if f := hex.Front(h, u.facing()); able(f) {
		return []hex.Hex{f}
	}
	var out []hex.Hex
	for _, n := range h.Neighbours() {
		if w.m.OnMap(n) && able(n) {
			out = append(out, n)
		}
	}
	return out
}

// freeTargets returns the targets no other major monster attacks in the
// orders (DR-DRAGON-ATK-7).
func (w *world) freeTargets(u *Unit, targets []hex.Hex, o *Orders) []hex.Hex {
	var out []hex.Hex
	for _, t := range targets {
		if !slices.ContainsFunc(o.Attacks, func(a *Attack) bool {
			m := w.majorIn(a.With, u.Side)
			return a.At == t.String() && m != nil && m != u
		}) {
			out = append(out, t)
		}
	}
	return out
}

// berserkAttacks makes the attack each berserk monster of the side owes
// and its orders left out, before the orders' own attacks: on the nearest
// enemy, with every group able to reach it; a die settles a tie (DR-AMB-58,
// DR-DICE-22).
func (w *world) berserkAttacks(o *Orders) {
	side := phases[w.st.Phase].side
	for _, u := range w.st.alive(side) {
		if !w.st.typ(u).IsMajor() || !w.st.sheet(u).Berserk() || w.st.Over {
			continue
		}
		if slices.ContainsFunc(o.Attacks, func(a *Attack) bool { return slices.Contains(a.With, u.ID) }) {
			continue
		}
		targets := w.freeTargets(u, w.berserkTargets(u), o)
		if len(targets) == 0 {
			continue
		}
		t := targets[0]
		if len(targets) > 1 {
			t = targets[w.berserkTie(u, targets)]
		}
		a := &Attack{At: t.String(), With: []string{u.ID}}
		for _, g := range w.ableGroups(u, t, nil) {
			a.Groups = append(a.Groups, g.name())
		}
		w.sayf("%s is berserk and attacks the nearest enemy, in %s, with every group able to reach it (DR-AMB-58): %s", u.ID, t, strings.Join(a.Groups, ", "))
		w.strikeUnits(a, side, u)
	}
}

// berserkTie rolls 1d6 to pick one of the hexes, the faces split evenly
// between them (rolled again on a face left over).
func (w *world) berserkTie(u *Unit, hs []hex.Hex) int {
	k := len(hs)
	per := 6 / k
	for {
		r := w.roll(fmt.Sprintf("berserk %s chooses between %s", u.ID, strings.TrimPrefix(hexList(hs), "one of ")), 1)
		if r.Total <= per*k {
			i := (r.Total - 1) / per
			r.Outcome = fmt.Sprintf("%s (equally near, DR-AMB-58, DR-DICE-22)", hs[i])
			w.sayf("%s: %s", r.Label, r.Outcome)
			return i
		}
		r.Outcome = "no choice on this face: rolled again"
		w.sayf("%s: %s", r.Label, r.Outcome)
	}
}

// berserkDeaths rolls, after the invader's melee phase, 1d6 for each
// berserk monster: on 5+ it dies (DR-DRAGON-DEF-4, DR-DICE-19).
func (w *world) berserkDeaths() {
	if w.st.Phase != phInvMelee {
		return
	}
	for _, u := range w.st.Units {
		if u.Gone || u.Pool || u.Hex == "" || !w.st.typ(u).IsMajor() || !w.st.sheet(u).Berserk() || w.st.Over {
			continue
		}
		r := w.roll(fmt.Sprintf("berserk %s after the invader's melee", u.ID), 1)
		dies := r.Total >= 5
		r.Outcome = fmt.Sprintf("dies on 5+ (DR-DRAGON-DEF-4): %s", map[bool]string{true: "it dies", false: "it lives on"}[dies])
		w.sayf("%s: %s", r.Label, r.Outcome)
		if dies {
			w.majorDies(u, "its berserk rage killed it (DR-DRAGON-DEF-4)")
		}
	}
}

// majorCanMelee reports whether side has a major-monster attack to make,
// or a unit in a major monster's hex that could attack it (DR-MATK-1), or,
// in the invader's melee phase, a berserk monster whose death roll follows
// the phase (DR-DRAGON-DEF-4): the phase is not passed then.
func (w *world) majorCanMelee(side adjudicator.Side) bool {
	for _, u := range w.st.alive(side) {
		if u.Hex == "" {
			continue
		}
		if !w.st.typ(u).IsMajor() {
			if m := w.enemyMajor(side, u.Hex); m != nil && !m.Flying {
				if _, why := w.mayMelee(u); why == "" {
					return true
				}
			}
			continue
		}
		if side == Invader && w.st.Phase == phInvMelee && w.st.sheet(u).Berserk() {
			return true
		}
		if w.majorMayAttack(u) != "" {
			continue
		}
		h := w.st.hexOf(u)
		ns := h.Neighbours()
		for _, t := range append([]hex.Hex{h}, ns[:]...) {
			if len(w.strikable(side, t.String())) > 0 && w.magicBlocksAttack(h, t) == "" && len(w.ableGroups(u, t, nil)) > 0 {
				return true
			}
		}
	}
	return false
}

// majorMelee resolves a melee order of this file's and reports whether a
// was one: an attack by a major monster, on one, or on the units that
// share a hex with one.
func (w *world) majorMelee(a *Attack) bool {
	var side adjudicator.Side
	for _, id := range append(slices.Clone(a.With), a.Fire...) {
		side = w.st.unit(id).Side
	}
	if mon := w.majorIn(a.With, side); mon != nil {
		w.strikeUnits(a, side, mon)
		return true
	}
	if a.Area != "" {
		w.strikeMajor(a)
		return true
	}
	if w.enemyMajor(side, a.At) != nil {
		w.strikeUnits(a, side, nil)
		return true
	}
	return false
}

// strikeUnits resolves an attack on the units of a hex on the CRT: by a
// major monster's groups (mon, with any troops and fire that join it), or
// by troops on units sharing a hex with an enemy major monster. The groups'
// strengths are added and tripled against Killers (DR-DRAGON-ATK-5, -8,
// -10); the whole hex defends (DR-DRAGON-ATK-9).
func (w *world) strikeUnits(a *Attack, side adjudicator.Side, mon *Unit) {
	t, _ := hex.Parse(a.At)
	attackers := w.readyAttackers(a, t, mon)
	others := w.strikable(side, a.At)
	if len(others) == 0 {
		w.sayf("the attack on %s does not happen: no enemy is left there", a.At)
		return
	}
	var groups []majorGroup
	monStrength, monText := 0, ""
	if mon != nil {
		if why := w.majorMayAttack(mon); mon.Gone || why != "" {
			w.sayf("%s does not attack %s: %s", mon.ID, a.At, map[bool]string{true: "it is dead", false: why}[mon.Gone])
		} else {
			var parts []string
			for _, name := range a.Groups {
				g, ok := groupNamed(w.st.major(mon), name)
				if !ok || !w.st.sheet(mon).intact(g) {
					continue
				}
				s := w.groupStrength(mon, g)
				groups = append(groups, g)
				monStrength += s
				parts = append(parts, fmt.Sprintf("%s %d", g.name(), s))
			}
			monText = fmt.Sprintf("%s's %s", mon.ID, strings.Join(parts, " + "))
			if w.st.major(mon).Enraged {
				var killers []string
				for _, x := range others {
					if x.Killer {
						killers = append(killers, x.ID)
					}
				}
				if len(killers) > 0 {
					monStrength *= 3
					if len(parts) > 1 {
						monText += fmt.Sprintf(" = %d", monStrength/3)
					}
					monText += fmt.Sprintf(", ×3 against the Killer %s: %d (DR-DRAGON-ATK-10, DR-YDRAGON-9)", strings.Join(killers, ", "), monStrength)
				}
			}
		}
	}
	if a.Open {
		w.openEntrances(attackers, t)
	}
	for _, x := range others {
		if w.st.isMonsterType(x) { // an Elemental is a minor monster (DR-MIL-1, DR-MATK-17)
			kept := w.willAttack(attackers, x)
			for _, u := range attackers {
				if !slices.Contains(kept, u) {
					w.emit(&Flagged{Unit: u.ID, Attacked: true})
				}
			}
			attackers = kept
			break
		}
	}
	named := a.Target
	if named == "" {
		named = others[0].ID // the fire goes at the units, not at a monster flying over them
	}
	fireStrength, firers := w.fireAt(a.Fire, a.At, named, true)
	if len(attackers) == 0 && len(firers) == 0 && len(groups) == 0 {
		w.sayf("the attack on %s does not happen: none of %s attacks", a.At, joinIDs(append(slices.Clone(a.With), a.Fire...)))
		return
	}
	strength, boosted := fireStrength+w.boltPower(side, others)+monStrength, 0
	if mon != nil && len(groups) > 0 {
		if w.boosted(mon) {
			boosted += monStrength
		}
		keys := make([]string, len(groups))
		for i, g := range groups {
			keys[i] = g.key()
		}
		w.emit(&GroupsUsed{Unit: mon.ID, Groups: keys})
		w.trace("melee", mon.ID, []string{mon.Hex, a.At}, "")
	}
	ts, tb := w.troopsAttack(attackers, a.At)
	strength, boosted = strength+ts, boosted+tb
	mod, note := boostMod(boosted, strength)
	def := w.defence(others)
	w.wizardAttacked(others...)
	var who []string
	if len(groups) > 0 {
		var names []string
		for _, g := range groups {
			names = append(names, g.name())
		}
		who = append(who, fmt.Sprintf("%s (%s)", mon.ID, strings.Join(names, ", ")))
	}
	for _, u := range append(attackers, firers...) {
		who = append(who, u.ID)
	}
	label := fmt.Sprintf("melee on %s by %s", a.At, strings.Join(who, ", "))
	hit, how := w.resolveCRT(label, strength, def, mod)
	if monText != "" && len(groups) > 0 {
		note = " (" + monText + ")" + note
	}
	w.sayf("%s: strength %d%s v %d, %s", label, strength, note, def, how)
	if hit {
		for _, d := range others {
			w.kill(d, label)
		}
	}
}

// strikeMajor resolves attacks on an area of a major monster: each unit
// rolls on its own against the area's to-hit number, +1 for an unwounded
// hero by it or else +1 under Boost Morale, +1 more for a hero himself;
// a hit does the unit's strength in damage, never doubled by a hero
// (DR-MATK-3, -5, -6, -8, DR-HERO-1..3, DR-AMB-52).
func (w *world) strikeMajor(a *Attack) {
	m := w.st.unit(a.Target)
	area := w.st.major(m).area(a.Area)
	var attackers []*Unit
	for _, id := range a.With {
		u := w.st.unit(id)
		if u.Gone {
			w.sayf("%s does not attack %s: it was eliminated earlier this phase", id, m.ID)
			continue
		}
		if !m.Gone {
			if _, why := w.mayStrikeMajor(u, m, area, a.Open); why != "" {
				w.sayf("%s does not attack: %s", id, why)
				continue
			}
		}
		attackers = append(attackers, u)
	}
	if a.Open && !m.Gone {
		w.openEntrances(attackers, w.st.hexOf(m))
	}
	w.strikeRolls(attackers, m, area)
	switch {
	case len(a.Fire) == 0:
	case m.Gone:
		w.sayf("%s is already dead, so %s hold their fire", m.ID, joinIDs(a.Fire))
	default:
		w.fireAtArea(a.Fire, a.At, m.ID, a.Area, true) // each firer shoots on its own at the area (DR-FIRE-3, DR-FIRE-8)
	}
}

// strikeRolls rolls each attacker's attack on an area of m in turn.
func (w *world) strikeRolls(attackers []*Unit, m *Unit, area *Area) {
	for i, u := range attackers {
		if m.Gone {
			w.sayf("%s is already dead, so %s %s no attack", m.ID, unitIDs(attackers[i:]), plural(len(attackers[i:]), "makes", "make"))
			return
		}
		w.emit(&Flagged{Unit: u.ID, Attacked: true})
		w.trace("melee", u.ID, []string{u.Hex, m.Hex}, "")
		if w.st.sheet(m).Destroyed(area.Name) {
			w.sayf("%s's %s %s already destroyed: %s's attack has no effect (DR-MATK-11)", m.ID, area.Name, verb(area.Name, "is", "are"), u.ID)
			continue
		}
		if len(w.willAttack([]*Unit{u}, m)) == 0 {
			continue
		}
		mod, why := 0, ""
		switch {
		case w.heroNear(u):
			mod, why = 1, " +1 hero aura (DR-HERO-2)"
		case w.boosted(u):
			mod, why = 1, " +1 Boost Morale (DR-SPELL-MORALE-5)"
		}
		if w.st.typ(u).Leads() {
			mod++
			why += " +1 the hero himself (DR-HERO-3)"
		}
		dmg := w.st.typ(u).Attack
		label := fmt.Sprintf("melee on %s's %s in %s by %s", m.ID, area.Name, m.Hex, u.ID)
		r := w.roll(label, 1)
		hit := r.Total+mod >= area.Hit
		r.Outcome = fmt.Sprintf("needs %d+%s: %s", area.Hit, why, map[bool]string{true: fmt.Sprintf("hit, %d damage", dmg), false: "missed"}[hit])
		w.sayf("%s: %s", label, r.Outcome)
		if hit {
			w.damageMajor(m, area.Name, dmg, u, u.ID+"'s attack")
		}
	}
}
