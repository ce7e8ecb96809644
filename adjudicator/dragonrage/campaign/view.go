package campaign

import (
	"fmt"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// View is the campaign as everyone sees it (nothing of it is hidden): the
// potentials as the score, the game being played and its terms as
// markers, and one note per game.
func (ruleset) View(s adjudicator.State, _ adjudicator.Side) adjudicator.View {
	st := s.(*State)
	v := adjudicator.View{
		Turn:  st.Game,
		Phase: "the start",
		Score: map[adjudicator.Side]int{Invader: st.Invader, Defender: st.Defender},
		Over:  st.Over, Winner: st.Winner, Result: st.Result,
		Markers: map[string]any{
			"map":                st.Map,
			"game":               st.Game,
			"invader-potential":  st.Invader,
			"defender-potential": st.Defender,
		},
	}
	if g := st.current(); g != nil {
		v.Phase = title(g.N)
		if !st.Over {
			v.Markers["unit-cap"] = g.Cap
			if g.Balance > 0 {
				v.Markers["balance-vp"] = g.Balance
			}
			if g.Adjust > 0 {
				v.Markers["goal-adjust"] = g.Adjust
			}
		}
	}
	if st.Over {
		v.Phase = "over"
	}
	for _, g := range st.Games {
		v.Notes = append(v.Notes, gameNote(g))
	}
	return v
}

// gameNote is one game of the history: "game 2 (g2, potentials 65/70):
// the defender won, 9 VP; the invader killed HERO-2; invader +10,
// defender +10".
func gameNote(g *Game) string {
	s := fmt.Sprintf("game %d (%s, potentials %d/%d, at most %d units", g.N, g.Key, g.Invader, g.Defender, g.Cap)
	if g.Balance > 0 {
		s += fmt.Sprintf(", %d VP of balancing markers", g.Balance)
	}
	if g.Adjust > 0 {
		s += fmt.Sprintf(", goal %+d", g.Adjust)
	}
	s += ")"
	if !g.Done {
		return s + ": being played"
	}
	if g.Winner == "" {
		s += fmt.Sprintf(": a draw, %d VP", g.VP)
	} else {
		s += fmt.Sprintf(": the %s won, %d VP", g.Winner, g.VP)
	}
	for _, side := range sides {
		var units []string
		for _, k := range g.Kills {
			if k.By == side {
				units = append(units, k.Unit)
			}
		}
		if len(units) > 0 {
			s += fmt.Sprintf("; the %s killed %s", side, strings.Join(units, ", "))
		}
	}
	return s + fmt.Sprintf("; invader %+d, defender %+d", g.InvaderGain, g.DefenderGain)
}
