package dragonrage

import (
	"fmt"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Phase keys. A turn runs the ten phases of DR-TURN-1 in order.
const (
	phSetupDefender = "setup-defender"
	phSetupInvader  = "setup-invader"
	phInvMagic      = "invader-magic"
	phInvMovement   = "invader-movement"
	phInvFire       = "invader-fire"
	phInvMelee      = "invader-melee"
	phDefMagic      = "defender-magic"
	phDefReinforce  = "defender-reinforcements"
	phDefMovement   = "defender-movement"
	phDefFire       = "defender-fire"
	phDefMelee      = "defender-melee"
	phEnd           = "end-of-turn"
)

var turnPhases = []string{phInvMagic, phInvMovement, phInvFire, phInvMelee, phDefMagic, phDefReinforce, phDefMovement, phDefFire, phDefMelee, phEnd}

// preTurnPhases is the defender's extra player-turn before turn 1 in the
// scenarios where the defender starts (DR-TURN-2, DR-AMB-25): phases 5, 7,
// 8 and 9, with no reinforcements and no turn advance.
var preTurnPhases = []string{phDefMagic, phDefMovement, phDefFire, phDefMelee}

// phaseInfo says who acts in a phase and what players call it in orders.
type phaseInfo struct {
	side  adjudicator.Side
	key   string // what orders say: "phase: movement"
	title string
}

var phases = map[string]phaseInfo{
	phSetupDefender: {Defender, "setup", "defender setup"},
	phSetupInvader:  {Invader, "setup", "invader setup"},
	phInvMagic:      {Invader, "magic", "invader magic (phase 1)"},
	phInvMovement:   {Invader, "movement", "invader movement (phase 2)"},
	phInvFire:       {Invader, "fire", "invader fire (phase 3)"},
	phInvMelee:      {Invader, "melee", "invader melee (phase 4)"},
	phDefMagic:      {Defender, "magic", "defender magic (phase 5)"},
	phDefReinforce:  {Defender, "reinforcements", "defender reinforcements (phase 6)"},
	phDefMovement:   {Defender, "movement", "defender movement (phase 7)"},
	phDefFire:       {Defender, "fire", "defender fire (phase 8)"},
	phDefMelee:      {Defender, "melee", "defender melee (phase 9)"},
	phEnd:           {Defender, "end", "turn marker (phase 10)"},
}

func (st *State) phaseTitle() string {
	p := phases[st.Phase]
	switch {
	case st.Turn == 0 && st.Pre:
		return "before turn 1, " + p.title + " (the defender starts this scenario)"
	case st.Turn == 0:
		return p.title
	}
	return fmt.Sprintf("turn %d, %s", st.Turn, p.title)
}

// request is what the game waits for in the current phase.
func (st *State) request() adjudicator.Request {
	if st.Pending != nil {
		return st.decisionRequest()
	}
	p := phases[st.Phase]
	return adjudicator.Request{
		ID:    fmt.Sprintf("t%d%s.%s", st.Turn, map[bool]string{true: "pre", false: ""}[st.Pre], st.Phase),
		Side:  p.side,
		Kind:  map[bool]string{true: "setup", false: "orders"}[p.key == "setup"],
		Turn:  st.Turn,
		Phase: p.key,
		Title: st.phaseTitle(),
	}
}

// advance moves the game from the phase just resolved to the next phase
// that needs a player, resolving the automatic ones on the way.
func (w *world) advance() {
	for !w.st.Over {
		next, turn, pre := w.nextPhase()
		w.emit(&PhaseBegan{Turn: turn, Phase: next, Pre: pre})
		w.beginPhase()
		if w.st.Over {
			return
		}
		if w.st.Phase == phEnd {
			w.endTurn()
			continue
		}
		if w.needsOrders() {
			return
		}
		w.sayf("%s: nothing to do, passed", w.st.phaseTitle())
	}
}

// nextPhase returns the phase after the current one.
func (w *world) nextPhase() (phase string, turn int, pre bool) {
	st := w.st
	switch st.Phase {
	case phSetupDefender:
		if w.invaderSetsUp() {
			return phSetupInvader, 0, false
		}
		return w.firstPhase()
	case phSetupInvader:
		return w.firstPhase()
	}
	list := turnPhases
	if st.Pre {
		list = preTurnPhases
	}
	for i, p := range list {
		if p == st.Phase && i+1 < len(list) {
			return list[i+1], st.Turn, st.Pre
		}
	}
	// The end of the list: after the pre-turn comes turn 1; after the
	// turn marker, the next turn.
	if st.Pre {
		return turnPhases[0], 1, false
	}
	return turnPhases[0], st.Turn + 1, false
}

func (w *world) firstPhase() (string, int, bool) {
	if w.st.First == Defender {
		return preTurnPhases[0], 0, true
	}
	return turnPhases[0], 1, false
}

// invaderSetsUp reports whether the invader places units on the map before
// play: at Esirien they set up on the edges (DR-SCEN-4); at Nurkott they
// start off the map and enter during their movement (DR-SCEN-9), a Roc
// excepted.
func (w *world) invaderSetsUp() bool {
	for _, u := range w.st.alive(Invader) {
		if w.setsUp(u) {
			return true // a Roc starts on an edge at Nurkott too (DR-ROC-14)
		}
	}
	return false
}

// beginPhase runs what happens automatically as a phase begins.
func (w *world) beginPhase() {
	st := w.st
	switch st.Phase {
	case phInvMagic, phDefMagic:
		if st.Phase == phInvMagic && waveTurn(st.Turn) {
			w.elowynAtTheMole() // at the start of a reinforcement turn (DR-ELOWYN-8, DR-AMB-32)
		}
		w.emit(&TurnBegan{Side: phases[st.Phase].side})
		w.beginMagic()
	case phDefReinforce:
		w.beginReinforcements()
	case phDefMovement:
		w.elowynFlees() // DR-ELOWYN-12, DR-AMB-72
	}
	w.elementalsAct() // magic: Elementals lose control, move and attack by themselves
}

// needsOrders reports whether the side acting in the current phase has
// anything it could do.
func (w *world) needsOrders() bool {
	st := w.st
	side := phases[st.Phase].side
	switch st.Phase {
	case phSetupDefender, phSetupInvader:
		return true
	case phInvMagic, phDefMagic:
		return w.canCast(side)
	case phInvMovement, phDefMovement:
		for _, u := range st.alive(side) {
			if st.typ(u).MP > 0 {
				return true
			}
		}
		return false
	case phInvFire, phDefFire:
		return w.canFire(side)
	case phInvMelee, phDefMelee:
		return w.canMelee(side)
	case phDefReinforce:
		return w.reinforcementsDue() > 0 && len(w.landingHexes()) > 0
	}
	return false
}
