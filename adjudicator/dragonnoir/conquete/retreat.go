package conquete

import (
	"maps"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Retreats (B.11.3), after a flight or a Battle. The battle chapter owns
// these rules; what is here plays them simply, by the text:
//   - a side that fled: its troops on paths go back where they came from,
//     then its troops at the centre leave by a path a troop of theirs fled
//     by, or else one the enemy did not come by (DN3-CAMP-RETREAT-2); into
//     a Region with an enemy troop, or with no such path, they desert
//     (DN3-CAMP-RETREAT-3, AMB-91);
//   - counters that left the tactical map join their side's troops in the
//     Region of the edge they left by, or a free marker there; short of
//     markers, or where an enemy troop stands, they desert
//     (DN3-CAMP-RETREAT-4; placeLeft).

// retreat plays the retreats of region's resolution.
func (x *world) retreat(region string) {
	st := x.st()
	r := st.Region
	if r.Fight == nil || r.Battle != "" {
		return
	}
	for _, side := range sides {
		if r.Fight[side] == "flee" {
			x.flee(region, side)
		}
	}
}

// flee moves side's visible troops out of region (DN3-CAMP-RETREAT-2, -3).
func (x *world) flee(region string, side adjudicator.Side) {
	st, d := x.st(), x.data()
	enemyCame := map[string]bool{}
	for _, t := range st.TroopsIn(region, Other(side)) {
		if t.Via != "" {
			enemyCame[t.Via] = true
		}
	}
	var fledBy []string
	var troops []*Troop
	for _, t := range st.TroopsIn(region, side) {
		if !t.Stealthy {
			troops = append(troops, t)
		}
	}
	// Troops on paths first, then those at the centre.
	slices.SortStableFunc(troops, func(a, b *Troop) int {
		if (a.Via == "") == (b.Via == "") {
			return 0
		}
		if a.Via != "" {
			return -1
		}
		return 1
	})
	for _, t := range troops {
		to := t.Via
		if to == "" {
			for _, r := range fledBy {
				to = r
				break
			}
		}
		if to == "" {
			for _, p := range d.Adjacent(region) {
				o := p.Other(region)
				if !enemyCame[o] && !d.Regions[o].Offmap && (p.Kind != PathDwarf || hasGreyDwarf(st, t)) {
					to = o
					break
				}
			}
		}
		c := *t
		c.Counters = slices.Clone(t.Counters)
		c.Rest, c.RestSince, c.Via = false, 0, "" // AMB-90: a troop that fled loses its Rest too
		switch {
		case to == "" || st.Visible(to, Other(side)):
			x.seal(side, "", &Sheet{Side: side, Removed: []string{t.ID}, Counters: deserted(st, t)})
			x.say(nil, "%s troop %s has nowhere to flee: its counters desert (DN3-CAMP-RETREAT-3, AMB-91).", capital(sideName(side))+"'", t.ID)
			continue
		}
		c.Region = to
		c.Via = region // it arrives from the Region it fled
		x.seal(side, "", &Sheet{Side: side, Troops: []*Troop{&c}})
		x.say(nil, "%s troop %s flees from %s to %s (DN3-CAMP-RETREAT-2).", capital(sideName(side))+"'", t.ID, region, to)
		if !slices.Contains(fledBy, to) {
			fledBy = append(fledBy, to)
		}
	}
}

// deserted are t's counters, dead: they desert.
func deserted(st *State, t *Troop) []*Counter {
	var out []*Counter
	for _, id := range t.Counters {
		c := *st.Counters[id]
		c.Dead = true
		out = append(out, &c)
	}
	return out
}

// placeLeft puts the counters that left a Battle's map (counter → the
// Region of the edge) into troops of their side there (DN3-CAMP-RETREAT-4).
func (x *world) placeLeft(left map[string]string) {
	st := x.st()
	for _, side := range sides {
		byRegion := map[string][]string{}
		for _, id := range slices.Sorted(maps.Keys(left)) {
			if c := st.Counters[id]; c != nil && c.Side == side {
				byRegion[left[id]] = append(byRegion[left[id]], id)
			}
		}
		for _, region := range slices.Sorted(maps.Keys(byRegion)) {
			ids := byRegion[region]
			st = x.st()
			sheet := &Sheet{Side: side}
			// Out of their old troops.
			for _, t := range st.SideTroops(side) {
				kept := slices.DeleteFunc(slices.Clone(t.Counters), func(id string) bool { return slices.Contains(ids, id) })
				if len(kept) == len(t.Counters) {
					continue
				}
				if len(kept) == 0 {
					sheet.Removed = append(sheet.Removed, t.ID)
				} else {
					c := *t
					c.Counters = kept
					sheet.Troops = append(sheet.Troops, &c)
				}
			}
			var dest *Troop
			for _, t := range st.TroopsIn(region, side) {
				if !t.Stealthy && t.ID != KandarTroop && t.ID != SertegTroop && !slices.Contains(sheet.Removed, t.ID) {
					dest = t
					break
				}
			}
			switch {
			case st.Visible(region, Other(side)) || x.data().Regions[region] == nil:
				for _, id := range ids {
					c := *st.Counters[id]
					c.Dead = true
					sheet.Counters = append(sheet.Counters, &c)
				}
				x.say(nil, "%s leave the map toward %s, where the enemy stands: they desert (DN3-CAMP-RETREAT-4).", list(ids), region)
			case dest != nil:
				c := *dest
				c.Counters = append(slices.Clone(dest.Counters), ids...)
				sheet.Troops = append(sheet.Troops, &c)
				x.say(nil, "%s leave the map toward %s and join %s troop %s (DN3-CAMP-RETREAT-4).", list(ids), region, sideName(side)+"'", dest.ID)
			default:
				id := freeAfter(st, side, sheet.Removed)
				if id == "" {
					for _, cid := range ids {
						c := *st.Counters[cid]
						c.Dead = true
						sheet.Counters = append(sheet.Counters, &c)
					}
					x.say(nil, "%s leave the map toward %s, but %s have no Troop marker left: they desert (DN3-CAMP-RETREAT-4).", list(ids), region, sideName(side))
				} else {
					sheet.Troops = append(sheet.Troops, &Troop{ID: id, Side: side, Region: region, Counters: slices.Clone(ids)})
					x.say(nil, "%s leave the map toward %s: %s place troop %s there (DN3-CAMP-RETREAT-4).", list(ids), region, sideName(side), id)
				}
			}
			x.seal(side, "", sheet)
		}
	}
}

// freeAfter is side's first free marker once the troops removed are gone.
func freeAfter(st *State, side adjudicator.Side, removed []string) string {
	for _, id := range removed {
		if validTroopID(id) {
			return id
		}
	}
	return st.FreeMarker(side)
}
