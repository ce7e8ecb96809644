package glory

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/pause"
)

// world is one adjudication: the resolution, the state it changes through
// events, and the asker that pauses it for a side's answer.
type world struct {
	r   *adjudicator.Resolution
	ask pause.Asker
	// answer is the answer the adjudication resumed with, until a rule
	// that asked deep inside an order takes it (displaceFleets).
	answer *Answer
	// savers write the progress of the orders being resolved into the
	// program's Work just before a question is asked, since the question
	// keeps the program as it is then (see saving).
	savers []func()
}

// saving adds f to the savers until the returned function is called:
// "defer w.saving(func() { saveWork(p, key, &progress) })()".
func (w *world) saving(f func()) func() {
	w.savers = append(w.savers, f)
	n := len(w.savers)
	return func() { w.savers = w.savers[:n-1] }
}

func newWorld(r *adjudicator.Resolution) *world {
	return &world{r: r, ask: pause.Asker{Prefix: Prefix, R: r, State: func(s adjudicator.State) *pause.State { return &s.(*State).Pause }}}
}

// st is the working state; it changes with every event emitted.
func (w *world) st() *State { return w.r.State().(*State) }

func (w *world) emit(ev adjudicator.Event) { w.r.Emit(ev) }

// say adds a line every side reads; tell one only audience reads.
func (w *world) say(format string, args ...any) { w.r.Sayf(format, args...) }
func (w *world) tell(to adjudicator.Audience, format string, args ...any) {
	w.r.Tellf(to, format, args...)
}

// roll throws dice every side sees, with the outcome in words.
func (w *world) roll(label string, n, faces int) *adjudicator.Roll {
	return w.r.Roll(label, n, faces)
}

// d10 reads a ten-sided die: the face "0" is 10 (DG-AMB-1), which is how
// the dice stream gives it already (faces 1 to 10).
func (w *world) d10(label string) int { return w.roll(label, 1, 10).Total }

func (w *world) concede(side adjudicator.Side) {
	w.say("%s concedes the game.", side)
	w.emit(&Ended{Winner: Other(side), Result: fmt.Sprintf("%s conceded", side)})
}

// standing records the standing orders sent with an answer (DG-PBEM-18):
// each key replaces the side's previous answer for it; an empty answer
// clears it.
func (w *world) standing(side adjudicator.Side, so Standing) {
	w.ask.SetStandings(side, so)
}

// Stages of a mover's step, in the order the rules resolve them
// (DG-TURN-7, -8): fleets, then air and land armies (and wizards), then the
// non-mover's kender taunts, then the mover's attacks and naval battles.
const (
	stageFleets  = "fleets"
	stageMoves   = "moves"
	stageTaunts  = "taunts"
	stageAttacks = "attacks"
	stageNaval   = "naval"
	stageDone    = "done"
)

var stages = []string{stageFleets, stageMoves, stageTaunts, stageAttacks, stageNaval, stageDone}

// program is a mover's step in progress: his orders, how far they have been
// resolved, and the work of the order being resolved when a pause asked a
// side something (the continuation the pause keeps).
type program struct {
	Side   adjudicator.Side `json:"side"`
	Orders *MoveOrders      `json:"orders"`
	Stage  string           `json:"stage"`
	Index  int              `json:"index"`
	// Work is the resolving order's own progress (a combat waiting for the
	// defender's losses), in the chapter's own shape.
	Work map[string]any `json:"work,omitempty"`
}

// pauseFor asks q of its side within program p. It returns the answer and
// false when a standing order answers at once; true when the adjudication
// is now suspended and the caller must return without doing anything more.
func (w *world) pauseFor(p *program, q pause.Question) (string, bool) {
	st := w.st()
	if q.ID == "" {
		q.ID = w.ask.NextID(st.Turn, q.Key)
	}
	for _, f := range w.savers {
		f()
	}
	ans, asked, err := w.ask.Ask(q, st.Turn, StepMove, p)
	if err != nil {
		w.r.Fail(err)
		return "", true
	}
	if asked {
		w.tell(adjudicator.To(q.Side), "The game waits for %s: %s", q.Side, q.Title)
	}
	return ans, asked
}

// resume continues a suspended mover's step with the answer just received.
func (w *world) resume(a *Answer) {
	p0, err := w.ask.Resume(a.Text, "player")
	if err != nil {
		w.r.Fail(err)
		return
	}
	if p0.Phase == StepStrategic {
		w.resumeStrategic(p0, a)
		return
	}
	var p program
	if err := p0.Continue(&p); err != nil {
		w.r.Fail(err)
		return
	}
	w.standing(a.Side, a.Standing)
	w.answer = a
	w.runFrom(&p, a)
}

// run resolves a mover's orders from the start.
func (w *world) run(p *program) {
	w.markStartAdjacent(p.Side) // DG-ADJ-4, DG-TURN-12 (move_resolve.go)
	w.runFrom(p, nil)
}

// runFrom resolves a mover's orders from where p stands; ans is the answer
// to the question the order at p was waiting on, if any. Each stage's
// orders are checked again against the state as it is when their turn
// comes (a pause, a retreat or an activation may have changed it): an order
// that no longer holds is skipped with the reason in the report.
func (w *world) runFrom(p *program, ans *Answer) {
	if p.Stage == stageMael { // before the mover's orders (fleet_mael.go)
		w.maelstromRolls(p, ans)
		return
	}
	for p.Stage != stageDone {
		if w.r.Err() != nil || w.st().Over {
			return
		}
		var paused bool
		switch p.Stage {
		case stageFleets:
			paused = w.eachOrder(p, len(p.Orders.Fleets), ans, func(i int, a *Answer) bool { return w.fleetOrder(p, &p.Orders.Fleets[i], a) })
		case stageMoves:
			if p.Index == 0 && ans == nil && len(p.Orders.Dismantle) > 0 {
				w.dismantle(p.Side, p.Orders.Dismantle)
			}
			paused = w.eachOrder(p, len(p.Orders.Moves), ans, func(i int, a *Answer) bool { return w.moveOrder(p, &p.Orders.Moves[i], a) })
		case stageTaunts:
			paused = w.taunts(p, ans)
		case stageAttacks:
			paused = w.eachOrder(p, len(p.Orders.Attacks), ans, func(i int, a *Answer) bool { return w.attackOrder(p, &p.Orders.Attacks[i], a) })
		case stageNaval:
			paused = w.eachOrder(p, len(p.Orders.Naval), ans, func(i int, a *Answer) bool { return w.navalOrder(p, &p.Orders.Naval[i], a) })
		}
		if paused {
			return
		}
		ans = nil
		p.Stage, p.Index, p.Work = stages[slices.Index(stages, p.Stage)+1], 0, nil
	}
	w.endMoverStep()
}

// eachOrder resolves the orders of a stage from p.Index; do reports a pause.
func (w *world) eachOrder(p *program, n int, ans *Answer, do func(int, *Answer) bool) bool {
	for ; p.Index < n; p.Index++ {
		if w.r.Err() != nil || w.st().Over {
			return true
		}
		if do(p.Index, ans) {
			return true
		}
		ans, p.Work = nil, nil
	}
	return false
}

// endMoverStep ends a side's movement and combat: the second mover's step
// comes, or the turn ends (DG-TURN-9, -10).
func (w *world) endMoverStep() {
	st := w.st()
	if st.Mover == st.First {
		w.emit(&Stepped{Turn: st.Turn, Step: StepMove, Mover: Other(st.Mover), First: st.First})
		w.startMoverStep()
		return
	}
	w.endTurn()
}

// endTurn is step 8: the turn marker moves on, or the game ends.
func (w *world) endTurn() {
	st := w.st()
	if w.checkVictory(true) {
		return
	}
	if st.Turn >= st.End {
		w.checkVictory(false)
		return
	}
	w.emit(&Stepped{Turn: st.Turn + 1, Step: StepStrategic})
	w.say("Turn %d (%s) begins.", st.Turn, st.TurnLabel())
	w.startTurn()
}

// MoveOrders are a mover's orders for steps 5 and 6 (or 7).
type MoveOrders struct {
	Fleets  []FleetOrder  `json:"fleets,omitempty" yaml:"fleets,omitempty"`
	Moves   []MoveOrder   `json:"moves,omitempty" yaml:"moves,omitempty"`
	Attacks []AttackOrder `json:"attacks,omitempty" yaml:"attacks,omitempty"`
	Naval   []NavalOrder  `json:"naval,omitempty" yaml:"naval,omitempty"`
	// Dismantle lists the semi-human capitals WS dismantles this step
	// (DG-CAP-3, optional rule), resolved before his moves.
	Dismantle []string `json:"dismantle,omitempty" yaml:"dismantle,omitempty"`
	Standing  Standing `json:"standing,omitempty" yaml:"standing,omitempty"`
	Concede   bool     `json:"concede,omitempty" yaml:"concede,omitempty"`
}

func (o *MoveOrders) conceded() bool { return o.Concede }

// Standing are standing orders by key: the YAML of each answer
// (DG-PBEM-18).
type Standing map[string]string

// Answer is a side's answer to a question the game paused on.
type Answer struct {
	Side     adjudicator.Side `json:"-" yaml:"-"`
	Key      string           `json:"-" yaml:"-"`
	Text     string           `json:"-" yaml:"answer"` // the answer's YAML, as the chapter reads it
	Standing Standing         `json:"-" yaml:"standing,omitempty"`
	Concede  bool             `json:"-" yaml:"concede,omitempty"`
}

func (a *Answer) conceded() bool { return a.Concede }

type conceder interface{ conceded() bool }

// list writes ids for people: "a, b and c".
func list(ids []string) string {
	switch len(ids) {
	case 0:
		return "nothing"
	case 1:
		return ids[0]
	}
	return strings.Join(ids[:len(ids)-1], ", ") + " and " + ids[len(ids)-1]
}
