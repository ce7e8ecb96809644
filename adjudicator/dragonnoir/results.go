package dragonnoir

import (
	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// Chapter: results (A.9.6, DN-RES-1 … 5): a character stunned, wounded,
// killed or retreating, after the special rules' conversions (special.go);
// retreats (retreat.go) and the locations an advance after combat may
// enter first (DN-ADV-2).

// hurt applies result what (n hexes for a retreat) to c, caused by the
// characters in by; used are the provenances of the table it came from;
// melee says it is the result of a combat (A.9), where alone the Killers'
// wounds and Zed's curare kill (special.go convert). It reports whether c
// left its location (retreated or died), for an advance after combat.
// Inside a combat (w.fight) a retreat may pause to ask its owner the
// path (PBEM-DN-11): the caller checks w.fight.paused.
func (w *world) hurt(c *Char, what string, n int, by []*Char, used Provs, melee bool) bool {
	st := w.st()
	if !c.Alive() {
		return false
	}
	cv := w.convert(c, what, by, melee) // special.go
	if what == Retreat && cv.What == Retreat {
		cv.N = n
	}
	k := st.Kind(c)
	if cv.Why != "" {
		w.say(append(Provs{k.Prov}, cv.Used...), "%s: %s.", c.ID, cv.Why)
	}
	switch cv.What {
	case "":
		return false
	case "fall": // DN3: a character carried, stunned at the Ent's foot (special_ent.go)
		w.fall(c, by)
		return true
	case "berserk":
		w.emit(&Conditioned{Unit: c.ID, Face: Healthy, Wounds: c.Wounds, Berserk: true})
		return false
	case Stunned:
		// DN-RES-2: flipped to its stunned face; it gets up in step 4 of
		// the next Adventurer player-turn (AMB-13).
		w.emit(&Conditioned{Unit: c.ID, Face: Stunned, Wounds: c.Wounds, Berserk: c.Berserk, StunnedIn: st.Turn})
		w.say(used, "%s is stunned.", c.ID)
		return false
	case Retreat:
		return w.retreat(c, cv.N, by)
	case Wounded:
		return w.wound(c, cv.N, used)
	case "horse-killed": // a rider in the saddle (move_rider.go)
		return w.unhorse(c, by, used)
	}
	w.kill(c, used)
	return true
}

// wound gives c n wounds (DN-RES-3): its wounded face, or death at the
// wound its counter dies of (DN-RES-5; AMB-11: the second for everyone
// the text says nothing of, counters.yaml wounds). It reports whether c
// died.
func (w *world) wound(c *Char, n int, used Provs) bool {
	k := w.st().Kind(c)
	wounds := c.Wounds + n
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
	w.masterHurt(c, "wounded") // chapter: the valley's peoples (DN3-PEOPLE-DRUID-5)
	return false
}

// kill flips c to its killed face (DN-RES-4): it blocks neither movement
// nor lines of fire, and no longer counts for stacking.
func (w *world) kill(c *Char, used Provs) {
	w.emit(&Conditioned{Unit: c.ID, Face: Killed, Wounds: c.Wounds})
	w.say(used, "%s is killed.", c.ID)
	w.unload(c)               // DN3: an Ent's passengers, a passenger's Ent (special_ent.go)
	w.riderDown(c)            // chapter: the valley's peoples (move_rider.go)
	w.masterHurt(c, "killed") // DN3-PEOPLE-DRUID-5
}

// left lists, as players write them, the locations of before that c no
// longer covers: all of them when it is killed, or stunned (DN-ADV-2: "the
// hex of the stunned or killed character").
func (w *world) left(c *Char, before []hex.Loc) []string {
	st := w.st()
	var out []string
	for _, l := range before {
		if (!c.Standing() || !st.Covers(c, l)) && !w.occupied(c, l) { // occupied: DN3, the Ent a character carried fell from
			out = append(out, locString(st.board, l))
		}
	}
	return out
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
