package dragonnoir

import (
	"fmt"
	"maps"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir/negotiation"
)

// Step 5 of a negotiation in a battle (DN3-CAMP-NEG-11, DN3-CAMP-BATTLE-9,
// AMB-57, AMB-58, AMB-70, PBEM-DN3-22, HID-14).
//
// At the battle's first adjudication (the set-up) each side draws one
// Negotiation marker from the position's cup, sealed to that side alone
// (key "negotiation"): only its own view shows it ("negotiation-drawn").
// At the end of battle turn 5 both are revealed and combined (AMB-57)
// with the influential characters present and alive then; a side with no
// counter left on the field has its marker discarded and the other's is
// applied as in Step 4 (AMB-58). A people that joins a side waits off the
// map by an edge its enemy did not use and enters in that side's
// player-turn of turn 6, by its orders (DN3-CAMP-BATTLE-9). A battle that
// ends sooner resolves Step 5 at its end. The final view's "negotiation"
// marker says the outcome: rebels, reptilians, neutral, or none (both
// markers discarded).
//
// A battle of a campaign does not draw: the campaign drew each side's
// marker in its Step 5, before the fight-or-flee choices, and hands it to
// the battle as the sealed part "negotiation" of its position
// (battle_secrets.go, `secrets: true`), one per side, whose value is the
// marker. The battle reads it into the same sealed NegDrawn, with no roll,
// and tells the side alone. A battle position without secrets (a
// standalone battle, a rule case) draws at its set-up as above.

// negKey seals the two draws until the end of turn 5.
const negKey = "negotiation"

// BattleNeg is Step 5's state in a battle.
type BattleNeg struct {
	Adventurers negotiation.Marker `json:"adventurers,omitempty"`
	Krobs       negotiation.Marker `json:"krobs,omitempty"`
	Outcome     string             `json:"outcome,omitempty"` // rebels|reptilians|neutral|none
}

func (n *BattleNeg) drawn(side adjudicator.Side) negotiation.Marker {
	if side == Krobs {
		return n.Krobs
	}
	return n.Adventurers
}

// The events of Step 5 in a battle.
type (
	// NegDrawn is a side's marker, sealed to that side until the end of
	// battle turn 5.
	NegDrawn struct {
		Side   adjudicator.Side   `json:"side"`
		Marker negotiation.Marker `json:"marker"`
	}
	// NegResolved is Step 5's outcome; Joins the side the people joins
	// ("" if none) and Edge the Region whose edge it enters by.
	NegResolved struct {
		Outcome string           `json:"outcome"`
		Joins   adjudicator.Side `json:"joins,omitempty"`
		Edge    string           `json:"edge,omitempty"`
	}
)

func (*NegDrawn) EventType() string    { return Prefix + ".negotiation-drawn" }
func (*NegResolved) EventType() string { return Prefix + ".negotiation-resolved" }

func peopleEvents() []adjudicator.EventType {
	return []adjudicator.EventType{
		{Name: (&NegDrawn{}).EventType(), Schema: 1, New: func() adjudicator.Event { return &NegDrawn{} }},
		{Name: (&NegResolved{}).EventType(), Schema: 1, New: func() adjudicator.Event { return &NegResolved{} }},
	}
}

// evolvePeople applies Step 5's events; false for any other.
func (s *State) evolvePeople(ev adjudicator.Event) bool {
	switch e := ev.(type) {
	case *NegDrawn:
		if e.Side == Krobs {
			s.Neg.Krobs = e.Marker
		} else {
			s.Neg.Adventurers = e.Marker
		}
	case *NegResolved:
		s.Neg.Outcome = e.Outcome
		if e.Joins == "" || s.Battle == nil || s.Battle.People == nil {
			break
		}
		for _, id := range s.Battle.People.Units {
			if s.Chars[id] != nil {
				continue
			}
			k := s.data.Counters[id]
			if k == nil {
				continue
			}
			s.Chars[id] = &Char{ID: id, Kind: k.ID, Side: e.Joins, Face: Healthy, Edge: e.Edge}
		}
	default:
		return false
	}
	return true
}

// negotiating reports whether the battle plays Step 5: a people waits
// and nobody attacked it.
func (s *State) negotiating() bool {
	return s.Battle != nil && s.Battle.People != nil && s.Battle.Attacked == ""
}

// defaultCup is the cup when the position gives none: 2 of each kind
// (GAP-21, assumed, as the campaign's negotiation.yaml).
var defaultCup = map[negotiation.Marker]int{negotiation.Alliance: 2, negotiation.AllianceNeutral: 2, negotiation.Neutral: 2, negotiation.EnemyNeutral: 2, negotiation.Enemy: 2}

// drawNegotiation draws each side's marker at the set-up, each sealed to
// its side: the roll too is that side's alone (HID-14).
func (w *world) drawNegotiation() {
	st := w.st()
	if !st.negotiating() || st.Neg.Adventurers != "" && st.Neg.Krobs != "" {
		return
	}
	if st.Battle.Secrets { // the campaign drew: its markers are parts of the position
		for _, side := range []adjudicator.Side{Adventurers, Krobs} {
			if st.Neg.drawn(side) == "" {
				w.r.Fail(fmt.Errorf("dragonnoir: battle: the %s wait for Step 5, but the position's sealed parts give the %s no Negotiation marker (part negotiation): a battle with secrets: true draws none (DN3-CAMP-NEG-11)", st.Battle.People.ID, st.SideName(side)))
				return
			}
		}
		return
	}
	if st.Neg.Adventurers != "" || st.Neg.Krobs != "" {
		return
	}
	cup, used := st.Battle.People.Cup, Provs(nil)
	if len(cup) == 0 {
		cup, used = defaultCup, Provs{{Assumed: true, Clues: []string{"GAP-21: 2 of each kind"}}}
	}
	pool := negotiation.NewPool(cup)
	for _, side := range []adjudicator.Side{Adventurers, Krobs} {
		if pool.Len() == 0 {
			w.r.Fail(fmt.Errorf("dragonnoir: battle: people: cup: empty, no Negotiation marker for the %s", st.SideName(side)))
			return
		}
		roll := w.r.RollFor(adjudicator.To(side), fmt.Sprintf("the %s' Negotiation marker, one of %d face down", st.SideName(side), pool.Len()), 1, pool.Len())
		m, err := pool.Draw(roll.Total)
		if err != nil {
			w.r.Fail(err)
			return
		}
		w.emit(adjudicator.Seal(adjudicator.To(side), negKey, &NegDrawn{Side: side, Marker: m}))
		w.tell(adjudicator.To(side), used, "You draw the Negotiation marker %q for the %s, seen by you alone until the end of battle turn 5 (DN3-CAMP-NEG-11, AMB-70).", m, st.Battle.People.ID)
	}
}

// The part "negotiation": a side's marker drawn by the campaign.
func init() {
	secretParts["negotiation"] = secretPart{
		check: func(st *State, side adjudicator.Side, value string) string {
			switch {
			case !st.negotiating():
				return "no people waits off the map for Step 5 in this battle (battle: people:, not attacked)"
			case !negotiation.Valid(negotiation.Marker(value)):
				return fmt.Sprintf("%q is no Negotiation marker: %v", value, negotiation.Kinds)
			}
			return ""
		},
		read: func(w *world, side adjudicator.Side, value string) {
			m := negotiation.Marker(value)
			w.emit(adjudicator.Seal(adjudicator.To(side), negKey, &NegDrawn{Side: side, Marker: m}))
			w.tell(adjudicator.To(side), nil, "Your Negotiation marker for the %s, drawn in the campaign, is %q, seen by you alone until the end of battle turn 5 (DN3-CAMP-NEG-11, AMB-70).", w.st().Battle.People.ID, m)
		},
	}
}

// endOfTurnFive is the end of battle turn 5 (AMB-70): Step 5's reveal.
func (w *world) endOfTurnFive() { w.resolveNegotiation(true) }

// resolveNegotiation reveals both markers and combines them (AMB-57,
// AMB-58); enter says whether the people may still enter (turn 6).
func (w *world) resolveNegotiation(enter bool) {
	st := w.st()
	if !st.negotiating() || st.Neg.Outcome != "" || st.Neg.Adventurers == "" {
		return
	}
	w.emit(&adjudicator.Reveal{Keys: []string{negKey}})
	pp := st.Battle.People
	alive := func(side adjudicator.Side) bool {
		for _, id := range pp.Influence[side] {
			if c := st.Chars[id]; c != nil && c.Side == side && c.Face != Killed && !c.Left && c.At != "" {
				return true
			}
		}
		return false
	}
	a, k := st.Neg.Adventurers, st.Neg.Krobs
	aGone, kGone := !st.present(Adventurers), !st.present(Krobs)
	w.say(nil, "End of battle turn 5: the Negotiation markers are revealed: the %s drew %q, the %s %q (DN3-CAMP-NEG-11, AMB-70).", st.SideName(Adventurers), a, st.SideName(Krobs), k)
	for side, gone := range map[adjudicator.Side]bool{Adventurers: aGone, Krobs: kGone} {
		if gone {
			w.say(nil, "The %s have no counter left on the field: their marker is discarded (AMB-58).", st.SideName(side))
		}
	}
	var joins adjudicator.Side
	outcome := "neutral"
	switch negotiation.AfterFlight(a, k, alive(Adventurers), alive(Krobs), aGone, kGone) {
	case negotiation.A:
		joins, outcome = Adventurers, "rebels"
	case negotiation.B:
		joins, outcome = Krobs, "reptilians"
	default:
		if aGone && kGone {
			outcome = "none"
		}
	}
	ev := &NegResolved{Outcome: outcome}
	if joins == "" {
		w.emit(ev)
		w.say(nil, "The %s stay neutral: they take no part in the battle (AMB-57).", pp.ID)
		return
	}
	ev.Joins = joins
	if enter {
		ev.Edge = st.allyEdge(joins)
	}
	if ev.Edge == "" {
		ev.Joins = ""
		w.emit(ev)
		w.say(nil, "The %s ally with the %s (AMB-57) but do not enter this battle.", pp.ID, st.SideName(joins))
		return
	}
	w.emit(ev)
	w.say(nil, "The %s ally with the %s (AMB-57): %s wait off the map by the edge to %s, one the %s did not use, and enter in the %s' player-turn of battle turn 6 by their orders (DN3-CAMP-BATTLE-9).",
		pp.ID, st.SideName(joins), list(pp.Units), ev.Edge, st.SideName(Other(joins)), st.SideName(joins))
}

// allyEdge is the Region whose edge a people joining side enters by: one
// its enemy neither entered nor left by (DN3-CAMP-BATTLE-9); among those
// the one the side's own counters came by first, else the first by name
// (assumed: the rules say no more). "" if the enemy used every edge.
func (s *State) allyEdge(side adjudicator.Side) string {
	used := map[string]bool{}
	for _, c := range s.Chars {
		if c.Side == Other(side) && c.Edge != "" {
			used[c.Edge] = true
		}
	}
	var free []string
	for _, r := range slices.Sorted(maps.Keys(regionSet(s.regions()))) {
		if !used[r] {
			free = append(free, r)
		}
	}
	for _, c := range s.Sorted() { // the side's own edge first
		if c.Side == side && c.Edge != "" && slices.Contains(free, c.Edge) {
			return c.Edge
		}
	}
	if len(free) == 0 {
		return ""
	}
	return free[0]
}

func regionSet(rs []string) map[string]bool {
	out := map[string]bool{}
	for _, r := range rs {
		out[r] = true
	}
	return out
}

// negotiationMarkers puts Step 5 in v: a side's own draw while sealed;
// the outcome once resolved, and always in the final view.
func (s *State) negotiationMarkers(v *adjudicator.View, viewer adjudicator.Side) {
	if !s.negotiating() {
		return
	}
	if s.Neg.Outcome != "" {
		v.Markers["negotiation"] = s.Neg.Outcome
		return
	}
	if viewer == Adventurers || viewer == Krobs || viewer == adjudicator.Referee {
		for _, side := range []adjudicator.Side{Adventurers, Krobs} {
			if m := s.Neg.drawn(side); m != "" && (viewer == side || viewer == adjudicator.Referee) {
				v.Markers["negotiation-drawn:"+string(side)] = string(m)
			}
		}
	}
}
