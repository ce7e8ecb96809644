package glory

import (
	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Land and air movement (DG-MOVE, DG-TERR, DG-RACE, DG-STACK, DG-ADJ,
// DG-WIZ, DG-LDR, DG-AIR, DG-AIRT) and the activation-by-invasion trigger
// (DG-INV-4): being built.

// MoveOrder moves one counter along a path.
type MoveOrder struct {
	Unit string   `json:"unit" yaml:"unit"`
	Path []string `json:"path,omitempty" yaml:"path,omitempty"`
}

func parseMoves(st *State, side adjudicator.Side, v *yaml.Node) ([]MoveOrder, error) {
	return nil, adjudicator.Errorf(v, codeCannot, "land and air movement is not built yet")
}

func (w *world) moveOrder(p *program, o *MoveOrder, ans *Answer) bool { return false }
