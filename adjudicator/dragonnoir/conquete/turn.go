package conquete

import (
	"errors"
	"fmt"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// The turn machine. Every adjudication applies the answers it was given,
// then advances the game until it must wait for someone again: each step
// reads the phase and step the state is at (State.Phase, State.Step, and
// State.Region in Negotiations & Battles), does its part with events and,
// to ask a side, emits an Await. A strategic turn is (DN3-CAMP-TURN-2,
// E.6):
//
//	start           startOfTurn: fatigue and recovery (AMB-42), the Kandärs' forced behaviour
//	reorganisation  both sides at once, sealed (reorg.go)
//	movement        alternating, the Rebels first, until two passes in a row (move.go);
//	                the Sertegs and the Kandärs arrive as it begins (arrivals)
//	reveal          voluntary reveals from both at once, then the forced and rolled ones (reveal.go)
//	negotiation     Regions chosen in turn, the Reptilians first, each resolved whole (negotiate.go)
//	end             endOfTurn: Fort Ekal, victory, the next turn of the calendar

// advance runs the machine until the game waits or ends.
func (x *world) advance() {
	for i := 0; ; i++ {
		st := x.st()
		if st.Over || len(st.Waits) > 0 || x.r.Err() != nil {
			return
		}
		if i > 5000 {
			x.r.Fail(errors.New("conquete: the turn machine makes no progress at " + st.Phase + "/" + st.Step))
			return
		}
		x.step()
	}
}

// Steps of the machine within a phase.
const (
	stepAsked = "asked" // the phase's simultaneous requests were made
	stepTurns = "turns" // movement: the alternation
	stepPick  = "pick"  // negotiation: a Region is to be chosen or is being resolved
)

func (x *world) step() {
	st := x.st()
	switch st.Phase {
	case PhaseSetup:
		x.setupDone()
	case PhaseStart:
		x.startOfTurn()
		x.at(PhaseReorg, "")
	case PhaseReorg:
		if st.Step == "" {
			x.at(PhaseReorg, stepAsked)
			x.await(both(ReqReorg)...)
			return
		}
		x.at(PhaseMovement, "")
	case PhaseMovement:
		switch {
		case st.Step == "":
			x.emit(&MovementBegun{})
			x.arrivals()
			x.at(PhaseMovement, stepTurns)
		case st.Passes >= 2:
			x.say(nil, "Both sides passed one after the other: the Movement phase ends (DN3-CAMP-MOVE-10).")
			x.at(PhaseReveal, "")
		default:
			x.await(Wait{Phase: ReqMove, Side: st.Mover})
		}
	case PhaseReveal:
		if st.Step == "" {
			x.at(PhaseReveal, stepAsked)
			x.await(both(ReqReveal)...)
			return
		}
		x.forcedReveals()
		x.discoveryRolls()
		x.at(PhaseNegotiation, "")
	case PhaseNegotiation:
		switch {
		case st.Step == "":
			x.emit(&NegotiationBegun{})
			x.hermitEnt() // alliance.go, DN3-PEOPLE-HERMIT-2
			x.at(PhaseNegotiation, stepPick)
		case st.Region != nil:
			x.resolveRegion()
		default:
			if len(eligibleRegions(st)) == 0 {
				x.afterBattles()
				x.at(PhaseEnd, "")
				return
			}
			x.await(Wait{Phase: ReqRegion, Side: st.Chooser})
		}
	case PhaseEnd:
		x.endOfTurn()
	default:
		x.r.Fail(fmt.Errorf("conquete: no step for phase %q", st.Phase))
	}
}

// beginTurn starts strategic turn n at day and slot.
func (x *world) beginTurn(n, day, slot int) {
	x.emit(&TurnBegun{Turn: n, Day: day, Slot: slot})
	st := x.st()
	x.say(Provs{x.data().Slots[slot].Prov}, "Turn %d begins: day %d, %s%s.", n, day, x.data().Slots[slot].Name,
		map[bool]string{true: ", a night turn", false: ""}[st.Night()])
	x.at(PhaseStart, "")
}

// startOfTurn is what happens before the Reorganisation (E.3, Start of
// turn): fatigue and recovery (AMB-42), then the Kandärs' forced
// behaviour (PBEM-DN3-28).
func (x *world) startOfTurn() {
	x.fatigue()
	x.kandarTurn()
}

// endOfTurn: who holds Fort Ekal (AMB-55), victory, and the next turn.
func (x *world) endOfTurn() {
	x.fortHeld()
	if x.victory(false) {
		return
	}
	st, d := x.st(), x.data()
	if st.Day > st.LastDay || st.Day == st.LastDay && st.Slot >= st.LastSlot {
		x.victory(true)
		return
	}
	day, slot := st.Day, st.Slot+1
	if slot == len(d.Slots) {
		day, slot = day+1, 0
	}
	x.beginTurn(st.Turn+1, day, slot)
}

// fortHeld records who holds Fort Ekal (AMB-55): the side with troops there
// and no enemy troops; an empty Fort stays with its last holder.
func (x *world) fortHeld() {
	st := x.st()
	reb, rep := st.Visible("fort-ekal", Rebels), st.Visible("fort-ekal", Reptilians)
	var now adjudicator.Side
	switch {
	case reb && !rep:
		now = Rebels
	case rep && !reb:
		now = Reptilians
	default:
		return
	}
	if now != st.Held {
		x.emit(&FortHeld{Side: now})
		x.say(nil, "Fort Ekal is held by %s (AMB-55).", sideName(now))
	}
}

// victory checks the module's victory conditions (GAP-23), in order: at
// any time those of kind eliminated, and at the end (final) the others;
// at the end, none met is a draw. It reports whether the game ended.
func (x *world) victory(final bool) bool {
	st, d := x.st(), x.data()
	for _, v := range d.Victory {
		met := false
		switch v.Kind {
		case VictoryEliminated:
			met = len(st.Living(Other(v.Side))) == 0
		case VictoryHold:
			met = final && st.Held == v.Side && !st.Visible(v.Region, Other(v.Side))
		case VictoryMore:
			if final {
				reb, rep := len(st.Living(Rebels)), len(st.Living(Reptilians))
				switch {
				case reb > rep:
					x.end(Rebels, v, fmt.Sprintf("the Rebels have %d living counters, the Reptilians %d", reb, rep))
				case rep > reb:
					x.end(Reptilians, v, fmt.Sprintf("the Reptilians have %d living counters, the Rebels %d", rep, reb))
				default:
					x.end("", v, fmt.Sprintf("both sides have %d living counters: a draw", reb))
				}
				return true
			}
		}
		if met {
			x.end(v.Side, v, "")
			return true
		}
	}
	if final {
		x.end("", nil, "no victory condition is met: a draw")
		return true
	}
	return false
}

func (x *world) end(winner adjudicator.Side, v *Victory, detail string) {
	var used Provs
	text := detail
	if v != nil {
		used = Provs{v.Prov}
		text = v.Text
		if detail != "" {
			text += ": " + detail
		}
	}
	result := text
	if winner != "" {
		result = fmt.Sprintf("%s win: %s", sideName(winner), text)
	}
	x.emit(&Ended{Winner: winner, Result: mark(used, result)})
	x.say(used, "The campaign ends: %s.", result)
}
