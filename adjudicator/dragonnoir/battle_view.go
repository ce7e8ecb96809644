package dragonnoir

import (
	"slices"
	"strconv"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// What each side sees of a battle, and the final view the campaign reads
// (the Observer's, once the battle is over: contracts of issue 16).
//
// Every counter of the position is in the view once, with its side: on
// the map at its hex; Gone when dead; At "left:REGION" once it left the
// map by the edge leading to REGION (DN3-CAMP-BATTLE-8), "edge:REGION"
// while it waits off the map to enter by that edge (DN3-CAMP-BATTLE-6),
// "" while it waits to be set up at the centre, where nobody but its side
// knows it will stand (HID-16). Its status says "wounded" once wounded,
// and "wounded-2" after a second wound for a counter that takes three;
// its Fatigue only to its own side until the battle is over (HID-11: its
// effects say it in the reports). The markers: "turn" (the battle turn),
// "region"; once over, "pe:UNIT" (the PE each magician has left) and
// "fled:SIDE" "yes" for a side none of whose counters is left on the
// field, some of them having left the map, by the end of battle turn 5
// (AMB-70: the end of its second player-turn), for Step 5 of the
// negotiation (DN3-CAMP-NEG-11). During the battle a side sees
// the PE of its own magicians only (HID-11), in their status, as in DN2.

// battleUnit completes the view of c for viewer.
func (st *State) battleUnit(uv *adjudicator.UnitView, c *Char, viewer adjudicator.Side) {
	k := st.Kind(c)
	switch {
	case c.Face == Killed || c.Departed: // departed: back to the wild (the valley's peoples)
		uv.Gone, uv.At = true, ""
	case c.Left:
		uv.Gone, uv.At = false, "left:"+c.Edge
	case c.waiting():
		uv.Gone, uv.At = false, "edge:"+c.Edge
	case c.At == "" && c.RiddenBy == "":
		uv.Gone = false // to be set up, or invisible for a while (magic chapter)
	case c.At == "" && st.riderOff(c) != nil: // riders: a steed under its rider off the map (move_rider.go)
		r := st.riderOff(c)
		uv.Gone, uv.At, uv.Status = false, map[bool]string{true: "edge:" + r.Edge}[r.waiting()], []string{c.Face, "ridden by " + r.ID}
	}
	if c.Face == Killed || c.Departed {
		return
	}
	if c.Wounds >= 1 && !slices.Contains(uv.Status, Wounded) {
		uv.Status = append(uv.Status, Wounded)
	}
	if c.Wounds >= 2 && k.Wounds > 2 {
		uv.Status = append(uv.Status, "wounded-2")
	}
	if c.Fatigue != "" && (viewer == adjudicator.Referee || viewer == c.Side || st.Over) {
		uv.Status = append(uv.Status, c.Fatigue)
	}
}

// battleMarkers puts the battle's markers in v.
func (st *State) battleMarkers(v *adjudicator.View, viewer adjudicator.Side) {
	v.Markers["turn"] = strconv.Itoa(st.Turn)
	v.Markers["region"] = st.Battle.Region
	st.negotiationMarkers(v, viewer)        // Step 5 (battle_people.go)
	st.traitorMarkers(v)                    // who changed side (battle_traitor.go)
	for _, r := range st.board.EdgeRuns() { // where each edge leads (DN3-MAPS-2), on its middle hex
		if to := st.Battle.Exits[r.Name]; to != "" {
			v.Hexes = append(v.Hexes, adjudicator.HexMark{Kind: "edge-exit", At: r.Hexes[len(r.Hexes)/2].String(), Label: to})
		}
	}
	if !st.Over {
		return
	}
	for _, c := range st.Sorted() {
		if st.Kind(c).Level > 0 || c.Level > 0 {
			v.Markers["pe:"+c.ID] = c.PE
		}
	}
	if st.Turn > fledBy {
		return
	}
	for _, side := range []adjudicator.Side{Adventurers, Krobs} {
		on, left := false, false
		for _, c := range st.Chars {
			if c.Side != side {
				continue
			}
			on = on || c.At != "" && c.Face != Killed || c.waiting()
			left = left || c.Left && c.Face != Killed
		}
		if !on && left {
			v.Markers["fled:"+string(side)] = "yes"
		}
	}
}

// fledBy is the battle turn by the end of which a side that left the
// field fled it, for Step 5 of the negotiation (DN3-CAMP-NEG-11, AMB-70).
const fledBy = 5
