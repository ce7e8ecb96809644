package dragonrage

import (
	"sort"
	"strconv"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// View is the state as a side sees it. Dragon Rage hides nothing outside
// point-buy army selection (DR-PBEM-5), which umpire does not run yet, so
// every viewer sees the whole board.
func (ruleset) View(s adjudicator.State, viewer adjudicator.Side) adjudicator.View {
	st := s.(*State)
	v := adjudicator.View{
		Map: st.Map, Turn: st.Turn, Phase: phases[st.Phase].title,
		Score: map[adjudicator.Side]int{Invader: st.VP},
		Over:  st.Over, Winner: st.Winner, Result: st.Result,
		Markers: map[string]any{
			"goal":        st.Goal,
			"last-damage": st.LastDamage,
			"last-inside": st.LastInside,
		},
		Traces: st.Traces,
		Notes:  st.stateNotes(), // a decision the game waits on
	}
	if st.Waiting > 0 {
		v.Markers["reinforcements-waiting"] = st.Waiting
	}
	for _, u := range st.Units {
		if u.Pool {
			continue
		}
		t := st.typ(u)
		uv := adjudicator.UnitView{ID: u.ID, Side: u.Side, Type: u.Type, At: u.Hex, Gone: u.Gone, Values: t.Values()}
		if u.Hex == "" && !u.Gone {
			uv.At = "off-map"
		}
		if u.Wounded {
			uv.Status = append(uv.Status, "wounded")
		}
		uv.Status = append(uv.Status, st.unitNotes(u)...) // Elowyn, the T-rex
		if u.Type == "WZD" {
			uv.Status = append(uv.Status, "SP "+strconv.Itoa(u.SP))
		}
		if u.Ladder {
			uv.Status = append(uv.Status, "ladder used")
		}
		if t.HP > 0 && t.Kind == "minor" {
			uv.Damage = []adjudicator.Damage{{Area: "body", Left: max(t.HP-u.Damage, 0), Of: t.HP}}
		}
		v.Units = append(v.Units, uv)
	}
	for h, vp := range st.Destroyed {
		v.Hexes = append(v.Hexes, adjudicator.HexMark{Kind: "vp-destroyed", At: h, Label: strconv.Itoa(vp)})
	}
	for k, e := range st.Entrances {
		switch {
		case e.Broken:
			v.Hexes = append(v.Hexes, adjudicator.HexMark{Kind: "broken", At: k})
		case e.OpenUntil >= st.Turn && e.OpenUntil > 0:
			v.Hexes = append(v.Hexes, adjudicator.HexMark{Kind: "open", At: k})
		case e.Controller == Invader:
			v.Hexes = append(v.Hexes, adjudicator.HexMark{Kind: "controlled-by-invader", At: k})
		}
	}
	for h, b := range st.Bridges {
		kind := "bridge-burned"
		if b != "burned" {
			kind = "bridge-destroyed"
		}
		v.Hexes = append(v.Hexes, adjudicator.HexMark{Kind: kind, At: h})
	}
	magicView(st, &v)
	sort.Slice(v.Hexes, func(i, j int) bool {
		if v.Hexes[i].At != v.Hexes[j].At {
			return v.Hexes[i].At < v.Hexes[j].At
		}
		return v.Hexes[i].Kind < v.Hexes[j].Kind
	})
	return v
}
