package glory

import (
	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Land and air combat (DG-COMBAT, DG-CRT, DG-COMBAT-MOD, DG-ADV, DG-PRE,
// DG-LOSS, DG-TAUNT, DG-HIDE): being built.

// AttackOrder is one attack on a defending hex.
type AttackOrder struct {
	Target string   `json:"target" yaml:"target"`
	Units  []string `json:"units" yaml:"units"`
}

func parseAttacks(st *State, side adjudicator.Side, v *yaml.Node) ([]AttackOrder, error) {
	return nil, adjudicator.Errorf(v, codeCannot, "combat is not built yet")
}

func (w *world) attackOrder(p *program, o *AttackOrder, ans *Answer) bool { return false }

// taunts resolves the non-mover's kender taunts (DG-TAUNT) before the
// mover's attacks.
func (w *world) taunts(p *program, ans *Answer) bool { return false }
