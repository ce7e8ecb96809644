package dragonrage

import (
	"fmt"
	"maps"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Handicaps (§22): umpire counts them from the finished games (DR-HCAP-1,
// DR-HCAP-2, store/games/handicaps.go); a new game takes its two players'
// handicaps as the option goal-adjust (DR-HCAP-3).

// HandicapRules implements adjudicator.Handicapper.
func (ruleset) HandicapRules() string {
	return "Dragon Rage §22 (DR-HCAP-1: a game won +1, lost -1; DR-HCAP-2: per pair or combined; DR-HCAP-3: the VP goal)"
}

// goalAdjustFor is the goal adjustment of DR-HCAP-3 for a game between an
// invader of handicap inv and a defender of handicap def: the higher
// handicap less the lower, halved and rounded down; added to the invader's
// VP goal when the better player invades (he must destroy that many more),
// taken from it when he defends (the invader needs that many fewer).
func goalAdjustFor(inv, def int) int {
	if inv >= def {
		return (inv - def) / 2
	}
	return -((def - inv) / 2)
}

// Handicap implements adjudicator.Handicapper: the option goal-adjust of
// DR-HCAP-3. A scenario whose goal is set later (the weighted scenario)
// refuses the option when the game is created.
func (ruleset) Handicap(h map[adjudicator.Side]int, options map[string]string) (map[string]string, string, error) {
	inv, okI := h[Invader]
	def, okD := h[Defender]
	if !okI || !okD || len(h) != 2 {
		return nil, "", fmt.Errorf("a handicap is between the invader's player and the defender's (DR-HCAP-3 compares the two)")
	}
	if v, ok := options["goal-adjust"]; ok {
		return nil, "", fmt.Errorf("the option goal-adjust=%s is given too; the handicap sets goal-adjust itself (DR-HCAP-3): leave one of them out", v)
	}
	adj := goalAdjustFor(inv, def)
	calc := fmt.Sprintf("(%+d - %+d) / 2, rounded down", max(inv, def), min(inv, def))
	var what string
	switch {
	case inv == def:
		what = "equal handicaps: the VP goal stays"
	case adj == 0:
		what = fmt.Sprintf("%s is 0: the VP goal stays", calc)
	case adj > 0:
		what = fmt.Sprintf("the better player invades: the invader needs %d more VP (%s)", adj, calc)
	default:
		what = fmt.Sprintf("the better player defends: the invader needs %d fewer VP (%s)", -adj, calc)
	}
	opts := make(map[string]string, len(options)+1)
	maps.Copy(opts, options)
	opts["goal-adjust"] = fmt.Sprintf("%+d", adj)
	return opts, fmt.Sprintf("%s; goal-adjust=%+d (DR-HCAP-3)", what, adj), nil
}
