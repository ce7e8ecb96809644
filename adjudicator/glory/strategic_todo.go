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

// checkConquest conquers the nations whose last fortification h was
// (DG-CONQ, DG-KNIGHT, DG-CAP).
func (w *world) checkConquest(h string) {}

// invade resolves the activation by invasion of neutral nation n, entered
// by side's counter id at h (DG-INV).
func (w *world) invade(n string, side adjudicator.Side, id, h string) {}

// parseDismantle reads the capitals WS dismantles (DG-CAP-3).
func parseDismantle(st *State, side adjudicator.Side, v *yaml.Node) ([]string, error) {
	return nil, adjudicator.Errorf(v, codeCannot, "moving semi-human capitals is not built yet")
}

// dismantle dismantles the capitals named (DG-CAP-4, -5).
func (w *world) dismantle(side adjudicator.Side, nations []string) {}
