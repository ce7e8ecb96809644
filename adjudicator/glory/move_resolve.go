package glory

import (
	"fmt"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// The resolution of the mover's moves, one order after the other, hex by
// hex. Each order is checked again when its turn comes: earlier orders, an
// activation by invasion or a displaced fleet may have changed the map
// since the mail was checked. An order that no longer holds is skipped, a
// path that can no longer be followed stops where it must, and the report
// says why; the adjudication never fails on a player's stale order.

// moveWork is an order's progress, kept in the program's Work while the
// game waits on a question asked while the counter moves.
type moveWork struct {
	Taken   []string `json:"taken"`             // the hexes entered so far, the start first
	Shown   int      `json:"shown"`             // Taken[Shown] is where the state has the counter
	Spent   int      `json:"spent"`             // MP spent
	Waiting string   `json:"waiting,omitempty"` // "displace": the enemy fleets' displacement asked a question
}

const workKey = "move"

// tellMove reports a line about the mover's own movement: to every side,
// or, with hidden stacks, to the mover alone (DG-HIDE-1, -3).
func (w *world) tellMove(side adjudicator.Side, format string, args ...any) {
	if w.st().Options.Hidden {
		w.tell(adjudicator.To(side), format, args...)
		return
	}
	w.say(format, args...)
}

// markStartAdjacent records, as the mover's movement step begins, which of
// his land armies stand next to an enemy land army (DG-ADJ-4, DG-TURN-12,
// DG-AMB-2, -35).
func (w *world) markStartAdjacent(side adjudicator.Side) {
	st := w.st()
	var ids []string
	for _, u := range st.Sorted() {
		if u.Side == side && u.Where == OnMap && st.Kind(u.ID).IsLand() && st.enemyTouching(u.Hex, side, true) != "" {
			ids = append(ids, u.ID)
		}
	}
	if len(ids) > 0 {
		w.emit(&Flagged{Flag: flagBeganAdjacent, IDs: ids})
	}
}

// moveOrder resolves one move; it reports a pause. Its progress is kept
// in p.Work["move"] whenever a question is asked while it moves.
func (w *world) moveOrder(p *program, o *MoveOrder, ans *Answer) bool {
	st := w.st()
	mw := &moveWork{}
	resumed := loadWork(p, workKey, mw)
	defer w.saving(func() { saveWork(p, workKey, mw) })()
	if !resumed {
		if u := st.Units[o.Unit]; u == nil || u.Side != p.Side {
			w.tellMove(p.Side, "%s does not move: it is no longer yours.", o.Unit)
			return false
		}
		if why := st.startProblem(o.Unit); why != "" {
			w.tellMove(p.Side, "%s does not move: %s.", o.Unit, why)
			return false
		}
		if st.Kind(o.Unit).Type == Wizard {
			w.moveWizard(p.Side, o)
			return false
		}
		if o.Carry != "" {
			if why := st.carryProblem(o.Unit, o.Carry); why != "" {
				w.tellMove(p.Side, "%s does not carry %s: %s.", o.Unit, o.Carry, why)
				o.Carry = ""
			}
		}
		mw.Taken = []string{st.Units[o.Unit].Hex}
	} else if mw.Waiting == "displace" {
		// The displaced fleets' owner has answered: the fleets' chapter
		// takes the answer (w.answer) and goes on with its displacement.
		if w.displaceFleets(p, mw.Taken[len(mw.Taken)-1], p.Side) {
			return true
		}
		mw.Waiting = ""
		if w.afterEntering(p, o, mw) {
			return true
		}
	}
	return w.walk(p, o, mw)
}

// walk moves the counter on from where mw stands; it reports a pause.
func (w *world) walk(p *program, o *MoveOrder, mw *moveWork) bool {
	m := w.st().walker(o.Unit, o.Carry)
	stop := ""
	for len(mw.Taken)-1 < len(o.Path) && stop == "" {
		st := w.st()
		m.st = st
		a, b := mw.Taken[len(mw.Taken)-1], o.Path[len(mw.Taken)-1]
		cost, why := m.stepCost(a, b)
		if why == "" {
			why = m.enemyBars(b)
		}
		if why == "" && mw.Spent+cost > m.mp {
			why = fmt.Sprintf("it has %d MP left and %s costs %d", m.mp-mw.Spent, b, cost)
		}
		if why == "" && len(mw.Taken) == 1 && st.Is(flagBeganAdjacent, o.Unit) && m.kind.Type == Infantry {
			if near := st.enemyTouching(b, p.Side, true); near != "" {
				why = fmt.Sprintf("it began the step next to an enemy land army, and %s is next to the enemy land army at %s (DG-ADJ-4)", b, near)
			}
		}
		if why != "" {
			stop = fmt.Sprintf("%s stops in %s: it cannot enter %s, %s.", o.Unit, a, b, why)
			break
		}
		mw.Spent += cost
		mw.Taken = append(mw.Taken, b)
		if w.enter(p, o, mw) {
			return true
		}
		if w.r.Err() != nil || w.st().Over {
			return true
		}
		if len(mw.Taken)-1 < len(o.Path) && m.stopsNearEnemy() {
			if near := w.st().enemyTouching(b, p.Side, false); near != "" {
				stop = fmt.Sprintf("%s stops in %s, next to the enemy army at %s (DG-ADJ-1).", o.Unit, b, near)
			}
		}
	}
	w.finish(p, o, mw, stop)
	return false
}

// enter does what entering the last hex of mw.Taken sets off: enemy
// leaders and wizards there are overrun (DG-LDR-6), enemy fleets displaced
// (DG-FLEET-6), and w.entered captures and invades (DG-CONQ-2, DG-INV). It
// reports a pause.
func (w *world) enter(p *program, o *MoveOrder, mw *moveWork) bool {
	st := w.st()
	h := mw.Taken[len(mw.Taken)-1]
	last := len(mw.Taken)-1 == len(o.Path)
	army := st.Kind(o.Unit).IsArmy()
	var fleets bool // enemy fleets in h or on a river hexside beside it (DG-FLEET-6, DG-AMB-25)
	for _, u := range st.Units {
		if u.Where == OnMap && u.Side != p.Side && st.Kind(u.ID).Type == Fleet && slices.Contains(banks(u.Hex), h) {
			fleets = true
		}
	}
	overrun := army && len(st.overrunnable(h, p.Side)) > 0
	n := st.Geo().Nation(h)
	invasion := n != "" && st.Nations[n].Side == "" && st.Nations[n].Conquered == ""
	if last || overrun || (army && fleets) || invasion {
		w.show(o, mw) // the counter stands in h for what follows
	}
	if overrun {
		w.overrun(p.Side, o.Unit, h)
	}
	if army && fleets {
		mw.Waiting = "displace" // kept with the question, if one is asked
		if w.displaceFleets(p, h, p.Side) {
			return true
		}
		mw.Waiting = ""
	}
	return w.afterEntering(p, o, mw)
}

// afterEntering calls w.entered for the counter (and what it carries) in
// the last hex of mw.Taken; it reports a pause.
func (w *world) afterEntering(p *program, o *MoveOrder, mw *moveWork) bool {
	h := mw.Taken[len(mw.Taken)-1]
	over := len(mw.Taken)-1 < len(o.Path)
	w.entered(o.Unit, h, over)
	if o.Carry != "" && w.st().Units[o.Carry].Hex == h {
		w.entered(o.Carry, h, over)
	}
	if w.st().Pause.Pending != nil {
		return true
	}
	return false
}

// show emits the path taken since the state last placed the counter.
func (w *world) show(o *MoveOrder, mw *moveWork) {
	if mw.Shown >= len(mw.Taken)-1 {
		return
	}
	w.emitPath(o, slices.Clone(mw.Taken[mw.Shown:]))
	mw.Shown = len(mw.Taken) - 1
}

// emitPath moves the counter (and what it carries) along seg.
func (w *world) emitPath(o *MoveOrder, seg []string) {
	kind := "move"
	if w.st().Kind(o.Unit).Flyer() {
		kind = "fly"
	}
	w.emit(&Moved{Unit: o.Unit, Path: seg, Kind: kind})
	if o.Carry != "" {
		w.emit(&Moved{Unit: o.Carry, Path: slices.Clone(seg), Kind: "carried"})
	}
}

// finish ends a move: where the counter stopped, if it may end there;
// otherwise in the last hex of its path where it may (an air army over
// land, stacking: DG-AIR-5, DG-STACK-8). It flags the counters moved.
func (w *world) finish(p *program, o *MoveOrder, mw *moveWork, stop string) {
	st := w.st()
	m := st.walker(o.Unit, o.Carry)
	end := len(mw.Taken) - 1
	_, why := m.endProblem(mw.Taken[end])
	for end > 0 {
		if _, bad := m.endProblem(mw.Taken[end]); bad == "" {
			break
		}
		end--
	}
	if stop != "" {
		w.tellMove(p.Side, "%s", stop)
	}
	if end < len(mw.Taken)-1 {
		w.tellMove(p.Side, "%s cannot end its move in %s (%s); it ends in %s, the last hex of its path where it may.", o.Unit, mw.Taken[len(mw.Taken)-1], why, mw.Taken[end])
		if mw.Shown > end {
			// The state has it beyond: it goes back along its path.
			back := slices.Clone(mw.Taken[end : mw.Shown+1])
			slices.Reverse(back)
			w.emitPath(o, back)
			mw.Shown = end
		}
		mw.Taken = mw.Taken[:end+1]
	}
	w.show(o, mw)
	ids := []string{o.Unit}
	if o.Carry != "" {
		ids = append(ids, o.Carry)
	}
	if len(mw.Taken) > 1 {
		w.emit(&Flagged{Flag: flagMoved, IDs: []string{o.Unit}})
		if o.Carry != "" {
			w.emit(&Flagged{Flag: flagTransported, IDs: []string{o.Carry}}) // DG-AIRT-3
		}
		what := fmt.Sprintf("%s moves %s", o.Unit, pathText(mw.Taken))
		if o.Carry != "" {
			what = fmt.Sprintf("%s flies %s carrying %s", o.Unit, pathText(mw.Taken), o.Carry)
		} else if m.flies() {
			what = fmt.Sprintf("%s flies %s", o.Unit, pathText(mw.Taken))
		}
		w.tellMove(p.Side, "%s (%d of its %d MP).", what, mw.Spent, m.mp)
		h := mw.Taken[len(mw.Taken)-1]
		if len(mw.Taken)-1 < len(o.Path) {
			// It stopped short of its path's end: it now ends its move in
			// h, which it entered only in passing.
			for _, id := range ids {
				w.entered(id, h, false)
			}
		}
	}
}

// moveWizard moves a wizard to any hex without enemy armies, or aboard a
// friendly fleet, once per movement step (DG-WIZ-2 to -5).
func (w *world) moveWizard(side adjudicator.Side, o *MoveOrder) {
	st := w.st()
	u := st.Units[o.Unit]
	from := u.Hex
	if u.Where == Aboard {
		from = st.Units[u.Carrier].Hex
	}
	if f := st.Units[o.To]; f != nil {
		if f.Side != side || f.Where != OnMap {
			w.tellMove(side, "%s does not move: %s is no longer a friendly fleet on the map.", o.Unit, o.To)
			return
		}
		w.emit(&Put{Units: []string{o.Unit}, Where: Aboard, Carrier: f.ID, Why: "wizard"})
		w.emit(&Flagged{Flag: flagWizardMoved, IDs: []string{o.Unit}})
		w.tellMove(side, "%s goes aboard %s (DG-WIZ-4).", o.Unit, f.ID)
		return
	}
	if st.EnemyArmiesAt(o.To, side) {
		w.tellMove(side, "%s does not move: %s now holds enemy armies (DG-WIZ-2).", o.Unit, o.To)
		return
	}
	w.emit(&Moved{Unit: o.Unit, Path: []string{from, o.To}, Kind: "move"})
	w.emit(&Flagged{Flag: flagWizardMoved, IDs: []string{o.Unit}})
	w.tellMove(side, "%s goes to %s (DG-WIZ-2).", o.Unit, o.To)
	w.entered(o.Unit, o.To, false)
}

// overrun deals with the enemy leaders and wizards in h, which side's army
// id has entered (DG-LDR-6, DG-AMB-39): each leader makes the leader-loss
// roll (DG-LOSS-1: 1d6, 1-3 out of the game, 4-6 to the nearest friendly
// army); each wizard goes to the nearest friendly army or fleet, without a
// roll (DG-LOSS-4).
func (w *world) overrun(side adjudicator.Side, id, h string) {
	st := w.st()
	for _, x := range st.overrunnable(h, side) {
		w.say("%s enters %s, where %s stood without an army (DG-LDR-6).", id, h, x)
		if st.Kind(x).Type == Leader {
			w.leaderLoss(x, "overrun in "+h)
		} else {
			w.relocateWizard(x)
		}
	}
}

// relocateWizard places an overrun wizard with the nearest friendly army
// or fleet (aboard a fleet), or out of the game when its side has none on
// the map (DG-LOSS-4, DG-AMB-39).
func (w *world) relocateWizard(id string) {
	st := w.st()
	to := st.nearestFriend(st.Units[id], func(f *Unit) bool {
		k := st.Kind(f.ID)
		return k.IsArmy() || k.Type == Fleet
	})
	switch {
	case to == nil:
		w.emit(&Put{Units: []string{id}, Where: Out, Why: "wizard overrun"})
		w.say("%s has no friendly army or fleet to go to and leaves the game.", id)
	case st.Kind(to.ID).Type == Fleet:
		w.emit(&Put{Units: []string{id}, Where: Aboard, Carrier: to.ID, Why: "wizard overrun"})
		w.say("%s goes aboard %s, the nearest friendly fleet (DG-LOSS-4).", id, to.ID)
	default:
		w.emit(&Put{Units: []string{id}, Where: OnMap, Hex: to.Hex, Why: "wizard overrun"})
		w.say("%s goes to %s, the nearest friendly army (DG-LOSS-4).", id, to.Hex)
		w.entered(id, to.Hex, false)
	}
}
