package dragonnoir

import (
	"fmt"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// The turn's own steps (DN-TURN-5 step 4) and the end of the game (the
// scenario's victory conditions, GAP-13). Part of the scenarios chapter.

// recover puts back on their feet the Adventurers stunned in an earlier
// game turn (DN-TURN-5 step 4, AMB-13).
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

// checkVictory ends the game when a condition of the scenario is met:
// "eliminate" at any time, "hold" (and Otherwise) at the end. It reports
// whether the game is over.
func (w *world) checkVictory(atEnd bool) bool {
	st := w.st()
	sc, _ := st.data.Scenario(st.Scenario)
	if sc == nil {
		if atEnd {
			w.emit(&Ended{Result: fmt.Sprintf("the game ends after turn %d", st.Turn)})
		}
		return atEnd
	}
	for _, v := range sc.Victory {
		switch v.Kind {
		case "eliminate":
			enemy := Krobs
			if v.Side == string(Krobs) {
				enemy = Adventurers
			}
			if len(st.Living(enemy)) == 0 {
				w.emit(&Ended{Winner: adjudicator.Side(v.Side), Result: v.Text})
				w.say(sc.usedProv(), "The %s win: %s.", v.Side, v.Text)
				return true
			}
		case "hold":
			if atEnd {
				w.emit(&Ended{Winner: adjudicator.Side(v.Side), Result: v.Text})
				w.say(sc.usedProv(), "The %s win: %s.", v.Side, v.Text)
				return true
			}
		}
	}
	if atEnd {
		w.emit(&Ended{Result: "no side met its victory conditions: a draw"})
		return true
	}
	return false
}

func (sc *Scenario) usedProv() Provs { return Provs{sc.Prov} }
