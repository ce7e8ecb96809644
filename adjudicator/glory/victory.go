package glory

import (
	"fmt"
	"strings"
)

// Victory. The rulebook leaves victory conditions to the scenarios
// (DG-GAP-7), so they are module data (Scenario.Victory): "capture" wins as
// soon as a side holds every hex and every fortification it names (checked
// at the end of each turn, up to turn By); "hold" and "strength" are judged
// at the end of the last turn. The first condition met, in the module's
// order, decides; with none met at the end, the first condition that names
// a side to win Otherwise decides (the scenario's "otherwise the Whitestone
// wins"), and without one the game is a draw.

// checkVictory ends the game when a condition decides it. With early set it
// looks only at the conditions that can end the game before its last turn.
func (w *world) checkVictory(early bool) bool {
	st := w.st()
	sc, _ := st.data.Scenario(st.Scenario)
	if sc == nil || len(sc.Victory) == 0 {
		if early {
			return false
		}
		w.emit(&Ended{Result: fmt.Sprintf("the last turn (%d) is over; the position has no victory conditions", st.End)})
		return true
	}
	for _, v := range sc.Victory {
		if early && v.Kind != "capture" {
			continue
		}
		if v.Kind == "capture" && v.By > 0 && st.Turn > v.By {
			continue
		}
		if ok, why := st.met(v); ok {
			text := v.Text
			if text == "" {
				text = why
			}
			w.say("Victory: %s (%s).", text, why)
			w.emit(&Ended{Winner: v.Side, Result: fmt.Sprintf("%s wins: %s", v.Side, text)})
			return true
		}
	}
	if early {
		return false
	}
	for _, v := range sc.Victory {
		if v.Otherwise != "" {
			text := fmt.Sprintf("%s did not meet its condition by the end of turn %d", v.Side, st.End)
			if v.Text != "" {
				text = fmt.Sprintf("not met by the end of turn %d: %s", st.End, v.Text)
			}
			w.say("Victory: %s wins: %s.", v.Otherwise, text)
			w.emit(&Ended{Winner: v.Otherwise, Result: fmt.Sprintf("%s wins: %s", v.Otherwise, text)})
			return true
		}
	}
	w.emit(&Ended{Result: fmt.Sprintf("the last turn (%d) is over and no victory condition is met: a draw", st.End)})
	return true
}

// met reports whether v holds now, and why in words.
func (s *State) met(v Victory) (bool, string) {
	switch v.Kind {
	case "capture", "hold":
		var need []string
		need = append(need, v.Hexes...)
		for _, n := range v.Nations {
			need = append(need, s.Geo().Forts(n)...)
		}
		var missing []string
		for _, h := range need {
			if s.Controller(h) != v.Side {
				missing = append(missing, h)
			}
		}
		if len(missing) > 0 {
			return false, fmt.Sprintf("%s does not hold %s", v.Side, strings.Join(missing, ", "))
		}
		return true, fmt.Sprintf("%s holds %s", v.Side, strings.Join(need, ", "))
	case "strength":
		enemy := Other(v.Side)
		start, now := s.Strength[enemy], 0
		for _, u := range s.Units {
			if u.Side == enemy && u.Where == OnMap && s.Kind(u.ID).IsArmy() {
				now += s.Face(u).Strength
			}
		}
		lost := start - now
		if start > 0 && lost*100 > v.Percent*start {
			return true, fmt.Sprintf("%s lost %d of its %d strength points, more than %d%%", enemy, lost, start, v.Percent)
		}
		return false, ""
	}
	return false, ""
}
