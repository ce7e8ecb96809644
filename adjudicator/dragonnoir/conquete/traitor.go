package conquete

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir"
)

// The traitor (DN3-CAMP-TRAITOR-1 … 6, PBEM-DN3-13): the Rebels may
// announce him at any moment of the Movement and the Negotiations &
// Battles phases, never in the Reorganisation, by "traitor: true" in a
// movement or Region-choice mail (in a Battle, the battle chapter's).
// The negotiation chapter owns these rules; what is here checks the
// announcement and moves the traitor, and leaves the loyalty rolls to
// loyaltyRolls.

// checkTraitor checks that side may announce the traitor now.
func checkTraitor(e *errs, st *State, side adjudicator.Side, n *yaml.Node) {
	switch {
	case side != Rebels:
		e.add(n, codeWrongSection, "traitor: is the Rebel player's announcement (DN3-CAMP-TRAITOR-1)")
	case st.Messenger.Traitor == "":
		e.add(n, codeNotNow, "your messenger named no traitor (DN3-CAMP-ALLY-5)")
	case st.Messenger.Announced:
		e.add(n, codeNotNow, "the traitor was announced already")
	}
}

// announceTraitor announces the traitor out of a Battle
// (DN3-CAMP-TRAITOR-3): the messenger is revealed, the Reptilians reveal
// his position, and his counter joins a Rebel troop in his Region, or a
// new one, or deserts when no marker is free (AMB-46); then the loyalty
// rolls (loyaltyRolls).
func (x *world) announceTraitor() {
	st, d := x.st(), x.data()
	m := st.Messenger
	m.Announced = true
	x.reveal("messenger")
	x.emit(&MessengerSet{Messenger: m})
	id := m.Traitor
	from := st.TroopOf(id)
	c := st.Counters[id]
	if from == nil || c == nil || c.Dead {
		x.say(nil, "The Rebels announce the traitor: %s, who is no longer in the valley (DN3-CAMP-TRAITOR-1).", id)
		return
	}
	region := from.Region
	x.say(nil, "The Rebels announce the traitor: %s. The Reptilians reveal where he is: %s, in their troop %s (DN3-CAMP-TRAITOR-3).", id, d.regionName(region), from.ID)
	out := &Sheet{Side: Reptilians}
	if len(from.Counters) == 1 {
		out.Removed = []string{from.ID}
	} else {
		t := *from
		t.Counters = nil
		for _, o := range from.Counters {
			if o != id {
				t.Counters = append(t.Counters, o)
			}
		}
		out.Troops = []*Troop{&t}
	}
	x.seal(Reptilians, "", out)
	in := &Sheet{Side: Rebels}
	turned := *c
	turned.Side = Rebels
	var dest *Troop
	for _, t := range st.TroopsIn(region, Rebels) {
		if t.ID != SertegTroop && t.ID != KandarTroop {
			dest = t
			break
		}
	}
	switch {
	case dest != nil:
		t := *dest
		t.Counters = append(append([]string(nil), dest.Counters...), id)
		in.Troops = []*Troop{&t}
		x.say(nil, "%s joins the Rebels' troop %s.", id, dest.ID)
	case st.FreeMarker(Rebels) != "":
		in.Troops = []*Troop{{ID: st.FreeMarker(Rebels), Side: Rebels, Region: region, Counters: []string{id}}}
		x.say(nil, "%s joins the Rebels in a new troop %s at %s.", id, in.Troops[0].ID, d.regionName(region))
	default:
		turned.Dead = true
		x.say(nil, "The Rebels have no Troop marker left: %s deserts (AMB-46).", id)
	}
	in.Counters = []*Counter{&turned}
	x.seal(Rebels, "", in)
	x.loyaltyRolls(region)
}

// loyaltyRolls rolls the loyalty of each Reptilian counter and each people
// allied to the Reptilians with the traitor in region (DN3-CAMP-TRAITOR-4
// … 6, Table DN3-T1, ROLL-15): the referee rolls a d10 for every visible
// Reptilian counter there but the Lord and the Kandärs (AMB-45), once per
// people, its counters all going the same way; −2 with the Lord there
// (DN3-CAMP-TRAITOR-5). Those who defect follow the traitor: into his
// Rebel troop, or they desert with him (AMB-46).
func (x *world) loyaltyRolls(region string) {
	st, d := x.st(), x.data()
	lord := false
	var rolls [][]string // the counters of each roll
	byPeople := map[string]int{}
	for _, t := range st.TroopsIn(region, Reptilians) {
		if t.Stealthy {
			continue
		}
		for _, id := range t.Counters {
			c := st.Counters[id]
			switch {
			case c == nil || c.Dead:
			case c.Kind == "lord":
				lord = true
			case t.ID == KandarTroop || c.People == "kandar" || slices.Contains([]string{"kandar-officer", "kandar-sergeant", "kandar-rider"}, c.Kind):
			case c.People != "":
				if i, ok := byPeople[c.People]; ok {
					rolls[i] = append(rolls[i], id)
				} else {
					byPeople[c.People] = len(rolls)
					rolls = append(rolls, []string{id})
				}
			default:
				rolls = append(rolls, []string{id})
			}
		}
	}
	traitor := st.Counters[st.Messenger.Traitor]
	dest := st.TroopOf(st.Messenger.Traitor)
	for _, ids := range rolls {
		who := ids[0]
		if c := st.Counters[who]; c.People != "" {
			who = d.Peoples[c.People].Name
		}
		r := x.d10(nil, "loyalty of "+who)
		n := r.Total
		mod := ""
		if lord {
			n += d.LordMod
			mod = fmt.Sprintf(" %+d with the Lord (DN3-CAMP-TRAITOR-5)", d.LordMod)
		}
		var row *LoyaltyRow
		for _, l := range d.Loyalty {
			if n >= l.From && n <= l.To || l == d.Loyalty[0] && n < l.From || l == d.Loyalty[len(d.Loyalty)-1] && n > l.To {
				row = l
			}
		}
		if row == nil || row.Result != "defects" {
			x.say(Provs{row.Prov}, "Loyalty of %s: %d%s: stays loyal to the Reptilian Lord (DN3-CAMP-TRAITOR-4, Table DN3-T1).", who, r.Total, mod)
			continue
		}
		x.say(Provs{row.Prov}, "Loyalty of %s: %d%s: goes over to the Rebels with the traitor (DN3-CAMP-TRAITOR-4, Table DN3-T1).", who, r.Total, mod)
		x.defect(ids, traitor, dest)
		dest = x.st().TroopOf(st.Messenger.Traitor)
	}
}

// defect moves ids out of their Reptilian troops into the traitor's Rebel
// troop dest, or kills them when the traitor deserted (AMB-46).
func (x *world) defect(ids []string, traitor *Counter, dest *Troop) {
	st := x.st()
	out := &Sheet{Side: Reptilians}
	for _, t := range st.SideTroops(Reptilians) {
		left := slices.DeleteFunc(slices.Clone(t.Counters), func(id string) bool { return slices.Contains(ids, id) })
		switch {
		case len(left) == len(t.Counters):
		case len(left) == 0:
			out.Removed = append(out.Removed, t.ID)
		default:
			c := *t
			c.Counters = left
			out.Troops = append(out.Troops, &c)
		}
	}
	x.seal(Reptilians, "", out)
	in := &Sheet{Side: Rebels}
	for _, id := range ids {
		c := *st.Counters[id]
		c.Side = Rebels
		if dest == nil || traitor == nil || traitor.Dead {
			c.Dead = true
		}
		in.Counters = append(in.Counters, &c)
	}
	if dest != nil && traitor != nil && !traitor.Dead {
		t := *dest
		t.Counters = append(slices.Clone(dest.Counters), ids...)
		in.Troops = []*Troop{&t}
	} else {
		x.say(nil, "With no Rebel troop to join, %s desert (AMB-46).", list(ids))
	}
	x.seal(Rebels, "", in)
}

// The traitor in a Battle (DN3-CAMP-TRAITOR-2, AMB-44; the battle's side
// is dragonnoir/battle_traitor.go). When a Battle begins and the Rebels'
// messenger named a traitor not yet announced who fights in it for the
// Reptilians, the campaign seals the part "traitor" for the Rebels' side
// of the Battle (adjudicator.ChildSecret): the Rebels may announce him in
// one of their battle orders mails. The Battle's final view says who
// changed side (its markers "turned:UNIT": traitor, defected); the
// campaign applies it (applyTurned).

// traitorPart is the name of the Battle's sealed part (dragonnoir.TraitorPart).
const traitorPart = "traitor"

// traitorParts seals the part "traitor" for Battle key when its traitor
// fights in pos for the Reptilians, and says the position has sealed
// parts. Call it before the ChildGame is emitted.
func (x *world) traitorParts(key string, pos *BattlePosition) {
	m := x.st().Messenger
	// Every Battle gets the part, "none" when no traitor of the Rebels'
	// fights in it: whether one does, or whether the messenger named a
	// traitor at all (HID-9), must not show in how many parts it reads.
	value := dragonnoir.NoTraitor
	if m.Traitor != "" && !m.Announced &&
		slices.ContainsFunc(pos.Forces, func(f BattleForce) bool { return f.Unit == m.Traitor && f.Side == ChildReptilians }) {
		value = m.Traitor
	}
	p := &adjudicator.ChildSecret{Child: key, Side: ChildRebels, Name: traitorPart, Value: value}
	if err := adjudicator.CheckChildSecret(p); err != nil {
		x.r.Fail(err)
		return
	}
	x.seal(Rebels, "", p)
	pos.Battle.Secrets = true
}

// applyTurned applies the counters that changed side in Battle b (its
// final view v): the messenger counts as announced; each living counter
// that went over leaves its Reptilian troop and joins the Rebels' troop
// in the Region, or a new one, or deserts with no marker free (AMB-46);
// one that left the map is placed with the Rebels' retreats
// (DN3-CAMP-RETREAT-4).
func (x *world) applyTurned(a *aftermath, b *Battle, v adjudicator.View, leftTo map[string]string) {
	st := x.st()
	var ids []string
	traitor := false
	for k, how := range v.Markers {
		id, ok := strings.CutPrefix(k, "turned:")
		if !ok || st.Counters[id] == nil || st.Counters[id].Side != Reptilians {
			continue
		}
		ids = append(ids, id)
		traitor = traitor || fmt.Sprint(how) == "traitor"
	}
	if len(ids) == 0 {
		return
	}
	slices.Sort(ids)
	if m := st.Messenger; traitor && m.Traitor != "" && !m.Announced {
		m.Announced = true
		x.reveal("messenger")
		x.emit(&MessengerSet{Messenger: m})
	}
	rep, reb := a.eds[Reptilians], a.eds[Rebels]
	rep.take(ids...)
	var stay []string
	for _, id := range ids {
		c := *rep.counter(id)
		delete(rep.counters, id)
		rep.order = slices.DeleteFunc(rep.order, func(o string) bool { return o == id })
		c.Side = Rebels
		nc := reb.counter(id)
		*nc = c
		if !c.Dead && leftTo[id] == "" {
			stay = append(stay, id)
		}
	}
	x.say(nil, "%s went over to the Rebels in the Battle (DN3-CAMP-TRAITOR-2, AMB-44): they are the Rebels' counters from now on.", list(ids))
	if len(stay) == 0 {
		return
	}
	dest := reb.free()
	if ts := reb.visibleIn(b.Region); len(ts) > 0 {
		dest = ts[0].ID
	}
	if dest == "" {
		for _, id := range stay {
			reb.counter(id).Dead = true
		}
		x.say(nil, "The Rebels have no Troop marker left: %s desert (AMB-46).", list(stay))
		return
	}
	t := reb.put(dest, b.Region, "", "", stay...)
	x.say(nil, "%s join the Rebels' troop %s.", list(stay), t.ID)
}
