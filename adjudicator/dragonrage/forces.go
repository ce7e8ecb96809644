package dragonrage

import (
	"fmt"
	"strconv"
	"strings"
)

// The game option "forces.SIDE.TYPE=N" sets how many counters of TYPE a side
// has, in place of the scenario's number (0 removes them). It is how players
// agree a custom army, as a point-buy game would give them (DR-PTS-1,
// DR-PTS-2; umpire does not check the points), and the only way to play the
// T-rex and sea serpents, which no fixed scenario has (DR-SCEN-15).

const forcesPrefix = "forces."

// checkForcesOption validates one "forces.SIDE.TYPE" option.
func checkForcesOption(k, v string, types map[string]*UnitType) error {
	parts := strings.Split(k, ".")
	if len(parts) != 3 || (parts[1] != string(Invader) && parts[1] != string(Defender)) {
		return fmt.Errorf("option %s: write forces.invader.TYPE=N or forces.defender.TYPE=N, e.g. forces.invader.TREX=1", k)
	}
	t, ok := types[parts[2]]
	if !ok {
		return fmt.Errorf("option %s: no unit type %q", k, parts[2])
	}
	switch {
	case t.Code == elowynType:
		return fmt.Errorf("option %s: Elowyn comes with the option elowyn=on (§16.7)", k)
	case t.IsSummoned():
		return fmt.Errorf("option %s: Elementals are summoned by a wizard, never set up (DR-SPELL-ELEM-1)", k)
	}
	if t.Kind == "minor" && parts[1] == string(Defender) {
		return fmt.Errorf("option %s: minor monsters always belong to the invader (DR-COMP-8, DR-MINOR-2)", k)
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || n > 20 {
		return fmt.Errorf("option %s=%s: give a whole number from 0 to 20", k, v)
	}
	return nil
}

// forces returns the counters each side starts with: the scenario's, with
// the "forces." options applied.
func forces(sc *ScenarioDef, opts map[string]string, types map[string]*UnitType) (inv, def map[string]int, err error) {
	inv, def = cloneMap(sc.Invader), cloneMap(sc.Defender)
	if inv == nil {
		inv = map[string]int{}
	}
	if def == nil {
		def = map[string]int{}
	}
	for k, v := range opts {
		if !strings.HasPrefix(k, forcesPrefix) {
			continue
		}
		if err := checkForcesOption(k, v, types); err != nil {
			return nil, nil, err
		}
		parts := strings.Split(k, ".")
		side := inv
		if parts[1] == string(Defender) {
			side = def
		}
		n, _ := strconv.Atoi(v)
		if n == 0 {
			delete(side, parts[2])
		} else {
			side[parts[2]] = n
		}
	}
	if len(inv) == 0 {
		return nil, nil, fmt.Errorf("scenario %s: the options leave the invader with no units", sc.ID)
	}
	if sc.Map == "nurkott" {
		for code := range inv {
			if t := types[code]; t != nil && t.MP == 0 {
				return nil, nil, fmt.Errorf("scenario %s: the invaders start off the map at Nurkott and enter by moving (DR-SCEN-9); %s cannot move (DR-COMP-7), so it could never enter", sc.ID, t.Name)
			}
		}
	}
	return inv, def, nil
}
