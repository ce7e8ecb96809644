package dragonnoir

import (
	"fmt"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// Chapter: movement (A.7, A.8). A move order (PBEM-DN-3, -5) is resolved
// in legs: its path, walked location by location, each paid in MP from the
// terrain table (DN-MOVE-1 … 3) and checked against the restrictions
// (move_step.go: DN-MOVE-4 … 17, DN-STACK); then the boat rowed (row:,
// move_boat.go, DN-BOAT); then the path walked ashore after rowing (then:,
// DN-BOAT-4); and, when a leg was stopped short, the contingency path
// walked from where the character stands with the MP it has left
// (if-stopped:). Infiltration is rolled for each location entered and then
// left (move_infil.go, DN-INFIL, AMB-28); during the Krob movement the
// Adventurers' defensive fire strikes at each location a Krob enters
// (fire.go). At the end no other living character may share a location
// with it (DN-STACK-2): a move stopped on a friend goes back along its own
// way to the last free location.

// The legs of a move order, in the order they are walked.
const (
	legPath = iota // path:
	legRow         // row:
	legThen        // then:
	legAlt         // if-stopped:
	legDone
	// Riders (move_rider.go): mount:, ride:, dismount:.
	legMount
	legRide
	legDismount
)

// legEnd is how a leg ended.
type legEnd int

const (
	legWalked  legEnd = iota // to its end
	legStopped               // short of its end, the character on its feet: if-stopped may follow
	legEnded                 // the move is over (a roll's result, the character down)
	legPaused                // a question is asked (live defensive fire)
)

// moveWork is a move order's progress (work.Move): kept in the program
// while the game waits on a question.
type moveWork struct {
	Leg int `json:"leg,omitempty"`
	// Afloat: the character began the move in a boat (DN-BOAT-4).
	Afloat bool `json:"afloat,omitempty"`
	// Boarded is the MP it had spent when it reached a boat in this move,
	// plus one; 0 when it boarded none (DN-BOAT-3).
	Boarded int `json:"boarded,omitempty"`
	// Rowed is the boat hexes it rowed.
	Rowed int `json:"rowed,omitempty"`
	// Fresh: it stands where this move made it enter, so leaving makes it
	// roll for infiltration (AMB-28).
	Fresh bool `json:"fresh,omitempty"`
	// Limit is the most MP it may have spent at the end of the leg walked
	// (then: half its potential, DN-BOAT-4); 0 for its whole potential.
	Limit int `json:"limit,omitempty"`
	// Trail lists where it stood during the move, the start first.
	Trail []trailStep `json:"trail,omitempty"`
}

// trailStep is one location a character stood on, with its facing.
type trailStep struct {
	At     string `json:"at"`
	Facing string `json:"facing,omitempty"`
}

// cannotMove says why c may not move now.
func (w *world) cannotMove(side string, c *Char) string {
	st := w.st()
	switch {
	case c == nil || !c.Alive() || string(c.Side) != side:
		return "it is not a character of yours on the map"
	case c.Face == Stunned:
		return "a stunned character does not move (AMB-12)"
	case st.Is(flagMoved, c.ID):
		return "it has already moved this turn (DN-MOVE-2)"
	case st.Is(flagSteady, c.ID): // DN3: special_ent.go
		return "a character it carries fired from it this turn: it does not move (DN3-PEOPLE-ENT-26)"
	}
	if wp := st.rateOf(c); wp != nil && !wp.MoveAfterFire && st.Is(flagFiredOff, c.ID) { // combat_peoples.go: an Elf of La Conquête (AMB-23)
		return fmt.Sprintf("a %s that fired does not move in the same turn (DN-TURN-5)", wp.Title)
	}
	return ""
}

// moveOrder resolves one move (PBEM-DN-3, -5) from where it stands. It
// reports a pause (a defensive-fire question in live mode).
func (w *world) moveOrder(p *program, o *MoveOrder) bool {
	st := w.st()
	c := st.Chars[o.Unit]
	wk := p.work()
	if wk.Move == nil && c != nil && c.waiting() && c.Side == p.Side { // DN3 battles: entering the map (battle_turn.go)
		if !w.enter(c, o) {
			return false
		}
		wk.Move = &moveWork{Trail: []trailStep{{c.At, c.Facing}}, Fresh: true}
		wk.Step, wk.Entered = 0, true
	}
	if wk.Move == nil {
		if why := w.cannotMove(string(p.Side), c); why != "" {
			w.say(nil, "%s does not move: %s.", o.Unit, why)
			return false
		}
		if c.On != "" && o.ClimbOff == "" { // DN3: a character carried (move_climb.go)
			w.say(nil, "%s does not move: it is carried by %s, and its only move is climbing off (DN3-PEOPLE-ENT-24).", o.Unit, c.On)
			return false
		}
		w.emit(&Flagged{Flag: flagMoved, IDs: []string{c.ID}})
		if o.ClimbOff != "" { // DN3: its whole move (move_climb.go)
			w.climbOff(c, o)
			return false
		}
		wk.Move = &moveWork{Afloat: w.boatOf(c) != nil, Trail: []trailStep{{c.At, c.Facing}}}
	}
	mv := wk.Move
	for mv.Leg != legDone {
		var end legEnd
		switch mv.Leg {
		case legPath:
			end = w.walk(p, c, o, o.Path, o.Facings)
		case legRow:
			end = w.row(c, o, mv)
		case legThen:
			end = w.walk(p, c, o, o.Then, nil)
		case legAlt:
			end = w.walk(p, c, o, o.IfStopped, nil)
		case legMount: // riders (move_rider.go)
			end = w.mountLeg(c, o, mv)
		case legRide:
			end = w.walk(p, c, o, o.Ride, nil)
		case legDismount:
			end = w.dismountLeg(c, o)
		}
		if end == legPaused {
			return true
		}
		next := legDone
		switch {
		case end == legWalked && mv.Leg == legPath && o.Mount != "": // riders (move_rider.go)
			next = legMount
		case end == legWalked && mv.Leg == legPath && o.Dismount != "":
			next = legDismount
		case end == legWalked && mv.Leg == legMount && len(o.Ride) > 0:
			next = legRide
		case end == legStopped && mv.Leg != legAlt && len(o.IfStopped) > 0 && c.Standing():
			w.say(nil, "%s was stopped: it takes its path if stopped from %s (PBEM-DN-5).", c.ID, c.At)
			next = legAlt
		case end == legWalked && mv.Leg == legPath && len(o.Row) > 0:
			next = legRow
		case end == legWalked && mv.Leg == legRow && len(o.Then) > 0:
			b := w.boatOf(c)
			how, ashore := "", false
			if b != nil {
				how, ashore = st.Ashore(b)
			}
			if !ashore {
				w.say(nil, "%s stays in the boat: it walks on after rowing only from a boat docked at a pontoon or on a beach (DN-BOAT-4, -6).", c.ID)
				break
			}
			f, _ := st.Values(c)
			mv.Limit = c.Spent + f.Move/2 // AMB-30: halves round down
			w.say(nil, "%s's boat is %s: it may walk %d MP ashore (DN-BOAT-4, AMB-30).", c.ID, how, f.Move/2)
			next = legThen
		}
		mv.Leg = next
		wk.Step, wk.Entered, wk.Fired = 0, false, false
	}
	w.settle(c, mv)
	if o.ClimbOn != "" && c.Standing() { // DN3: at the end of its path (move_climb.go)
		w.climbOn(c, o.ClimbOn)
	}
	if o.Leave != "" { // DN3 battles: leaving the map (battle_turn.go)
		w.leave(c, o.Leave, mv)
	}
	return false
}

// walk walks c along path from wk.Step (PBEM-DN-3): each location is
// checked when its turn comes (step), paid, and rolled for (infiltration
// when leaving a location the move entered, a jump's landing); a Krob is
// shot at where it enters (DN-FIRE-12).
func (w *world) walk(p *program, c *Char, o *MoveOrder, path, facings []string) legEnd {
	st := w.st()
	wk := p.work()
	mv := wk.Move
	k := st.mover(c) // a rider by its steed's ways (move_rider.go)
	multi := k.Shape != hex.Single.Name
	seg, mp, facing := []string{c.At}, 0, c.Facing
	var used Provs
	flush := func() {
		if len(seg) > 1 {
			f, _ := st.Values(c)
			w.emit(&Moved{Unit: c.ID, Path: seg, Facing: facing, MP: mp, Kind: "move"})
			switch {
			case len(seg) == 2 && seg[0] == seg[1] && mp > 0: // DN3: an Ent turning pays (DN3-PEOPLE-ENT-2)
				w.say(used, "%s turns on %s to face %s (%d MP, its dearest hex, DN3-PEOPLE-ENT-2; %d of %d spent).", c.ID, c.At, c.Facing, mp, c.Spent, f.Move)
			case len(seg) == 2 && seg[0] == seg[1]:
				w.say(nil, "%s turns on %s to face %s (free, DN-MOVE-17).", c.ID, c.At, c.Facing)
			default:
				w.say(used, "%s moves %s (%d MP; %d of %d spent).", c.ID, strings.Join(seg, " → "), mp, c.Spent, f.Move)
			}
			for _, s := range seg[1:] {
				mv.Trail = append(mv.Trail, trailStep{s, c.Facing})
			}
		}
		seg, mp, used = []string{c.At}, 0, nil
	}
	stop := func(format string, args ...any) legEnd {
		flush()
		w.say(used, "%s stops on %s: %s.", c.ID, c.At, fmt.Sprintf(format, args...))
		return legStopped
	}
	for wk.Step < len(path) {
		i := wk.Step
		last := i == len(path)-1
		if !wk.Entered {
			if !c.Standing() {
				flush()
				return legEnded
			}
			l, err := locOn(st.board, path[i])
			if err != nil {
				return stop("%v", err)
			}
			face := facing
			switch {
			case i < len(facings):
				face = facings[i]
			case last && o.Facing != "":
				face = o.Facing
			}
			if multi {
				flush() // a counter of several hexes steps from where it stands
			}
			cur := mustLoc(st, seg[len(seg)-1])
			jump := o.Jump != "" && o.Jump == path[i]
			cost, prov, why := w.step(c, k, cur, facing, l, face, jump, last)
			used = append(used, prov)
			if why != "" {
				return stop("%s", why)
			}
			f, _ := st.Values(c)
			limit := f.Move
			if mv.Limit > 0 {
				limit = min(limit, mv.Limit)
			}
			if left := limit - c.Spent - mp; cost > left {
				if cost > f.Move && f.Move > 0 { // (none at all: a spell holds it)
					return stop("entering %s costs %d MP, more than its whole %d: it can never enter it (DN-MOVE-10, AMB-29)", path[i], cost, f.Move)
				}
				return stop("entering %s costs %d MP and %d are left (DN-MOVE-1, AMB-29)", path[i], cost, left)
			}
			if c.Side == Adventurers && st.Web(locString(st.board, l)) {
				return stop("a web on %s bars the way: tear it in the combat step (DN-MOVE-11)", path[i])
			}
			if mv.Fresh && (multi && len(w.infiltratorsOf(c, nil)) > 0 || !multi && len(w.infiltrators(c, cur)) > 0) { // AMB-28: leaving a location the move entered
				flush()
				if w.infiltrate(c) {
					return legEnded
				}
				used = append(used, prov)
			}
			wasAfloat := w.boatOn(cur) != nil
			seg, mp, facing = append(seg, locString(st.board, l)), mp+cost, face
			wk.Entered, mv.Fresh = true, true
			if b := w.boatOn(l); b != nil && !wasAfloat && !multi {
				mv.Boarded = c.Spent + mp + 1
				flush()
				w.say(nil, "%s boards %s on %s (%d MP, DN-BOAT-2).", c.ID, b.ID, c.At, cost)
			}
			if jump {
				flush()
				if w.jump(c) {
					return legEnded
				}
			}
			if w.st().cloudAt(l) != nil { // magic chapter: a poison cloud (spell_nature.go)
				flush()
				if w.breathe(c, cur, l) {
					return legEnded
				}
			}
		}
		if st.firedAt(p.Side) { // the Krobs; in a battle either side (AMB-69)
			flush()
			if w.defensiveFire(p, c) {
				return legPaused
			}
			w.triggersOn(p, c) // magic chapter: spells in the Krob turn (PBEM-DN-7)
			if !c.Standing() {
				w.say(nil, "%s's move ends on %s.", c.ID, c.At)
				return legEnded
			}
			if c.At != locString(st.board, mustLoc(st, path[i])) {
				mv.Fresh = false
				mv.Trail = append(mv.Trail, trailStep{c.At, c.Facing})
				w.say(nil, "%s's move ends on %s.", c.ID, c.At)
				return legStopped
			}
		}
		if w.triggersWait(p, c, mustLoc(st, path[i])) { // magic chapter: the Reptilians' spell triggers in the valley (spell_triggers.go)
			flush()
			w.triggersOn(p, c)
			if !c.Standing() {
				w.say(nil, "%s's move ends on %s.", c.ID, c.At)
				return legEnded
			}
			if c.At != locString(st.board, mustLoc(st, path[i])) {
				mv.Fresh = false
				mv.Trail = append(mv.Trail, trailStep{c.At, c.Facing})
				w.say(nil, "%s's move ends on %s.", c.ID, c.At)
				return legStopped
			}
		}
		wk.Step, wk.Entered, wk.Fired = i+1, false, false
	}
	flush()
	return legWalked
}

func mustLoc(st *State, s string) hex.Loc {
	l, _ := locOn(st.board, s)
	return l
}

// settle applies the stacking limit at the end of c's move (DN-STACK-2):
// a move that stopped where another living character stands goes back
// along its own way to the last location where c stands alone, without
// paying or rolling again.
func (w *world) settle(c *Char, mv *moveWork) {
	if !c.Alive() || c.On != "" { // DN3: a character carried is above the hex (special_ent.go)
		return
	}
	crowd := w.sharing(c, c.At, c.Facing)
	if crowd == nil {
		return
	}
	for i := len(mv.Trail) - 1; i >= 0; i-- {
		t := mv.Trail[i]
		if t.At == c.At && t.Facing == c.Facing || w.sharing(c, t.At, t.Facing) != nil {
			continue
		}
		w.emit(&Moved{Unit: c.ID, Path: []string{c.At, t.At}, Facing: t.Facing, Kind: "move"})
		w.say(nil, "%s may not end its move on %s, where %s is (one living character a hex, DN-STACK-2): it goes back to %s.", c.ID, crowd.At, crowd.ID, t.At)
		return
	}
}

// sharing is a living character other than c on one of the locations c
// would cover standing at at, facing facing; nil when there is none.
func (w *world) sharing(c *Char, at, facing string) *Char {
	st := w.st()
	k := st.Kind(c)
	l := mustLoc(st, at)
	locs := []hex.Loc{l}
	if k.Shape != hex.Single.Name {
		fp, err := footprintOf(st.board, k, l.Hex, facing)
		if err != nil {
			return nil
		}
		locs = nil
		for _, h := range fp.Hexes() {
			locs = append(locs, st.board.FloorLoc(h))
		}
	}
	for _, x := range locs {
		for _, o := range st.At(x) {
			if o != c && o.Alive() {
				return o
			}
		}
	}
	return nil
}
