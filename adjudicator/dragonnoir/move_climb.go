package dragonnoir

import (
	"fmt"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// Climbing on and off an Ent (DN3-PEOPLE-ENT-20 … 24), part of a move
// order: climb-on: ENT at the end of the character's path (or alone),
// climb-off: LOCATION, a carried character's whole move. Each costs the
// character 4 MP and the Ent 2 of its own (DN3-PEOPLE-ENT-22, -23), from
// or to a hex next to the Ent's front, at its roots' level or one or two
// levels above. A carried character sits on one of the Ent's two front
// hexes and goes where the Ent goes (special_ent.go).

// flagClimbed is the flag of a game turn on a character that climbed on
// an Ent: it does not climb off in the same turn (DN3-PEOPLE-ENT-24).
const flagClimbed = "climbed-on"

// The costs of climbing (DN3-PEOPLE-ENT-22, -23).
const (
	climbMP        = 4
	climbCarrierMP = 2
)

// checkClimb checks a move order's climb when the mail is read: one of
// climb-on and climb-off, climb-off alone (DN3-PEOPLE-ENT-24), climb-on
// an Ent that carries characters of the climber's kind (DN3-PEOPLE-ENT-21).
func checkClimb(st *State, x *MoveOrder, bad func(int, string, string, ...any), loc func(int, string)) {
	switch {
	case x.ClimbOn == "" && x.ClimbOff == "":
		return
	case x.ClimbOn != "" && x.ClimbOff != "":
		bad(x.Line, adjudicator.CodeBadValue, "move %s: climb-on or climb-off, not both in one move", x.Unit)
		return
	}
	if x.ClimbOff != "" {
		loc(x.Line, x.ClimbOff)
		if len(x.Path) > 0 || len(x.Row) > 0 || len(x.Then) > 0 || len(x.IfStopped) > 0 || x.Jump != "" {
			bad(x.Line, adjudicator.CodeBadValue, "move %s: climbing off an Ent is a carried character's whole move (DN3-PEOPLE-ENT-24): leave out path:, row:, then:, if-stopped: and jump:", x.Unit)
		}
		return
	}
	if len(x.Row) > 0 {
		bad(x.Line, adjudicator.CodeBadValue, "move %s: climb onto an Ent from the land, not after rowing", x.Unit)
	}
	e := st.Chars[x.ClimbOn]
	switch {
	case e == nil:
		bad(x.Line, adjudicator.CodeUnknownUnit, "move %s: climb-on: no character %q", x.Unit, x.ClimbOn)
	case len(st.Kind(e).Carries) == 0:
		bad(x.Line, adjudicator.CodeBadValue, "move %s: climb-on: %s carries nobody; only an Ent does (DN3-PEOPLE-ENT-20)", x.Unit, x.ClimbOn)
	default:
		if c := st.Chars[x.Unit]; c != nil && !st.mayCarry(e, c) {
			bad(x.Line, adjudicator.CodeBadValue, "move %s: %s carries only %s (DN3-PEOPLE-ENT-21)", x.Unit, x.ClimbOn, carriesWords(st, e))
		}
	}
}

// mayCarry reports whether Ent e may carry c: c's kind carries one of the
// tags e's kind carries, "human" only with the option
// ent-passengers=and-humans (DN3-PEOPLE-ENT-21).
func (s *State) mayCarry(e, c *Char) bool {
	k := s.Kind(c)
	if k.Shape != hex.Single.Name {
		return false
	}
	return slices.ContainsFunc(s.Kind(e).Carries, func(t string) bool {
		return (t != TagHuman || s.Options.EntHumans) && k.Has(t)
	})
}

// carriesWords says whom e carries, for people.
func carriesWords(st *State, e *Char) string {
	var out []string
	for _, t := range st.Kind(e).Carries {
		if t == TagHuman && !st.Options.EntHumans {
			continue
		}
		out = append(out, plural(t))
	}
	s := list(out)
	if slices.Contains(st.Kind(e).Carries, TagHuman) && !st.Options.EntHumans {
		s += " (humans too with the option ent-passengers=and-humans)"
	}
	return s
}

// plural names the characters carrying tag t, for people.
func plural(t string) string {
	if t == TagElf {
		return "elves"
	}
	return t + "s"
}

// mpLeft is the MP c has left in this player-turn.
func (s *State) mpLeft(c *Char) int {
	f, _ := s.Values(c)
	return f.Move - c.Spent
}

// nearFront reports whether l, a location next to Ent e, may be climbed
// from or to: on a hex next to seat, not the Ent's, touching the Ent's
// front (not its grey rear alone), at its roots' level or one or two
// levels above, with no wall between (DN3-PEOPLE-ENT-22, -23).
func (s *State) nearFront(e *Char, seat, l hex.Loc) bool {
	d := s.levelAbove(e, l)
	return s.board.Layout.Adjacent(seat.Hex, l.Hex) && !s.footprint(e).Covers(l.Hex) && s.notRearOnly(e, l.Hex) &&
		d >= 0 && d <= 2*hex.Storey && !s.walled(seat, l)
}

// climbOn puts c aboard Ent id, at the end of its move (DN3-PEOPLE-ENT-22),
// on the first free front hex next to it; or says why it cannot.
func (w *world) climbOn(c *Char, id string) {
	st := w.st()
	e := st.Chars[id]
	no := func(format string, args ...any) {
		w.say(nil, "%s does not climb onto %s: %s.", c.ID, id, fmt.Sprintf(format, args...))
	}
	switch {
	case e == nil || !e.Standing() || e.Side != c.Side || e.On != "":
		no("it is no Ent of yours on its feet")
		return
	case c.On != "":
		no("it is carried already")
		return
	case !st.mayCarry(e, c):
		no("%s carries only %s (DN3-PEOPLE-ENT-21)", id, carriesWords(st, e))
		return
	case st.mpLeft(c) < climbMP:
		no("it has %d MP left and climbing on costs %d (DN3-PEOPLE-ENT-22)", st.mpLeft(c), climbMP)
		return
	case st.mpLeft(e) < climbCarrierMP:
		no("%s has %d MP left and a character climbing on costs it %d (DN3-PEOPLE-ENT-22)", id, st.mpLeft(e), climbCarrierMP)
		return
	}
	taken := map[int]bool{}
	for _, p := range st.passengers(e) {
		taken[p.Seat] = true
	}
	from := st.loc(c)
	for n := 1; n <= 2; n++ {
		seat, ok := st.seatLoc(e, n)
		if !ok || taken[n] || !st.nearFront(e, seat, from) {
			continue
		}
		at := locString(st.board, seat)
		w.emit(&Carried{Unit: c.ID, Carrier: e.ID, Aboard: true, Seat: n, At: at, MP: climbMP, CarrierMP: climbCarrierMP})
		w.emit(&Flagged{Flag: flagClimbed, IDs: []string{c.ID}})
		w.say(nil, "%s climbs onto %s, on its front hex %s (%d MP, and %d of %s's: DN3-PEOPLE-ENT-22).", c.ID, e.ID, at, climbMP, climbCarrierMP, e.ID)
		return
	}
	if len(taken) >= 2 {
		no("%s carries two characters already (DN3-PEOPLE-ENT-20)", id)
		return
	}
	no("no free front hex of %s is next to %s from its front, at its roots' level or one or two levels above, with no wall between (DN3-PEOPLE-ENT-20, DN3-PEOPLE-ENT-22)", id, c.At)
}

// climbOff takes c, carried, down to o's location: its whole move
// (DN3-PEOPLE-ENT-23, -24); or says why it cannot.
func (w *world) climbOff(c *Char, o *MoveOrder) {
	st := w.st()
	no := func(format string, args ...any) {
		w.say(nil, "%s does not climb off: %s.", c.ID, fmt.Sprintf(format, args...))
	}
	e := st.carrier(c)
	if e == nil {
		no("it is not carried")
		return
	}
	l, err := locOn(st.board, o.ClimbOff)
	seat := st.loc(c)
	switch {
	case err != nil:
		no("%v", err)
	case st.Is(flagClimbed, c.ID):
		no("it climbed onto %s this turn (DN3-PEOPLE-ENT-24)", e.ID)
	case st.mpLeft(c) < climbMP:
		no("it has %d MP left and climbing off costs %d (DN3-PEOPLE-ENT-23)", st.mpLeft(c), climbMP)
	case st.mpLeft(e) < climbCarrierMP:
		no("%s has %d MP left and a character climbing off costs it %d (DN3-PEOPLE-ENT-23)", e.ID, st.mpLeft(e), climbCarrierMP)
	case !st.nearFront(e, seat, l):
		no("%s is not a hex next to its seat %s by %s's front, at its roots' level or one or two levels above, with no wall between (DN3-PEOPLE-ENT-23)", o.ClimbOff, c.At, e.ID)
	case !st.CanEnter(st.Kind(c), l):
		no("%s may not enter %s (%s, DN-MOVE-5)", aKind(st.Kind(c)), o.ClimbOff, st.Terrain(l).Title)
	case w.occupied(c, l):
		no("someone is on %s (DN-STACK-2)", o.ClimbOff)
	default:
		at := locString(st.board, l)
		w.emit(&Carried{Unit: c.ID, Carrier: e.ID, At: at, MP: climbMP, CarrierMP: climbCarrierMP})
		w.say(nil, "%s climbs off %s onto %s (%d MP, and %d of %s's: DN3-PEOPLE-ENT-23).", c.ID, e.ID, at, climbMP, climbCarrierMP, e.ID)
	}
}
