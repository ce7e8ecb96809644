package dragonnoir

import (
	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

// checkCombatStanding checks the standing orders of the combat chapter
// when they are sent, so that a misspelt one is refused with its line
// rather than ignored in a later turn: casualties, a priority list of IDs
// and kind:KIND entries (PBEM-DN-9); advance, never or always
// (PBEM-DN-10); retreat, auto (PBEM-DN-11). Other keys pass.
func checkCombatStanding(key string, v *yaml.Node) *adjudicator.OrderError {
	switch key {
	case KeyCasualties:
		var one string
		var l []string
		if yamlx.Decode(v, &l) != nil && yamlx.Decode(v, &one) != nil {
			return adjudicator.Errorf(v, adjudicator.CodeBadValue, "casualties: a priority list of characters, first first, e.g. [troll-1, kind:goblin, konrad] (PBEM-DN-9)")
		}
	case KeyAdvance:
		if v.Kind != yaml.ScalarNode || (v.Value != "never" && v.Value != "always") {
			return adjudicator.Errorf(v, adjudicator.CodeBadValue, "advance: never (no advance after combat) or always (the strongest winner into the first hex the enemy left) (PBEM-DN-10)")
		}
	case KeyRetreat:
		if v.Kind != yaml.ScalarNode || v.Value != "auto" {
			return adjudicator.Errorf(v, adjudicator.CodeBadValue, "retreat: auto (the referee's way, farthest from the enemy, without asking) (PBEM-DN-11)")
		}
	}
	return nil
}
