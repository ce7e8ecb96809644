package dragonnoir

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Chapter: the traitor announced during a Battle (DN3-CAMP-TRAITOR-2, -4
// … -6, AMB-44, AMB-45, PBEM-DN3-13). When the Rebels' messenger named a
// Reptilian war chief as the traitor and he fights in this battle, the
// campaign hands the battle a sealed part "traitor" for the Rebels' side,
// the traitor's counter (battle_secrets.go): the Rebels' side alone knows
// it. The Rebels announce him by `traitor: true` in one of their orders
// mails, as in the campaign's mails; before anything of that mail is
// resolved:
//
//   - the traitor goes over to the Rebels at once, his steed with him, and
//     the battle continues (DN3-CAMP-TRAITOR-2); he may be given orders in
//     that very mail;
//   - the referee rolls the loyalty of the Reptilian counters on the map
//     (AMB-44), but the Lord, who always stays loyal, the Kandärs, and a
//     people attacked, who fights for the Reptilians without being their
//     ally (AMB-45); once for all the counters of one people
//     (DN3-CAMP-TRAITOR-6), −2 while the Lord is in the battle
//     (DN3-CAMP-TRAITOR-5); 6 or more goes over to the Rebels at once
//     (Table DN3-T1); a steed goes with its rider and rolls for nobody;
//   - if the Reptilians then have no counter left, the battle ends
//     (DN3-CAMP-BATTLE-10).
//
// Who changed side is public from the announcement: the view's markers
// "turned:UNIT" say "traitor" or "defected", and the final view's units
// carry their side at the end, which the campaign applies.

// The loyalty roll, Table DN3-T1 (rule values, not assumed): a d10, 6 to
// 10 goes over to the Rebels; −2 with the Lord in the battle.
const (
	loyaltyDefects = 6
	loyaltyLordMod = -2
)

// TraitorPart is the name of the sealed part naming the traitor.
const TraitorPart = "traitor"

// BattleTraitor is the traitor in a battle: who he is, for the side that
// knows him (sealed until the announcement), and who changed side.
type BattleTraitor struct {
	Side      adjudicator.Side  `json:"side,omitempty"` // the side that knows him (the Rebels')
	Unit      string            `json:"unit,omitempty"`
	Announced bool              `json:"announced,omitempty"`
	Turned    map[string]string `json:"turned,omitempty"` // unit: traitor, defected
}

// The events of the traitor.
type (
	// TraitorKnown: Side knows Unit is the traitor (sealed to Side).
	TraitorKnown struct {
		Side adjudicator.Side `json:"side"`
		Unit string           `json:"unit"`
	}
	// TraitorAnnounced: Side announced the traitor (public).
	TraitorAnnounced struct {
		Side adjudicator.Side `json:"side"`
		Unit string           `json:"unit"`
	}
	// Turned: Units go over to To, How: traitor or defected.
	Turned struct {
		Units []string         `json:"units"`
		To    adjudicator.Side `json:"to"`
		How   string           `json:"how"`
	}
)

func (*TraitorKnown) EventType() string     { return Prefix + ".traitor-known" }
func (*TraitorAnnounced) EventType() string { return Prefix + ".traitor-announced" }
func (*Turned) EventType() string           { return Prefix + ".turned" }

func traitorEvents() []adjudicator.EventType {
	return []adjudicator.EventType{
		{Name: (&TraitorKnown{}).EventType(), Schema: 1, New: func() adjudicator.Event { return &TraitorKnown{} }},
		{Name: (&TraitorAnnounced{}).EventType(), Schema: 1, New: func() adjudicator.Event { return &TraitorAnnounced{} }},
		{Name: (&Turned{}).EventType(), Schema: 1, New: func() adjudicator.Event { return &Turned{} }},
	}
}

// evolveTraitor applies the traitor's events; false for any other.
func (s *State) evolveTraitor(ev adjudicator.Event) bool {
	switch ev.(type) {
	case *TraitorKnown, *TraitorAnnounced, *Turned:
		// copy on write: a clone of the state shares the pointer
		t := &BattleTraitor{}
		if s.Traitor != nil {
			*t = *s.Traitor
			t.Turned = maps.Clone(s.Traitor.Turned)
		}
		s.Traitor = t
	default:
		return false
	}
	switch e := ev.(type) {
	case *TraitorKnown:
		s.Traitor.Side, s.Traitor.Unit = e.Side, e.Unit
	case *TraitorAnnounced:
		s.Traitor.Side, s.Traitor.Unit, s.Traitor.Announced = e.Side, e.Unit, true
	case *Turned:
		if s.Traitor.Turned == nil {
			s.Traitor.Turned = map[string]string{}
		}
		for _, id := range e.Units {
			if c := s.Chars[id]; c != nil {
				c.Side = e.To
			}
			s.Traitor.Turned[id] = e.How
		}
	}
	return true
}

// traitorSealKey is the key the traitor's part is sealed under in the
// battle, revealed at the announcement. It names the side that holds
// parts, not what they are.
func traitorSealKey(side adjudicator.Side) string { return "parts-" + string(side) }

func init() {
	secretParts[TraitorPart] = secretPart{check: checkTraitorPart, read: readTraitorPart}
}

// checkTraitorPart: the traitor is a counter of the other side in this
// battle.
func checkTraitorPart(st *State, side adjudicator.Side, value string) string {
	if value == NoTraitor {
		return ""
	}
	c := st.Chars[value]
	switch {
	case c == nil:
		return fmt.Sprintf("no counter %q fights in this battle", value)
	case c.Side != Other(side):
		return fmt.Sprintf("%s fights for the %s: the traitor is one of the %s (DN3-CAMP-ALLY-5)", value, st.SideName(c.Side), st.SideName(Other(side)))
	}
	return ""
}

// NoTraitor is the traitor part's value when no traitor of side's fights
// in this battle. A campaign seals the part for every battle, "none" or
// not, so that the number of sealed parts tells nothing (HID-9, HID-12).
const NoTraitor = "none"

// readTraitorPart: side knows the traitor, sealed to it (or knows that
// none fights here: the same sealed event, with no unit).
func readTraitorPart(w *world, side adjudicator.Side, value string) {
	if value == NoTraitor {
		w.emit(adjudicator.Seal(adjudicator.To(side), traitorSealKey(side), &TraitorKnown{Side: side}))
		w.tell(adjudicator.To(side), nil, "No traitor of yours fights in this battle (DN3-CAMP-TRAITOR-2).")
		return
	}
	w.emit(adjudicator.Seal(adjudicator.To(side), traitorSealKey(side), &TraitorKnown{Side: side, Unit: value}))
	w.tell(adjudicator.To(side), nil, "Your messenger's traitor, %s, fights in this battle among the %s: announce him with traitor: true in one of your orders mails (DN3-CAMP-TRAITOR-2).",
		value, w.st().SideName(Other(side)))
}

// traitorWhy says why side may not announce the traitor now, "" when it
// may.
func (s *State) traitorWhy(side adjudicator.Side) string {
	switch {
	case s.Battle == nil:
		return "traitor: is La Conquête's announcement, in a battle"
	case s.Traitor == nil || s.Traitor.Side != side || s.Traitor.Unit == "":
		return fmt.Sprintf("the %s know of no traitor in this battle: only the Rebels whose messenger named one of the war chiefs fighting here may announce him (DN3-CAMP-ALLY-5, DN3-CAMP-TRAITOR-2)", s.SideName(side))
	case s.Traitor.Announced:
		return fmt.Sprintf("the traitor %s was announced already", s.Traitor.Unit)
	}
	return ""
}

// mayOrderTraitor reports whether side may give id orders in a mail that
// announces the traitor: id is the traitor side knows.
func (s *State) mayOrderTraitor(side adjudicator.Side, id string, announcing bool) bool {
	return announcing && s.Traitor != nil && s.Traitor.Side == side && s.Traitor.Unit == id && !s.Traitor.Announced
}

// announceTraitor plays side's announcement, before its mail; it reports
// whether the battle is over.
func (w *world) announceTraitor(side adjudicator.Side) bool {
	st := w.st()
	id := st.Traitor.Unit
	w.emit(&adjudicator.Reveal{Keys: []string{traitorSealKey(side)}})
	w.emit(&TraitorAnnounced{Side: side, Unit: id})
	c := st.Chars[id]
	if c == nil || c.Face == Killed || c.Departed {
		w.say(nil, "The %s announce the traitor: %s, who no longer fights (DN3-CAMP-TRAITOR-2).", st.SideName(side), id)
		return false
	}
	w.emit(&Turned{Units: withSteed(st, id), To: side, How: "traitor"})
	w.say(nil, "The %s announce the traitor: %s goes over to them at once, and the battle continues (DN3-CAMP-TRAITOR-2).", st.SideName(side), id)
	w.loyaltyRolls(side)
	return w.battleOver()
}

// withSteed is id and the steed it rides, if any.
func withSteed(st *State, id string) []string {
	out := []string{id}
	if c := st.Chars[id]; c != nil && c.Mount != "" && st.Chars[c.Mount] != nil {
		out = append(out, c.Mount)
	}
	return out
}

// loyaltyRolls rolls the loyalty of the other side's counters on the map
// (AMB-44, AMB-45, DN3-CAMP-TRAITOR-4 … 6).
func (w *world) loyaltyRolls(to adjudicator.Side) {
	st := w.st()
	from := Other(to)
	lord := false
	var rolls [][]string
	byPeople := map[string]int{}
	for _, c := range st.Sorted() {
		if c.Side != from || c.Face == Killed || c.Departed || c.Left {
			continue
		}
		k := st.Kind(c)
		switch {
		case c.Kind == "lord":
			lord = true // AMB-45: always loyal
		case c.At == "" || c.RiddenBy != "":
			// off the map (waiting, invisible), or a steed: it follows its rider
		case k.Has("kandar") || st.fightsToDeath(c):
			// AMB-45: not Reptilians; a people attacked is no ally
		case st.Battle.Peoples[c.ID] != "":
			p := st.Battle.Peoples[c.ID]
			if i, ok := byPeople[p]; ok {
				rolls[i] = append(rolls[i], c.ID)
			} else {
				byPeople[p] = len(rolls)
				rolls = append(rolls, []string{c.ID})
			}
		default:
			rolls = append(rolls, []string{c.ID})
		}
	}
	if len(rolls) == 0 {
		w.say(nil, "No counter of the %s on the map rolls its loyalty (AMB-44, AMB-45).", st.SideName(from))
		return
	}
	mod := ""
	if lord {
		mod = fmt.Sprintf(" %+d with the Lord (DN3-CAMP-TRAITOR-5)", loyaltyLordMod)
	}
	for _, ids := range rolls {
		who := ids[0]
		if p := st.Battle.Peoples[who]; p != "" {
			who = p + " (" + strings.Join(ids, ", ") + ")"
		}
		r := w.d10("loyalty of " + who)
		n := r.Total
		if lord {
			n += loyaltyLordMod
		}
		if n < loyaltyDefects {
			outcome(r, nil, "%d%s: stays loyal (Table DN3-T1)", n, mod)
			w.say(nil, "Loyalty of %s: %d%s: stays loyal to the Reptilian Lord (DN3-CAMP-TRAITOR-4, Table DN3-T1).", who, r.Total, mod)
			continue
		}
		outcome(r, nil, "%d%s: goes over (Table DN3-T1)", n, mod)
		var units []string
		for _, id := range ids {
			units = append(units, withSteed(st, id)...)
		}
		w.emit(&Turned{Units: units, To: to, How: "defected"})
		w.say(nil, "Loyalty of %s: %d%s: goes over to the %s with the traitor, at once (DN3-CAMP-TRAITOR-4, AMB-44, Table DN3-T1).", who, r.Total, mod, st.SideName(to))
	}
}

// traitorMarkers puts "turned:UNIT" in v for every counter that changed
// side (public from the announcement).
func (st *State) traitorMarkers(v *adjudicator.View) {
	if st.Traitor == nil {
		return
	}
	for _, id := range slices.Sorted(maps.Keys(st.Traitor.Turned)) {
		v.Markers["turned:"+id] = st.Traitor.Turned[id]
	}
}
