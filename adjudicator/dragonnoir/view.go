package dragonnoir

import (
	"fmt"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// What each side sees (E.5): every character on the map and its state
// (the counters are on the table); a magician's PE only by its own side
// (HID-11); of the hidden markers where they lie, and which is the real
// one only by the side that knows (HID-1 … 3); webs and boats.

// toOwner is the audience of c's own side.
func toOwner(c *Char) adjudicator.Audience { return adjudicator.To(c.Side) }

func (ruleset) View(s adjudicator.State, viewer adjudicator.Side) adjudicator.View {
	st := s.(*State)
	v := adjudicator.View{Map: st.Map, Turn: st.Turn, Phase: st.Step, Over: st.Over, Winner: st.Winner, Result: st.Result,
		Markers: map[string]any{"turn": fmt.Sprintf("%d of %d", st.Turn, st.Turns)}, Traces: st.Traces}
	for _, c := range st.Sorted() {
		if c.At == "" && c.Face != Killed && (st.Battle == nil || c.Expires > 0) && (c.RiddenBy == "" || st.Chars[c.RiddenBy].At == "") && !c.Departed {
			continue // a Gharv in the water, a spectre not summoned
		}
		k := st.Kind(c)
		f, _ := st.Values(c)
		uv := adjudicator.UnitView{ID: c.ID, Side: c.Side, Type: k.ID, Values: values(f, k)}
		if r := st.Chars[c.RiddenBy]; r != nil && r.At != "" { // chapter: the valley's peoples: a steed under its rider
			uv.At, uv.Status = st.loc(r).Hex.String(), []string{c.Face, "ridden by " + r.ID}
			if c.Wounds > 0 {
				uv.Status = append(uv.Status, fmt.Sprintf("wounds %d/%d", c.Wounds, k.Wounds))
			}
		} else if c.Face == Killed || c.At == "" {
			uv.Gone = true
			if c.Departed {
				uv.Status = []string{"departed"} // DN3-PEOPLE-DRUID-6, -GOB-9: back to the wild
			}
		} else {
			l := st.loc(c)
			uv.At = l.Hex.String()
			if l != st.board.FloorLoc(l.Hex) {
				uv.Level = l.Level.String()
			}
			if k.Shape != hex.Single.Name {
				uv.Shape, uv.Facing = k.Shape, c.Facing
				if uv.Facing == "" {
					uv.Facing = st.board.Layout.DirName(0)
				}
			}
			uv.Status = append(uv.Status, c.Face)
			if c.Berserk {
				uv.Status = append(uv.Status, "berserk")
			}
			if c.Mount != "" { // chapter: the valley's peoples
				uv.Status = append(uv.Status, "riding "+c.Mount)
			}
			if c.Fanatic {
				uv.Status = append(uv.Status, "fanatic")
			}
			if c.Wounds > 0 {
				uv.Status = append(uv.Status, fmt.Sprintf("wounds %d/%d", c.Wounds, k.Wounds))
			}
			if c.On != "" { // DN3: carried by an Ent (special_ent.go)
				uv.Status = append(uv.Status, "on "+c.On)
			}
			if k.Level > 0 && (viewer == adjudicator.Referee || viewer == c.Side) {
				uv.Status = append(uv.Status, fmt.Sprintf("PE %d", c.PE))
			}
			uv.Ready = st.ready(c, viewer)
		}
		if st.Battle != nil { // DN3 battles (battle_view.go)
			st.battleUnit(&uv, c, viewer)
		}
		v.Units = append(v.Units, uv)
	}
	if st.Battle != nil {
		st.battleMarkers(&v, viewer)
	}
	for _, w := range st.Webs {
		l, _, _ := hex.ParseLoc(w)
		v.Hexes = append(v.Hexes, adjudicator.HexMark{Kind: "web", At: l.Hex.String()})
	}
	for _, b := range st.Boats {
		v.Hexes = append(v.Hexes, adjudicator.HexMark{Kind: "boat", At: b.At, Label: b.ID + " " + b.Facing}) // its stern, and where its bow points (movement chapter)
	}
	for _, o := range st.Oubliettes { // movement chapter: on the table, seen by both sides (DN-MAP-11)
		l, _, _ := hex.ParseLoc(o)
		v.Hexes = append(v.Hexes, adjudicator.HexMark{Kind: "oubliette", At: l.Hex.String()})
	}
	v.Hexes = append(v.Hexes, st.valleyMarks()...) // magic chapter: lit hexes, terrain a spell made (spell_valley.go)
	for _, h := range st.Hidden {
		l, _, _ := hex.ParseLoc(h.At)
		label := "?"
		if h.Shown || viewer == adjudicator.Referee || (h.Owner != "" && viewer == adjudicator.Side(h.Owner)) {
			label = h.ID
			if h.Real {
				label += "!"
			}
		}
		v.Hexes = append(v.Hexes, adjudicator.HexMark{Kind: "hidden", At: l.Hex.String(), Label: label})
	}
	return v
}

// ready says whether c may still act in the current player-turn, as its
// side sees it.
func (st *State) ready(c *Char, viewer adjudicator.Side) bool {
	if viewer != c.Side || !c.Standing() || st.Pause.Pending != nil {
		return false
	}
	return (st.Step == StepAdventurers && c.Side == Adventurers) || (st.Step == StepKrobs && c.Side == Krobs)
}

// values writes a face's numbers as the counter prints them: attack,
// movement, defence, and the rear defence in brackets (DN-CNT-6, -10).
func values(f Face, k *Kind) string {
	s := fmt.Sprintf("%d-%d-%d", f.Attack, f.Move, f.Defence)
	if f.Rear > 0 {
		s += fmt.Sprintf("(%d)", f.Rear)
	}
	if f.MoveLand > 0 {
		s = fmt.Sprintf("%d-%d(%d)-%d", f.Attack, f.Move, f.MoveLand, f.Defence)
	}
	if k.Armoured {
		s += "A"
	}
	return s
}

// Legend explains the numbers of the views.
func (ruleset) Legend() []string {
	return []string{
		"16-8-10: attack 16, movement 8 MP, defence 10 (DN-CNT-6); 16-8-10A: armoured, the defence circled (DN-CNT-9)",
		"30-4-24(12): the Queen's and Guards' rear defence in brackets (DN-CNT-10); 10-8(3)-7: a Gharv's land movement in brackets (DN-CNT-8)",
		"W: a spider web; ?: a hidden marker (Orb?, Khuzun?, Sun?), named only for the side that knows it",
	}
}
