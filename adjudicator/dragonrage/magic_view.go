package dragonrage

// What the players see of magic: the markers on the map (DR-MARK-6), the
// boosted units and who controls each Elemental.

import (
	"sort"
	"strconv"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// magicView adds the spell markers and statuses to a view. Markers "fog",
// "whirlwind" and "boost" list them as text for scripts, e.g.
// "1210 (WZD-1)", "1108 W1 (WZD-1)", "0908 r1 (WZD-1)".
func magicView(st *State, v *adjudicator.View) {
	m := st.Magic
	var fogs, winds, boosts []string
	for _, f := range m.Fogs {
		v.Hexes = append(v.Hexes, adjudicator.HexMark{Kind: "fog", At: f.Hex, Radius: 2})
		fogs = append(fogs, f.Hex+" ("+f.Wizard+")")
	}
	for _, x := range m.Whirlwinds {
		v.Hexes = append(v.Hexes, adjudicator.HexMark{Kind: "whirlwind", At: x.Hex, Label: strconv.Itoa(x.Age)})
		winds = append(winds, x.Hex+" W"+strconv.Itoa(x.Age)+" ("+x.Wizard+")")
	}
	for _, b := range m.Boosts {
		v.Hexes = append(v.Hexes, adjudicator.HexMark{Kind: "boost", At: b.Hex, Radius: b.Radius})
		boosts = append(boosts, b.Hex+" r"+strconv.Itoa(b.Radius)+" ("+b.Wizard+")")
	}
	for k, list := range map[string][]string{"fog": fogs, "whirlwind": winds, "boost": boosts} {
		if len(list) > 0 {
			sort.Strings(list)
			v.Markers[k] = strings.Join(list, ", ")
		}
	}
	status := map[string][]string{}
	for _, b := range m.Boosts {
		for _, id := range b.Units {
			status[id] = append(status[id], "boosted")
		}
	}
	for _, b := range m.Bolts {
		status[b.Target] = append(status[b.Target], "lightning "+strconv.Itoa(b.Power)+" waiting")
	}
	for _, e := range m.Elementals {
		if e.Controlled {
			status[e.Unit] = append(status[e.Unit], "controlled by "+e.Wizard)
		} else {
			status[e.Unit] = append(status[e.Unit], "out of control")
		}
	}
	for i := range v.Units {
		u := &v.Units[i]
		if s := status[u.ID]; len(s) > 0 && !u.Gone {
			u.Status = append(u.Status, s...)
		}
	}
}
