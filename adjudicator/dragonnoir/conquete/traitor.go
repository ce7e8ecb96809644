package conquete

import (
	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
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
// with the traitor (DN3-CAMP-TRAITOR-4 … 6, Table DN3-T1, AMB-44, AMB-45,
// ROLL-15): the negotiation chapter's.
func (x *world) loyaltyRolls(region string) {}
