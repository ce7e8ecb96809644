package dragonnoir

import (
	"fmt"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// The turn's own steps (DN-TURN-5 step 4), the hidden markers' reveal
// (PBEM-DN-14) and the end of the game (the scenario's victory
// conditions, GAP-13). Part of the scenarios chapter.

// recover puts back on their feet the Adventurers stunned in an earlier
// game turn (DN-TURN-5 step 4, AMB-13); nobody is asked (PBEM-DN-13).
func (w *world) recover() {
	st := w.st()
	for _, c := range st.Living(Adventurers) {
		if c.Face == Stunned && c.StunnedIn < st.Turn {
			face := Healthy
			if c.Wounds > 0 {
				face = Wounded
			}
			w.emit(&Conditioned{Unit: c.ID, Face: face, Wounds: c.Wounds, Berserk: c.Berserk})
			w.say(nil, "%s gets back on its feet (DN-TURN-5).", c.ID)
		}
	}
}

// reveal turns face up, at the end of a player-turn, every hidden marker
// an Adventurer on its feet stands on (the trigger is assumed: the
// scenario booklet that gave it is missing, GAP-13). Which marker of a
// kind is the real one is drawn only now (PBEM-DN-14): the first marker
// of a kind revealed is the real one with a chance of one in the number of
// that kind still face down, the last one surely, and once the real one is
// found the others are empty. Drawing at the reveal is the same as a
// secret shuffle at the start, and keeps the secret out of every event,
// view, picture and export until then.
func (w *world) reveal() {
	st := w.st()
	for _, h := range slices.Clone(st.Hidden) {
		if h.Shown {
			continue
		}
		var by *Char
		for _, c := range st.Living(Adventurers) {
			if c.Standing() && c.At == h.At {
				by = c
				break
			}
		}
		if by == nil {
			continue
		}
		found, left := false, 0
		for _, o := range st.Hidden {
			if o.Kind == h.Kind {
				found = found || (o.Shown && o.Real)
				if !o.Shown {
					left++
				}
			}
		}
		mk := markerKinds[h.Kind]
		real := false
		switch {
		case found:
		case left == 1:
			real = true
		default:
			r := w.r.Roll(fmt.Sprintf("draw for %s, one of %d %s markers face down", h.ID, left, mk.Label), 1, left)
			real = r.Total == 1
			if real {
				outcome(r, nil, "1: it is the real one")
			} else {
				outcome(r, nil, "not 1: it is empty")
			}
		}
		w.emit(&Revealed{Marker: h.ID, Real: real})
		if real {
			w.say(nil, "%s turns over %s on %s: it is %s (PBEM-DN-14).", by.ID, markerWords(h), h.At, mk.Real)
		} else {
			w.say(nil, "%s turns over %s on %s: nothing (PBEM-DN-14).", by.ID, markerWords(h), h.At)
		}
	}
}

// checkVictory ends the game when a condition of the scenario is met:
// "eliminate", "kill" and "find" at the end of any player-turn, "hold" at
// the end of the last; with none met at the end, a draw. It reports
// whether the game is over. The hidden markers are turned first.
func (w *world) checkVictory(atEnd bool) bool {
	st := w.st()
	sc, _ := st.data.Scenario(st.Scenario)
	if !atEnd {
		w.reveal()
	}
	if sc == nil {
		if atEnd {
			w.emit(&Ended{Result: fmt.Sprintf("the game ends after turn %d", st.Turn)})
		}
		return atEnd
	}
	for _, v := range sc.Victory {
		if w.met(v, atEnd) {
			w.emit(&Ended{Winner: adjudicator.Side(v.Side), Result: v.Text})
			w.say(sc.usedProv(), "The %s win: %s.", v.Side, v.Text)
			return true
		}
	}
	if atEnd {
		w.emit(&Ended{Result: "no side met its victory conditions: a draw"})
		w.say(sc.usedProv(), "The game ends after turn %d: no side met its victory conditions, a draw.", st.Turn)
		return true
	}
	return false
}

// met reports whether victory condition v holds now.
func (w *world) met(v Victory, atEnd bool) bool {
	st := w.st()
	switch v.Kind {
	case "eliminate":
		enemy := Krobs
		if v.Side == string(Krobs) {
			enemy = Adventurers
		}
		return len(st.Living(enemy)) == 0
	case "kill":
		for _, id := range v.Units {
			if c := st.Chars[id]; c != nil && c.Alive() {
				return false
			}
		}
		return true
	case "find":
		return slices.ContainsFunc(st.Hidden, func(h HiddenMarker) bool { return h.Kind == v.Marker && h.Shown && h.Real })
	case "hold":
		return atEnd
	}
	return false
}

func (sc *Scenario) usedProv() Provs { return Provs{sc.Prov} }
