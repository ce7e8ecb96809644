package glory

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// What a side may send now, in a line or two, for the "what the game waits
// for" list of every mail: a club should never stall for want of knowing
// what to write (docs/orders/dragons-of-glory.md has the whole language).

// strategicPrompt says what side may do in steps 1 to 4.
func (s *State) strategicPrompt(side adjudicator.Side) string {
	var parts []string
	if side == Highlord {
		switch {
		case s.Temple == "":
			parts = append(parts, "the Dark Temple is not placed: temple: HEX (a fortress or fortified city you hold) places it")
		case !s.TempleTaken:
			parts = append(parts, fmt.Sprintf("a draconian enters at the Dark Temple (%s) unless you write draconian: no", s.Temple))
		}
	}
	pool := map[string]int{}
	for _, u := range s.Units {
		if u.Side == side && u.Where == InPool {
			pool[s.Kind(u.ID).Nationality()]++
		}
	}
	var pairs []string
	for _, n := range slices.Sorted(maps.Keys(pool)) {
		if pool[n] >= 2 {
			pairs = append(pairs, fmt.Sprintf("%s %d", n, pool[n]/2))
		}
	}
	if len(pairs) > 0 {
		parts = append(parts, "pairs in your replacement pool: "+strings.Join(pairs, ", ")+" (replace: [{back: ID, retire: ID, at: HEX}])")
	}
	var neutral []string
	for _, n := range slices.Sorted(maps.Keys(s.Nations)) {
		if s.activationProblem(n, side) != "" {
			continue
		}
		neutral = append(neutral, fmt.Sprintf("%s %d", n, s.data.Nations[n].Activation[side]))
	}
	if len(neutral) > 0 {
		parts = append(parts, "activate: [NATION, fallback…] tries a neutral nation; printed values for you: "+strings.Join(neutral, ", "))
	}
	parts = append(parts, "initiative: first or second says who moves first if you win it")
	return strings.Join(parts, "; ")
}

// movePrompt says what the mover may send in steps 5 and 6 (or 7).
func (s *State) movePrompt(side adjudicator.Side) string {
	armies, fleets := 0, 0
	for _, u := range s.Units {
		if u.Side != side || u.Where != OnMap {
			continue
		}
		switch k := s.Kind(u.ID); {
		case k.IsArmy():
			armies++
		case k.Type == Fleet:
			fleets++
		}
	}
	what := fmt.Sprintf("%d armies", armies)
	if fleets > 0 {
		what += fmt.Sprintf(" and %d fleets", fleets)
	}
	return fmt.Sprintf("you have %s on the map: fleets: (fleet moves), moves: (armies, leaders, wizards), attacks: and naval: — all optional, resolved in that order; standing: answers questions in advance", what)
}
