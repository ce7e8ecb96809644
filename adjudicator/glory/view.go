package glory

import (
	"fmt"
	"maps"
	"slices"
	"sort"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// MapName is what a View's Map says: the module's map, by the module's
// name ("demo", "ansalon").
func (s *State) MapName() string { return s.data.Info.Name }

func (ruleset) View(s adjudicator.State, viewer adjudicator.Side) adjudicator.View {
	st := s.(*State)
	v := adjudicator.View{
		Map: st.MapName(), Turn: st.Turn, Phase: st.Step,
		Over: st.Over, Winner: st.Winner, Result: st.Result,
		Markers: map[string]any{"turn": fmt.Sprintf("%d (%s)", st.Turn, st.TurnLabel())},
	}
	if st.Step == StepMove {
		v.Markers["mover"] = string(st.Mover)
	}
	v.Markers["cup"] = len(st.Cup) // counters left in the strategic event cup (DG-EVT-8)
	if st.Temple != "" {
		v.Hexes = append(v.Hexes, adjudicator.HexMark{Kind: "dark-temple", At: st.Temple})
	}
	nations := map[string]string{}
	for _, id := range slices.Sorted(maps.Keys(st.Nations)) {
		n := st.Nations[id]
		switch {
		case n.Conquered != "":
			nations[id] = "conquered by " + string(n.Conquered)
		case n.Side != "":
			nations[id] = string(n.Side)
		default:
			nations[id] = "neutral"
		}
	}
	v.Markers["nations"] = nations
	hidden := map[string]adjudicator.Side{} // hexes shown only as "an enemy stack"
	for _, u := range st.Sorted() {
		k := st.Kind(u.ID)
		if st.hiddenFrom(u, viewer) {
			if u.Where == OnMap {
				hidden[u.Hex] = u.Side
			}
			continue
		}
		uv := adjudicator.UnitView{ID: u.ID, Side: u.Side, Type: k.Type + "/" + k.Race, Values: st.values(u)}
		switch u.Where {
		case OnMap:
			uv.At = u.Hex
			uv.Flying = k.Type == Air
		case Aboard:
			uv.At, uv.Status = st.Units[u.Carrier].Hex, []string{"aboard " + u.Carrier}
			if st.Units[u.Carrier].Where == InMael {
				uv.At = "maelstrom"
			}
		case InMael:
			uv.At, uv.Status = "maelstrom", []string{"in the Maelstrom"}
		case OnTrack:
			uv.At, uv.Status = "off-map", []string{fmt.Sprintf("enters turn %d", u.Turn)}
		case InPool:
			uv.At, uv.Status = "off-map", []string{"replacement pool"}
		case Out:
			uv.Gone = true
		case InReserve, Unused:
			continue // not in play
		}
		if u.Reduced {
			if k.Type == Fleet {
				uv.Status = append(uv.Status, "damaged")
			} else {
				uv.Status = append(uv.Status, "reduced")
			}
		}
		v.Units = append(v.Units, uv)
	}
	hexes := make([]string, 0, len(hidden))
	for h := range hidden {
		hexes = append(hexes, h)
	}
	sort.Strings(hexes)
	for _, h := range hexes {
		v.Units = append(v.Units, adjudicator.UnitView{ID: "stack-" + h, Side: hidden[h], Type: "hidden", At: h})
	}
	for _, t := range st.Traces {
		if u := st.Units[t.Unit]; u != nil && st.Options.Hidden && viewer != adjudicator.Referee && u.Side != viewer && !st.Is("revealed", t.Path[len(t.Path)-1]) {
			continue // an enemy's move under hidden stacks (DG-HIDE-3)
		}
		v.Traces = append(v.Traces, drawable(t))
	}
	return v
}

// hiddenFrom reports whether viewer may not identify u (DG-HIDE-3): with
// hidden stacks, every counter of the other side on the map or aboard,
// except in a hex whose stack an attack has revealed this turn. The
// referee sees everything; a viewer that is no side (an observer) sees
// what both sides see, which is no counter of either.
func (s *State) hiddenFrom(u *Unit, viewer adjudicator.Side) bool {
	if !s.Options.Hidden || viewer == adjudicator.Referee || u.Side == viewer {
		return false
	}
	if u.Where != OnMap && u.Where != Aboard && u.Where != InMael {
		return false
	}
	h := u.Hex
	if u.Where == Aboard {
		h = s.Units[u.Carrier].Hex
	}
	return !s.Is("revealed", h)
}

// values is the counter as printed: strength-MP, a leader's Tactical Value,
// a fleet's combat value and MP.
func (s *State) values(u *Unit) string {
	k := s.Kind(u.ID)
	f := s.Face(u)
	switch k.Type {
	case Leader:
		return fmt.Sprintf("TV%d-%d", f.Strength, f.MP)
	case Wizard:
		return "wizard"
	}
	return fmt.Sprintf("%d-%d", f.Strength, f.MP)
}
