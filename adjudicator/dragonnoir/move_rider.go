package dragonnoir

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// Riders (cavaliers). DN3 moves several of its creatures "as a rider":
// the Ents (DN3-PEOPLE-ENT-1), the unicorns, the mounted peoples. The
// rider's costs and prohibitions are Magna Carta's (GAP-16), which no
// source holds: the module's terrain table gives them, assumed, with the
// ordinary by-tag columns:
//
//	a kind that moves as a rider     carries the counter tag rider
//	what a terrain costs a rider     mp-by: {rider: N} on its row (else its mp)
//	where a rider may not go         closed-to: [rider] on its row
//	where a kind is no rider         rider-enters: [KIND, …] on the kind: it
//	                                 enters those terrain kinds at the cost
//	                                 on foot (an Ent among trees)
//
// Every rule that asks what a character may enter or what it pays goes
// through State.CanEnter and State.MPCost (geo.go, tables.go), which ask
// closedTo and byTagMP here: a rider needs no code of its own elsewhere.

// riderFree reports whether a rider of kind k is no rider on terrain t:
// its kind lists t among the terrain it enters on foot (rider-enters).
func riderFree(k *Kind, t *Terrain) bool {
	return k.Has(TagRider) && slices.Contains(k.RiderEnters, t.Kind)
}

// closedTo reports whether t is closed to a character of kind k: one of
// its closed-to tags is k's, a rider's only where k is a rider, unless k
// carries a tag that reopens that closure (closed-except: a wolf swims, a
// Reptilian crosses water armoured or mounted, DN3-PEOPLE-GOB-6, -REPT-2).
func closedTo(k *Kind, t *Terrain) bool {
	for _, tag := range t.ClosedTo {
		if k.Has(tag) && !(tag == TagRider && riderFree(k, t)) && !slices.ContainsFunc(t.ClosedExcept[tag], k.Has) {
			return true
		}
	}
	return false
}

// byTagMP is the MP entering t costs a character of kind k: the row's
// cost for k's tags it names (a rider's only where k is a rider), the
// cheapest when it names several (a Reptilian on a Raptor in marsh,
// DN3-PEOPLE-REPT-2), else its own.
func byTagMP(k *Kind, t *Terrain) int {
	cost, by := t.MP, false
	for _, tag := range k.Tags {
		if tag == TagRider && riderFree(k, t) {
			continue
		}
		if v, ok := t.MPBy[tag]; ok && (!by || v < cost) {
			cost, by = v, true
		}
	}
	return cost
}

// riderBarred says why a rider of kind k may not enter l, when it is as a
// rider that it may not (the terrain is closed to riders); "" otherwise.
func (s *State) riderBarred(k *Kind, l hex.Loc) string {
	t := s.Terrain(l)
	if t == nil || !k.Has(TagRider) || riderFree(k, t) || !slices.Contains(t.ClosedTo, TagRider) {
		return ""
	}
	return fmt.Sprintf("%s moves as a rider, and riders may not enter %s (%s; GAP-16, DN3-PEOPLE-ENT-1)", aKind(k), locString(s.board, l), t.Title)
}

// Steeds (chapter: the valley's peoples). Magna Carta's rider rules are
// in no source (GAP-16); what the digest says of riders is that a rider
// does not enter trees (DN3-PEOPLE-UNIC-1, -ENT-1), may charge, and that
// "horse killed" throws its rider down stunned (DN3-PEOPLE-UNIC-6).
// umpire plays, all assumed:
//
//   - A steed (ridden-by: a Raptor, a wolf, a hyena, a unicorn, a Serteg
//     horse) carries a rider as one counter: the rider mounts it from next
//     to it, 1 MP each (DN3-PEOPLE-GOB-4: the Goblins' rule, assumed for
//     the others), and the steed leaves the map under him; the pair moves
//     by the steed's movement and ways (mover), fights with the rider's
//     attack and the steed's together and the rider's defence (pairFace),
//     and is shot at and attacked as one. Getting down costs 1 MP each,
//     the rider stepping onto a location next to the pair.
//   - A killed result on a rider in the saddle is "horse killed": the
//     steed dies under him (a unicorn takes a wound instead,
//     DN3-PEOPLE-UNIC-6), and he is thrown down, stunned (unhorse).
//
// Other chapters ask mover for the kind a character moves by, and Values
// for the pair's numbers; nothing else needs to know a rider.

// riderProv is the provenance of what umpire assumes of riders.
var riderProv = Prov{Assumed: true, Clues: []string{
	"GAP-16: Magna Carta's rider rules and rider tables are in no source",
	"DN3-PEOPLE-GOB-4: mounting or getting down costs 1 MP to both counters",
	"DN3-PEOPLE-UNIC-6: horse killed throws the rider down, stunned",
}}

// steedOf is the steed c rides, nil on foot.
func (s *State) steedOf(c *Char) *Char {
	if c == nil || c.Mount == "" {
		return nil
	}
	return s.Chars[c.Mount]
}

// mover is the kind whose movement c follows: its own on foot; in the
// saddle its steed's — the steed's tags and ways but where it goes as on
// foot (rider-enters: ridden, it keeps to a rider's ways,
// DN3-PEOPLE-UNIC-1), with the rider's tags but daredevil (nobody jumps
// down a level in the saddle), and the rider's armour (an armoured Goblin
// chief sinks on his swimming wolf; a Reptilian lord crosses water on his
// Raptor, DN3-PEOPLE-REPT-2).
func (s *State) mover(c *Char) *Kind {
	k := s.Kind(c)
	m := s.steedOf(c)
	if m == nil {
		return k
	}
	mk := s.Kind(m)
	pair := *mk
	pair.ID, pair.Title, pair.Armoured, pair.RiderEnters = k.ID, mk.Title+" ridden by "+k.Title, k.Armoured, nil
	pair.Tags = slices.Clone(mk.Tags)
	for _, t := range k.Tags {
		if t != TagDaredevil && !slices.Contains(pair.Tags, t) {
			pair.Tags = append(pair.Tags, t)
		}
	}
	return &pair
}

// pairFace is the face of rider c in the saddle, f its own: it attacks
// with its attack and its steed's together, moves by the steed's movement
// (none if a spell holds the rider), and defends with its own defence
// (assumed, GAP-16).
func (s *State) pairFace(c *Char, f Face) Face {
	m := s.steedOf(c)
	if m == nil {
		return f
	}
	mf, _ := s.Values(m)
	f.Attack += mf.Attack
	if f.Move > 0 {
		f.Move = mf.Move
	}
	return f
}

// mounted reports whether c moves as a rider now: a rider counter, or in
// the saddle.
func (s *State) mounted(c *Char) bool { return c.Mount != "" || s.Kind(c).Has(TagRider) }

// rideWhy says why c may not ride steed m, "" when it may: m is a steed
// that c's kind is among ridden-by and not among not-ridden-by
// (DN3-PEOPLE-REPT-4, -UNIC-8, -GOB-4), unhurt if it must be
// (DN3-PEOPLE-UNIC-8).
func (s *State) rideWhy(c, m *Char) string {
	k, mk := s.Kind(c), s.Kind(m)
	rule := mk.Cites["ride"]
	if rule == "" {
		rule = "GAP-18"
	}
	names := func(who string) bool {
		tag, isTag := strings.CutPrefix(who, "tag:")
		switch {
		case who == "any":
			return true
		case who == "master":
			return s.masterOf(m) == c.ID
		case isTag:
			return k.Has(tag)
		}
		return who == c.ID || who == k.ID
	}
	switch {
	case len(mk.RiddenBy) == 0:
		return fmt.Sprintf("nobody rides %s (%s)", m.ID, rule)
	case !slices.ContainsFunc(mk.RiddenBy, names) || slices.ContainsFunc(mk.NotRiddenBy, names):
		return fmt.Sprintf("%s may not ride %s (%s)", c.ID, m.ID, rule)
	case mk.RideHealthy && m.Wounds > 0:
		return fmt.Sprintf("%s is wounded: nobody rides it any more (%s)", m.ID, rule)
	}
	return ""
}

// mountProv is the provenance of the 1 MP of mounting m: the Goblins'
// rule for their wolves and hyenas, assumed for every other steed.
func (s *State) mountProv(m *Char) (Prov, string) {
	if rule := s.Kind(m).Cites["ride"]; rule == "DN3-PEOPLE-GOB-4" {
		return Prov{Rule: rule}, rule
	}
	return riderProv, "as the Goblins do, DN3-PEOPLE-GOB-4"
}

// mountLeg mounts steed o.Mount after c walked its path (DN3-PEOPLE-GOB-4):
// the steed stands next to it, on its feet, of its side, unridden and
// unmoved this turn; c may ride it and the pair may stand there; each has
// 1 MP left. The pair then stands where the steed stood.
func (w *world) mountLeg(c *Char, o *MoveOrder, mv *moveWork) legEnd {
	st := w.st()
	m := st.Chars[o.Mount]
	no := func(format string, args ...any) legEnd {
		w.say(nil, "%s does not mount %s: %s.", c.ID, o.Mount, fmt.Sprintf(format, args...))
		return legEnded
	}
	if !c.Standing() {
		return legEnded
	}
	var ml hex.Loc
	switch {
	case m == nil || !m.Standing() || m.Side != c.Side:
		return no("it is no steed of its side on its feet on the map")
	case c.Mount != "":
		return no("it already rides %s", c.Mount)
	case st.Is(flagMoved, m.ID):
		return no("%s has moved this turn", m.ID)
	}
	if why := st.rideWhy(c, m); why != "" {
		return no("%s", why)
	}
	ml = st.loc(m)
	cur := st.loc(c)
	f, _ := st.Values(c)
	mf, _ := st.Values(m)
	prov, rule := st.mountProv(m)
	pair := st.mover(&Char{ID: c.ID, Kind: c.Kind, Mount: m.ID})
	switch {
	case !st.Touch(cur, ml):
		return no("%s is not next to it", m.ID)
	case !st.CanEnter(pair, ml):
		return no("a rider may not stand on %s (%s)", m.At, st.Terrain(ml).Title)
	case c.Spent+1 > f.Move || m.Spent+1 > mf.Move:
		return no("mounting costs 1 MP to each (%s) and one of them has none left", rule)
	}
	if mv.Fresh && len(w.infiltrators(c, cur)) > 0 { // AMB-28: it leaves a location its move entered
		if w.infiltrate(c) {
			return legEnded
		}
	}
	w.emit(&Flagged{Flag: flagMoved, IDs: []string{m.ID}})
	w.emit(&Mounted{Rider: c.ID, Steed: m.ID, Up: true, At: m.At, Spent: m.Spent + 1})
	mv.Fresh = true
	mv.Trail = append(mv.Trail, trailStep{c.At, c.Facing})
	pf, _ := st.Values(c)
	w.say(Provs{prov}, "%s mounts %s on %s (1 MP each, %s): %d of its %d MP spent.", c.ID, m.ID, c.At, rule, c.Spent, pf.Move)
	return legWalked
}

// dismountLeg gets rider c down onto o.Dismount, next to the pair, after
// it rode its path: 1 MP each (DN3-PEOPLE-GOB-4); the location is free, one
// the rider may enter on foot, with no enemy standing there. The steed
// stays where the pair stood; the rider's move ends.
func (w *world) dismountLeg(c *Char, o *MoveOrder) legEnd {
	st := w.st()
	m := st.steedOf(c)
	no := func(format string, args ...any) legEnd {
		w.say(nil, "%s does not get down: %s.", c.ID, fmt.Sprintf(format, args...))
		return legEnded
	}
	if !c.Standing() {
		return legEnded
	}
	if m == nil {
		return no("it rides nothing")
	}
	l, err := locOn(st.board, o.Dismount)
	if err != nil {
		return no("%v", err)
	}
	f, _ := st.Values(c)
	prov, rule := st.mountProv(m)
	switch {
	case !st.Touch(st.loc(c), l):
		return no("%s is not next to it", o.Dismount)
	case !st.CanEnter(st.Kind(c), l):
		return no("a %s may not stand on %s (%s)", st.Kind(c).Title, o.Dismount, st.Terrain(l).Title)
	case w.occupied(c, l):
		return no("%s is taken (DN-STACK-2)", o.Dismount)
	case c.Spent+1 > f.Move:
		return no("getting down costs 1 MP to each (%s) and %s has none left", rule, m.ID)
	}
	from := c.At
	w.emit(&Flagged{Flag: flagMoved, IDs: []string{m.ID}})
	w.emit(&Mounted{Rider: c.ID, Steed: m.ID, At: locString(st.board, l), Spent: c.Spent + 1})
	w.say(Provs{prov}, "%s gets down from %s onto %s (1 MP each, %s); %s stays on %s.", c.ID, m.ID, c.At, rule, m.ID, from)
	return legEnded
}

// unhorse is "horse killed" on rider c (DN3-PEOPLE-UNIC-6, assumed for every
// steed, GAP-16): its steed dies under it, or takes one wound if its kind
// says so (a unicorn); the rider is thrown down, stunned — onto a free
// location next to the pair when the steed lives (the one farthest from
// the enemies in by; with none free it stays in the saddle, stunned), or
// where it lay when it died. It reports whether c left its location.
func (w *world) unhorse(c *Char, by []*Char, used Provs) bool {
	st := w.st()
	m := st.steedOf(c)
	mk := st.Kind(m)
	used = append(slices.Clone(used), riderProv)
	rule := "DN3-PEOPLE-UNIC-6"
	if mk.HorseKilled != "wound" {
		rule = "as DN3-PEOPLE-UNIC-6 says of horse killed; GAP-16"
	}
	pair := c.At
	to := ""
	if mk.HorseKilled == "wound" {
		to = w.throwTo(c, by)
		if to == "" {
			w.say(used, "%s: horse killed: %s takes a wound, and %s, with no free location beside it to fall on, stays in the saddle, stunned (%s).", c.ID, m.ID, c.ID, rule)
			w.woundSteed(m)
			w.emit(&Conditioned{Unit: c.ID, Face: Stunned, Wounds: c.Wounds, StunnedIn: st.Turn})
			return false
		}
	}
	w.emit(&Mounted{Rider: c.ID, Steed: m.ID, At: to, Spent: m.Spent})
	if mk.HorseKilled == "wound" {
		w.say(used, "%s: horse killed: %s takes a wound (%s) and %s is thrown down onto %s, stunned.", c.ID, m.ID, rule, c.ID, to)
		w.woundSteed(m)
	} else {
		w.say(used, "%s: horse killed: %s dies under it on %s, and %s is thrown down, stunned (%s).", c.ID, m.ID, pair, c.ID, rule)
		w.emit(&Conditioned{Unit: m.ID, Face: Killed, Wounds: m.Wounds})
	}
	w.emit(&Conditioned{Unit: c.ID, Face: Stunned, Wounds: c.Wounds, Berserk: c.Berserk, StunnedIn: st.Turn})
	return to != ""
}

// woundSteed gives a steed thrown from one wound.
func (w *world) woundSteed(m *Char) {
	k := w.st().Kind(m)
	if m.Wounds+1 >= k.Wounds {
		w.emit(&Conditioned{Unit: m.ID, Face: Killed, Wounds: m.Wounds})
		return
	}
	w.emit(&Conditioned{Unit: m.ID, Face: Wounded, Wounds: m.Wounds + 1})
}

// throwTo is where rider c falls beside its steed: a location next to the
// pair, free, that it may enter on foot, with no enemy standing there;
// the one farthest from the nearest of by, then the first; "" for none.
func (w *world) throwTo(c *Char, by []*Char) string {
	st := w.st()
	k := st.Kind(c)
	best, bestD := "", -1
	for _, l := range st.board.Exits(st.loc(c)) {
		if !st.Touch(st.loc(c), l) || !st.CanEnter(k, l) || w.occupied(c, l) || w.enemyOn(c, []hex.Loc{l}) {
			continue
		}
		d := 1 << 30
		for _, e := range by {
			if e != nil && e.Alive() {
				for _, el := range st.Locs(e) {
					d = min(d, st.Distance(el, l))
				}
			}
		}
		if d > bestD {
			best, bestD = locString(st.board, l), d
		}
	}
	return best
}

// riderDown leaves a dead rider's steed where it died, riderless.
func (w *world) riderDown(c *Char) {
	if m := w.st().steedOf(c); m != nil {
		w.emit(&Mounted{Rider: c.ID, Steed: m.ID, Spent: m.Spent})
		w.say(nil, "%s stands riderless on %s.", m.ID, c.At)
	}
}

// checkRide checks a move order's mount:, ride: and dismount: before
// anything moves: a mount names a character, ride: follows a mount, a
// rider does not mount and get down in one move, nor row.
func checkRide(st *State, x *MoveOrder, bad func(int, string, string, ...any), loc func(int, string)) {
	if x.Dismount != "" {
		loc(x.Line, x.Dismount)
	}
	switch {
	case x.Mount != "" && st.Chars[x.Mount] == nil:
		bad(x.Line, adjudicator.CodeUnknownUnit, "move %s: mount: no character %q", x.Unit, x.Mount)
	case len(x.Ride) > 0 && x.Mount == "":
		bad(x.Line, adjudicator.CodeBadValue, "move %s: ride: is the path ridden after mount: — a rider already in the saddle puts its path in path:", x.Unit)
	case x.Mount != "" && x.Dismount != "":
		bad(x.Line, adjudicator.CodeBadValue, "move %s: mount: or dismount:, one in a move", x.Unit)
	case (x.Mount != "" || x.Dismount != "") && (len(x.Row) > 0 || len(x.IfStopped) > 0):
		bad(x.Line, adjudicator.CodeBadValue, "move %s: a move that mounts or gets down neither rows nor has a path if stopped", x.Unit)
	}
}

// placeRiders seats the riders of a position (units' mount:) on their
// steeds, each placed on the rider's location.
func (st *State) placeRiders(units []PosUnit) error {
	for i, u := range units {
		if u.Mount == "" {
			continue
		}
		c, m := st.Chars[u.Unit], st.Chars[u.Mount]
		switch {
		case m == nil || !m.Alive():
			return fmt.Errorf("position: units %d: mount: %q is no unit of the position", i+1, u.Mount)
		case m.At != c.At || m.RiddenBy != "" || c.Side != m.Side:
			return fmt.Errorf("position: units %d: %s rides %s: place it on %s, of its side, with no other rider", i+1, c.ID, m.ID, c.At)
		}
		if why := st.rideWhy(c, m); why != "" {
			return fmt.Errorf("position: units %d: %s", i+1, why)
		}
		c.Mount, m.RiddenBy, m.At = m.ID, c.ID, ""
	}
	return nil
}

// steedsOf maps each steed a battle position's forces name (mount:) to
// the index of its rider's entry.
func steedsOf(forces []BattleForce) map[string]int {
	out := map[string]int{}
	for i, f := range forces {
		if f.Mount != "" {
			out[f.Mount] = i
		}
	}
	return out
}

// battleRiders seats the riders of a battle position (forces' mount:) on
// their steeds, wherever the rider starts (DN3-CAMP-BATTLE-5, -6, AMB-67):
// placed (at:), at the centre (the rider's set-up hex places both) or
// waiting by the edge of its path (the pair enters together, by the
// steed's movement). The steed is an entry of the forces, of the rider's
// side, that gives no place of its own or the rider's; it may carry him
// (rideWhy) and stand where he starts (CanEnter, for a rider placed).
func (st *State) battleRiders(forces []BattleForce) error {
	byUnit := map[string]BattleForce{}
	for _, f := range forces {
		byUnit[f.Unit] = f
	}
	for i, f := range forces {
		if f.Mount == "" {
			continue
		}
		at := func(format string, args ...any) error {
			return fmt.Errorf("position: forces %d (%s): mount %s: %s", i+1, f.Unit, f.Mount, fmt.Sprintf(format, args...))
		}
		c, m := st.Chars[f.Unit], st.Chars[f.Mount]
		mf, listed := byUnit[f.Mount]
		switch {
		case !listed || m == nil:
			return at("the steed is a counter of the battle too: list it under forces:, with no zone (it starts where its rider does)")
		case f.Mount == f.Unit:
			return at("a counter does not ride itself")
		case mf.Mount != "":
			return at("%s rides %s itself", m.ID, mf.Mount)
		case m.RiddenBy != "":
			return at("%s already carries %s", m.ID, m.RiddenBy)
		case m.Side != c.Side:
			return at("%s fights for the %s, %s for the %s: a rider rides a steed of his side", m.ID, st.SideName(m.Side), c.ID, st.SideName(c.Side))
		case (mf.At != "" || mf.Zone != "" || mf.Edge != "") && (mf.At != f.At || mf.Zone != f.Zone || mf.Edge != f.Edge):
			return at("%s starts where its rider does: give it no at:, zone: or edge: (or the rider's)", m.ID)
		case m.Face == Stunned:
			return at("%s is stunned: nobody rides it", m.ID)
		}
		if why := st.rideWhy(c, m); why != "" {
			return at("%s", why)
		}
		c.Mount, m.RiddenBy, m.At, m.Edge = m.ID, c.ID, "", ""
		if c.At != "" {
			if l, _ := locOn(st.board, c.At); !st.CanEnter(st.mover(c), l) {
				return at("a rider may not stand on %s (%s)", c.At, st.Terrain(l).Title)
			}
		}
	}
	return nil
}

// riderOff is the rider of steed m while he waits off the map, by an edge
// or to be set up at the centre (the battle's view shows the pair there).
func (s *State) riderOff(m *Char) *Char {
	r := s.Chars[m.RiddenBy]
	if r == nil || r.At != "" || r.Left || r.Face == Killed {
		return nil
	}
	return r
}

// RideWhy says why counter rider may not start a battle on counter steed
// wounded wounds times, "" when it may (rideWhy: the steed's ridden-by
// and not-ridden-by, a master's own beast, a unicorn unhurt). The
// campaign asks it before it writes mount: in a battle position.
func (d *Data) RideWhy(rider, steed string, wounds int) string {
	rk, sk := d.Counters[rider], d.Counters[steed]
	if rk == nil || sk == nil {
		return fmt.Sprintf("no counter %s or %s in the module", rider, steed)
	}
	st := &State{data: d, Chars: map[string]*Char{}}
	return st.rideWhy(&Char{ID: rider, Kind: rk.ID}, &Char{ID: steed, Kind: sk.ID, Wounds: wounds})
}

// NamedRiders reports whether counter steed is carried by riders its kind
// names (a Raptor, a Goblin's wolf, Femelle 1), not by anyone (a Serteg
// horse): the pairs a campaign seats on its own.
func (d *Data) NamedRiders(steed string) bool {
	k := d.Counters[steed]
	return k != nil && len(k.RiddenBy) > 0 && !slices.Contains(k.RiddenBy, "any")
}
