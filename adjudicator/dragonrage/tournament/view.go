package tournament

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// swissOrder ranks the players by game points, then resistance points
// (FR §5.1: resistance breaks ties), then player number (for display
// only: a tie that matters is drawn).
func swissOrder(st *State) []*Player {
	out := slices.Clone(st.Players)
	slices.SortStableFunc(out, func(a, b *Player) int {
		if a.Points != b.Points {
			return b.Points - a.Points
		}
		return b.Resistance - a.Resistance
	})
	return out
}

// rankOrder ranks the players as the standings show them: the winner
// first once there is one; in an elimination, the players still in, then
// the others by the round they went out in, latest first (double: fewer
// losses first); then as swissOrder.
func rankOrder(st *State) []*Player {
	out := swissOrder(st)
	elim := st.Format != Swiss
	slices.SortStableFunc(out, func(a, b *Player) int {
		if st.Winner != "" && (a.Side == st.Winner) != (b.Side == st.Winner) {
			if a.Side == st.Winner {
				return -1
			}
			return 1
		}
		if !elim {
			return 0
		}
		ao, bo := a.Out, b.Out
		if ao == 0 {
			ao = 1 << 20
		}
		if bo == 0 {
			bo = 1 << 20
		}
		if ao != bo {
			return bo - ao
		}
		return a.Losses - b.Losses
	})
	return out
}

// rankKey is what two players must share to share a rank.
func rankKey(st *State, p *Player) string {
	k := fmt.Sprintf("%d/%d", p.Points, p.Resistance)
	if st.Winner == p.Side {
		k = "winner"
	}
	if st.Format != Swiss {
		k += fmt.Sprintf("/%d/%d", p.Out, p.Losses)
	}
	return k
}

// standingLines are the standings, one line a player: rank, player, game
// points and games won, resistance points.
func standingLines(st *State) []string {
	var out []string
	rank := 0
	var prev string
	for i, p := range rankOrder(st) {
		k := rankKey(st, p)
		if i == 0 || k != prev {
			rank = i + 1
		}
		prev = k
		l := fmt.Sprintf("%d. %s: %d %s (%d %s won of %d", rank, p.Side, p.Points, plural(p.Points, "point"), p.Won, plural(p.Won, "game"), p.Played)
		if p.Byes > 0 {
			l += fmt.Sprintf(", %d %s", p.Byes, plural(p.Byes, "bye"))
		}
		l += fmt.Sprintf("), resistance %d", p.Resistance)
		switch {
		case p.Out > 0:
			l += fmt.Sprintf(", out in round %d", p.Out)
		case st.Format == Double && p.Losses == 1:
			l += ", one loss"
		}
		out = append(out, l)
	}
	return out
}

func plural(n int, w string) string {
	if n == 1 {
		return w
	}
	return w + "s"
}

// roundLine sums up the round being played.
func roundLine(st *State) string {
	var parts []string
	for _, m := range st.Matches {
		parts = append(parts, matchText(m))
	}
	for _, b := range st.Byes {
		parts = append(parts, "bye "+string(b.Player))
	}
	return fmt.Sprintf("round %d (%s): %s", st.Round, st.Scenario, strings.Join(parts, ", "))
}

// matchText is "r2-m1 p3 v p5", then the games won by each once played.
func matchText(m *Match) string {
	s := fmt.Sprintf("%s %s v %s", m.Key, m.A, m.B)
	if m.done() {
		a, b := m.wins()
		s += fmt.Sprintf(" %d-%d", a, b)
	}
	return s
}

func (ruleset) View(s adjudicator.State, viewer adjudicator.Side) adjudicator.View {
	st := s.(*State)
	v := adjudicator.View{Turn: st.Round, Over: st.Over, Winner: st.Winner, Result: st.Result,
		Score: map[adjudicator.Side]int{}, Markers: map[string]any{}}
	switch {
	case st.Over:
		v.Phase = "over"
	case st.Round == 0:
		v.Phase = "the draw"
	case st.Stage == StageSwiss:
		v.Phase = fmt.Sprintf("Swiss round %d of %d", st.Round, st.Rounds)
	default:
		v.Phase = fmt.Sprintf("elimination round %d", st.Round)
	}
	for _, p := range st.Players {
		v.Score[p.Side] = p.Points
	}
	v.Markers["format"] = st.Format
	v.Markers["round"] = strconv.Itoa(st.Round)
	if st.Scenario != "" {
		v.Markers["scenario"] = st.Scenario
	}
	for _, m := range st.Matches {
		v.Markers[m.Key] = fmt.Sprintf("%s v %s", m.A, m.B)
		if m.done() {
			a, b := m.wins()
			v.Markers[m.Key+" games"] = fmt.Sprintf("%d-%d", a, b)
		}
	}
	var byes []string
	for _, b := range st.Byes {
		byes = append(byes, string(b.Player))
	}
	if len(byes) > 0 {
		v.Markers["bye"] = strings.Join(byes, " ")
	}
	var rank []string
	var out []string
	for _, p := range rankOrder(st) {
		rank = append(rank, fmt.Sprintf("%s %d/%d", p.Side, p.Points, p.Resistance))
	}
	for _, p := range st.Players { // in number order
		if p.Out > 0 {
			out = append(out, string(p.Side))
		}
	}
	v.Markers["standings"] = strings.Join(rank, ", ")
	if len(out) > 0 {
		v.Markers["out"] = strings.Join(out, " ")
	}
	v.Notes = append(v.Notes, st.Log...)
	if st.Round > 0 && !st.Over {
		v.Notes = append(v.Notes, roundLine(st))
	}
	v.Notes = append(v.Notes, standingLines(st)...)
	return v
}
