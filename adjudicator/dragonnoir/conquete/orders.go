package conquete

import (
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

// Error codes of La Conquête's orders (stable: docs/orders/la-conquete.md).
const (
	codeNotYours      = "not-yours"       // a troop or counter of the other side
	codeWrongSection  = "wrong-section"   // a key the side or the request does not have
	codeBadCount      = "bad-count"       // 12 counters, at most 4 key characters, 2 Allies, 2 Enemies, 3 Neutrals
	codeBadTroop      = "bad-troop"       // a troop id that cannot be used, an empty troop, more than 8
	codeTwice         = "twice"           // a counter or troop named twice
	codeBadRegion     = "bad-region"      // not a Region, or not one the rule allows
	codeBadPath       = "bad-path"        // two Regions no path joins
	codeTooFar        = "too-far"         // beyond the Troop's movement capacity (Table DN3-T3)
	codeMustStop      = "must-stop"       // the path goes on past a Region where the Troop must stop
	codeMoved         = "already-moved"   // a Troop moves once a Movement phase
	codeAtRest        = "at-rest"         // a Troop at Rest does not move
	codeMustLeaveRoad = "must-leave-road" // a Rebel Troop is still on the road (AMB-89)
	codeCannotHide    = "cannot-hide"     // a Troop that cannot be stealthy
	codeNoRest        = "no-rest"         // Rest where a neutral people's marker stands
	codeNotEligible   = "not-eligible"    // a Region with nothing to resolve, or resolved already
	codeBadChoice     = "bad-choice"      // an answer the question does not take
	codeNotNow        = "not-now"         // an announcement that cannot be made now
	codeNoCaster      = "no-caster"       // a spell's caster is no magician
	codeNotStrategic  = "not-strategic"   // a spell that is not a strategic spell of the caster's sheet
	codeNoPE          = "no-pe"           // a spell that costs more PE than the caster has
)

// errs gathers the problems of one answer.
type errs struct{ list adjudicator.OrderErrors }

func (e *errs) add(n *yaml.Node, code, format string, args ...any) {
	e.list = append(e.list, adjudicator.Errorf(n, code, format, args...))
}

func (e *errs) err() error {
	if len(e.list) == 0 {
		return nil
	}
	return e.list
}

// key is the key node of field name in n (to point at), n if none.
func key(n *yaml.Node, name string) *yaml.Node { return yamlx.Key(n, name) }

// strings reads a sequence of scalars, with their nodes.
func scalars(e *errs, n *yaml.Node, what string) ([]string, []*yaml.Node) {
	if isNull(n) {
		return nil, nil
	}
	if n.Kind != yaml.SequenceNode {
		e.add(n, adjudicator.CodeBadValue, "%s: write a list, e.g. [konrad, godiva]", what)
		return nil, nil
	}
	var out []string
	var nodes []*yaml.Node
	for _, c := range n.Content {
		if c.Kind != yaml.ScalarNode {
			e.add(c, adjudicator.CodeBadValue, "%s: each entry is one id", what)
			continue
		}
		out = append(out, c.Value)
		nodes = append(nodes, c)
	}
	return out, nodes
}

// TroopOrder is one troop of a setup or reorganisation: its counters, and
// in a setup where it starts.
type TroopOrder struct {
	Troop    string   `json:"troop" yaml:"troop"`
	At       string   `json:"at,omitempty" yaml:"at,omitempty"`
	Counters []string `json:"counters" yaml:"counters"`
	node     *yaml.Node
	nodes    []*yaml.Node // the counters'
}

// troopOrders reads "troops:": a mapping of troop ids to their counters,
// as a list, or as {at: REGION, counters: [...]} where the place may be
// given (a setup).
func troopOrders(e *errs, n *yaml.Node, withAt bool) []*TroopOrder {
	if isNull(n) {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		e.add(n, adjudicator.CodeBadValue, "troops: write each troop's id and its counters, e.g. \"R1: [konrad, godiva]\"")
		return nil
	}
	var out []*TroopOrder
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		t := &TroopOrder{Troop: k.Value, node: k}
		if v.Kind == yaml.MappingNode && withAt {
			var spec struct {
				At       string    `yaml:"at"`
				Counters yaml.Node `yaml:"counters"`
			}
			if err := yamlx.Decode(v, &spec); err != nil {
				if oe, ok := err.(*adjudicator.OrderError); ok {
					e.list = append(e.list, oe)
				} else {
					e.add(v, adjudicator.CodeBadValue, "%v", err)
				}
				continue
			}
			t.At = spec.At
			t.Counters, t.nodes = scalars(e, &spec.Counters, "troop "+t.Troop)
		} else {
			t.Counters, t.nodes = scalars(e, v, "troop "+t.Troop)
		}
		out = append(out, t)
	}
	return out
}

// validTroopID reports whether id may name one of a side's 8 markers.
func validTroopID(id string) bool {
	return len(id) == 2 && id[0] == 'R' && id[1] >= '1' && id[1] <= '0'+MaxTroops
}

// decode reads n strictly into v, adding its errors to e.
func decode(e *errs, n *yaml.Node, v any) bool {
	if err := yamlx.Decode(n, v); err != nil {
		switch x := err.(type) {
		case *adjudicator.OrderError:
			e.list = append(e.list, x)
		case adjudicator.OrderErrors:
			e.list = append(e.list, x...)
		default:
			e.add(n, adjudicator.CodeBadValue, "%v", err)
		}
		return false
	}
	return true
}

// ownCounter checks that id is a living counter of side, in its troops.
func ownCounter(e *errs, st *State, side adjudicator.Side, n *yaml.Node, id string) *Counter {
	c := st.Counters[id]
	switch {
	case c == nil || st.TroopOf(id) == nil && c.Side == side:
		var ids []string
		for _, t := range st.SideTroops(side) {
			ids = append(ids, t.Counters...)
		}
		e.add(n, adjudicator.CodeUnknownUnit, "no counter %q in your troops%s", id, suggest(id, ids))
	case c.Side != side:
		e.add(n, codeNotYours, "%s is not one of your counters", id)
	case c.Dead:
		e.add(n, adjudicator.CodeUnknownUnit, "%s is dead", id)
	default:
		return c
	}
	return nil
}

// ownTroop checks that id is one of side's troops.
func ownTroop(e *errs, st *State, side adjudicator.Side, n *yaml.Node, id string) *Troop {
	if t := st.Troop(side, id); t != nil {
		return t
	}
	var ids []string
	for _, t := range st.SideTroops(side) {
		ids = append(ids, t.ID)
	}
	e.add(n, codeBadTroop, "you have no troop %s (your troops: %s)", id, list(ids))
	return nil
}

// regionOf checks that id is a Region of the valley.
func regionOf(e *errs, d *Data, n *yaml.Node, id string) *Region {
	if r := d.Regions[id]; r != nil {
		return r
	}
	e.add(n, codeBadRegion, "no Region %q in the valley%s", id, suggest(id, d.Order))
	return nil
}

// yesNo reads a boolean answer the way players write it.
func yesNo(s string) (bool, bool) {
	switch strings.ToLower(s) {
	case "yes", "true", "on":
		return true, true
	case "no", "false", "off":
		return false, true
	}
	return false, false
}
