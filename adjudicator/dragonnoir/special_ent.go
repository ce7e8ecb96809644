package dragonnoir

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// The Ents (DN3-PEOPLE-ENT-1 … 30, B.12.4, the French text's H.1.4), in a
// DN3 battle fought by Dragon Noir's rules. An Ent is a counter of three
// hexes (the triangle: its anchor the grey rear hex, the two hexes ahead
// its front, DN3-PEOPLE-ENT-16) that moves as a rider among trees too
// (move_rider.go), each step paying the dearest of its three hexes
// (step-cost: all, move_step.go); almost everything else is data its kind
// carries (counters.yaml): two defences (rear:), stunned a retreat of one
// hex and killed a double wound (DN3-PEOPLE-ENT-6, -13), +4 to fire at it
// (-12), its favourable terrain (-7), its die bonus (combat-bonus, -3,
// AMB-62), no shift for attackers together (no-multiple-shift, -5), no
// cover in brush, talus and marsh (no-cover-in, -15), infiltration only
// with creatures of three hexes (infiltration-size, -17, -18), fire never
// driving it back (fire-no-retreat, -14), its fireball rows (-30) and its
// magic resistance (-29). This file is what needs code: its two attacks
// (-9, -10), the characters it carries (-20 … -28: move_climb.go climbs
// them on and off), the ram (-19), and the loader's checks of those
// fields.

// Keys of a kind's cites (Kind.Cites).
var citeKeys = []string{"stunned", "killed", "fire-target", "rear", "fly",
	"ride", "leaves", "fanatic", "immune"} // chapter: the valley's peoples

// checkGiants checks a kind's DN3 fields (module.go): known terrain
// kinds, step costs, tags, ten fireball results.
func (d *Data) checkGiants(c *checker, file string, line int, k *Kind) {
	at := func(format string, args ...any) {
		c.at(file, line, "kind %s: "+format, append([]any{k.ID}, args...)...)
	}
	if !slices.Contains([]string{"", "all", "centre"}, k.StepCost) {
		at("step-cost %q is all (the dearest of its hexes, DN3-PEOPLE-ENT-2) or centre (its anchor's hex, DN3-PEOPLE-DRAGON-2); leave it out for the dearest hex it newly covers", k.StepCost)
	}
	if k.StepCost != "" && k.Shape == hex.Single.Name {
		at("step-cost is for a counter of several hexes")
	}
	for field, kinds := range map[string][]string{"rider-enters": k.RiderEnters, "favourable": k.Favourable, "no-cover-in": k.NoCoverIn} {
		for _, t := range kinds {
			if d.Terrain[t] == nil {
				at("%s: %q is no terrain of terrain.yaml", field, t)
			}
		}
	}
	if len(k.RiderEnters) > 0 && !k.Has(TagRider) {
		at("rider-enters is for a rider (tag rider)")
	}
	for _, t := range k.Carries {
		if !slices.Contains(counterTags, t) {
			at("carries: %q is not a counter tag", t)
		}
	}
	if len(k.Carries) > 0 && k.Shape != hex.Triangle.Name {
		at("carries: a carrier seats its passengers on its two front hexes: give it the triangle shape (DN3-PEOPLE-ENT-20)")
	}
	for _, w := range slices.Sorted(maps.Keys(k.Cites)) {
		if !slices.Contains(citeKeys, w) {
			at("cites: %q is one of %s", w, strings.Join(citeKeys, ", "))
		}
	}
	if k.Attacks < 0 || k.ReachUp < 0 || k.InfilSize < 0 || k.MagicResistance < 0 {
		at("attacks, reach-up, infiltration-size and magic-resistance are 0 or more")
	}
	if len(k.Fireball) > 0 {
		if len(k.Fireball) != 10 {
			at("fireball: the result of each roll 1 to 10 (10 codes)")
		}
		k.fireball = nil
		for _, code := range k.Fireball {
			es, err := parseEffects(code)
			if err != nil {
				at("fireball: %v", err)
			}
			k.fireball = append(k.fireball, es)
		}
	}
}

// --- Carrying (DN3-PEOPLE-ENT-20 … 28) ---

// passengers are the characters c carries, in ID order.
func (s *State) passengers(c *Char) []*Char {
	var out []*Char
	for _, p := range s.Sorted() {
		if p.On == c.ID && c.ID != "" {
			out = append(out, p)
		}
	}
	return out
}

// seatLoc is the location of seat n (1 or 2: the front hexes) of carrier
// c standing as it does.
func (s *State) seatLoc(c *Char, n int) (hex.Loc, bool) {
	hs := s.footprint(c).Hexes()
	if n < 1 || n >= len(hs) || !s.board.OnMap(hs[n]) {
		return hex.Loc{}, false
	}
	return s.board.FloorLoc(hs[n]), true
}

// seatPassengers puts the characters c carries on their seats after c
// moved (evolve: Moved).
func (s *State) seatPassengers(c *Char) {
	if c.At == "" || s.board == nil {
		return
	}
	for _, p := range s.Chars { // each on its own seat: any order
		if p.On != c.ID {
			continue
		}
		if l, ok := s.seatLoc(c, p.Seat); ok {
			p.At = locString(s.board, l)
		}
	}
}

// seatAt seats c, set up on one of Ent id's front hexes, aboard it (a
// position's on:).
func (s *State) seatAt(c *Char, id string) error {
	e := s.Chars[id]
	switch {
	case e == nil || e.At == "":
		return fmt.Errorf("%s is not on the map (place the Ent before the characters it carries)", id)
	case len(s.Kind(e).Carries) == 0:
		return fmt.Errorf("%s carries nobody (DN3-PEOPLE-ENT-20)", id)
	case !s.mayCarry(e, c):
		return fmt.Errorf("%s carries only %s (DN3-PEOPLE-ENT-21)", id, carriesWords(s, e))
	}
	for n := 1; n <= 2; n++ {
		if l, ok := s.seatLoc(e, n); ok && locString(s.board, l) == c.At {
			for _, p := range s.passengers(e) {
				if p.Seat == n {
					return fmt.Errorf("%s already sits on %s", p.ID, c.At)
				}
			}
			c.On, c.Seat = id, n
			return nil
		}
	}
	return fmt.Errorf("%s is not one of %s's two front hexes", c.At, id)
}

// offWith takes off the map with c, taken off, the characters it carries
// (an Ent leaving the battle by an edge leaves with them; evolve: Placed).
func (s *State) offWith(c *Char) {
	if c.At != "" {
		return
	}
	for _, p := range s.Chars { // any order
		if p.On == c.ID {
			p.At, p.Left = "", c.Left
		}
	}
}

// carrier is the Ent carrying c, nil when c stands on its own feet.
func (s *State) carrier(c *Char) *Char {
	if c.On == "" || s.Chars[c.On] == nil || s.Chars[c.On].At == "" {
		return nil
	}
	return s.Chars[c.On]
}

// carriedTerrain is the terrain a character carried, or an Ent carrying,
// fights on: negative (DN3-PEOPLE-ENT-20, -25); false for anyone else.
func (s *State) carriedTerrain(c *Char) (string, Provs, bool) {
	switch {
	case c.On != "":
		return "-", Provs{{Rule: "DN3-PEOPLE-ENT-25"}}, true
	case len(s.Kind(c).Carries) > 0 && len(s.passengers(c)) > 0:
		return "-", Provs{{Rule: "DN3-PEOPLE-ENT-20"}}, true
	}
	return "", nil, false
}

// levelAbove is how far location l stands above the roots of Ent e, in
// half levels.
func (s *State) levelAbove(e *Char, l hex.Loc) hex.Level { return l.Level - s.loc(e).Level }

// highEnough reports whether l stands 1 or 2 levels above e's roots
// (DN3-PEOPLE-ENT-25: "au niveau +1 et +2 par rapport à l'Ent").
func (s *State) highEnough(e *Char, l hex.Loc) bool {
	d := s.levelAbove(e, l)
	return d >= hex.Storey && d <= 2*hex.Storey
}

// aboardReaches reports whether p, carried, is in position to attack l: a
// hex next to its seat, not the Ent's, 1 or 2 levels above the Ent's
// roots, with no wall between (DN3-PEOPLE-ENT-25).
func (s *State) aboardReaches(p *Char, l hex.Loc) bool {
	e := s.carrier(p)
	if e == nil || !e.Alive() || p.At == "" {
		return false
	}
	seat := s.loc(p)
	t := s.Terrain(l)
	return t != nil && !t.Impassable && s.board.Layout.Adjacent(seat.Hex, l.Hex) && !s.footprint(e).Covers(l.Hex) &&
		s.highEnough(e, l) && !s.walled(seat, l)
}

// reachesAboard reports whether a may attack p, carried: a character on
// its feet on a hex next to p's seat, 1 or 2 levels above the Ent's
// roots, with no wall between (DN3-PEOPLE-ENT-25); never another
// character carried.
func (s *State) reachesAboard(a, p *Char) bool {
	e := s.carrier(p)
	if e == nil || !a.Standing() || a.On != "" || p.At == "" {
		return false
	}
	seat := s.loc(p)
	for _, l := range s.Locs(a) {
		if s.board.Layout.Adjacent(seat.Hex, l.Hex) && !s.footprint(e).Covers(l.Hex) && s.highEnough(e, l) && !s.walled(seat, l) {
			return true
		}
	}
	return false
}

// ThreatsTo lists the enemies in position to attack c, in ID order: those
// in position to attack its location, or for a character carried those
// that may attack it (DN3-PEOPLE-ENT-25).
func (s *State) ThreatsTo(c *Char) []*Char {
	if c.On == "" {
		return s.Threats(string(c.Side), s.loc(c))
	}
	var out []*Char
	for _, e := range s.Living("") {
		if e.Side != c.Side && s.CanAttack(e, c) {
			out = append(out, e)
		}
	}
	return out
}

// Aboard lists the characters carried above location l, in ID order.
func (s *State) Aboard(l hex.Loc) []*Char {
	var out []*Char
	for _, c := range s.Sorted() {
		if c.On != "" && c.At != "" && s.Covers(c, l) {
			out = append(out, c)
		}
	}
	return out
}

// fall is a result that would drive back or stun a character carried:
// it is stunned at the foot of the Ent, which breaks its fall
// (DN3-PEOPLE-ENT-28), on a free hex next to its seat and to the Ent, at
// the Ent's level, the farthest from the enemies in by, then the first;
// with none free it stays aboard, stunned.
func (w *world) fall(c *Char, by []*Char) {
	st := w.st()
	e := st.carrier(c)
	seat := st.loc(c)
	var foot []hex.Loc
	if e != nil {
		for _, ct := range st.footprint(e).Around() {
			if !st.board.OnMap(ct.Hex) || !st.board.Layout.Adjacent(seat.Hex, ct.Hex) {
				continue
			}
			l := st.board.FloorLoc(ct.Hex)
			if l.Level != st.loc(e).Level || !st.CanEnter(st.Kind(c), l) || w.occupied(c, l) || w.enemyOn(c, []hex.Loc{l}) || st.walled(seat, l) {
				continue
			}
			foot = append(foot, l)
		}
	}
	far := func(l hex.Loc) int {
		d := 1 << 30
		for _, b := range by {
			if b != nil && b.Alive() {
				for _, bl := range st.Locs(b) {
					d = min(d, st.Distance(bl, l))
				}
			}
		}
		return d
	}
	slices.SortStableFunc(foot, func(a, b hex.Loc) int { return far(b) - far(a) })
	if len(foot) == 0 {
		w.emit(&Conditioned{Unit: c.ID, Face: Stunned, Wounds: c.Wounds, StunnedIn: st.Turn})
		w.say(Provs{{Rule: "DN3-PEOPLE-ENT-28"}}, "%s would fall at the foot of %s, but no hex there is free: it stays aboard, stunned (DN3-PEOPLE-ENT-28).", c.ID, c.On)
		return
	}
	to := locString(st.board, foot[0])
	w.emit(&Carried{Unit: c.ID, Carrier: c.On, At: to})
	w.emit(&Conditioned{Unit: c.ID, Face: Stunned, Wounds: c.Wounds, StunnedIn: st.Turn})
	w.say(nil, "%s falls at the foot of %s on %s, stunned: the Ent breaks its fall (DN3-PEOPLE-ENT-28).", c.ID, e.ID, to)
}

// unload takes the characters a dead Ent carried down where they sit,
// stunned by the fall (DN3-PEOPLE-ENT-28 read for a falling Ent), and a
// dead character off its Ent.
func (w *world) unload(c *Char) {
	st := w.st()
	if c.On != "" {
		w.emit(&Carried{Unit: c.ID, Carrier: c.On, At: c.At})
		return
	}
	for _, p := range st.passengers(c) {
		w.emit(&Carried{Unit: p.ID, Carrier: c.ID, At: p.At})
		if p.Alive() {
			w.emit(&Conditioned{Unit: p.ID, Face: Stunned, Wounds: p.Wounds, StunnedIn: st.Turn})
			w.say(nil, "%s falls from the dead %s onto %s, stunned (DN3-PEOPLE-ENT-28, assumed for a falling Ent).", p.ID, c.ID, p.At)
		}
	}
}

// --- The Ent's attacks (DN3-PEOPLE-ENT-9, -10, -20, -26) ---

// flagSteady is the flag of a game turn on an Ent a character carried
// has fired from: it neither moves nor fights this turn
// (DN3-PEOPLE-ENT-26).
const flagSteady = "steadied"

// attacksLeft is how many attacks a may still make this turn: its kind's
// (one for most), less one a character it carries (DN3-PEOPLE-ENT-20), less
// those it made.
func (s *State) attacksLeft(a *Char) int {
	k := s.Kind(a)
	n := max(k.Attacks, 1) - len(s.passengers(a))
	if s.Is(flagAttacked, a.ID) {
		n--
	}
	if s.Is(flagAttackedTwice, a.ID) {
		n--
	}
	return n
}

// entAttack checks what an Ent changes in an attack (combat.go declare):
// its attacks left, mode both (its two attacks combined on one enemy), a
// second attack on another enemy, an Ent a passenger fired from; and
// that a character carried attacks only from the Ent.
func (w *world) entAttack(cw *combatWork, o *AttackOrder) string {
	st := w.st()
	var ents []*Char
	for _, id := range cw.Attackers {
		if a := st.Chars[id]; st.Kind(a).Attacks > 1 {
			ents = append(ents, a)
		}
	}
	if o.Mode == "both" && len(ents) == 0 {
		return "mode: both combines an Ent's two attacks on one enemy (DN3-PEOPLE-ENT-9), and no Ent attacks here"
	}
	for _, e := range ents {
		k := st.Kind(e)
		left := st.attacksLeft(e)
		carried := len(st.passengers(e))
		switch {
		case st.Is(flagSteady, e.ID):
			return fmt.Sprintf("%s carries a character who fired from it this turn: it does not fight (DN3-PEOPLE-ENT-26)", e.ID)
		case left <= 0:
			return fmt.Sprintf("%s has no attack left this turn: %d attacks, %d taken by the characters it carries, the rest made (DN3-PEOPLE-ENT-9, DN3-PEOPLE-ENT-20)", e.ID, k.Attacks, carried)
		case o.Mode == "both" && left < k.Attacks:
			return fmt.Sprintf("%s combines both its attacks only with both left: it has %d (DN3-PEOPLE-ENT-9, DN3-PEOPLE-ENT-20)", e.ID, left)
		case o.Mode == "both" && len(cw.Defenders) != 1:
			return fmt.Sprintf("%s combines its two attacks on a single enemy, not %s (DN3-PEOPLE-ENT-9)", e.ID, list(cw.Defenders))
		}
		if st.Is(flagAttacked, e.ID) {
			for _, d := range cw.Defenders {
				if st.Is(flagTargets(e.ID), d) {
					return fmt.Sprintf("%s has attacked %s this turn: its second attack is on another enemy; to strike one enemy twice, combine them (mode: both, DN3-PEOPLE-ENT-9)", e.ID, d)
				}
			}
		}
	}
	return ""
}

// doubled reports whether a's attack counts twice in o: an Ent combining
// its two attacks (DN3-PEOPLE-ENT-9).
func (s *State) doubled(a *Char, o *AttackOrder) bool {
	return o.Mode == "both" && s.Kind(a).Attacks > 1
}

// entDeclared records an Ent's attack once made: the enemies it attacked,
// for its second attack, and both its attacks spent by mode both.
func (w *world) entDeclared(cw *combatWork, o *AttackOrder) {
	st := w.st()
	for _, id := range cw.Attackers {
		a := st.Chars[id]
		if st.Kind(a).Attacks <= 1 {
			continue
		}
		w.emit(&Flagged{Flag: flagTargets(id), IDs: slices.Clone(cw.Defenders)})
		if st.doubled(a, o) {
			w.emit(&Flagged{Flag: flagAttackedTwice, IDs: []string{id}})
		}
	}
}

// giantMods are the combat's shifts and die modifiers an Ent brings
// (DN3-PEOPLE-ENT-3, -5, -10, AMB-62): whether attackers together get
// their shift, and the die modifier with its words.
func (w *world) giantMods(cw *combatWork, o *AttackOrder) (together bool, why string, mod int, mods []string) {
	st := w.st()
	together = len(cw.Attackers) > 1
	for _, id := range cw.Defenders {
		if d := st.Chars[id]; together && st.Kind(d).Has(TagNoMultiShift) {
			together, why = false, fmt.Sprintf("no shift for attacking %s together (DN3-PEOPLE-ENT-5)", d.ID)
		}
	}
	if !together && why == "" && len(cw.Attackers) == 1 && st.doubled(st.Chars[cw.Attackers[0]], o) {
		why = fmt.Sprintf("%s combines its own two attacks: no shift (DN3-PEOPLE-ENT-10)", cw.Attackers[0])
	}
	best := func(ids []string) (int, string) {
		n, who := 0, ""
		for _, id := range ids {
			if b := st.Kind(st.Chars[id]).CombatBonus; b > n {
				n, who = b, id
			}
		}
		return n, who
	}
	if n, who := best(cw.Defenders); n > 0 {
		mod += n
		mods = append(mods, fmt.Sprintf("%+d against %s (DN3-PEOPLE-ENT-3, AMB-62)", n, who))
	}
	if n, who := best(cw.Attackers); n > 0 {
		mod -= n
		mods = append(mods, fmt.Sprintf("%+d %s attacking (DN3-PEOPLE-ENT-3, AMB-62)", -n, who))
	}
	return together, why, mod, mods
}

// carriedWords says who fights on negative terrain for carrying or being
// carried (DN3-PEOPLE-ENT-20, -25), for the report.
func (w *world) carriedWords(cw *combatWork) {
	st := w.st()
	for _, id := range slices.Concat(cw.Attackers, cw.Defenders) {
		c := st.Chars[id]
		switch {
		case c.On != "":
			w.say(nil, "%s, carried by %s, fights as on negative terrain (DN3-PEOPLE-ENT-25).", c.ID, c.On)
		case len(st.Kind(c).Carries) > 0 && len(st.passengers(c)) > 0:
			w.say(nil, "%s carries %s: it fights as on negative terrain (DN3-PEOPLE-ENT-20).", c.ID, list(idsOf(st.passengers(c))))
		}
	}
}

// --- Fire (DN3-PEOPLE-ENT-12 … 15, -26, -27) ---

// cannotFireFromEnt says why sh, carried, may not fire now: its Ent moved
// or fought this turn (DN3-PEOPLE-ENT-26).
func (w *world) cannotFireFromEnt(sh *Char) string {
	st := w.st()
	e := st.carrier(sh)
	if e == nil {
		return ""
	}
	if st.Is(flagMoved, e.ID) || st.Is(flagAttacked, e.ID) {
		return fmt.Sprintf("%s moved or fought this turn: a character fires from an Ent that neither moves nor fights (DN3-PEOPLE-ENT-26)", e.ID)
	}
	return ""
}

// fireEffects is what fire's results es do to target t (DN3-PEOPLE-ENT-14):
// a kind fire never drives back ignores retreats, and the stunned result
// it would take as a retreat; why is the report's reason, "" when nothing
// changed.
func fireEffects(k *Kind, es []Effect) ([]Effect, string) {
	if !k.Has(TagFireNoRetreat) {
		return es, ""
	}
	var out []Effect
	for _, e := range es {
		if e.What == Retreat || e.What == Stunned && k.StunnedRetreat > 0 {
			continue
		}
		out = append(out, e)
	}
	if len(out) == len(es) {
		return es, ""
	}
	return out, fmt.Sprintf("fire does not drive back %s: the retreat (stunned is a retreat for it) is ignored (DN3-PEOPLE-ENT-14, DN3-PEOPLE-ENT-6)", aKind(k))
}

// targetCover is the cover t's terrain gives target: none in a terrain
// its kind finds no cover in (brush, talus, marsh for an Ent,
// DN3-PEOPLE-ENT-15); light for a character carried, above the terrain
// (DN3-PEOPLE-ENT-27); else the terrain's (DN-COVER-4, -9, -26).
func (s *State) targetCover(target *Char, t *Terrain) string {
	switch {
	case target == nil:
	case target.On != "":
		return "light"
	case slices.Contains(s.Kind(target).NoCoverIn, t.Kind):
		return "none"
	}
	return t.Cover
}

// flaming reports whether sh's shot is a flaming missile. No missile of
// the module is (the flaming arrows of DN3-MC-10 are a Magna Carta rule,
// GAP-16): the +3 of DN3-PEOPLE-ENT-12 waits for a chapter that lights
// them.
func (w *world) flaming(*Char) bool { return false }

// --- The ram (DN3-PEOPLE-ENT-19, DN3-PEOPLE-DRAGON-5) ---

// checkRam checks a ram order when the mail is read: only a creature that
// serves as a makeshift ram rams (tag ram).
func checkRam(st *State, x *AttackOrder, bad func(int, string, string, ...any)) {
	for _, id := range x.Attackers {
		if c := st.Chars[id]; c != nil && !st.Kind(c).Has(TagRam) {
			bad(x.Line, adjudicator.CodeBadValue, "ram: %s is no makeshift ram; an Ent or the Black Dragon is (DN3-PEOPLE-ENT-19, DN3-PEOPLE-DRAGON-5)", id)
		}
	}
}

// ramOrder answers an order to use an Ent or the dragon as a makeshift
// ram: the rules for it are the Isles fortunées' (GAP-17), which no
// source holds, so nothing happens, and the creature keeps its move and
// its attacks.
func (w *world) ramOrder(o *AttackOrder) {
	w.say(nil, "%s would serve as a makeshift ram on %s, but the ram's rules are in Les Isles fortunées, which no source holds (GAP-17): nothing happens, and %s keeps its move and its attacks (DN3-PEOPLE-ENT-19, DN3-PEOPLE-DRAGON-5).",
		list(o.Attackers), o.Ram, list(o.Attackers))
}

// aKind is "a TITLE" for people, "an Ent" for a title that opens with a
// vowel when the kind is one of DN3's (its reports name its own rules,
// cites): DN2's reports keep their words.
func aKind(k *Kind) string {
	if len(k.Cites) > 0 && strings.ContainsAny(k.Title[:1], "AEIO") { // a Unicorn (chapter: the valley's peoples)
		return "an " + k.Title
	}
	return "a " + k.Title
}
