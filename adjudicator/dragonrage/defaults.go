package dragonrage

import (
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// DefaultOrders says what "no orders" means in Dragon Rage, for a game
// whose no-move policy is "default" (DR-PBEM: the digest leaves it to the
// email game): a phase's orders default to doing nothing ("[]", which
// passes the phase); a decision to the first choice offered for each unit;
// a berserk monster turns towards the nearest enemy, as it must; a setup
// has no default (every unit must be placed by its player), so the
// game waits for the referee.
func (ruleset) DefaultOrders(s adjudicator.State, req adjudicator.Request) (string, bool) {
	switch req.Kind {
	case "orders":
		// Berserk monsters are not the player's to hold back: by default
		// they turn towards the nearest enemy (DR-DRAGON-DEF-3).
		if st, ok := s.(*State); ok && req.Phase == "movement" && st.board != nil {
			if lines := newWorld(st, nil).berserkDefaults(req.Side); len(lines) > 0 {
				return "\n  " + strings.Join(lines, "\n  "), true
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
