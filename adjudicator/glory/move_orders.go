package glory

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

// MoveOrder moves one counter of the mover (section moves: of his orders,
// resolved in the order written):
//
//   - {unit: valen-inf-1, path: ["1106", "1206"]}                 # a land army or leader
//   - {unit: valen-griffon, path: [...], carry: valen-inf-2}      # air transport (DG-AIRT)
//   - {unit: oren, to: "1503"}                                    # a wizard: anywhere (DG-WIZ-2)
//   - {unit: oren, to: sarnport-fleet-1}                          # … or aboard a friendly fleet (DG-WIZ-4)
//
// A path lists the hexes entered in order; it may begin with the hex the
// counter stands in, and may be written as one text ("1106 1206").
type MoveOrder struct {
	Unit  string   `json:"unit" yaml:"unit"`
	Path  []string `json:"path,omitempty" yaml:"path,omitempty"` // the hexes entered, without the start
	To    string   `json:"to,omitempty" yaml:"to,omitempty"`     // a wizard's destination: a hex or a friendly fleet
	Carry string   `json:"carry,omitempty" yaml:"carry,omitempty"`
}

// parseMoves reads and checks the moves: section against the game as it
// is when the mail is sent, each order after the ones written before it
// (so a stack may leave a hex another then enters). With hidden stacks
// (DG-HIDE) the check does not look at the enemy's counters, which the
// mover may not know: a path into or past them is stopped when it is
// resolved, and the reason told to the mover alone.
func parseMoves(st *State, side adjudicator.Side, v *yaml.Node) ([]MoveOrder, error) {
	if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
		return nil, nil
	}
	if v.Kind != yaml.SequenceNode {
		return nil, adjudicator.Errorf(v, adjudicator.CodeBadValue, "moves: is a list of moves, one per counter, e.g. \"- {unit: valen-inf-1, path: [\\\"1106\\\", \\\"1206\\\"]}\"")
	}
	sim := st.Clone()
	if st.Options.Hidden {
		for _, u := range sim.Units {
			if u.Side != side && (u.Where == OnMap || u.Where == Aboard) {
				u.Where = Unused // not known to the mover (DG-HIDE-3)
			}
		}
	}
	var errs adjudicator.OrderErrors
	seen := map[string]bool{}
	var out []MoveOrder
	for _, item := range v.Content {
		o, err := parseOneMove(sim, side, item, seen)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, o)
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return out, nil
}

// parseOneMove reads one move and plays it on sim.
func parseOneMove(sim *State, side adjudicator.Side, item *yaml.Node, seen map[string]bool) (MoveOrder, *adjudicator.OrderError) {
	var o MoveOrder
	if item.Kind != yaml.MappingNode {
		return o, adjudicator.Errorf(item, adjudicator.CodeBadValue, "a move is a mapping: {unit: ID, path: [HEX, …]} ({unit: ID, to: HEX} for a wizard)")
	}
	var unitN, pathN, toN, carryN *yaml.Node
	for i := 0; i+1 < len(item.Content); i += 2 {
		k, val := item.Content[i], item.Content[i+1]
		switch k.Value {
		case "unit":
			unitN = val
		case "path":
			pathN = val
		case "to":
			toN = val
		case "carry":
			carryN = val
		default:
			return o, yamlx.UnknownField(k, k.Value, []string{"unit", "path", "to", "carry"})
		}
	}
	if unitN == nil {
		return o, adjudicator.Errorf(item, adjudicator.CodeMissingField, "name the counter that moves: unit: ID")
	}
	u, err := ownUnit(sim, side, unitN)
	if err != nil {
		return o, err.(*adjudicator.OrderError)
	}
	o.Unit = u.ID
	if seen[u.ID] {
		return o, adjudicator.Errorf(unitN, codeTwice, "%s is already moved (or carried) by an order above: a counter moves once a turn (DG-MOVE-5)", u.ID)
	}
	if why := sim.startProblem(u.ID); why != "" {
		code := codeCannot
		if u.Where != OnMap && u.Where != Aboard {
			code = codeNotInPlay
		}
		return o, adjudicator.Errorf(unitN, code, "%s", why)
	}
	seen[u.ID] = true
	k := sim.Kind(u.ID)
	if k.Type == Wizard {
		if pathN != nil || carryN != nil {
			return o, adjudicator.Errorf(unitN, adjudicator.CodeBadValue, "a wizard counts no hexes: write only where it goes, to: HEX or to: FLEET (DG-WIZ-1, -2)")
		}
		if toN == nil {
			return o, adjudicator.Errorf(unitN, codeNoPath, "say where the wizard goes: to: HEX, or to: FLEET to board a friendly fleet (DG-WIZ-2, -4)")
		}
		to, err := wizardDestination(sim, side, toN)
		if err != nil {
			return o, err
		}
		o.To = to
		if f := sim.Units[to]; f != nil {
			u.Where, u.Carrier, u.Hex = Aboard, to, ""
		} else {
			u.Where, u.Hex, u.Carrier = OnMap, to, ""
		}
		sim.mark(flagWizardMoved, u.ID)
		return o, nil
	}
	if toN != nil {
		return o, adjudicator.Errorf(toN, adjudicator.CodeBadValue, "to: is for wizards; give %s the hexes it enters, in order: path: [HEX, HEX, …]", u.ID)
	}
	if pathN == nil {
		return o, adjudicator.Errorf(unitN, codeNoPath, "give the hexes %s enters, in order: path: [HEX, HEX, …] (it stands in %s)", u.ID, u.Hex)
	}
	if carryN != nil {
		c, err := ownUnit(sim, side, carryN)
		if err != nil {
			return o, err.(*adjudicator.OrderError)
		}
		if seen[c.ID] {
			return o, adjudicator.Errorf(carryN, codeTwice, "%s is already moved by an order above: a carried army must begin its movement step with the air army (DG-AIRT-3)", c.ID)
		}
		if why := sim.carryProblem(u.ID, c.ID); why != "" {
			return o, adjudicator.Errorf(carryN, codeNoCarry, "%s", why)
		}
		seen[c.ID] = true
		o.Carry = c.ID
	}
	nodes, perr := pathNodes(pathN)
	if perr != nil {
		return o, perr
	}
	if len(nodes) > 0 && sameHex(sim, nodes[0], u.Hex) {
		nodes = nodes[1:] // the path may begin where the counter stands
	}
	if len(nodes) == 0 {
		return o, adjudicator.Errorf(pathN, codeNoPath, "the path of %s enters no hex: list the hexes it enters after %s, or leave the move out to stay", u.ID, u.Hex)
	}
	m := sim.walker(u.ID, o.Carry)
	cur, spent := u.Hex, 0
	startNear := ""
	if k.Type == Infantry || k.Type == Cavalry {
		startNear = sim.enemyTouching(u.Hex, side, true)
	}
	for i, n := range nodes {
		h, err := hexOf(sim, n)
		if err != nil {
			return o, err.(*adjudicator.OrderError)
		}
		cost, why := m.stepCost(cur, h)
		if why != "" {
			code := codeTerrain
			if !sim.Geo().Adjacent(cur, h) {
				code = codeIllegalMove
			}
			return o, adjudicator.Errorf(n, code, "%s cannot go from %s to %s: %s", u.ID, cur, h, why)
		}
		if why := m.enemyBars(h); why != "" {
			return o, adjudicator.Errorf(n, codeEnemyHex, "%s cannot enter %s: %s", u.ID, h, why)
		}
		spent += cost
		if spent > m.mp {
			return o, adjudicator.Errorf(n, codeTooFar, "%s has %d MP%s, and its path costs %d MP by %s (DG-MOVE-1, DG-TERR)", u.ID, m.mp, halfNote(o.Carry), spent, h)
		}
		if i == 0 && startNear != "" && k.Type == Infantry {
			if near := sim.enemyTouching(h, side, true); near != "" {
				return o, adjudicator.Errorf(n, codeMustStop, "%s begins its movement step next to the enemy land army at %s, so it may move only if its first hex is next to no enemy land army, and %s is next to %s (DG-ADJ-4)", u.ID, startNear, h, near)
			}
		}
		if i < len(nodes)-1 && m.stopsNearEnemy() {
			if near := sim.enemyTouching(h, side, false); near != "" {
				return o, adjudicator.Errorf(nodes[i+1], codeMustStop, "%s must stop in %s, next to the enemy army at %s (DG-ADJ-1): end its path there", u.ID, h, near)
			}
		}
		o.Path = append(o.Path, h)
		cur = h
	}
	if code, why := m.endProblem(cur); why != "" {
		return o, adjudicator.Errorf(nodes[len(nodes)-1], code, "%s cannot end its move in %s: %s", u.ID, cur, why)
	}
	u.Hex = cur
	if o.Carry != "" {
		sim.Units[o.Carry].Hex = cur
	}
	return o, nil
}

// sameHex reports whether n names hex h.
func sameHex(st *State, n *yaml.Node, h string) bool {
	x, err := hexOf(st, n)
	return err == nil && x == h
}

func halfNote(carry string) string {
	if carry == "" {
		return ""
	}
	return fmt.Sprintf(" while it carries %s (half its printed MP, DG-AIRT-4)", carry)
}

// pathNodes reads a path: a list of hexes, or one text of hexes separated
// by spaces, commas or dashes.
func pathNodes(v *yaml.Node) ([]*yaml.Node, *adjudicator.OrderError) {
	switch v.Kind {
	case yaml.SequenceNode:
		for _, n := range v.Content {
			if n.Kind != yaml.ScalarNode {
				return nil, adjudicator.Errorf(n, codeBadHex, "a path lists hexes, e.g. path: [\"1106\", \"1206\"]")
			}
		}
		return v.Content, nil
	case yaml.ScalarNode:
		var out []*yaml.Node
		for _, f := range strings.FieldsFunc(v.Value, func(r rune) bool { return r == ' ' || r == ',' || r == '-' }) {
			n := *v
			n.Value = f
			out = append(out, &n)
		}
		return out, nil
	}
	return nil, adjudicator.Errorf(v, codeBadHex, "a path lists hexes, e.g. path: [\"1106\", \"1206\"]")
}

// wizardDestination reads where a wizard goes: any hex of the map without
// enemy armies (DG-WIZ-2), or a friendly fleet (DG-WIZ-4, DG-AMB-39). It
// returns the hex, or the fleet's ID.
func wizardDestination(st *State, side adjudicator.Side, v *yaml.Node) (string, *adjudicator.OrderError) {
	if f := st.Units[v.Value]; f != nil {
		if st.Kind(f.ID).Type != Fleet {
			return "", adjudicator.Errorf(v, codeCannot, "%s is not a fleet: a wizard goes to a hex, or aboard a friendly fleet (DG-WIZ-2, -4)", f.ID)
		}
		if f.Side != side {
			return "", adjudicator.Errorf(v, codeNotYours, "%s is not yours: a wizard boards only a friendly fleet (DG-WIZ-4, DG-AMB-39)", f.ID)
		}
		if f.Where != OnMap {
			return "", adjudicator.Errorf(v, codeNotInPlay, "%s is not on the map", f.ID)
		}
		return f.ID, nil
	}
	h, err := hexOf(st, v)
	if err != nil {
		return "", err.(*adjudicator.OrderError)
	}
	if st.EnemyArmiesAt(h, side) {
		return "", adjudicator.Errorf(v, codeEnemyHex, "%s holds enemy armies, where a wizard may not go (DG-WIZ-2)", h)
	}
	if st.Geo().Sea(h) {
		return "", adjudicator.Errorf(v, codeTerrain, "%s is sea: a wizard at sea goes aboard a friendly fleet; write the fleet's name, to: FLEET (DG-WIZ-4)", h)
	}
	return h, nil
}
