package dragonnoir

import (
	"errors"
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
)

// positionBoard reads a board document written in a position (board:), in
// Dragon Noir's vocabulary and with the checks the module's boards pass
// (CheckMap). The fire chapter's rule cases use it for what the assumed
// boards lack — a house with a window, a tower with arrow slits, a stone
// bridge — without shipping invented boards in the module.
func positionBoard(n *yaml.Node) (*hexmap.Map, error) {
	if n.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("line %d: write the board as a map document (docs/maps.md), not a %s", n.Line, kindName(n))
	}
	b, err := yaml.Marshal(n)
	if err != nil {
		return nil, err
	}
	mp, err := hexmap.Parse("position board", b, &vocabulary)
	if err != nil {
		return nil, err
	}
	var errs []error
	for _, p := range (ruleset{}).CheckMap(mp) {
		errs = append(errs, fmt.Errorf("%s", p))
	}
	return mp, errors.Join(errs...)
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.ScalarNode:
		return "single value"
	case yaml.SequenceNode:
		return "list"
	}
	return "YAML node"
}
