package conquete

import (
	"fmt"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// The region picture (adjudicator.RegionMaps): the valley as one viewer
// may see it, drawn in the results mails and by `umpire render`. It shows
// what View shows (E.5) and nothing more:
//   - the viewer's own troops, with their counters' number, stealthy ones
//     too (marked hidden), at Rest, moved, fatigued (HID-11, HID-12);
//   - the other side's visible troops as bare markers: where, on which
//     arrival path, at Rest, moved; never their size nor their fatigue
//     (HID-11); its stealthy troops never (HID-12);
//   - the people markers and the peoples' alliances;
//   - fog on every Region where the viewer has no troop: a stealthy enemy
//     troop may stand there unseen (DN3-CAMP-STEALTH-3). The markers on
//     the map are seen everywhere, so a fogged Region still shows them.
//
// The traces are the troops' moves of the current Movement phase, a
// stealthy move only to its side. The referee sees everything, without
// fog; an observer sees the markers and the fog everywhere.

var _ adjudicator.RegionMaps = ruleset{}

// RegionGraph is the valley as viewer may see it.
func (ruleset) RegionGraph(s adjudicator.State, viewer adjudicator.Side) (adjudicator.RegionGraph, bool) {
	st, ok := s.(*State)
	if !ok || st.data == nil {
		return adjudicator.RegionGraph{}, false
	}
	d := st.data
	referee := viewer == adjudicator.Referee
	own := func(side adjudicator.Side) bool { return referee || viewer == side }
	// seen: whether viewer may see troop t at all.
	seen := func(t *Troop) bool {
		if own(t.Side) {
			return true
		}
		return !t.Stealthy && st.Phase != PhaseSetup
	}
	g := adjudicator.RegionGraph{
		Title: "The valley of Ekal'ussa d'Assi",
		Legend: []string{
			"R2 (5): your troop R2 of 5 counters; R2: a troop of the other side (its counters are its own secret)",
			"S: the Serteg troop; K: the Kandär troop",
			"hidden: your stealthy troop, off the map for the other side",
			"fog: a Region where you have no troop; a stealthy enemy troop may be there unseen",
			"tunnel path: the Dwarf passage, open to a troop with a Grey Dwarf",
		},
		Notes: []string{fmt.Sprintf("%s: %s", st.when(), phaseTitle(st))},
	}
	present := map[string]bool{}
	for _, t := range st.Troops {
		if viewer == t.Side {
			present[t.Region] = true
		}
	}
	active := ""
	for _, b := range st.Battles {
		if !b.Done {
			active = b.Region
		}
	}
	for _, id := range d.Order {
		r := d.Regions[id]
		n := adjudicator.RegionNode{ID: id, Name: r.Name, X: r.X, Y: r.Y, Kind: regionKind(r),
			Fog: !referee && !present[id]}
		for _, t := range st.Troops {
			if t.Region != id || !seen(t) {
				continue
			}
			it := adjudicator.RegionItem{Side: t.Side, Label: t.ID, At: t.Via}
			if t.Stealthy {
				it.At = ""
				it.Status = append(it.Status, "hidden")
			}
			if own(t.Side) {
				it.Label = fmt.Sprintf("%s (%d)", t.ID, len(t.Counters))
			}
			if t.Rest {
				it.Status = append(it.Status, "rest")
			}
			if t.Moved {
				it.Status = append(it.Status, "moved")
			}
			if own(t.Side) && t.Fatigue != "" {
				it.Status = append(it.Status, t.Fatigue)
			}
			n.Items = append(n.Items, it)
		}
		if p := st.PeopleAt(id); p != "" {
			n.Items = append(n.Items, adjudicator.RegionItem{Label: "people: " + d.Peoples[p].Name})
		}
		if id == "fort-ekal" && st.Held != "" {
			n.Marks = append(n.Marks, "held by "+string(st.Held))
		}
		if id == active {
			n.Marks = append(n.Marks, "battle")
		}
		g.Regions = append(g.Regions, n)
	}
	for _, p := range d.Paths {
		rp := adjudicator.RegionPath{ID: p.ID, A: p.A, B: p.B}
		switch p.Kind {
		case PathDwarf:
			rp.Kind = "tunnel"
		case PathRoad:
			rp.Kind = "road"
		case PathExit:
			rp.Kind = "exit"
		}
		g.Paths = append(g.Paths, rp)
	}
	for _, t := range st.Troops {
		if len(t.Trail) < 2 || !seen(t) || t.TrailHidden && !own(t.Side) {
			continue
		}
		g.Traces = append(g.Traces, adjudicator.RegionTrace{Side: t.Side, Path: slices.Clone(t.Trail), Label: t.ID})
	}
	for _, id := range d.PeopleOrder {
		if p := st.Peoples[id]; p != nil && p.Allied != "" {
			g.Notes = append(g.Notes, fmt.Sprintf("%s: allied to %s", d.Peoples[id].Name, sideName(p.Allied)))
		}
	}
	return g, true
}

// regionKind is how a Region is drawn.
func regionKind(r *Region) string {
	switch {
	case r.Offmap:
		return "exit"
	case r.ID == "fort-ekal":
		return "fort"
	case r.Forest:
		return "forest"
	case r.Marsh:
		return "marsh"
	case r.People != "":
		return "framed"
	}
	return "plain"
}
