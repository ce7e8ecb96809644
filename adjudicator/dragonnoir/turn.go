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
// game turn (DN-TURN-5 step 4, AMB-13); nobody is asked (PBEM-DN-13). In a
// battle each side's stunned recover in step 4 of its own player-turn
// (AMB-69): side is the side whose player-turn it is.
func (w *world) recover(side adjudicator.Side) {
	st := w.st()
	for _, c := range st.Living(side) {
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
// scenario booklet that gave it is missing, GAP-13).
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
		real := w.draw(h, adjudicator.Everyone, "")
		w.emit(&Revealed{Marker: h.ID, Real: real})
		if real {
			w.say(nil, "%s turns over %s on %s: it is %s (PBEM-DN-14).", by.ID, markerWords(h), h.At, markerKinds[h.Kind].Real)
		} else {
			w.say(nil, "%s turns over %s on %s: nothing (PBEM-DN-14).", by.ID, markerWords(h), h.At)
		}
	}
}

// sense says whether hidden marker h is the real one, for a detection
// spell of audience's side (DN-MAGIC-3): drawn now, the roll for audience
// alone, if nothing decided it yet; the marker stays face down.
func (w *world) sense(h HiddenMarker, audience adjudicator.Audience) bool {
	if h.Shown || h.Drawn {
		return h.Real
	}
	real := w.draw(h, audience, " (sensed)")
	w.emit(&Revealed{Marker: h.ID, Real: real, Sensed: true})
	return real
}

// draw decides whether hidden marker h, face down and not drawn yet, is
// the real one (PBEM-DN-14): no, when the real one of its kind is known;
// surely, when it is the last of its kind not decided; else on a 1 of a
// die with as many faces as markers of its kind not decided. Drawing when
// a marker is first turned over or sensed gives each the chance a secret
// shuffle at the start would, and keeps the secret out of every event,
// view, picture and export until then. The roll is for audience.
func (w *world) draw(h HiddenMarker, audience adjudicator.Audience, why string) bool {
	if h.Shown || h.Drawn {
		return h.Real
	}
	found, left := false, 0
	for _, o := range w.st().Hidden {
		if o.Kind != h.Kind {
			continue
		}
		decided := o.Shown || o.Drawn
		found = found || (decided && o.Real)
		if !decided {
			left++
		}
	}
	switch {
	case found:
		return false
	case left == 1:
		return true
	}
	r := w.r.RollFor(audience, fmt.Sprintf("draw for %s%s, one of %d %s markers face down", h.ID, why, left, markerKinds[h.Kind].Label), 1, left)
	if r.Total == 1 {
		outcome(r, nil, "1: it is the real one")
		return true
	}
	outcome(r, nil, "not 1: it is empty")
	return false
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
			w.end(&Ended{Result: fmt.Sprintf("the game ends after turn %d", st.Turn)})
		}
		return atEnd
	}
	for _, v := range sc.Victory {
		if w.met(v, atEnd) {
			w.end(&Ended{Winner: adjudicator.Side(v.Side), Result: v.Text})
			w.say(sc.usedProv(), "The %s win: %s.", v.Side, v.Text)
			return true
		}
	}
	if atEnd {
		w.end(&Ended{Result: "no side met its victory conditions: a draw"})
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
