package conquete

import (
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// armyEdit is a change to one side's army sheet made in several steps (the
// dead taken out, the counters that left the map placed, a people joining)
// and emitted as one Sheet, sealed to the side (HID-11).
type armyEdit struct {
	st       *State
	side     adjudicator.Side
	troops   []*Troop // the sheet after, in order
	counters map[string]*Counter
	order    []string // the counters changed, in order
}

func newArmyEdit(st *State, side adjudicator.Side) *armyEdit {
	return &armyEdit{st: st, side: side, troops: cloneTroops(st.SideTroops(side)), counters: map[string]*Counter{}}
}

// counter is id's state as the edit changes it.
func (a *armyEdit) counter(id string) *Counter {
	if c := a.counters[id]; c != nil {
		return c
	}
	c := *a.st.Counters[id]
	a.counters[id] = &c
	a.order = append(a.order, id)
	return &c
}

// troop is the troop id after the edit, nil if none.
func (a *armyEdit) troop(id string) *Troop {
	for _, t := range a.troops {
		if t.ID == id {
			return t
		}
	}
	return nil
}

// troopOf is the troop holding counter id after the edit, nil if none.
func (a *armyEdit) troopOf(id string) *Troop {
	for _, t := range a.troops {
		if slices.Contains(t.Counters, id) {
			return t
		}
	}
	return nil
}

// take takes counters out of their troops; a troop left empty leaves the
// map (DN3-CAMP-TROOP-2).
func (a *armyEdit) take(ids ...string) {
	for _, t := range a.troops {
		t.Counters = slices.DeleteFunc(t.Counters, func(id string) bool { return slices.Contains(ids, id) })
	}
	a.troops = slices.DeleteFunc(a.troops, func(t *Troop) bool { return len(t.Counters) == 0 })
}

// visibleIn are the side's visible troops in region after the edit that a
// counter may join: not stealthy, not the Kandärs' (AMB-53).
func (a *armyEdit) visibleIn(region string) []*Troop {
	var out []*Troop
	for _, t := range a.troops {
		if t.Region == region && !t.Stealthy && t.ID != KandarTroop {
			out = append(out, t)
		}
	}
	return out
}

// free is the side's first free Troop marker after the edit, "" when all 8
// are on the map (DN3-CAMP-TROOP-3).
func (a *armyEdit) free() string {
	for i := 1; i <= MaxTroops; i++ {
		id := "R" + string(rune('0'+i))
		if a.troop(id) == nil {
			return id
		}
	}
	return ""
}

// put adds ids to troop id: the side's troop of that id, or a new troop in
// region (on the path from via, or at the centre for via "").
func (a *armyEdit) put(id, region, via, fatigue string, ids ...string) *Troop {
	if t := a.troop(id); t != nil {
		t.Counters = append(t.Counters, ids...)
		t.Fatigue = worse(t.Fatigue, fatigue)
		return t
	}
	t := &Troop{ID: id, Side: a.side, Region: region, Via: via, Fatigue: fatigue, Counters: slices.Clone(ids)}
	a.troops = append(a.troops, t)
	return t
}

// kill marks ids dead and takes them out of their troops.
func (a *armyEdit) kill(ids ...string) {
	for _, id := range ids {
		a.counter(id).Dead = true
	}
	a.take(ids...)
}

// sheet is the edit as one event, nil when nothing changed.
func (a *armyEdit) sheet() *Sheet {
	s := &Sheet{Side: a.side}
	for _, t := range a.troops {
		if old := a.st.Troop(a.side, t.ID); old == nil || !sameTroop(old, t) {
			c := *t
			c.Counters = slices.Clone(t.Counters)
			s.Troops = append(s.Troops, &c)
		}
	}
	for _, t := range a.st.SideTroops(a.side) {
		if a.troop(t.ID) == nil {
			s.Removed = append(s.Removed, t.ID)
		}
	}
	for _, id := range a.order {
		if c := a.counters[id]; *c != *a.st.Counters[id] {
			s.Counters = append(s.Counters, c)
		}
	}
	if len(s.Troops)+len(s.Removed)+len(s.Counters) == 0 {
		return nil
	}
	return s
}

// emit seals the edit to its side (HID-11).
func (a *armyEdit) emit(x *world) {
	if s := a.sheet(); s != nil {
		x.seal(a.side, "", s)
	}
}

// worse is the more tired of two fatigue levels (a troop is as tired as
// its most tired counters: umpire's ruling where troops merge).
func worse(a, b string) string {
	levels := []string{Fresh, Fatigued, Exhausted}
	if slices.Index(levels, b) > slices.Index(levels, a) {
		return b
	}
	return a
}
