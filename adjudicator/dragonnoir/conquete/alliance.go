package conquete

import (
	"fmt"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir/negotiation"
)

// MarkerDrawn is a Negotiation marker drawn in the Region being resolved
// (Step 4 public; Step 5 sealed to its side, HID-14).
type MarkerDrawn struct {
	Side   adjudicator.Side `json:"side"`
	Marker string           `json:"marker"`
}

// EventType names the event.
func (*MarkerDrawn) EventType() string { return Prefix + "marker-drawn" }

// relationName is a Reptilian relation for people.
var relationName = map[string]string{"A": "Ally (Allié)", "N": "Neutral (Neutre)", "E": "Enemy (Ennemi)"}

// negotiate resolves the negotiation with people at region
// (DN3-CAMP-NEG-7 … 11): the secret ally and the relation announced the
// first time (DN3-CAMP-ALLY-4, DN3-CAMP-REL-3), then Steps 1 … 5 in
// order, the first that settles the people ending the negotiation.
func (x *world) negotiate(region, people string) {
	st, d := x.st(), x.data()
	p := d.Peoples[people]
	ps := st.Peoples[people]
	if ps != nil && ps.Allied != "" { // the people allied elsewhere (AMB-49: the Hermit's other marker)
		x.join(region, people, ps.Allied, "already allied (AMB-49)")
		return
	}
	dragon := people == "dragon"
	if !dragon && st.Messenger.Ally == people && !st.Messenger.Announced {
		m := st.Messenger
		m.Announced = true
		x.reveal("messenger")
		x.emit(&MessengerSet{Messenger: m})
		x.say(nil, "The Rebels announce their secret ally: %s (DN3-CAMP-ALLY-4).", p.Name)
	}
	if !dragon && p.Relations && (ps == nil || !ps.Announced) {
		x.reveal("relation-" + people)
		var markers []string
		if ps != nil {
			markers = ps.Markers
		}
		x.emit(&PeopleChanged{People: people, Markers: markers, Announced: true})
		rel := st.Relations[people]
		if rel == "" {
			rel = "N"
		}
		x.say(nil, "The Reptilians announce their relation with %s: %s (DN3-CAMP-REL-3).", p.Name, relationName[rel])
	}
	if !dragon {
		switch {
		case st.Messenger.Ally == people: // Step 1
			if x.join(region, people, Rebels, "the Rebels' ally (DN3-CAMP-NEG-7)") {
				return
			}
		case st.Relations[people] == "A": // Step 2
			if x.join(region, people, Reptilians, "the Reptilians' ally (DN3-CAMP-NEG-8)") {
				return
			}
		case st.Relations[people] == "E": // Step 3
			if x.join(region, people, Rebels, "the Reptilians' enemy, it allies with the Rebels (DN3-CAMP-NEG-9)") {
				return
			}
		}
	}
	reb, rep := st.Visible(region, Rebels), st.Visible(region, Reptilians)
	switch {
	case reb && rep: // Step 5
		for _, side := range sides {
			m := x.draw(adjudicator.To(side), side)
			x.seal(side, fmt.Sprintf("marker-t%d-%s-%s", st.Turn, region, side), &MarkerDrawn{Side: side, Marker: string(m)})
			x.tell(side, d.markerProv(m), "You draw the Negotiation marker %s and keep it secret until the end of the Battle's turn 5 (DN3-CAMP-NEG-11).", d.markerName(m))
		}
		x.say(nil, "Both sides are present: each draws a Negotiation marker in secret (DN3-CAMP-NEG-11).")
	case reb || rep: // Step 4
		side := Rebels
		if rep {
			side = Reptilians
		}
		m := x.draw(nil, side)
		x.emit(&MarkerDrawn{Side: side, Marker: string(m)})
		infl := x.influence(region, people, side)
		out := negotiation.Resolve(m, infl, false)
		why := ""
		if infl && (m == negotiation.AllianceNeutral || m == negotiation.EnemyNeutral) {
			why = ", with a character of influence present (DN3-CAMP-NEG-12)"
		}
		x.say(d.markerProv(m), "%s draw the Negotiation marker %s%s (DN3-CAMP-NEG-10).", capital(sideName(side)), d.markerName(m), why)
		x.apply(region, people, side, out)
	}
}

// apply settles a marker's outcome drawn by side (Step 4, or Step 5's).
func (x *world) apply(region, people string, side adjudicator.Side, out negotiation.Outcome) {
	name := x.data().Peoples[people].Name
	switch out {
	case negotiation.JoinsDrawer:
		x.join(region, people, side, "Alliance (DN3-CAMP-NEG-10)")
	case negotiation.JoinsOther:
		x.join(region, people, Other(side), "Enemy of "+sideName(side)+" (DN3-CAMP-NEG-10)")
	default:
		x.say(nil, "%s watch and stay neutral this turn (DN3-CAMP-NEG-10).", name)
	}
}

// draw draws a marker for side from the cup (GAP-21): the markers of the
// kinds in module order, less those drawn already in this Region, one
// picked by a die of as many faces; the cup's content is never told
// (HID-17).
func (x *world) draw(to adjudicator.Audience, side adjudicator.Side) negotiation.Marker {
	st := x.st()
	count := map[negotiation.Marker]int{}
	for _, k := range x.data().Markers {
		count[negotiation.Marker(k.ID)] = k.Count
	}
	pool := negotiation.NewPool(count)
	if st.Region != nil {
		var drawn []negotiation.Marker
		for _, s := range sides {
			if m, ok := st.Region.Drawn[s]; ok {
				drawn = append(drawn, negotiation.Marker(m))
			}
		}
		pool = pool.Without(drawn...)
	}
	r := x.r.RollFor(to, capital(sideName(side))+" draw a Negotiation marker", 1, pool.Len())
	m, err := pool.Draw(r.Total)
	if err != nil {
		x.r.Fail(err)
	}
	return m
}

// influence reports whether side has a character influential for people
// alive in its visible Troops in region (Table DN3-T5, AMB-99: at least
// Min of them).
func (x *world) influence(region, people string, side adjudicator.Side) bool {
	st := x.st()
	in, ok := x.data().Peoples[people].Influence[side]
	if !ok || len(in.Of) == 0 {
		return false
	}
	n := 0
	for _, t := range st.TroopsIn(region, side) {
		if t.Stealthy {
			continue
		}
		for _, id := range t.Counters {
			c := st.Counters[id]
			if c != nil && !c.Dead && (slices.Contains(in.Of, id) || slices.Contains(in.Of, c.Kind)) {
				n++
			}
		}
	}
	return n >= max(in.Min, 1)
}

// join makes people's counters at region join side (DN3-CAMP-MAP-4): the
// first of its visible Troops there, or a new Troop on a free marker; the
// people's marker there is removed and the Region counts as Empty. It
// reports false, the people staying neutral this turn, when the side
// cannot ally with it (Table DN3-T5, AMB-50) or has no marker free
// (DN3-CAMP-NEG-9, -10).
func (x *world) join(region, people string, side adjudicator.Side, why string) bool {
	return x.joinTroop(region, people, side, why, false)
}

// joinTroop is join; apart, the people takes a new Troop marker even where
// the side has a Troop (the side fled, DN3-CAMP-NEG-11).
func (x *world) joinTroop(region, people string, side adjudicator.Side, why string, apart bool) bool {
	st, d := x.st(), x.data()
	p := d.Peoples[people]
	if slices.Contains(p.Impossible, side) {
		x.say(nil, "%s can never ally with %s: they stay neutral this turn (Table DN3-T5).", p.Name, sideName(side))
		return false
	}
	if people == "dragon" && side == Rebels && !x.influence(region, people, Rebels) {
		x.say(nil, "Without Gotmar and the Orb, the Black Dragon stays neutral (AMB-50).")
		return false
	}
	var ids []string
	for _, m := range p.Markers {
		if m.Region == region {
			for _, id := range m.Counters {
				if c := st.Counters[id]; c != nil && !c.Dead && c.Side == "" {
					ids = append(ids, id)
				}
			}
		}
	}
	var dest *Troop
	for _, t := range st.TroopsIn(region, side) {
		if !apart && !t.Stealthy && t.ID != SertegTroop && t.ID != KandarTroop {
			dest = t
			break
		}
	}
	sheet := &Sheet{Side: side}
	switch {
	case dest != nil:
		t := *dest
		t.Counters = append(slices.Clone(dest.Counters), ids...)
		sheet.Troops = []*Troop{&t}
	case st.FreeMarker(side) != "":
		sheet.Troops = []*Troop{{ID: st.FreeMarker(side), Side: side, Region: region, Counters: ids}}
	default:
		x.say(nil, "%s would ally with %s (%s), who have no Troop marker free: they stay neutral this turn (DN3-CAMP-NEG-9, -10).", p.Name, sideName(side), why)
		return false
	}
	ps := st.Peoples[people]
	first := ps == nil || ps.Allied == ""
	for _, id := range ids {
		c := *st.Counters[id]
		c.Side = side
		sheet.Counters = append(sheet.Counters, &c)
	}
	var charged []*Counter
	if first {
		charged = x.firstAlliance(sheet.Counters)
	}
	x.seal(side, "", sheet)
	var markers []string
	announced := false
	if ps != nil {
		markers = slices.DeleteFunc(slices.Clone(ps.Markers), func(r string) bool { return r == region })
		announced = ps.Announced
	}
	x.emit(&PeopleChanged{People: people, Markers: markers, Allied: side, Announced: announced})
	x.say(nil, "%s ally with %s, %s: %s join their troop %s; %s counts as Empty (DN3-CAMP-MAP-4).", p.Name, sideName(side), why, list(ids), sheet.Troops[0].ID, d.regionName(region))
	for _, c := range charged {
		k := d.Counters[c.ID]
		x.tell(side, Provs{k.Prov}, "%s, a level %d caster, receives %d PE at his people's first alliance (%s).", c.ID, k.Level, c.PE, peRule(c.Kind))
	}
	return true
}

// startPE is a counter's PE at the start: none for a people's caster who
// receives them at its first alliance (DN3-PEOPLE-DRUID-1, -GOB-3,
// -HERMIT-1; Table DN3-T7).
func startPE(k *CounterKind) int {
	if k.PEWhen != "" {
		return 0
	}
	return k.PE
}

// firstAlliance gives the casters of a people allying for the first time
// their PE of Table DN3-T7 (DN3-PEOPLE-DRUID-1, DN3-PEOPLE-GOB-3,
// DN3-PEOPLE-HERMIT-1); the unicorns have theirs from the start
// (DN3-PEOPLE-UNIC-9). The counters are the sheet's copies: it changes
// them and returns those charged. A caster with PE left keeps them (the
// Hermit after a fight); one who fought and spent them all is not told
// apart from one who never had them (a ruling, docs).
func (x *world) firstAlliance(cs []*Counter) []*Counter {
	var out []*Counter
	for _, c := range cs {
		k := x.data().Counters[c.ID]
		if k == nil || k.PEWhen == "" || c.PE > 0 {
			continue
		}
		c.PE = k.PE
		out = append(out, c)
	}
	return out
}

// PE-when values of forces.yaml.
const (
	peFirstAlliance = "first-alliance"
	peOrBattle      = "first-alliance-or-battle"
)

// peRule is the rule ID of a caster's first PE.
func peRule(kind string) string {
	switch kind {
	case "gob-shaman":
		return "DN3-PEOPLE-GOB-3"
	case "hermit":
		return "DN3-PEOPLE-HERMIT-1"
	}
	return "DN3-PEOPLE-DRUID-1"
}

// battlePE is an attacked people's counter's PE in a Battle: the Hermit
// receives his at his first fight (DN3-PEOPLE-HERMIT-1).
func battlePE(st *State, c *Counter) int {
	if k := st.data.Counters[c.ID]; k != nil && k.PEWhen == peOrBattle && c.PE == 0 {
		return k.PE
	}
	return c.PE
}

// markerName is a marker's name in the module.
func (d *Data) markerName(m negotiation.Marker) string {
	for _, k := range d.Markers {
		if k.ID == string(m) {
			return fmt.Sprintf("%q", k.Name)
		}
	}
	return string(m)
}

// markerProv is the provenance of the cup's content (GAP-21).
func (d *Data) markerProv(m negotiation.Marker) Provs {
	for _, k := range d.Markers {
		if k.ID == string(m) {
			return Provs{k.Prov}
		}
	}
	return nil
}

// step5Fled settles Step 5 when no Battle is fought after both sides drew
// (DN3-CAMP-NEG-11, AMB-58): a side that fled has its marker discarded and
// the other's is revealed and applied as in Step 4; both fled, both are
// discarded and the people stays neutral. The second Battle this may start
// (the people allying with the side that fled, in a new Troop facing the
// other) is not played: that new Troop stays and the Region is resolved
// (a seam for the battle chapter, AMB-98).
func (x *world) step5Fled(region string) {
	st, d := x.st(), x.data()
	r := st.Region
	if r == nil || len(r.Drawn) < 2 || r.Fight == nil {
		return
	}
	people := st.PeopleAt(region)
	if people == "" {
		return
	}
	var stay []adjudicator.Side
	for _, side := range sides {
		if r.Fight[side] == "flee" {
			x.say(nil, "%s fled: their Negotiation marker is discarded unseen (DN3-CAMP-NEG-11, AMB-58).", capital(sideName(side)))
		} else {
			stay = append(stay, side)
		}
	}
	if len(stay) != 1 {
		x.say(nil, "%s watch and stay neutral this turn (AMB-58).", d.Peoples[people].Name)
		return
	}
	side := stay[0]
	x.reveal(fmt.Sprintf("marker-t%d-%s-%s", st.Turn, region, side))
	m := negotiation.Marker(r.Drawn[side])
	infl := x.influence(region, people, side)
	x.say(d.markerProv(m), "%s reveal their Negotiation marker: %s (DN3-CAMP-NEG-11).", capital(sideName(side)), d.markerName(m))
	out := negotiation.Resolve(m, infl, false)
	if out == negotiation.JoinsOther {
		// The people allies with the side that fled, in a Troop of its
		// own that stays and faces the other: a second Battle, once the
		// flight is done (secondBattle, AMB-98).
		x.say(nil, "%s will ally with %s, who fled, once their flight is done (DN3-CAMP-NEG-11).", d.Peoples[people].Name, sideName(Other(side)))
		return
	}
	x.apply(region, people, side, out)
}

// fledOutcome is, after a flight of one side in a Step 5, the side that
// stayed and the outcome of its marker (DN3-CAMP-NEG-11), ok false
// otherwise.
func (x *world) fledOutcome(region string) (adjudicator.Side, negotiation.Outcome, bool) {
	st := x.st()
	r := st.Region
	if r == nil || len(r.Drawn) < 2 || r.Fight == nil || r.Battle != "" || r.Attack != "" || st.PeopleAt(region) == "" {
		return "", "", false
	}
	var stay []adjudicator.Side
	for _, side := range sides {
		if r.Fight[side] != "flee" {
			stay = append(stay, side)
		}
	}
	if len(stay) != 1 {
		return "", "", false
	}
	m := negotiation.Marker(r.Drawn[stay[0]])
	return stay[0], negotiation.Resolve(m, x.influence(region, st.PeopleAt(region), stay[0]), false), true
}

// secondBattle starts the second Battle a Step 5 may bring
// (DN3-CAMP-NEG-11, AMB-98): after a flight and its retreats, the marker of
// the side that stayed made the people the enemy of that side: the people
// allies with the side that fled, in a Troop of its own, on a free marker,
// and fights the side that stayed at once, as part of the same Region;
// its retreats follow. With no marker free the people stays neutral.
func (x *world) secondBattle(region string) {
	stay, out, ok := x.fledOutcome(region)
	if !ok || out != negotiation.JoinsOther {
		return
	}
	people := x.st().PeopleAt(region)
	if !x.joinTroop(region, people, Other(stay), "Enemy of "+sideName(stay)+" (DN3-CAMP-NEG-10)", true) {
		return
	}
	if !x.st().Visible(region, stay) {
		return
	}
	x.say(nil, "The people's new Troop and %s face each other: a second Battle is fought at once (DN3-CAMP-NEG-11, AMB-98).", sideName(stay))
	x.regionStep(StepAfter) // its result, then its retreats
	x.startBattle(region)
}

// hermitEnt brings an Ent to the Hermit's Troop at the start of the
// Negotiation phase (DN3-PEOPLE-HERMIT-2, AMB-49, PBEM-DN3-27): the Hermit,
// allied with a side and alive, stands in person at a Region where a
// marker of his people other than his own still stands (the Conseil des
// Ents): the Ent counters of that marker join his Troop without a draw,
// and the Region counts as Empty. The choice of PBEM-DN3-27 is among the
// Ents of that marker; the module puts one there (Table DN3-T5), so no
// question is asked.
func (x *world) hermitEnt() {
	st, d := x.st(), x.data()
	const people = "ermite"
	h := st.Counters["hermit"]
	ps := st.Peoples[people]
	if h == nil || h.Dead || h.Side == "" || ps == nil {
		return
	}
	t := st.TroopOf("hermit")
	if t == nil || !slices.Contains(ps.Markers, t.Region) {
		return
	}
	var ids []string
	for _, m := range d.Peoples[people].Markers {
		if m.Region != t.Region || slices.Contains(m.Counters, "hermit") {
			continue
		}
		for _, id := range m.Counters {
			if c := st.Counters[id]; c != nil && !c.Dead && c.Side == "" {
				ids = append(ids, id)
			}
		}
	}
	if len(ids) == 0 {
		return
	}
	side := h.Side
	nt := *t
	nt.Counters = append(slices.Clone(t.Counters), ids...)
	sheet := &Sheet{Side: side, Troops: []*Troop{&nt}}
	for _, id := range ids {
		c := *st.Counters[id]
		c.Side = side
		sheet.Counters = append(sheet.Counters, &c)
	}
	x.seal(side, "", sheet)
	markers := slices.DeleteFunc(slices.Clone(ps.Markers), func(r string) bool { return r == t.Region })
	x.emit(&PeopleChanged{People: people, Markers: markers, Allied: ps.Allied, Announced: ps.Announced})
	x.say(nil, "The Hermit has fetched the help of the Ents: %s join %s troop %s at %s, which counts as Empty (DN3-PEOPLE-HERMIT-2, AMB-49).",
		list(ids), sideName(side)+"'", t.ID, d.regionName(t.Region))
}
