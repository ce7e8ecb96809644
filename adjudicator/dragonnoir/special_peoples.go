package dragonnoir

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// Chapter: the valley's peoples (La Conquête, B.12, H.1): what the
// peoples' counters change in a battle, each asked by a hook of the
// chapter whose procedure it changes, by the counters' tags and fields
// (counters.yaml), never by a people's name:
//
//	peoplesConvert   special.go convert: Kandärs bound to their Officer
//	                 ignore melee retreats and may take a wound for a fire
//	                 retreat (DN3-PEOPLE-KANDAR-1 … 7, PBEM-DN3-20); a
//	                 fanatic ignores stunned and retreats (GAP-28); a
//	                 killed rider in the saddle is "horse killed"
//	                 (move_rider.go); a unicorn shot stunned retreats 2
//	                 (DN3-PEOPLE-UNIC-5)
//	masterHurt       results.go: a druid's animal turns fanatic when its
//	                 druid is hurt (DN3-PEOPLE-DRUID-5)
//	end              turn.go: at a battle's end, animals whose master was
//	                 killed go back to the wild (DN3-PEOPLE-DRUID-6, -GOB-9)
//	leashed          move_step.go: a wolf or hyena keeps within 5 hexes of
//	                 its master (DN3-PEOPLE-GOB-5)
//	bridgeCost,      move_step.go, tables.go: a Goblin from water to a
//	swimCost         bridge (AMB-65), swimming under Magna Carta (DN3-MC-7)
//	(favourable)     counters.yaml: trees and brush for unicorns, water and
//	                 marsh for Reptilians (DN3-PEOPLE-UNIC-7, -REPT-3)
//	poisonProof      special_kill.go: unicorns and their riders (DN3-PEOPLE-UNIC-11)
//	peoplesMayLeave  the battle's leave: orders: a druid and its animal
//	                 leave together (DN3-PEOPLE-DRUID-4), no Kandär while
//	                 the Officer is on the map (DN3-CAMP-KANDAR-7)
//
// The combat's shifts are in combat_peoples.go, the mail's techniques and
// standing orders in orders_peoples.go.

// fanaticProv is what umpire assumes a fanatic does (GAP-28: the
// Fanaticism rule is Magna Carta's, in no source).
var fanaticProv = Prov{Assumed: true, Clues: []string{
	"GAP-28: Fanatic is never defined; Magna Carta's Fanaticism rule is in no source (GAP-16)",
	"DN3-PEOPLE-DRUID-5: the fanatic animal seeks combat at every opportunity",
	"DN-SPEC-2: a berserk Crazy Ork, the nearest rule of the text, ignores stunned and retreat results",
}}

// masterOf is the counter c's counter answers to (counters.yaml masters:
// a druid's animal, a Goblin's wolf), "" for none.
func (s *State) masterOf(c *Char) string {
	k := s.Kind(c)
	if len(k.Masters) == 0 {
		return ""
	}
	if i := slices.Index(k.counterNames(), c.ID); i >= 0 && i < len(k.Masters) {
		return k.Masters[i]
	}
	return ""
}

// onMap reports whether c is in the battle: on the map, or under its rider.
func (s *State) onMap(c *Char) bool {
	if c.RiddenBy != "" {
		return true
	}
	return c.Alive()
}

// bound reports whether c is a Kandär whose bond holds: a Kandär Officer
// is alive on the map (DN3-PEOPLE-KANDAR-1, -6; AMB-95: the Sergeant is
// none).
func (s *State) bound(c *Char) bool {
	if !s.Kind(c).Has(TagKandar) {
		return false
	}
	for _, o := range s.Sorted() {
		if s.Kind(o).Has(TagKandarOfficer) && s.onMap(o) {
			return true
		}
	}
	return false
}

// HasNow reports whether c carries tag now: a Kandär's fearless and
// charm-immune only while its bond holds (DN3-PEOPLE-KANDAR-3, -6). The
// magic chapter asks it of the spells of fear, terror and charm
// (spell_lists.go immunityHolds).
func (s *State) HasNow(c *Char, tag string) bool {
	k := s.Kind(c)
	if !k.Has(tag) {
		return false
	}
	if k.Has(TagKandar) && (tag == TagFearless || tag == TagCharmImmune) {
		return s.bound(c)
	}
	return true
}

// Kandär fire choices (PBEM-DN3-20), the standing answer kandar-fire.
const (
	kandarRetreat = "retreat"              // accept the retreat (the default)
	kandarWound   = "wound"                // take a wound instead
	kandarUnhurt  = "wound-unless-wounded" // a wound instead, unless already wounded
)

// peoplesConvert is what the valley's peoples change in a result before
// convert's own rules (special.go); ok false when nothing does.
func (w *world) peoplesConvert(c *Char, k *Kind, what string, melee bool) (conversion, bool) {
	st := w.st()
	retreat := what == Retreat || what == Stunned && k.StunnedRetreat > 0 && !c.Fanatic
	stunnedWhy := ""
	if what == Stunned && retreat {
		stunnedWhy = fmt.Sprintf("never stunned, it would retreat %d instead (%s)", k.StunnedRetreat, k.cite("stunned", "AMB-9"))
	}
	switch {
	case c.Fanatic && (what == Retreat || what == Stunned):
		return conversion{Why: fmt.Sprintf("a fanatic ignores %s results (GAP-28, assumed)", what)}, true
	case retreat && melee && st.bound(c):
		return conversion{Why: whyOf(stunnedWhy, "bound to its Officer on the map, a Kandär ignores retreats in melee (DN3-PEOPLE-KANDAR-4)")}, true
	case retreat && w.shot && st.bound(c):
		n := k.StunnedRetreat
		if what == Retreat {
			n = 0 // hurt gives the result's own
		}
		// The standing answer is its side's secret (HID-7): the line
		// tells what the Kandär does, never the answer's words.
		choice, _ := st.Pause.Lookup(c.Side, KeyKandarFire)
		if choice == kandarWound || choice == kandarUnhurt && c.Wounds == 0 {
			return conversion{What: Wounded, N: 1, Why: whyOf(stunnedWhy,
				"bound to its Officer, it takes a wound instead of the retreat (DN3-PEOPLE-KANDAR-5, PBEM-DN3-20)")}, true
		}
		return conversion{What: Retreat, N: n, Why: whyOf(stunnedWhy,
			"bound to its Officer, it could take a wound instead, and retreats (DN3-PEOPLE-KANDAR-5, PBEM-DN3-20)")}, true
	case what == Killed && c.Mount != "":
		return conversion{What: "horse-killed"}, true
	case what == Stunned && w.shot && k.FireStunnedRetreat > 0:
		return conversion{What: Retreat, N: k.FireStunnedRetreat,
			Why: fmt.Sprintf("a %s is never stunned: shot, it retreats %d instead (%s)", k.Title, k.FireStunnedRetreat, k.cite("stunned", "AMB-9"))}, true
	}
	return conversion{}, false
}

// whyOf joins the reasons given, "; " between.
func whyOf(parts ...string) string {
	return strings.Join(slices.DeleteFunc(parts, func(s string) bool { return s == "" }), "; ")
}

// masterHurt turns fanatic, to the end of the battle, every animal whose
// master c was just wounded or killed (DN3-PEOPLE-DRUID-5).
func (w *world) masterHurt(c *Char, how string) {
	st := w.st()
	for _, a := range st.Sorted() {
		k := st.Kind(a)
		if !k.Has(TagFanaticMaster) || a.Fanatic || st.masterOf(a) != c.ID || !st.onMap(a) || a.Face == Killed {
			continue
		}
		w.emit(&Fanaticised{Unit: a.ID})
		w.say(Provs{fanaticProv}, "%s turns fanatic: its master %s is %s (%s). To the end of the battle it ignores stunned and retreat results and attacks whenever it can (GAP-28).",
			a.ID, c.ID, how, k.cite("fanatic", "DN3-PEOPLE-DRUID-5"))
	}
}

// end ends the game (Ended): first, at a battle's end, every animal whose
// master was killed leaves the game, back to the wild (DN3-PEOPLE-DRUID-6,
// -GOB-9). Every end of a game goes through it.
func (w *world) end(e *Ended) {
	st := w.st()
	for _, a := range st.Sorted() {
		k := st.Kind(a)
		m := st.Chars[st.masterOf(a)]
		if !k.Has(TagLeavesMaster) || a.Departed || a.Face == Killed || m == nil || m.Face != Killed {
			continue
		}
		w.emit(&Departed{Unit: a.ID})
		w.say(nil, "%s goes back to the wild: its master %s was killed (%s).", a.ID, m.ID, k.cite("leaves", "DN3-PEOPLE-GOB-9"))
	}
	w.emit(e)
}

// leashed says why c may not step from cur to l of its own accord, "" when
// it may: an animal with a leash goes no farther from its master than
// that, unless it comes no farther than it is (it may have been driven
// off by a retreat; DN3-PEOPLE-GOB-5). With its master gone, it is free.
func (w *world) leashed(c *Char, cur, l hex.Loc) string {
	st := w.st()
	k := st.Kind(c)
	if k.Leash == 0 || c.Mount != "" {
		return ""
	}
	m := st.Chars[st.masterOf(c)]
	if m == nil || !m.Alive() {
		return ""
	}
	ml := st.loc(m)
	if d := st.Distance(ml, l); d > k.Leash && d > st.Distance(ml, cur) {
		return fmt.Sprintf("%s is %d hexes from its master %s: of its own accord it goes no farther than %d (DN3-PEOPLE-GOB-5)", locString(st.board, l), d, m.ID, k.Leash)
	}
	return ""
}

// bridgeCost is what a character that passes from water to a bridge or
// pontoon pays in a battle of La Conquête (AMB-65): 2 MP (DN3-PEOPLE-GOB-2);
// in L'Épreuve the bridge's own cost (DN-SPEC-8: freely).
func (s *State) bridgeCost(k *Kind, from, to *Terrain, cost int, p Prov) (int, Prov) {
	if !s.valley() || !from.Has(TerrWater) || !slices.Contains(to.NotFrom, TerrWater) || !slices.ContainsFunc(to.NotFromExcept, k.Has) {
		return cost, p
	}
	return 2, Prov{Rule: "DN3-PEOPLE-GOB-2"}
}

// swimCost is a water hex's cost to a Reptilian under Magna Carta's
// swimming rule (DN3-MC-7, AMB-64): 2 MP unarmoured, 4 armoured; false
// in any other game, terrain or character (the Goblins' 2 MP are the
// water row's swimmer cost).
func (s *State) swimCost(k *Kind, t *Terrain) (int, Prov, bool) {
	if s.Options.Edition != "magna-carta" || !t.Has(TerrWater) || !k.Has(TagReptilian) {
		return 0, Prov{}, false
	}
	if k.Armoured {
		return 4, Prov{Rule: "DN3-MC-7"}, true
	}
	return 2, Prov{Rule: "DN3-MC-7"}, true
}

// poisonProof reports whether c is immune to Zed's curare and every
// poison: a Krob (DN-KROB-15), a unicorn, and whoever rides a unicorn
// (DN3-PEOPLE-UNIC-11).
func (s *State) poisonProof(c *Char) bool {
	k := s.Kind(c)
	if k.Has(TagCurareImmune) || k.Has(TagPoisonImmune) {
		return true
	}
	m := s.steedOf(c)
	return m != nil && s.Kind(m).Has(TagPoisonImmune)
}

// peoplesMayLeave says why c may not leave the map now, "" when it may;
// leaving are the others of its side whose orders of the same mail (the
// same Movement phase) take them off the map: a druid and its animal
// leave together (DN3-PEOPLE-DRUID-4); no Kandär leaves while a Kandär
// Officer is on the map, unless he leaves too in the same mail
// (DN3-CAMP-KANDAR-7). The battle's mail check asks it
// (checkPeoplesLeave).
func (s *State) peoplesMayLeave(c *Char, leaving []string) string {
	k := s.Kind(c)
	if k.Has(TagKandar) && !k.Has(TagKandarOfficer) {
		for _, o := range s.Sorted() {
			if s.Kind(o).Has(TagKandarOfficer) && s.onMap(o) && !slices.Contains(leaving, o.ID) {
				return fmt.Sprintf("no Kandär leaves the map while %s, their Officer, is on it (DN3-CAMP-KANDAR-7)", o.ID)
			}
		}
	}
	for _, o := range s.Sorted() {
		ok := s.Kind(o)
		pair := ok.Has(TagWithMaster) && s.masterOf(o) == c.ID || k.Has(TagWithMaster) && s.masterOf(c) == o.ID
		if pair && s.onMap(o) && o.Face != Killed && !slices.Contains(leaving, o.ID) {
			return fmt.Sprintf("%s and %s leave the map in the same Movement phase or not at all (DN3-PEOPLE-DRUID-4)", c.ID, o.ID)
		}
	}
	return ""
}

// fanaticAttacks adds to the attacks of side's mail, once, as its combat
// step begins, an attack by each fanatic of the side that the mail does
// not send into a combat and that is in position to attack an enemy: alone,
// at the enemy with the lowest defence, then the first by ID
// (DN3-PEOPLE-DRUID-5: it seeks combat at every opportunity; GAP-28).
func (w *world) fanaticAttacks(p *program) {
	st := w.st()
	if p.Fanatics || p.Index != 0 || p.Work != nil {
		return
	}
	for _, c := range st.Living(p.Side) {
		if !c.Fanatic || !c.Standing() || st.Is(flagAttacked, c.ID) ||
			slices.ContainsFunc(p.Orders.Attacks, func(a AttackOrder) bool { return slices.Contains(a.Attackers, c.ID) }) {
			continue
		}
		var best *Char
		bestDef := 0
		for _, e := range st.Living("") {
			if !Enemy(c.Side, e.Side) || !st.CanAttack(c, e) {
				continue
			}
			if f, _ := st.Values(e); best == nil || f.Defence < bestDef {
				best, bestDef = e, f.Defence
			}
		}
		if best == nil {
			continue
		}
		p.Fanatics = true
		p.Orders.Attacks = append(p.Orders.Attacks, AttackOrder{Attackers: []string{c.ID}, Defenders: []string{best.ID}})
		w.say(Provs{fanaticProv}, "%s, fanatic, attacks %s, the weakest enemy it can reach (%s, GAP-28).", c.ID, best.ID, st.Kind(c).cite("fanatic", "DN3-PEOPLE-DRUID-5"))
	}
}

// checkPeoplesLeave refuses the leave: orders of a battle's mail that the
// peoples' rules forbid (peoplesMayLeave), with the other leavers of the
// mail.
func checkPeoplesLeave(st *State, o *Orders, bad func(int, string, string, ...any)) {
	var leaving []string
	for _, m := range o.Moves {
		if m.Leave != "" {
			leaving = append(leaving, m.Unit)
		}
	}
	for _, m := range o.Moves {
		if c := st.Chars[m.Unit]; m.Leave != "" && c != nil {
			if why := st.peoplesMayLeave(c, leaving); why != "" {
				bad(m.Line, codeMayNotLeave, "move %s: %s", m.Unit, why)
			}
		}
	}
}
