package dragonrage

import (
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// CheckAhead finds, when orders are sent ahead, what conflicts whatever
// the dice do: a unit that fires in the fire phase and attacks or fires
// again in the melee phase of the same turn (a unit attacks or fires once
// a turn, DR-FIRE-5, DR-MELEE-4), and orders for a unit that the same mail
// takes off the board (Elowyn's exit, DR-ELW). The orders due now were
// checked against the state; the entries are read as written, so only
// what they say for certain is held against them.
func (ruleset) CheckAhead(s adjudicator.State, now adjudicator.Request, nowOrders adjudicator.Orders, ahead []adjudicator.Ahead) error {
	type use struct {
		turn  int
		phase string
	}
	struck := map[string]use{} // unit → where it fired or attacked
	gone := map[string]use{}   // unit → where the mail takes it off the board
	if o, ok := nowOrders.(*Orders); ok && o != nil {
		at := use{now.Turn, now.Phase}
		for _, f := range o.Fires {
			for _, u := range f.Units {
				struck[u] = at
			}
		}
		for _, a := range o.Attacks {
			for _, u := range append(append([]string(nil), a.With...), a.Fire...) {
				struck[u] = at
			}
		}
		for _, m := range o.Moves {
			if m.Exit {
				gone[m.Unit] = at
			}
		}
	}
	var errs adjudicator.OrderErrors
	for _, e := range ahead {
		at := use{e.Turn, e.Phase}
		for _, ref := range aheadUnits(e.Orders) {
			id := strings.ToUpper(ref.node.Value)
			if g, ok := gone[id]; ok {
				errs = append(errs, adjudicator.Errorf(ref.node, codeCannot,
					"%s leaves the map in turn %d, %s, by these same orders: it can have no orders after that", id, g.turn, g.phase))
				continue
			}
			if ref.strikes {
				if p, ok := struck[id]; ok && p.turn == e.Turn {
					errs = append(errs, adjudicator.Errorf(ref.node, codeTwice,
						"%s already fires or attacks in turn %d, %s, by these same orders: a unit attacks or fires once a turn (DR-FIRE-5)", id, p.turn, p.phase))
					continue
				}
				struck[id] = at
			}
			if ref.exits {
				gone[id] = at
			}
		}
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}

// aheadRef is a unit named in an entry sent ahead.
type aheadRef struct {
	node    *yaml.Node
	strikes bool // it fires or attacks
	exits   bool // the move takes it off the board
}

// aheadUnits lists the units an entry's orders name, as written: moves
// ("move:", with a trailing "exit" in the path), fire ("fire:") and
// attacks ("with:", "fire:").
func aheadUnits(n *yaml.Node) []aheadRef {
	if n == nil || n.Kind != yaml.SequenceNode {
		return nil
	}
	var out []aheadRef
	for _, item := range n.Content {
		if item.Kind != yaml.MappingNode {
			continue
		}
		exits := false
		var moved *yaml.Node
		for i := 0; i+1 < len(item.Content); i += 2 {
			k, v := item.Content[i].Value, item.Content[i+1]
			switch k {
			case "move":
				if v.Kind == yaml.ScalarNode {
					moved = v
				}
			case "path":
				if v.Kind == yaml.SequenceNode && len(v.Content) > 0 && strings.EqualFold(v.Content[len(v.Content)-1].Value, "exit") {
					exits = true
				}
			case "fire", "with":
				for _, u := range scalars(v) {
					out = append(out, aheadRef{node: u, strikes: true})
				}
			}
		}
		if moved != nil {
			out = append(out, aheadRef{node: moved, exits: exits})
		}
	}
	return out
}

// scalars is a unit or a list of units.
func scalars(v *yaml.Node) []*yaml.Node {
	switch v.Kind {
	case yaml.ScalarNode:
		return []*yaml.Node{v}
	case yaml.SequenceNode:
		var out []*yaml.Node
		for _, c := range v.Content {
			if c.Kind == yaml.ScalarNode {
				out = append(out, c)
			}
		}
		return out
	}
	return nil
}
