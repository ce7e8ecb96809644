package glory

import (
	"fmt"
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Land and air combat (DG-COMBAT, DG-CRT, DG-COMBAT-MOD, DG-ADV, DG-PRE,
// DG-LOSS, DG-TAUNT, DG-HIDE). The mover declares his attacks with his
// movement orders, one per defending hex, each with the armies that take
// part and, if he likes, the armies that advance should the hex be
// vacated. They are resolved in the order written, after his movement and
// the non-mover's kender taunts. Every choice the rules leave to a side
// during a combat (which armies take a loss, where a stack retreats,
// whether a garrison stays in its fortress, whether air or cavalry slip
// away before the roll, where a surviving leader goes) is a question to
// that side, answered at once by his standing order for it if he has one,
// and skipped when only one answer is legal.

// Error codes of combat orders and answers.
const (
	codeHexUsed    = "hex-used"    // a defending or attacking hex used twice in one combat step (DG-COMBAT-4)
	codeNotArmy    = "not-an-army" // a leader, wizard or fleet named among the attackers (DG-COMBAT-8)
	codeCannotAtk  = "cannot-attack-across"
	codeNoDefender = "no-defender" // no enemy army in the target hex
)

// AttackOrder is one attack on a defending hex: the armies that take part
// (leaders and wizards in their hexes join with them), and those that
// advance into the hex if the attack empties it, with the one extra hex an
// air or cavalry army that advanced may then take (Beyond).
type AttackOrder struct {
	Target  string            `json:"target" yaml:"target"`
	Units   []string          `json:"units" yaml:"units"`
	Advance []string          `json:"advance,omitempty" yaml:"advance,omitempty"`
	Beyond  map[string]string `json:"beyond,omitempty" yaml:"beyond,omitempty"`

	at    *yaml.Node            // the order, for errors found once every section is read
	units map[string]*yaml.Node // each attacker's node
}

// parseAttacks reads the attacks: section. What depends on the mover's
// movement in the same mail (adjacency, the hexes used) is checked by
// checkAttacks once every section is read.
func parseAttacks(st *State, side adjudicator.Side, v *yaml.Node) ([]AttackOrder, error) {
	if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
		return nil, nil
	}
	if v.Kind != yaml.SequenceNode {
		return nil, adjudicator.Errorf(v, adjudicator.CodeBadValue, "attacks: is a list of attacks, e.g. - {target: \"1305\", units: [khelmar-inf-1, red-dragon]}")
	}
	var errs adjudicator.OrderErrors
	bad := func(n *yaml.Node, code, format string, args ...any) {
		errs = append(errs, adjudicator.Errorf(n, code, format, args...))
	}
	var out []AttackOrder
	targets := map[string]bool{}
	attackers := map[string]bool{}
	for _, n := range v.Content {
		if n.Kind != yaml.MappingNode {
			bad(n, adjudicator.CodeBadValue, "an attack is a mapping: {target: HEX, units: [ARMY, ...], advance: [ARMY, ...]}")
			continue
		}
		o := AttackOrder{at: n, units: map[string]*yaml.Node{}}
		var tnode, unode *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, val := n.Content[i], n.Content[i+1]
			switch k.Value {
			case "target":
				tnode = val
			case "units":
				unode = val
			case "advance":
				if val.Kind != yaml.SequenceNode {
					bad(val, adjudicator.CodeBadValue, "advance: is a list of the attacking armies (and leaders) that enter the hex if it is emptied")
					continue
				}
				for _, a := range val.Content {
					if _, err := ownUnit(st, side, a); err != nil {
						errs = append(errs, err.(*adjudicator.OrderError))
						continue
					}
					if slices.Contains(o.Advance, a.Value) {
						bad(a, codeTwice, "%s is named twice under advance", a.Value)
					}
					o.Advance = append(o.Advance, a.Value)
				}
			case "beyond":
				if val.Kind != yaml.MappingNode {
					bad(val, adjudicator.CodeBadValue, "beyond: maps an advancing air or cavalry army to the one more hex it enters, e.g. {khelmar-cav: \"1304\"}")
					continue
				}
				o.Beyond = map[string]string{}
				for j := 0; j+1 < len(val.Content); j += 2 {
					bk, bv := val.Content[j], val.Content[j+1]
					u, err := ownUnit(st, side, bk)
					if err != nil {
						errs = append(errs, err.(*adjudicator.OrderError))
						continue
					}
					if k := st.Kind(u.ID); k.Type != Cavalry && k.Type != Air {
						bad(bk, codeCannot, "only air and cavalry armies take one more hex after advancing (DG-ADV-3); %s is %s", u.ID, k.Type)
					}
					h, err := hexOf(st, bv)
					if err != nil {
						errs = append(errs, err.(*adjudicator.OrderError))
						continue
					}
					o.Beyond[u.ID] = h
				}
			default:
				errs = append(errs, adjudicator.Errorf(k, adjudicator.CodeUnknownField, "unknown key %q in an attack: write target, units, advance or beyond", k.Value))
			}
		}
		if tnode == nil {
			bad(n, adjudicator.CodeMissingField, "an attack needs target: the hex attacked")
			continue
		}
		h, err := hexOf(st, tnode)
		if err != nil {
			errs = append(errs, err.(*adjudicator.OrderError))
			continue
		}
		o.Target = h
		if targets[h] {
			bad(tnode, codeHexUsed, "%s is attacked twice: each defending hex is attacked once per combat step (DG-COMBAT-3, -4); put every army attacking it in one attack", h)
		}
		targets[h] = true
		if !st.enemyAt(h, side) {
			bad(tnode, codeNoDefender, "%s holds no enemy army to attack (DG-COMBAT-1)", h)
		}
		if unode == nil || unode.Kind != yaml.SequenceNode || len(unode.Content) == 0 {
			at := unode
			if at == nil {
				at = n
			}
			bad(at, adjudicator.CodeMissingField, "an attack needs units: the list of your armies that attack %s", h)
			continue
		}
		for _, a := range unode.Content {
			u, err := ownUnit(st, side, a)
			if err != nil {
				errs = append(errs, err.(*adjudicator.OrderError))
				continue
			}
			if !st.Kind(u.ID).IsArmy() {
				bad(a, codeNotArmy, "%s is not an army: leaders and wizards join an attack with the armies of their hex and never attack alone (DG-COMBAT-8); list armies only", u.ID)
				continue
			}
			if attackers[u.ID] {
				bad(a, codeTwice, "%s attacks twice: an army attacks at most once per turn (DG-COMBAT-5)", u.ID)
				continue
			}
			if st.Is("attacked", u.ID) {
				bad(a, codeCannot, "%s has already attacked this turn (DG-COMBAT-5)", u.ID)
				continue
			}
			switch u.Where {
			case OnMap, Aboard:
			default:
				bad(a, codeNotInPlay, "%s is not on the map", u.ID)
				continue
			}
			attackers[u.ID] = true
			o.Units = append(o.Units, u.ID)
			o.units[u.ID] = a
		}
		for _, id := range o.Advance {
			k := st.Kind(id)
			if k.IsArmy() && !slices.Contains(o.Units, id) {
				bad(n, codeCannot, "%s advances after the attack on %s but does not take part in it (DG-ADV-4)", id, h)
			}
		}
		for id := range o.Beyond {
			if !slices.Contains(o.Advance, id) {
				bad(n, codeCannot, "%s takes a hex beyond %s but is not in advance: (DG-ADV-3)", id, h)
			}
		}
		out = append(out, o)
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return out, nil
}

// enemyAt reports whether side may attack h: it holds enemy armies, or,
// with hidden stacks, any enemy counter (a side sees only that the hex is
// held, DG-HIDE-3, and must not learn more from a refusal).
func (s *State) enemyAt(h string, side adjudicator.Side) bool {
	if s.EnemyArmiesAt(h, side) {
		return true
	}
	if s.Options.Hidden {
		for _, u := range s.At(h) {
			if u.Side == Other(side) {
				return true
			}
		}
	}
	return false
}

// planned is where a counter will stand once the mover's movement orders in
// the same mail are carried out, as far as the orders tell: the last hex of
// its move, or where it is now; "" when that cannot be known at parse time
// (a counter aboard a fleet).
func planned(st *State, o *MoveOrders, id string) string {
	for _, m := range o.Moves {
		if m.Unit == id && len(m.Path) > 0 {
			return m.Path[len(m.Path)-1]
		}
	}
	if u := st.Units[id]; u.Where == OnMap {
		return u.Hex
	}
	return ""
}

// checkAttacks checks the attacks against the positions the mail's
// movement orders lead to: each attacking army next to its target and able
// to move into it (DG-COMBAT-6), each attacking hex used in one attack only
// (DG-COMBAT-4). Everything is checked again when the attack comes.
func checkAttacks(st *State, side adjudicator.Side, o *MoveOrders) error {
	var errs adjudicator.OrderErrors
	used := map[string]string{} // attacking hex → target
	for i := range o.Attacks {
		a := &o.Attacks[i]
		for _, id := range a.Units {
			n := a.units[id]
			from := planned(st, o, id)
			if from == "" {
				continue
			}
			if !st.Geo().Adjacent(from, a.Target) {
				errs = append(errs, adjudicator.Errorf(n, codeNotAdjacent, "%s will be at %s, which is not next to %s", id, from, a.Target))
				continue
			}
			if why := st.cannotAttack(id, from, a.Target); why != "" {
				errs = append(errs, adjudicator.Errorf(n, codeCannotAtk, "%s cannot attack from %s into %s: %s (DG-COMBAT-6)", id, from, a.Target, why))
				continue
			}
			if t, ok := used[from]; ok && t != a.Target {
				errs = append(errs, adjudicator.Errorf(n, codeHexUsed, "the armies at %s attack both %s and %s: an attacking hex joins one attack per combat step (DG-COMBAT-4, DG-AMB-43)", from, t, a.Target))
				continue
			}
			used[from] = a.Target
		}
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}

// attackOrder resolves the mover's attack o (DG-COMBAT-10 to -16).
func (w *world) attackOrder(p *program, o *AttackOrder, ans *Answer) bool {
	c, ok := loadCombat(p)
	if !ok {
		c = w.declare(p.Side, o)
		if c == nil {
			return false
		}
	}
	return w.fight(p, c, ans)
}

// declare checks an attack again as its turn comes and starts it: what no
// longer holds is dropped with the reason; nil when nothing is left.
func (w *world) declare(side adjudicator.Side, o *AttackOrder) *combat {
	st := w.st()
	key := string(side) + "/" + o.Target
	if st.Is("defended-hex", key) {
		w.say("The attack on %s is not made: %s was already attacked this combat step (DG-COMBAT-4).", o.Target, o.Target)
		return nil
	}
	if !st.EnemyArmiesAt(o.Target, side) {
		w.say("The attack on %s is not made: no enemy army is there any more.", o.Target)
		return nil
	}
	c := &combat{Side: side, Target: o.Target, Advance: o.Advance, Beyond: o.Beyond}
	for _, id := range o.Units {
		u := st.Units[id]
		switch {
		case u.Where != OnMap:
			w.say("%s does not attack %s: it is not on the map (armies aboard a fleet take no part in land combat, DG-COMBAT-9).", id, o.Target)
		case u.Side != side:
			w.say("%s does not attack %s: it is no longer %s's.", id, o.Target, side)
		case st.Is("attacked", id):
			w.say("%s does not attack %s: it has attacked already this turn (DG-COMBAT-5, DG-TAUNT-7).", id, o.Target)
		case !st.Geo().Adjacent(u.Hex, o.Target):
			w.say("%s does not attack %s: from %s it is not next to it.", id, o.Target, u.Hex)
		case st.cannotAttack(id, u.Hex, o.Target) != "":
			w.say("%s does not attack %s: %s (DG-COMBAT-6).", id, o.Target, st.cannotAttack(id, u.Hex, o.Target))
		case st.Is("attacking-hex", string(side)+"/"+u.Hex):
			w.say("%s does not attack %s: the armies at %s have joined another attack this combat step (DG-COMBAT-4).", id, o.Target, u.Hex)
		default:
			c.Attackers = append(c.Attackers, id)
		}
	}
	if len(c.Attackers) == 0 {
		w.say("The attack on %s is not made: none of its armies can attack.", o.Target)
		return nil
	}
	return c
}

// cannotAttack says why army id at from may not attack into to, or ""
// (DG-COMBAT-6, DG-AMB-34): it could not move there, ignoring MP and the
// enemy.
func (s *State) cannotAttack(id, from, to string) string {
	return s.cannotEnter(id, from, to)
}

// cannotEnter says why army id may not step from from into neighbour to by
// the movement rules of its type, ignoring MP and enemies, or "": the
// terrain it may not enter and the hexsides it may not cross (DG-TERR,
// DG-RACE-2, DG-AIR). It serves attacks, retreats and advances.
func (s *State) cannotEnter(id, from, to string) string {
	g := s.Geo()
	k := s.Kind(id)
	t := g.Terrain(to)
	if t == "desert" {
		return "no army enters a desert hex (DG-TERR-10)"
	}
	if k.Flyer() {
		if !g.Land(to) {
			return "an air army ends its move over land (DG-AIR-5)"
		}
		return ""
	}
	switch {
	case g.Sea(to):
		return "land armies cannot enter the sea (DG-TERR-4)"
	case t == "swamp":
		return "land armies cannot enter a swamp (DG-TERR-6)"
	}
	switch g.Side(from, to).Kind {
	case "mountain":
		if k.Race != "dwarf" && k.Race != "ogre" {
			return "only dwarves and ogres cross a mountain hexside (DG-TERR-7, DG-RACE-2)"
		}
	case "deep-river":
		if !s.FleetBridge(from, to, s.Units[id].Side) { // a friendly fleet bridges it (DG-SEA-7)
			return "land armies cannot cross a deep river but by a bridge, a ford or a friendly fleet on it (DG-TERR-8)"
		}
	}
	return ""
}

// enemy is the defender: the other side of the combat's attacker.
func (c *combat) enemy() adjudicator.Side { return Other(c.Side) }

// String names the combat for the report.
func (c *combat) String() string {
	if c.Taunt {
		return fmt.Sprintf("the taunted attack on %s", c.Target)
	}
	return fmt.Sprintf("the attack on %s", c.Target)
}
