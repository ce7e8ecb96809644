package dragonrage

import (
	"fmt"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
)

// world is what the rules work through: the state, the map, and a way to
// emit events (which apply at once), roll dice and report. When orders are
// only being checked (ParseOrders), the world runs on a copy of the state
// with no dice: checks that depend on dice are made when the orders are
// resolved.
type world struct {
	st  *State
	m   *hexmap.Map
	r   *adjudicator.Resolution // nil while checking orders
	log []string                // the report while checking
}

func newWorld(st *State, r *adjudicator.Resolution) *world {
	return &world{st: st, m: st.board, r: r}
}

// emit applies an event.
func (w *world) emit(ev adjudicator.Event) {
	if w.r != nil {
		w.r.Emit(ev) // evolves w.st in place: Evolve returns the same pointer
		return
	}
	evolve(w.st, ev)
}

// sayf reports a line to the players.
func (w *world) sayf(format string, args ...any) {
	if w.r != nil {
		w.r.Sayf(format, args...)
		return
	}
	w.log = append(w.log, fmt.Sprintf(format, args...))
}

// roll throws n six-sided dice. Only a resolving world rolls.
func (w *world) roll(label string, n int) *adjudicator.Roll {
	if w.r == nil {
		panic("dragonrage: dice rolled while checking orders")
	}
	return w.r.Roll(label, n, 6)
}

func (w *world) trace(kind, unit string, path []string, result string) {
	w.emit(&Traced{Trace: adjudicator.Trace{Kind: kind, Unit: unit, Path: path, Result: result}})
}
