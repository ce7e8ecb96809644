package dragonnoir

import (
	"fmt"
	"maps"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Rules are the game options that change the rules.
type Rules struct {
	// LiveFire: the game pauses for the Adventurer player at every
	// location a Krob enters where a shooter has a shot (PBEM-GEN-4 (b));
	// otherwise the Adventurers' standing triggers fire (PBEM-DN-6).
	LiveFire bool `json:"live_fire,omitempty"`
}

var knownOptions = []adjudicator.OptionInfo{
	{Name: "defensive-fire", Default: "standing", Values: []string{"standing", "live"},
		Doc: "how the Adventurers fire during the Krob movement (DN-FIRE-12, PBEM-DN-6): standing — by the triggers of their last mail (standing: defensive-fire:), without an extra mail; live — the game stops at each location a Krob enters where an Adventurer has a shot and asks the Adventurer player who fires, showing the Krob's move up to that location only"},
}

func parseOptions(o map[string]string) (Rules, error) {
	var r Rules
	for _, k := range slices.Sorted(maps.Keys(o)) {
		v := o[k]
		switch k {
		case "defensive-fire":
			switch v {
			case "standing":
			case "live":
				r.LiveFire = true
			default:
				return r, fmt.Errorf("option defensive-fire=%s: write standing or live", v)
			}
		default:
			return r, fmt.Errorf("unknown option %q (Dragon Noir knows defensive-fire)", k)
		}
	}
	return r, nil
}
