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
		for _, t := range st.SideTroops(side) {
			rested := t.Rest && t.RestSince > 0 && t.RestSince < st.Turn
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
func (x *world) kandarTurn() {}

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
		for _, id := range sortedCounters(d) {
			if r := d.Counters[id].Role; (r == "kandar" || r == "kandar-officer") && st.Counters[id] != nil && !st.Counters[id].Dead {
				t.Counters = append(t.Counters, id)
			}
		}
		x.emit(&Sheet{Side: Reptilians, Troops: []*Troop{t}})
		x.say(Provs{d.KandarProv}, "The Kandär detachment in pursuit reaches the valley at Fort Ekal: the Reptilians' troop K, %s (DN3-CAMP-KANDAR-1 … 3).", list(t.Counters))
		x.kandarArrived()
	}
}

// kandarArrived is what the Kandärs do on arriving (DN3-CAMP-KANDAR-4 … 6):
// the Kandär chapter's.
func (x *world) kandarArrived() {}
