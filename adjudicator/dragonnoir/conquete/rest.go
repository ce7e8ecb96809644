package conquete

import (
	"slices"
)

// Fatigue and rest (B.8). Rest markers are placed and removed in the
// Reorganisation (reorg.go, AMB-96) and lost by the troops of a Region
// where a Battle or a fight-or-flee choice took place (negotiate.go,
// AMB-90). Fatigue changes at the start of each turn (AMB-42); its
// effects in Battle are the battle position's (battle.go: fatigue:).

// fatigue applies the start of a turn (AMB-42, AMB-41): a troop at Rest
// for the whole previous turn loses a level (DN3-CAMP-REST-8); after a
// night, a troop that was not gains one (DN3-CAMP-REST-5, -10), up to
// Exhausted (AMB-43). Fatigue is on the army sheet: only its side is told
// (HID-11).
func (x *world) fatigue() {
	st, d := x.st(), x.data()
	if st.Turn <= 1 {
		return
	}
	prev := st.Slot - 1
	if prev < 0 {
		prev = len(d.Slots) - 1
	}
	night := d.Slots[prev].Night
	for _, side := range sides {
		var changed []*Troop
		var recovered []*Counter
		for _, t := range st.SideTroops(side) {
			rested := t.Rest && t.RestSince > 0 && t.RestSince < st.Turn
			if rested && night {
				recovered = append(recovered, x.recoverPE(t)...)
			}
			level := slices.Index([]string{Fresh, Fatigued, Exhausted}, t.Fatigue)
			switch {
			case rested:
				level = max(level-1, 0)
			case night:
				level = min(level+1, 2)
			}
			if f := []string{Fresh, Fatigued, Exhausted}[level]; f != t.Fatigue {
				c := *t
				c.Counters = slices.Clone(t.Counters)
				c.Fatigue = f
				changed = append(changed, &c)
			}
		}
		if len(recovered) > 0 {
			x.seal(side, "", &Sheet{Side: side, Counters: recovered})
			for _, c := range recovered {
				x.tell(side, Provs{gap25}, "%s rested the whole night and recovers its PE: %d (GAP-25).", c.ID, c.PE)
			}
		}
		if len(changed) == 0 {
			continue
		}
		x.seal(side, "", &Sheet{Side: side, Troops: changed})
		for _, t := range changed {
			state := map[string]string{Fresh: "rested: no longer fatigued", Fatigued: "fatigued", Exhausted: "exhausted"}[t.Fatigue]
			x.tell(side, nil, "Your troop %s is %s (DN3-CAMP-REST-5, -8; AMB-42).", t.ID, state)
		}
	}
}

// kandarTurn is the Kandärs' forced behaviour at the start of a turn
// (DN3-CAMP-KANDAR-4 … 8, AMB-55, AMB-56, PBEM-DN3-28): the siege wait,
// their leaving after the Matin, the run for the exit once their Officer
// is dead. The Kandär chapter plays it; until then the Kandär troop is the
// Reptilians' to move freely (DN3-CAMP-KANDAR-6).
func (x *world) kandarTurn() {
	st, d := x.st(), x.data()
	k := st.Troop(Reptilians, KandarTroop)
	if k == nil || k.Region != "sortie" {
		return
	}
	prev := st.Slot - 1
	if prev < 0 {
		prev = len(d.Slots) - 1
	}
	switch {
	case st.Held != Rebels:
		c := *k
		c.Region, c.Via = "fort-ekal", ""
		x.emit(&Sheet{Side: Reptilians, Troops: []*Troop{&c}})
		x.say(nil, "The Rebels no longer hold Fort Ekal: the Kandärs waiting at the valley exit enter it; the Reptilians may use troop K freely (DN3-CAMP-KANDAR-4, -6, AMB-55).")
	case prev == 0 && st.Turn-1 > st.SertegTurn+d.KandarDelay:
		x.emit(&Sheet{Side: Reptilians, Removed: []string{KandarTroop}})
		x.say(nil, "The Rebels still hold Fort Ekal at the end of the Matin: the Kandärs leave the way they came, to warn their Lord; troop K leaves the game (DN3-CAMP-KANDAR-4, AMB-55, PBEM-DN3-28).")
	}
}

// kandarOfficerDead reports whether the Kandär Officer is dead
// (DN3-CAMP-KANDAR-8).
func kandarOfficerDead(st *State) bool {
	for id, c := range st.Counters {
		if st.data.Counters[id].Role == "kandar-officer" && c.Dead {
			return true
		}
	}
	return false
}

// kandarRun is the Kandärs' run for the exit once their Officer is dead
// (DN3-CAMP-KANDAR-8, AMB-56, PBEM-DN3-28): as the Movement phase begins,
// the referee moves troop K at full capacity along a shortest path to Fort
// Ekal and out of the valley, stopping where it must (DN3-CAMP-MOVE-4).
// Played before the alternation, it is not one of the Reptilians' moves
// (assumed, see the docs).
func (x *world) kandarRun() {
	st, d := x.st(), x.data()
	k := st.Troop(Reptilians, KandarTroop)
	if k == nil || k.Moved || !kandarOfficerDead(st) {
		return
	}
	// Shortest path to the exit, breadth first, never by the road or the
	// Dwarf passage; ties go to the first path of the module.
	from := map[string]string{k.Region: ""}
	queue := []string{k.Region}
	for len(queue) > 0 && from["sortie"] == "" {
		r := queue[0]
		queue = queue[1:]
		for _, p := range d.Adjacent(r) {
			n := p.Other(r)
			if _, seen := from[n]; seen || n == "route" || p.Kind == PathDwarf {
				continue
			}
			from[n] = r
			queue = append(queue, n)
		}
	}
	if _, ok := from["sortie"]; !ok || k.Region == "sortie" {
		return
	}
	var way []string
	for r := "sortie"; r != k.Region; r = from[r] {
		way = append([]string{r}, way...)
	}
	capacity, cprov := Capacity(st, k)
	start := k.Region
	var path []string
	for _, r := range way {
		if len(path) == capacity {
			break
		}
		path = append(path, r)
		if r != "sortie" && mustStop(st, k, r) != "" {
			break
		}
	}
	if path[len(path)-1] == "sortie" {
		x.emit(&Sheet{Side: Reptilians, Removed: []string{KandarTroop}})
		x.say(Provs{cprov}, "Their Officer dead, the Kandärs run for the exit: troop K goes %s → %s and leaves the valley to warn their Lord (DN3-CAMP-KANDAR-8, AMB-56, PBEM-DN3-28).", start, joinArrow(path))
		return
	}
	x.emit(&TroopMoved{Side: Reptilians, Troop: KandarTroop, Path: path})
	x.say(Provs{cprov}, "Their Officer dead, the Kandärs run for the exit: troop K goes %s → %s (DN3-CAMP-KANDAR-8, AMB-56, PBEM-DN3-28).", start, joinArrow(path))
}

// arrivals brings in, as the Movement phase begins (AMB-52), the Serteg
// troop in the Nuit the Rebels chose (DN3-CAMP-SERTEG-2; the module's
// default night when they chose none), stealthy at Fort Ekal, and the
// Kandär troop 2 turns later at Fort Ekal (DN3-CAMP-KANDAR-1, -3).
func (x *world) arrivals() {
	st, d := x.st(), x.data()
	night := st.SertegNight
	if night == 0 {
		night = d.SertegDefault
	}
	if st.SertegTurn == 0 && st.Night() && st.Day == night && st.Troop(Rebels, SertegTroop) == nil {
		t := &Troop{ID: SertegTroop, Side: Rebels, Region: "fort-ekal", Stealthy: true}
		var cs []*Counter
		for _, id := range sortedCounters(d) {
			if d.Counters[id].Side == "serteg" {
				t.Counters = append(t.Counters, id)
				c := *st.Counters[id]
				c.Side = Rebels
				cs = append(cs, &c)
			}
		}
		x.emit(&SertegNightSet{Night: night, Turn: st.Turn})
		x.emit(&PeopleChanged{People: "serteg", Allied: Rebels, Announced: true})
		x.seal(Rebels, "", &Sheet{Side: Rebels, Troops: []*Troop{t}, Counters: cs})
		x.say(Provs{d.SertegProv}, "In the night the Serteg fugitives enter the valley by Fort Ekal, stealthily; they are the Rebels' allies (DN3-CAMP-SERTEG-1 … 3, AMB-52).")
		x.tell(Rebels, nil, "Your stealthy troop S at Fort Ekal: %s.", list(t.Counters))
	}
	st = x.st()
	if st.SertegTurn > 0 && st.Turn == st.SertegTurn+d.KandarDelay && st.Troop(Reptilians, KandarTroop) == nil {
		t := &Troop{ID: KandarTroop, Side: Reptilians, Region: "fort-ekal"}
		var cs []*Counter
		for _, id := range sortedCounters(d) {
			k := d.Counters[id]
			if r := k.Role; r != "kandar" && r != "kandar-officer" {
				continue
			}
			c := st.Counters[id]
			if c == nil {
				// A position that starts before they arrive need not list them.
				c = &Counter{ID: id, Kind: k.Kind, Side: Reptilians, PE: k.PE}
				cs = append(cs, c)
			}
			if !c.Dead {
				t.Counters = append(t.Counters, id)
			}
		}
		x.emit(&Sheet{Side: Reptilians, Troops: []*Troop{t}, Counters: cs})
		x.say(Provs{d.KandarProv}, "The Kandär detachment in pursuit reaches the valley at Fort Ekal: the Reptilians' troop K, %s (DN3-CAMP-KANDAR-1 … 3).", list(t.Counters))
		x.kandarArrived()
	}
	x.kandarRun()
}

// kandarArrived is what the Kandärs do on arriving (DN3-CAMP-KANDAR-4 … 6):
// the Kandär chapter's.
func (x *world) kandarArrived() {
	st := x.st()
	switch {
	case st.Held == Rebels:
		k := *st.Troop(Reptilians, KandarTroop)
		k.Region = "sortie"
		x.emit(&Sheet{Side: Reptilians, Troops: []*Troop{&k}})
		x.say(nil, "Fort Ekal is held by the Rebels: the Kandärs, who will not attack it alone, besiege it from the valley exit, off the map, until the end of the next Matin (DN3-CAMP-KANDAR-4, AMB-55, PBEM-DN3-28).")
	case st.Visible("fort-ekal", Rebels):
		x.say(nil, "Fort Ekal, held by the Reptilians, is besieged by the Rebels: the Kandärs attack them at once, whatever the odds (DN3-CAMP-KANDAR-5, PBEM-DN3-28).")
	default:
		x.say(nil, "Fort Ekal is the Reptilians' and not besieged: they may use troop K freely (DN3-CAMP-KANDAR-6).")
	}
}

// codeKandarWaits refuses a move of troop K while the referee plays it
// (PBEM-DN3-28).
const codeKandarWaits = "kandar-forced"

// restingCaster says whether caster id is in a troop at Rest among troops
// (a side's sheet after its reorganisation): magicians at Rest cannot cast
// (DN3-CAMP-REST-4, DN3-MAGIC-11), for the strategic spells' checks.
func restingCaster(troops []*Troop, id string) bool {
	for _, t := range troops {
		if t.Rest && slices.Contains(t.Counters, id) {
			return true
		}
	}
	return false
}

// gap25 is the interim default of GAP-25: no rule says how PE come back.
var gap25 = Prov{Assumed: true, Clues: []string{"GAP-25: interim default, a caster whose troop was at Rest the whole night recovers its PE up to its maximum at the start of the Matin"}}

// recoverPE gives back their PE to the casters of t, a troop at Rest the
// whole night (GAP-25, assumed): up to the counter's PE (its wounded PE
// when wounded), never down.
func (x *world) recoverPE(t *Troop) []*Counter {
	st, d := x.st(), x.data()
	var out []*Counter
	for _, id := range t.Counters {
		k, c := d.Counters[id], st.Counters[id]
		if k == nil || c == nil || c.Dead || k.Level == 0 {
			continue
		}
		most := k.PE
		if c.Wounds > 0 && k.PEWounded > 0 {
			most = k.PEWounded
		}
		if c.PE < most {
			n := *c
			n.PE = most
			out = append(out, &n)
		}
	}
	return out
}

// kandarAlone reports whether troop K is the Reptilians' only visible troop
// in region (AMB-56: its flight forces the side's choice there).
func kandarAlone(st *State, region string) bool {
	for _, t := range st.TroopsIn(region, Reptilians) {
		if !t.Stealthy && t.ID != KandarTroop {
			return false
		}
	}
	return true
}

// kandarsJoin are the counters of troop K waiting at the valley's exit
// that join a Battle the Reptilians fight at Fort Ekal, from the edge that
// leads to the exit (AMB-55: the besiegers do not start a Battle, they
// join one). Their Officer dead, they flee any Battle and join none
// (AMB-56). Those still on the map at its end go back to waiting at the
// exit (a ruling, see the docs): kandarTurn brings them in at the start of
// the next turn if the Fort is no longer the Rebels'.
func kandarsJoin(st *State, region string) []BattleForce {
	k := st.Troop(Reptilians, KandarTroop)
	if region != "fort-ekal" || k == nil || k.Region != "sortie" || kandarOfficerDead(st) || !st.Visible(region, Reptilians) {
		return nil
	}
	var out []BattleForce
	for _, id := range k.Counters {
		if c := st.Counters[id]; c != nil && !c.Dead {
			out = append(out, BattleForce{Unit: id, Side: ChildReptilians, Zone: "edge", Edge: "sortie", Wounds: c.Wounds, People: c.People})
		}
	}
	return out
}

// kandarsJoined says which Kandärs waiting at the exit join the Battle of
// region (kandarsJoin, AMB-55).
func (x *world) kandarsJoined(region string, pos *BattlePosition) {
	var ids []string
	for _, f := range pos.Forces {
		if f.Zone == "edge" && f.Edge == "sortie" && region == "fort-ekal" && x.st().TroopOf(f.Unit) != nil && x.st().TroopOf(f.Unit).ID == KandarTroop {
			ids = append(ids, f.Unit)
		}
	}
	if len(ids) > 0 {
		x.say(nil, "The Kandärs waiting at the valley exit join the Battle from the edge Sortie de la vallée: %s (DN3-CAMP-KANDAR-4, AMB-55).", list(ids))
	}
}
