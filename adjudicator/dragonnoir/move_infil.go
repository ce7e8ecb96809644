package dragonnoir

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// Infiltration of enemy lines (A.7.4) and jumps (DN-MOVE-13): the rolls
// a move makes.

// infiltrate rolls for c leaving its location, which the move made it
// enter, next to enemies in position to attack it (DN-INFIL-1 … 4,
// AMB-28, ROLL-4): once for each such enemy (DN-INFIL-2), in ID order,
// until one leaves it off its feet. It reports whether the move ends here:
// any result but "-" ends it (infiltration.yaml says what each does).
func (w *world) infiltrate(c *Char) bool {
	return w.infiltrateExcept(c, nil, "slipping past", "DN-INFIL-1")
}

// infiltrateExcept is infiltrate without the enemies skip names: the
// advance after combat rolls only for enemies not engaged in a combat
// (DN-ADV-6). doing and rules word the report ("slipping past",
// "DN-INFIL-1").
func (w *world) infiltrateExcept(c *Char, skip func(*Char) bool, doing, rules string) bool {
	st := w.st()
	ended := false
	for _, e := range w.infiltratorsOf(c, skip) {
		if !c.Standing() {
			break
		}
		r := w.d10(fmt.Sprintf("infiltration of %s past %s on %s", c.ID, e.ID, c.At))
		res, prov := st.data.Infiltration(st.Kind(e), r.Total)
		used := Provs{prov}
		switch res {
		case "-":
			outcome(r, used, "no effect")
			continue
		case "stop":
			outcome(r, used, "stopped")
			w.say(used, "%s is stopped on %s by %s (%s).", c.ID, c.At, e.ID, rules)
			ended = true
			continue
		}
		es, _ := parseEffects(res)
		outcome(r, used, "%s", effectWords(es))
		w.say(used, "%s, %s %s on %s: %s (%s).", c.ID, doing, e.ID, c.At, effectWords(es), rules)
		for _, ef := range es {
			w.hurt(c, ef.What, ef.N, []*Char{e}, used, false)
		}
		ended = true
	}
	return ended
}

// infiltrators are the enemies that make c roll for crossing l: in
// position to attack it (geo.go InPosition: adjacent, on their feet, no
// wall, a level they fight on, AMB-36), unless c ignores infiltration or
// they cause none (DN-INFIL-4: dogs, DN-SPEC-9; Baby Hunters, DN-KROB-12).
func (w *world) infiltrators(c *Char, l hex.Loc) []*Char {
	st := w.st()
	if st.Kind(c).Has(TagIgnoresInfil) {
		return nil
	}
	var out []*Char
	for _, e := range st.Threats(string(c.Side), l) {
		if !st.Kind(e).Has(TagCausesNoInfil) && st.bigEnough(c, e) && st.bigEnough(e, c) {
			out = append(out, e)
		}
	}
	return out
}

// bigEnough reports whether b is big enough for a to reckon with in an
// infiltration: a kind with an infiltration-size rolls only past, and
// makes only roll, creatures covering at least that many hexes (an Ent:
// three, DN3-PEOPLE-ENT-17, -18).
func (s *State) bigEnough(a, b *Char) bool {
	n := s.Kind(a).InfilSize
	if n == 0 {
		return true
	}
	sh, _ := hex.ParseShape(s.Kind(b).Shape)
	return sh.Size() >= n
}

// infiltratorsOf are the infiltrators of every location c covers now
// (the Queen and her Guards cover several), each once, in ID order,
// without those skip names.
func (w *world) infiltratorsOf(c *Char, skip func(*Char) bool) []*Char {
	st := w.st()
	var out []*Char
	for _, l := range st.Locs(c) {
		for _, e := range w.infiltrators(c, l) {
			if !slices.Contains(out, e) && (skip == nil || !skip(e)) {
				out = append(out, e)
			}
		}
	}
	slices.SortFunc(out, func(a, b *Char) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// jump rolls on the Jump table for c, who has just jumped down a level
// (DN-MOVE-13, ROLL-5). It reports whether the move ends: any result but
// "-" ends it.
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
