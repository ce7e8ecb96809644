package dragonrage

import (
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// DefaultOrders says what "no orders" means in Dragon Rage, for a game
// whose no-move policy is "default" (DR-PBEM: the digest leaves it to the
// email game): a phase's orders default to doing nothing ("[]", which
// passes the phase); a decision to the first choice offered for each unit;
// reinforcements land in the first free landing hexes; a T-rex attacks
// one of the units that meleed it; a berserk monster
// turns towards the nearest enemy, as it must; a setup
// has no default (every unit must be placed by its player), so the
// game waits for the referee.
func (ruleset) DefaultOrders(s adjudicator.State, req adjudicator.Request) (string, bool) {
	switch req.Kind {
	case "orders":
		// Berserk monsters are not the player's to hold back: by default
		// they turn towards the nearest enemy (DR-DRAGON-DEF-3).
		st, ok := s.(*State)
		if ok && req.Phase == "movement" && st.board != nil {
			if lines := newWorld(st, nil).berserkDefaults(req.Side); len(lines) > 0 {
				return "\n  " + strings.Join(lines, "\n  "), true
			}
		}
		// A T-rex meleed last turn must attack one of its attackers
		// (DR-TREX-4).
		if ok && req.Phase == "melee" && st.board != nil {
			if lines := newWorld(st, nil).trexDefaults(req.Side); len(lines) > 0 {
				return "\n  " + strings.Join(lines, "\n  "), true
			}
		}
		// Reinforcements arrive when due (DR-REINF-1): by default in the
		// first free landing hexes, in the map's order.
		if ok && req.Phase == "reinforcements" && st.board != nil {
			w := newWorld(st, nil)
			free := w.landingHexes()
			if want := min(w.reinforcementsDue(), len(free)); want > 0 {
				return "\n  arrive: [" + strings.Join(quoted(free[:want]), ", ") + "]", true
			}
		}
		return "[]", true
	case "decision":
		if len(req.Choice) == 0 {
			return "", false
		}
		var b strings.Builder
		seen := map[string]bool{}
		for _, c := range req.Choice {
			unit, _, ok := strings.Cut(c, ": ")
			if !ok || seen[unit] {
				continue
			}
			seen[unit] = true
			b.WriteString("\n  " + c)
		}
		return b.String(), b.Len() > 0
	}
	return "", false
}

func quoted(hs []string) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = `"` + h + `"`
	}
	return out
}
