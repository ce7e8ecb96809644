package dragonnoir

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
	"github.com/umpire-pbem/umpire/adjudicator/pause"
)

// Advance after combat (DN-ADV-1 … 6, PBEM-DN-10), part of the combat
// chapter: when the losers retreated, or one was stunned or killed, one
// of the winners who fought and stands may advance up to half its
// movement (AMB-30: rounded down), its first hex one the losers left or
// the stunned or killed one's, at once, before the next combat. The
// winners' owner says so in a pause keyed advance: a standing "never"
// answers no, "always" sends the strongest winner that can into the first
// such hex and no further (PBEM-DN-10's example); the default at a
// deadline is no advance (PBEM-GEN-3). The MP spent do not count against
// the character's own move (DN-ADV-5). The advance obeys stacking, and
// infiltration from enemies not engaged in a combat of this combat step,
// fought or still to fight (DN-ADV-6). An Adventurer advancing onto a web
// the Krob left destroys it (DN-WEB-3); any other web bars its way
// (DN-MOVE-11).

// advanceAnswer is an answer to an advance question.
type advanceAnswer struct {
	Unit string   `yaml:"unit"`
	Path []string `yaml:"path"`
}

// advance offers the winners of cw their advance. It reports a pause.
func (w *world) advance(p *program, cw *combatWork) bool {
	st := w.st()
	who, into := cw.Attackers, cw.VacatedD
	if len(into) == 0 {
		who, into = cw.Defenders, cw.VacatedA
	}
	if len(into) == 0 {
		return false
	}
	var can []string
	for _, id := range who {
		if c := st.Chars[id]; c.Standing() && c.On == "" { // AMB-12: the stunned do not advance; DN3: nor a character carried (DN3-PEOPLE-ENT-24)
			can = append(can, id)
		}
	}
	if len(can) == 0 {
		return false
	}
	side := st.Chars[can[0]].Side // a Gharv's question the referee answers: always (pauseFor, DN-GHARV-8)
	ans, ok := w.take()
	if !ok {
		q := pause.Question{Side: side, Key: KeyAdvance,
			Title:   fmt.Sprintf("turn %d, advance after combat into %s", st.Turn, list(into)),
			Prompt:  fmt.Sprintf("%s may advance after combat, first into %s, up to half their MP (DN-ADV-1, -2). Answer none, always (the strongest into the first free one), or {unit: ID, path: [hexes]}.", list(can), list(into)),
			Default: "none"}
		var paused bool
		if ans, paused = w.pauseFor(p, q); paused {
			return true
		}
	}
	var a advanceAnswer
	switch t := strings.TrimSpace(ans); t {
	case "none", "never", "":
		return false
	case "always":
		var found bool
		if a, found = w.strongest(can, into); !found {
			w.say(nil, "No advance after combat: none of %s can enter %s.", list(can), list(into))
			return false
		}
	default:
		if err := yaml.Unmarshal([]byte(ans), &a); err != nil || a.Unit == "" {
			w.say(nil, "No advance: the answer %q is neither none, always nor {unit: ID, path: [hexes]}.", t)
			return false
		}
	}
	if why := w.advanceOK(a, can, into); why != "" {
		w.say(nil, "%s does not advance: %s.", a.Unit, why)
		return false
	}
	w.advanceAlong(p, cw, st.Chars[a.Unit], a.Path, into)
	return false
}

// strongest is the standing "always": the winner with the highest attack
// (then the first named) that can enter one of into, into the first it can.
func (w *world) strongest(can, into []string) (advanceAnswer, bool) {
	st := w.st()
	order := slices.Clone(can)
	slices.SortStableFunc(order, func(a, b string) int {
		fa, _ := st.Values(st.Chars[a])
		fb, _ := st.Values(st.Chars[b])
		return cmp.Compare(fb.Attack, fa.Attack)
	})
	for _, id := range order {
		for _, l := range into {
			a := advanceAnswer{Unit: id, Path: []string{l}}
			if w.advanceOK(a, can, into) == "" {
				return a, true
			}
		}
	}
	return advanceAnswer{}, false
}

// advanceAlong moves c along path, an advance already checked: it rolls
// for infiltration past enemies not engaged in this combat step
// (DN-ADV-6, AMB-28: the hexes entered and left) and destroys the web an
// Adventurer enters first (DN-WEB-3).
func (w *world) advanceAlong(p *program, cw *combatWork, c *Char, path, into []string) {
	st := w.st()
	engaged := slices.Concat(cw.Attackers, cw.Defenders)
	for _, o := range p.Orders.Attacks {
		engaged = append(append(engaged, o.Attackers...), o.Defenders...)
	}
	seg := []string{c.At}
	flush := func() {
		if len(seg) > 1 {
			w.emit(&Moved{Unit: c.ID, Path: seg, Kind: "advance"}) // DN-ADV-5: no MP spent
		}
		seg = []string{c.At}
	}
	for i, s := range path {
		l := mustLoc(st, s)
		seg = append(seg, locString(st.board, l))
		if i == 0 && c.Side == Adventurers && st.Web(locString(st.board, l)) {
			flush()
			w.destroyWebAt(c.At, "DN-WEB-3")
		}
		if i < len(path)-1 && w.unengagedInfiltrators(c, l, engaged) {
			flush()
			if w.advanceInfiltrate(c, engaged) {
				w.say(nil, "%s's advance after combat ends on %s.", c.ID, c.At)
				return
			}
		}
	}
	flush()
	w.say(nil, "%s advances after combat to %s.", c.ID, c.At)
}

// unengagedInfiltrators reports whether an enemy not engaged in a combat of
// this step is in position to attack l (DN-ADV-6).
func (w *world) unengagedInfiltrators(c *Char, l hex.Loc, engaged []string) bool {
	return slices.ContainsFunc(w.infiltrators(c, l), func(e *Char) bool { return !slices.Contains(engaged, e.ID) })
}

// advanceInfiltrate rolls for c past each enemy in position to attack it
// that is not engaged in a combat of this step (DN-ADV-6, DN-INFIL-1,
// ROLL-4), as a move does. It reports whether the advance ends.
func (w *world) advanceInfiltrate(c *Char, engaged []string) bool {
	return w.infiltrateExcept(c, func(e *Char) bool { return slices.Contains(engaged, e.ID) }, "advancing past", "DN-INFIL-1, DN-ADV-6")
}

// advanceOK says why an advance is not allowed: a winner who fought, the
// first hex one the losers left, each step touching the last, enterable,
// no enemy on its feet on the way, no web but the one the Krob left for an
// Adventurer, the end free, at most half its MP (AMB-30: rounded down).
func (w *world) advanceOK(a advanceAnswer, can, into []string) string {
	st := w.st()
	c := st.Chars[a.Unit]
	switch {
	case !slices.Contains(can, a.Unit):
		return fmt.Sprintf("only %s fought, stand and may advance (DN-ADV-4, AMB-12)", list(can))
	case len(a.Path) == 0:
		return "give the path, its first hex one the enemy left"
	}
	k := st.mover(c) // a rider by its steed's ways (move_rider.go)
	f, _ := st.Values(c)
	cur, curLocs, mp := st.loc(c), st.Locs(c), 0
	for i, s := range a.Path {
		l, err := locOn(st.board, s)
		if err != nil {
			return err.Error()
		}
		at := locString(st.board, l)
		locs, ok := w.coverAt(c, l)
		switch {
		case !st.Touch(cur, l):
			return fmt.Sprintf("it cannot step from %s to %s", locString(st.board, cur), s)
		case !ok:
			return fmt.Sprintf("a %s may not stand on %s (DN-MOVE-5)", k.Title, s)
		case i == 0 && !slices.ContainsFunc(locs, func(x hex.Loc) bool { return slices.Contains(into, locString(st.board, x)) }):
			return fmt.Sprintf("the first hex must be one the enemy left: %s (DN-ADV-2)", list(into))
		case w.enemyOn(c, locs):
			return fmt.Sprintf("an enemy stands on %s", s)
		case c.Side == Adventurers && st.Web(at) && !(i == 0 && slices.Contains(into, at)):
			return fmt.Sprintf("a web bars the way on %s (DN-MOVE-11)", s)
		}
		cost := 0
		for _, x := range locs {
			if !slices.Contains(curLocs, x) || k.StepCost == "all" { // DN3: an Ent pays its dearest hex (DN3-PEOPLE-ENT-2)
				n, _, _ := st.MPCost(k, x)
				cost = max(cost, n)
			}
		}
		if k.StepCost == "centre" { // DN3: the dragon pays its centre (DN3-PEOPLE-DRAGON-2)
			cost, _, _ = st.MPCost(k, l)
		}
		mp += cost
		cur, curLocs = l, locs
	}
	if mp > f.Move/2 {
		return fmt.Sprintf("the path costs %d MP, more than half its %d (DN-ADV-1, AMB-30)", mp, f.Move)
	}
	if !w.freeFor(c, curLocs) {
		return fmt.Sprintf("%s is taken: one living character a hex (DN-STACK-2, DN-ADV-6)", a.Path[len(a.Path)-1])
	}
	return ""
}
