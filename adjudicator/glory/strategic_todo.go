package glory

import (
	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Being built: replacements and the Dark Temple (DG-REPL, DG-DRAC), the
// strategic event draw (DG-EVT), activation (DG-ACT, DG-INV), conquest
// (DG-CONQ, DG-KNIGHT, DG-CAP) and the scenarios' victory conditions.

func checkStrategic(st *State, side adjudicator.Side, o *StrategicOrders, n *yaml.Node) error {
	if len(o.Replace)+len(o.Rebuild)+len(o.Activate)+len(o.Place) > 0 || o.Temple != "" {
		return adjudicator.Errorf(n, codeCannot, "replacements, the Dark Temple and activation are not built yet")
	}
	return nil
}

func (w *world) templeAndDraconian(o *StrategicOrders)                                        {}
func (w *world) replacements(side adjudicator.Side, o *StrategicOrders)                       {}
func (w *world) drawEvent(drawer adjudicator.Side)                                            {}
func (w *world) activations(drawer adjudicator.Side, o map[adjudicator.Side]*StrategicOrders) {}

// checkVictory ends the game when a scenario's victory condition decides
// it; final is true at the end of the last turn.
func (w *world) checkVictory(early bool) bool {
	st := w.st()
	if early {
		return false
	}
	w.emit(&Ended{Result: "the last turn is over; victory conditions are not built yet"})
	_ = st
	return true
}
