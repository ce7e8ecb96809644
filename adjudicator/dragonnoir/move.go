package dragonnoir

import (
	"fmt"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// Chapter: movement (A.7, A.8): paths of locations paid in MP from the
// terrain table (DN-MOVE-1 … 3), the restrictions (DN-MOVE-4 … 14: enemies,
// water, walls, levels, webs), counters of several hexes with their
// facing (DN-MOVE-15 … 17), infiltration (DN-INFIL), stacking (DN-STACK),
// jumps (DN-MOVE-13), and — during the Krob movement — the Adventurers'
// defensive fire at each location a Krob enters (fire.go).
//
// First implementation: step by step, each step touching the last
// (geo.go Touch: levels, ramps, decks, walls), MP left at least the cost
// (AMB-29), a counter of several hexes paying its dearest new hex. Left to
// the movement chapter: boats (DN-BOAT), bridges entered from water
// (DN-MOVE-7, -8), the Labyrinthe's footbridge rule (DN-MOVE-14), a move
// stopped early on a friend's hex (DN-STACK-2).

// cannotMove says why c may not move now.
func (w *world) cannotMove(side string, c *Char) string {
	st := w.st()
	k := st.Kind(c)
	switch {
	case c == nil || !c.Alive() || string(c.Side) != side:
		return "it is not a character of yours on the map"
	case c.Face == Stunned:
		return "a stunned character does not move (AMB-12)"
	case st.Is(flagMoved, c.ID):
		return "it has already moved this turn (DN-MOVE-2)"
	}
	if wp := st.data.Weapons[k.Weapon]; wp != nil && !wp.MoveAfterFire && st.Is(flagFiredOff, c.ID) {
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
	if wk.Step == 0 && !wk.Entered {
		if why := w.cannotMove(string(p.Side), c); why != "" {
			w.say(nil, "%s does not move: %s.", o.Unit, why)
			return false
		}
		w.emit(&Flagged{Flag: flagMoved, IDs: []string{c.ID}})
	}
	k := st.Kind(c)
	f, _ := st.Values(c)
	seg, mp, facing := []string{c.At}, 0, c.Facing
	var used Provs
	flush := func() {
		if len(seg) > 1 {
			w.emit(&Moved{Unit: c.ID, Path: seg, Facing: facing, MP: mp, Kind: "move"})
			w.say(used, "%s moves %s (%d MP; %d of %d spent).", c.ID, strings.Join(seg, " → "), mp, c.Spent, f.Move)
		}
		seg, mp, used = []string{c.At}, 0, nil
	}
	stop := func(format string, args ...any) bool {
		flush()
		w.say(used, "%s stops on %s: %s.", c.ID, c.At, fmt.Sprintf(format, args...))
		return false
	}
	for wk.Step < len(o.Path) {
		last := wk.Step == len(o.Path)-1
		if !wk.Entered {
			l, err := locOn(st.board, o.Path[wk.Step])
			if err != nil {
				return stop("%v", err)
			}
			face := facing
			switch {
			case wk.Step < len(o.Facings):
				face = o.Facings[wk.Step]
			case last && o.Facing != "":
				face = o.Facing
			}
			if k.Shape != hex.Single.Name {
				flush() // a counter of several hexes steps from where it stands
			}
			cur := mustLoc(st, seg[len(seg)-1])
			cost, prov, why := w.step(c, k, cur, l, face, o.Jump == o.Path[wk.Step], last)
			used = append(used, prov)
			if why != "" {
				return stop("%s", why)
			}
			if c.Spent+mp+cost > f.Move {
				return stop("entering %s costs %d MP and %d are left (DN-MOVE-1, AMB-29)", o.Path[wk.Step], cost, f.Move-c.Spent-mp)
			}
			if c.Side == Adventurers && st.Web(locString(st.board, l)) {
				return stop("a web on %s bars the way: tear it in the combat step (DN-MOVE-11)", o.Path[wk.Step])
			}
			seg, mp, facing = append(seg, locString(st.board, l)), mp+cost, face
			wk.Entered = true
			if o.Jump == o.Path[wk.Step] {
				flush()
				if w.jump(c) {
					return false
				}
			}
			if !last && len(w.infiltrators(c, l)) > 0 {
				flush()
				if w.infiltrate(c) {
					return false
				}
			}
		}
		if p.Side == Krobs {
			flush()
			if w.defensiveFire(p, c) {
				return true
			}
			w.triggersOn(p, c) // magic chapter: spells in the Krob turn (PBEM-DN-7)
			if !c.Standing() || c.At != locString(st.board, mustLoc(st, o.Path[wk.Step])) {
				w.say(nil, "%s's move ends on %s.", c.ID, c.At)
				return false
			}
		}
		wk.Step, wk.Entered, wk.Fired = wk.Step+1, false, false
	}
	flush()
	return false
}

func mustLoc(st *State, s string) hex.Loc {
	l, _ := locOn(st.board, s)
	return l
}

// step says what entering l from cur costs c (facing face for a counter of several
// hexes) and why it may not, "" when it may: l touches where c is (or c
// jumps down one level, DN-MOVE-13); c may enter every hex it would cover
// (DN-MOVE-5); no standing enemy is there (DN-MOVE-4); at the end of its
// move no other living character is there (DN-STACK-2).
func (w *world) step(c *Char, k *Kind, cur, l hex.Loc, face string, jump, last bool) (int, Prov, string) {
	st := w.st()
	t := st.Terrain(l)
	switch {
	case jump:
		if !k.Has(TagDaredevil) {
			return 0, t.Prov, "only a daredevil Adventurer jumps (DN-MOVE-13)"
		}
		if !st.board.Layout.Adjacent(cur.Hex, l.Hex) || cur.Level-l.Level != hex.Storey {
			return 0, t.Prov, fmt.Sprintf("a jump goes down exactly one level to a hex next to it; %s is not (DN-MOVE-13)", locString(st.board, l))
		}
	case k.Shape == hex.Single.Name && !st.Touch(cur, l):
		return 0, t.Prov, fmt.Sprintf("%s does not lead to %s: a different level, a wall, or not next to it (DN-MOVE-9, DN-MOVE-12)", locString(st.board, cur), locString(st.board, l))
	}
	fp, err := footprintOf(st.board, k, l.Hex, face)
	if err != nil {
		return 0, t.Prov, err.Error()
	}
	cost := 0
	var prov Prov
	for _, h := range fp.Hexes() {
		hl := hex.At(h, l.Level)
		if h != l.Hex {
			hl = st.board.FloorLoc(h)
		}
		if k.Shape != hex.Single.Name && (!st.board.OnMap(h) || (!st.Covers(c, hl) && !w.touchesAny(c, hl))) {
			return 0, t.Prov, fmt.Sprintf("facing %s on %s it would cover %s, where it cannot stand (DN-MOVE-15, -16)", face, l.Hex, h)
		}
		n, p, ok := st.MPCost(k, hl)
		n += st.crossing(cur, hl) // magic chapter: a demolished wall
		if !ok {
			return 0, p, fmt.Sprintf("a %s may not enter %s (%s, DN-MOVE-5)", k.Title, locString(st.board, hl), st.Terrain(hl).Title)
		}
		if n > cost {
			cost, prov = n, p
		}
		for _, o := range st.At(hl) {
			if o == c || !o.Alive() {
				continue
			}
			if o.Standing() && Enemy(o.Side, c.Side) {
				return 0, p, fmt.Sprintf("%s stands on %s (DN-MOVE-4)", o.ID, locString(st.board, hl))
			}
			if last {
				return 0, p, fmt.Sprintf("%s is on %s: one living character a hex at the end of a move (DN-STACK-2)", o.ID, locString(st.board, hl))
			}
		}
	}
	return cost, prov, ""
}

// touchesAny reports whether l touches one of c's locations.
func (w *world) touchesAny(c *Char, l hex.Loc) bool {
	st := w.st()
	for _, x := range st.Locs(c) {
		if st.Touch(x, l) || x.Hex == l.Hex {
			return true
		}
	}
	return false
}

// infiltrate rolls for c crossing its location next to enemies in
// position to attack it (DN-INFIL-1 … 3, DN-KROB-12, DN-SPEC-9, ROLL-4).
// It reports whether the move ends here.
func (w *world) infiltrate(c *Char) bool {
	st := w.st()
	for _, e := range w.infiltrators(c, st.loc(c)) {
		ek := st.Kind(e)
		r := w.d10(fmt.Sprintf("infiltration of %s past %s on %s", c.ID, e.ID, c.At))
		res, prov := st.data.Infiltration(ek, r.Total)
		used := Provs{prov}
		switch res {
		case "-":
			outcome(r, used, "no effect")
			continue
		case "stop":
			outcome(r, used, "stopped")
			w.say(used, "%s is stopped on %s by %s (DN-INFIL-1).", c.ID, c.At, e.ID)
			return true
		}
		es, _ := parseEffects(res)
		outcome(r, used, "%s", effectWords(es))
		w.say(used, "%s, slipping past %s on %s: %s (DN-INFIL-1).", c.ID, e.ID, c.At, effectWords(es))
		for _, ef := range es {
			w.hurt(c, ef.What, ef.N, []*Char{e}, used, false)
		}
		return true
	}
	return false
}

// infiltrators are the enemies that make c roll for crossing l: in
// position to attack it, unless c ignores infiltration or they cause none
// (DN-SPEC-9, DN-KROB-12).
func (w *world) infiltrators(c *Char, l hex.Loc) []*Char {
	st := w.st()
	if st.Kind(c).Has(TagIgnoresInfil) {
		return nil
	}
	var out []*Char
	for _, e := range st.Threats(string(c.Side), l) {
		if !st.Kind(e).Has(TagCausesNoInfil) {
			out = append(out, e)
		}
	}
	return out
}

// jump rolls on the Jump table for c, who has just jumped down a level
// (DN-MOVE-13, ROLL-5). It reports whether the move ends.
func (w *world) jump(c *Char) bool {
	st := w.st()
	r := w.d10(fmt.Sprintf("jump by %s to %s", c.ID, c.At))
	res := st.data.Jump.Rolls[modified(r.Total)-1]
	used := Provs{st.data.Jump.Prov}
	es, _ := parseEffects(res)
	outcome(r, used, "%s", effectWords(es))
	w.say(used, "%s jumps down to %s: %s (DN-MOVE-13).", c.ID, c.At, effectWords(es))
	for _, e := range es {
		w.hurt(c, e.What, e.N, nil, used, false)
	}
	return len(es) > 0
}
