package dragonnoir

import (
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// Chapter: results (A.9.6, DN-RES-1 … 5): a character stunned, wounded,
// killed or retreating, after the special rules' conversions (special.go);
// retreats (AMB-9, AMB-10) and the vacated locations an advance after
// combat may enter (DN-ADV-2).
//
// First implementation: the retreat path is the referee's (PBEM-DN-11's
// default): each step to a location that touches, that the character may
// enter, free of living characters at the end, and farther from every
// enemy it fought; blocked, it stops (AMB-10). Left to its helper: the
// owner's choice of path as a pause (key retreat), retreats of counters of
// several hexes beyond a plain shift.

// hurt applies result what (n hexes for a retreat) to c, caused by the
// characters in by; used are the provenances of the table it came from.
// It reports whether c left its location (retreated or died), for an
// advance after combat.
func (w *world) hurt(c *Char, what string, n int, by []*Char, used Provs, _ bool) bool {
	st := w.st()
	if !c.Alive() {
		return false
	}
	if what == Wounded && w.mixedKillers(by) && !w.killerSplit(by) {
		by = slices.DeleteFunc(slices.Clone(by), func(b *Char) bool { return st.Kind(b).Has(TagKiller) })
	}
	cv := w.convert(c, what, by)
	if what == Retreat {
		cv.N = n
	}
	k := st.Kind(c)
	if cv.Why != "" {
		w.say(Provs{k.Prov}, "%s: %s.", c.ID, cv.Why)
	}
	switch cv.What {
	case "":
		return false
	case "berserk":
		w.emit(&Conditioned{Unit: c.ID, Face: Healthy, Wounds: c.Wounds, Berserk: true})
		return false
	case Stunned:
		w.emit(&Conditioned{Unit: c.ID, Face: Stunned, Wounds: c.Wounds, Berserk: c.Berserk, StunnedIn: st.Turn})
		w.say(used, "%s is stunned.", c.ID)
		return false
	case Retreat:
		return w.retreat(c, cv.N, by)
	case Wounded:
		wounds := c.Wounds + cv.N
		if c.Berserk || wounds >= k.Wounds {
			w.kill(c, used)
			return true
		}
		face := Wounded
		if c.Face == Stunned {
			face = Stunned
		}
		w.emit(&Conditioned{Unit: c.ID, Face: face, Wounds: wounds, Berserk: c.Berserk, StunnedIn: c.StunnedIn})
		w.say(used, "%s is wounded (%d of %d wounds).", c.ID, wounds, k.Wounds)
		w.woundedMagician(c)
		return false
	}
	w.kill(c, used)
	return true
}

func (w *world) kill(c *Char, used Provs) {
	w.emit(&Conditioned{Unit: c.ID, Face: Killed, Wounds: c.Wounds})
	w.say(used, "%s is killed.", c.ID)
}

// mixedKillers reports whether Killers and other Krobs strike together
// (DN-KROB-6).
func (w *world) mixedKillers(by []*Char) bool {
	st := w.st()
	k := slices.ContainsFunc(by, func(b *Char) bool { return st.Kind(b).Has(TagKiller) })
	o := slices.ContainsFunc(by, func(b *Char) bool { return !st.Kind(b).Has(TagKiller) })
	return k && o
}

// retreat moves c n hexes away from the enemies in from (AMB-9, AMB-10).
// It reports whether c left its location.
func (w *world) retreat(c *Char, n int, from []*Char) bool {
	st := w.st()
	start := c.At
	path := []string{c.At}
	cur := st.loc(c)
	for range n {
		next, ok := w.retreatStep(c, cur, from)
		if !ok {
			break
		}
		cur = next
		path = append(path, locString(st.board, cur))
	}
	if len(path) == 1 {
		w.say(nil, "%s cannot retreat from %s: it stays (AMB-10).", c.ID, start)
		return false
	}
	w.emit(&Moved{Unit: c.ID, Path: path, Kind: "retreat"})
	w.say(nil, "%s retreats from %s to %s.", c.ID, start, c.At)
	return true
}

// retreatStep is the best next location of a retreat from cur: farther
// from every enemy in from, enterable, free of living characters, the
// farthest first, then the lowest location.
func (w *world) retreatStep(c *Char, cur hex.Loc, from []*Char) (hex.Loc, bool) {
	st := w.st()
	k := st.Kind(c)
	dist := func(l hex.Loc) int {
		d := 1 << 30
		for _, e := range from {
			for _, el := range st.Locs(e) {
				d = min(d, st.Distance(el, l))
			}
		}
		return d
	}
	here := dist(cur)
	var best hex.Loc
	found := false
	for _, l := range st.board.Exits(cur) {
		if !st.Touch(cur, l) || !st.CanEnter(k, l) || dist(l) <= here || w.occupied(c, l) {
			continue
		}
		if !found || dist(l) > dist(best) {
			best, found = l, true
		}
	}
	return best, found
}

// occupied reports whether a living character other than c covers l.
func (w *world) occupied(c *Char, l hex.Loc) bool {
	for _, o := range w.st().At(l) {
		if o != c && o.Alive() {
			return true
		}
	}
	return false
}

// woundedMagician halves a wounded magician's PE (DN-MAGIC-6).
func (w *world) woundedMagician(c *Char) {
	if c.PE > 0 {
		pe := c.PE / 2
		w.emit(&Energy{Unit: c.ID, PE: pe})
		w.tell(toOwner(c), nil, "%s's energy is halved by the wound: %d PE left (DN-MAGIC-6).", c.ID, pe)
	}
}
