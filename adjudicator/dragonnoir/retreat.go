package dragonnoir

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
	"github.com/umpire-pbem/umpire/adjudicator/pause"
)

// Retreats, part of the results chapter (DN-MULTI-4, AMB-9, AMB-10,
// PBEM-DN-11). A retreating character moves its number of hexes, each
// location touching the last (no wall, a level it can reach), one it may
// enter, with no enemy on its feet there, and each farther from every
// enemy it retreats from than the one before; it may pass friends and the
// stunned and the dead (DN-STACK-1) but must end where no other living
// character stands (DN-STACK-2). A counter of several hexes (a Guard, the
// Queen) slides without turning: every hex of it obeys the same.
//
// Blocked, it goes as far as it can and suffers nothing more (AMB-10),
// unless the game's option blocked-retreat=wound adds a wound. Inside a
// combat, when its ways end in more than one place, its owner chooses
// (PBEM-DN-11) in a pause keyed retreat; the standing answer "auto" and
// the deadline default take the referee's way: the one that ends farthest
// from the nearest enemy, then from all of them, then the first by
// location. Outside a combat (fire, infiltration, jumps, Gharvs,
// fireballs) the referee's way is taken at once.

// fightCtx is the combat being applied: the program that may pause and
// the combat's progress, which records a retreat waiting for its path.
type fightCtx struct {
	p      *program
	cw     *combatWork
	paused bool // a question was asked: the combat stops here
}

// retreatWork is a retreat waiting for its owner's answer.
type retreatWork struct {
	Unit string   `json:"unit"`
	N    int      `json:"n"`
	From []string `json:"from,omitempty"` // the enemies it retreats from
}

// route is one way a retreat may go: the anchor's locations after its
// own, and how far it ends from the enemies.
type route struct {
	locs []hex.Loc
	text []string
	near int // distance to the nearest enemy at the end
	sum  int // sum of the distances to each enemy at the end
}

// retreat moves c n hexes away from the enemies in from (AMB-9, AMB-10,
// PBEM-DN-11). It reports whether c left its location; inside a combat
// it may instead pause (w.fight.paused) to ask its owner the path.
func (w *world) retreat(c *Char, n int, from []*Char) bool {
	start := c.At
	rs := w.routes(c, n, from)
	if len(rs) == 0 {
		w.say(nil, "%s cannot retreat from %s: it stays (AMB-10).", c.ID, start)
		w.blockedWound(c)
		return false
	}
	r := rs[0]
	if f := w.fight; f != nil && (c.Side == Adventurers || c.Side == Krobs) && len(ends(rs)) > 1 {
		ans, ok := w.take()
		if !ok {
			f.cw.Retreat = &retreatWork{Unit: c.ID, N: n, From: idsOf(from)}
			q := pause.Question{Side: c.Side, Key: KeyRetreat,
				Title:   fmt.Sprintf("turn %d, the retreat of %s from %s", w.st().Turn, c.ID, start),
				Prompt:  fmt.Sprintf("%s retreats %d hexes from %s, each farther from every enemy that fought (AMB-10). Answer auto (the referee's way: %s), the location it ends on (%s), or its path as a list (PBEM-DN-11).", c.ID, len(r.locs), start, strings.Join(r.text, " → "), list(ends(rs))),
				Default: "auto"}
			var paused bool
			if ans, paused = w.pauseFor(f.p, q); paused {
				f.paused = true
				return false
			}
		}
		f.cw.Retreat = nil
		r = w.chosen(c, rs, ans)
	}
	w.emit(&Moved{Unit: c.ID, Path: append([]string{start}, r.text...), Kind: "retreat"})
	if len(r.locs) < n {
		w.say(nil, "%s retreats from %s to %s, %d of %d hexes: the way on is blocked (AMB-10).", c.ID, start, c.At, len(r.locs), n)
		w.blockedWound(c)
		return true
	}
	w.say(nil, "%s retreats from %s to %s.", c.ID, start, c.At)
	return true
}

// blockedWound wounds c for a retreat it could not complete, when the
// game's option says so (blocked-retreat=wound). A spectre is never hurt:
// blocked, it simply does not move (DN-SPECTRE-3).
func (w *world) blockedWound(c *Char) {
	st := w.st()
	if !st.Options.BlockedWound || !c.Alive() || st.Kind(c).Has(TagInvulnerable) {
		return
	}
	w.say(nil, "%s could not retreat all the way and takes a wound (option blocked-retreat=wound).", c.ID)
	w.wound(c, 1, Provs{st.Kind(c).Prov})
}

// chosen is the route the owner's answer names: auto, the location it
// ends on, or the whole path; anything else takes the referee's way.
func (w *world) chosen(c *Char, rs []route, ans string) route {
	st := w.st()
	t := strings.TrimSpace(ans)
	if t == "auto" || t == "" {
		return rs[0]
	}
	var path []string
	if err := yaml.Unmarshal([]byte(t), &path); err != nil {
		var one string
		if yaml.Unmarshal([]byte(t), &one) == nil && one != "" {
			path = nil
			t = one
		}
	}
	norm := func(s string) string {
		if l, err := locOn(st.board, s); err == nil {
			return locString(st.board, l)
		}
		return s
	}
	for _, r := range rs {
		switch {
		case path == nil && r.text[len(r.text)-1] == norm(t):
			return r
		case path != nil && slices.Equal(r.text, mapStrings(path, norm)):
			return r
		}
	}
	w.say(nil, "%s: %q is not one of its retreats (it may end on %s): it takes the referee's way (PBEM-DN-11).", c.ID, t, list(ends(rs)))
	return rs[0]
}

// routes are the ways c may retreat n hexes from the enemies in from:
// the longest it can go (AMB-10), the referee's choice first.
func (w *world) routes(c *Char, n int, from []*Char) []route {
	st := w.st()
	var foes []*Char
	for _, e := range from {
		if e != nil && e.Alive() {
			foes = append(foes, e)
		}
	}
	dist := func(locs []hex.Loc, e *Char) int {
		d := 1 << 30
		for _, l := range locs {
			for _, el := range st.Locs(e) {
				d = min(d, st.Distance(el, l))
			}
		}
		return d
	}
	start := st.loc(c)
	var out []route
	var walk func(cur hex.Loc, curLocs []hex.Loc, path []hex.Loc)
	walk = func(cur hex.Loc, curLocs []hex.Loc, path []hex.Loc) {
		if len(path) > 0 && w.freeFor(c, curLocs) {
			r := route{locs: path, near: 1 << 30}
			for _, l := range path {
				r.text = append(r.text, locString(st.board, l))
			}
			for _, e := range foes {
				d := dist(curLocs, e)
				r.near, r.sum = min(r.near, d), r.sum+d
			}
			out = append(out, r)
		}
		if len(path) == n {
			return
		}
		for _, next := range st.board.Exits(cur) {
			if next == start || slices.Contains(path, next) || !st.Touch(cur, next) {
				continue
			}
			locs, ok := w.coverAt(c, next)
			if !ok || w.enemyOn(c, locs) {
				continue
			}
			farther := true
			for _, e := range foes {
				farther = farther && dist(locs, e) > dist(curLocs, e)
			}
			if farther {
				walk(next, locs, append(slices.Clone(path), next))
			}
		}
	}
	walk(start, st.Locs(c), nil)
	longest := 0
	for _, r := range out {
		longest = max(longest, len(r.locs))
	}
	out = slices.DeleteFunc(out, func(r route) bool { return len(r.locs) < longest })
	slices.SortStableFunc(out, func(a, b route) int {
		switch {
		case a.near != b.near:
			return b.near - a.near
		case a.sum != b.sum:
			return b.sum - a.sum
		}
		return strings.Compare(strings.Join(a.text, " "), strings.Join(b.text, " "))
	})
	return out
}

// coverAt is where c would stand with its anchor at l, facing as it
// does, and whether it may stand there: every hex on the map and one it
// may enter (DN-MOVE-5).
func (w *world) coverAt(c *Char, l hex.Loc) ([]hex.Loc, bool) {
	st := w.st()
	k := st.mover(c) // a rider by its steed's ways (move_rider.go)
	if k.Shape == hex.Single.Name {
		return []hex.Loc{l}, st.CanEnter(k, l)
	}
	fp, err := footprintOf(st.board, k, l.Hex, c.Facing)
	if err != nil {
		return nil, false
	}
	var out []hex.Loc
	for _, h := range fp.Hexes() {
		if !st.board.OnMap(h) {
			return nil, false
		}
		hl := st.board.FloorLoc(h)
		if h == l.Hex {
			hl = l
		}
		if !st.CanEnter(k, hl) {
			return nil, false
		}
		out = append(out, hl)
	}
	return out, true
}

// enemyOn reports whether an enemy of c on its feet stands on one of
// locs (DN-MOVE-4: a stunned one may be passed).
func (w *world) enemyOn(c *Char, locs []hex.Loc) bool {
	for _, l := range locs {
		for _, o := range w.st().At(l) {
			if o != c && o.Standing() && Enemy(o.Side, c.Side) {
				return true
			}
		}
	}
	return false
}

// freeFor reports whether no living character but c covers any of locs
// (DN-STACK-2).
func (w *world) freeFor(c *Char, locs []hex.Loc) bool {
	for _, l := range locs {
		if w.occupied(c, l) {
			return false
		}
	}
	return true
}

// ends lists the distinct locations routes end on, in order.
func ends(rs []route) []string {
	var out []string
	for _, r := range rs {
		if e := r.text[len(r.text)-1]; !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	return out
}

func idsOf(cs []*Char) []string {
	out := make([]string, 0, len(cs))
	for _, c := range cs {
		if c != nil {
			out = append(out, c.ID)
		}
	}
	return out
}

func mapStrings(in []string, f func(string) string) []string {
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = f(s)
	}
	return out
}
