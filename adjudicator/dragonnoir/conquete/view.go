package conquete

import (
	"fmt"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// View is the campaign as viewer may see it (E.5):
//   - its own troops fully: where, their markers, their counters with
//     wounds and PE (HID-11), stealthy ones too (HID-12);
//   - the other side's visible troops as markers only: where, on which
//     arrival path, at Rest, moved; never what they hold, nor their
//     fatigue (HID-11); its stealthy troops not at all (HID-12);
//   - the people markers, the peoples allied, the calendar, the phase;
//   - its own sealed choices (the messenger, HID-9; the relations,
//     HID-10; the Sertegs' night, HID-8) and the announced ones.
//
// The referee sees everything; an observer what every side may.
func (ruleset) View(s adjudicator.State, viewer adjudicator.Side) adjudicator.View {
	st := s.(*State)
	d := st.data
	knows := func(side adjudicator.Side) bool { return viewer == adjudicator.Referee || viewer == side }
	v := adjudicator.View{Turn: st.Turn, Phase: st.Phase, Over: st.Over, Winner: st.Winner, Result: st.Result,
		Markers: map[string]any{"day": st.Day, "slot": d.Slots[st.Slot].ID, "night": st.Night(), "held": string(st.Held)}}
	switch st.Phase {
	case PhaseMovement:
		v.Markers["mover"], v.Markers["passes"] = string(st.Mover), st.Passes
	case PhaseNegotiation:
		v.Markers["chooser"] = string(st.Chooser)
		if st.Region != nil {
			v.Markers["region"], v.Markers["step"] = st.Region.Region, st.Region.Step
		}
	}
	for _, t := range st.Troops {
		own := knows(t.Side)
		if t.Stealthy && !own {
			continue
		}
		u := adjudicator.UnitView{ID: t.Key(), Side: t.Side, Type: "troop", At: t.Region}
		if t.Via != "" && !t.Stealthy {
			u.Status = append(u.Status, "from:"+t.Via)
		}
		if t.Stealthy {
			u.Status = append(u.Status, "stealthy")
		}
		if t.Rest {
			u.Status = append(u.Status, "rest")
		}
		if t.Moved {
			u.Status = append(u.Status, "moved")
		}
		if own {
			if t.Fatigue != "" {
				u.Status = append(u.Status, t.Fatigue)
			}
			u.Values = strings.Join(t.Counters, " ")
			u.Ready = st.Phase == PhaseMovement && st.Mover == t.Side && !t.Moved && !t.Rest && viewer != adjudicator.Referee
		}
		v.Units = append(v.Units, u)
	}
	for _, id := range sortedCounters(d) {
		c := st.Counters[id]
		if c == nil || c.Side == "" || !knows(c.Side) {
			continue
		}
		t := st.TroopOf(id)
		if t == nil && !c.Dead {
			continue // not in play yet (the Kandärs before they arrive)
		}
		u := adjudicator.UnitView{ID: id, Side: c.Side, Type: c.Kind, Gone: c.Dead}
		if t != nil {
			u.At = t.Region
			u.Status = append(u.Status, "troop:"+t.ID)
		}
		switch {
		case c.Wounds == 1:
			u.Status = append(u.Status, "wounded")
		case c.Wounds > 1:
			u.Status = append(u.Status, fmt.Sprintf("wounded-%d", c.Wounds))
		}
		if c.PE > 0 {
			u.Status = append(u.Status, fmt.Sprintf("pe:%d", c.PE))
		}
		v.Units = append(v.Units, u)
	}
	for _, id := range d.PeopleOrder {
		p := st.Peoples[id]
		for _, r := range p.Markers {
			v.Markers["people:"+r] = id
		}
		if p.Allied != "" {
			v.Markers["allied:"+id] = string(p.Allied)
		}
		if rel, ok := st.Relations[id]; ok && (knows(Reptilians) || p.Announced) {
			v.Markers["relation:"+id] = rel
		}
	}
	if m := st.Messenger; (m.Ally != "" || m.Traitor != "") && (knows(Rebels) || m.Announced) {
		if m.Ally != "" {
			v.Markers["messenger"] = "ally:" + m.Ally
		} else {
			v.Markers["messenger"] = "traitor:" + m.Traitor
		}
	}
	if st.SertegNight != 0 && (knows(Rebels) || st.SertegTurn > 0) {
		v.Markers["serteg-night"] = st.SertegNight
	}
	for _, side := range sides {
		if knows(side) && st.Phase != PhaseSetup {
			v.Markers["free-markers:"+string(side)] = MaxTroops - st.markersUsed(side)
		}
	}
	for _, b := range st.Battles {
		if !b.Done {
			v.Markers["battle"] = b.Key
		}
		v.Notes = append(v.Notes, battleNote(st, b))
	}
	v.Notes = append([]string{fmt.Sprintf("%s: %s", st.when(), phaseTitle(st))}, v.Notes...)
	return v
}

// phaseTitle says where the turn stands, for people.
func phaseTitle(st *State) string {
	switch st.Phase {
	case PhaseSetup:
		return "the setup: both sides' armies, in secret"
	case PhaseReorg:
		return "Reorganisation, both sides at once"
	case PhaseMovement:
		return fmt.Sprintf("Movement, %s to move", sideName(st.Mover))
	case PhaseReveal:
		return "Reveals of stealthy troops"
	case PhaseNegotiation:
		if st.Region != nil {
			return fmt.Sprintf("Negotiations & Battles, resolving %s (%s)", st.data.regionName(st.Region.Region), st.Region.Step)
		}
		return fmt.Sprintf("Negotiations & Battles, %s to choose a Region", sideName(st.Chooser))
	case PhaseOver:
		return "the campaign is over: " + st.Result
	}
	return st.Phase
}

func battleNote(st *State, b *Battle) string {
	s := fmt.Sprintf("%s, turn %d", battleTitle(st, b.Key), b.Turn)
	if !b.Done {
		return s + ": being fought"
	}
	return fmt.Sprintf("%s: %s", s, b.Result)
}
