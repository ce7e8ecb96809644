package glory

import (
	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Fleets, sea transport, the Maelstrom and naval combat (DG-FLEET, DG-SEA,
// DG-MAEL, DG-NAVAL): being built.

// FleetOrder moves one fleet.
type FleetOrder struct {
	Unit string   `json:"unit" yaml:"unit"`
	Path []string `json:"path,omitempty" yaml:"path,omitempty"`
}

// NavalOrder is one naval battle.
type NavalOrder struct {
	Target string   `json:"target" yaml:"target"`
	Fleets []string `json:"fleets" yaml:"fleets"`
}

func parseFleets(st *State, side adjudicator.Side, v *yaml.Node) ([]FleetOrder, error) {
	return nil, adjudicator.Errorf(v, codeCannot, "fleet movement is not built yet")
}

func parseNaval(st *State, side adjudicator.Side, v *yaml.Node) ([]NavalOrder, error) {
	return nil, adjudicator.Errorf(v, codeCannot, "naval combat is not built yet")
}

func (w *world) fleetOrder(p *program, o *FleetOrder, ans *Answer) bool { return false }
func (w *world) navalOrder(p *program, o *NavalOrder, ans *Answer) bool { return false }

// maelstromStart rolls for the mover's fleets caught in the Maelstrom at
// the start of his movement step (DG-MAEL-4).
func (w *world) maelstromStart() {}

// displaceFleets moves side's enemy fleets out of hex h, which one of side's
// armies has just entered (DG-FLEET-6); it may ask their owner where they
// go, and reports a pause.
func (w *world) displaceFleets(p *program, h string, side adjudicator.Side) bool { return false }
