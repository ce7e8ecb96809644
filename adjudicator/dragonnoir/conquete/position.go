package conquete

import (
	"fmt"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

// A position starts a game in the middle of the campaign, at the start of
// a phase of a turn: for rule cases and a referee's what-ifs
// (docs/la-conquete.md, "Positions"). It gives the calendar, the phase,
// the sealed choices, the troops with their counters and markers, the
// counters' wounds and PE, and the peoples that allied.
type Position struct {
	Day         int               `yaml:"day"`
	Slot        string            `yaml:"slot"`
	Turn        int               `yaml:"turn"`  // default: counted from the calendar's start
	Phase       string            `yaml:"phase"` // reorganisation (default), movement, reveal, negotiation
	Mover       adjudicator.Side  `yaml:"mover"` // movement: whose move (default rebels)
	Messenger   Messenger         `yaml:"messenger"`
	Relations   map[string]string `yaml:"relations"` // default N for every people not given
	SertegNight int               `yaml:"serteg-night"`
	SertegTurn  int               `yaml:"serteg-turn"`
	Held        adjudicator.Side  `yaml:"held"` // who holds Fort Ekal (default reptilians)
	Troops      []PosTroop        `yaml:"troops"`
	Counters    []PosCounter      `yaml:"counters"`
	Peoples     []PosPeople       `yaml:"peoples"`
}

// PosTroop is a troop of a position.
type PosTroop struct {
	Side     adjudicator.Side `yaml:"side"`
	Troop    string           `yaml:"troop"`
	At       string           `yaml:"at"`
	Via      string           `yaml:"via"`
	Counters []string         `yaml:"counters"`
	Stealthy bool             `yaml:"stealthy"`
	Rest     bool             `yaml:"rest"`
	Fatigue  string           `yaml:"fatigue"`
	Moved    bool             `yaml:"moved"`
}

// PosCounter sets a counter's state.
type PosCounter struct {
	Unit   string `yaml:"unit"`
	Wounds int    `yaml:"wounds"`
	PE     *int   `yaml:"pe"`
	Dead   bool   `yaml:"dead"`
}

// PosPeople sets a people's state: allied to a side (its markers gone), or
// its markers.
type PosPeople struct {
	People    string           `yaml:"people"`
	Allied    adjudicator.Side `yaml:"allied"`
	Markers   *[]string        `yaml:"markers"`
	Announced bool             `yaml:"announced"`
}

func positionSetup(d *Data, opt options, src []byte) (*State, error) {
	var p Position
	if err := yamlx.Unmarshal(src, &p); err != nil {
		return nil, fmt.Errorf("position: %w", err)
	}
	st := newGame(d, opt)
	st.Waits, st.Asked = nil, 0
	if p.Day == 0 {
		p.Day = d.Start.Day
	}
	if p.Slot == "" {
		p.Slot = d.Start.Slot
	}
	slot := d.slot(p.Slot)
	if slot < 0 || p.Day < 1 {
		return nil, fmt.Errorf("position: day %d, slot %q: a day from 1 and a slot of the calendar", p.Day, p.Slot)
	}
	st.Day, st.Slot = p.Day, slot
	st.Turn = p.Turn
	if st.Turn == 0 {
		st.Turn = (p.Day-d.Start.Day)*len(d.Slots) + slot - d.slot(d.Start.Slot) + 1
	}
	st.Messenger, st.SertegNight, st.SertegTurn = p.Messenger, p.SertegNight, p.SertegTurn
	if p.Held != "" {
		st.Held = p.Held
	}
	st.Relations = map[string]string{}
	for _, id := range d.PeopleOrder {
		if d.Peoples[id].Relations {
			st.Relations[id] = "N"
		}
	}
	for id, v := range p.Relations {
		if _, ok := st.Relations[id]; !ok || (v != "A" && v != "N" && v != "E") {
			return nil, fmt.Errorf("position: relations: %s: %s is not one of the 7 peoples, or not A, N or E", id, v)
		}
		st.Relations[id] = v
	}
	for _, pp := range p.Peoples {
		ps := st.Peoples[pp.People]
		if ps == nil {
			return nil, fmt.Errorf("position: no people %q", pp.People)
		}
		if pp.Allied != "" {
			ps.Allied, ps.Markers = pp.Allied, nil
		}
		if pp.Markers != nil {
			ps.Markers = slices.Clone(*pp.Markers)
		}
		ps.Announced = pp.Announced
	}
	for _, pt := range p.Troops {
		if pt.Side != Rebels && pt.Side != Reptilians {
			return nil, fmt.Errorf("position: troop %s: side rebels or reptilians", pt.Troop)
		}
		if !validTroopID(pt.Troop) && pt.Troop != SertegTroop && pt.Troop != KandarTroop || st.Troop(pt.Side, pt.Troop) != nil {
			return nil, fmt.Errorf("position: troop %s of the %s: R1 to R8 (or S, K), once each", pt.Troop, pt.Side)
		}
		if d.Regions[pt.At] == nil || pt.Via != "" && d.PathBetween(pt.At, pt.Via) == nil {
			return nil, fmt.Errorf("position: troop %s: at %q, via %q: a Region, and one joined to it", pt.Troop, pt.At, pt.Via)
		}
		if len(pt.Counters) == 0 {
			return nil, fmt.Errorf("position: troop %s is empty", pt.Troop)
		}
		t := &Troop{ID: pt.Troop, Side: pt.Side, Region: pt.At, Via: pt.Via, Counters: slices.Clone(pt.Counters), Stealthy: pt.Stealthy,
			Rest: pt.Rest, Fatigue: pt.Fatigue, Moved: pt.Moved}
		if t.Rest {
			t.RestSince = st.Turn - 1
		}
		if !slices.Contains([]string{Fresh, Fatigued, Exhausted}, t.Fatigue) {
			return nil, fmt.Errorf("position: troop %s: fatigue fatigued or exhausted", pt.Troop)
		}
		for _, id := range pt.Counters {
			k := d.Counters[id]
			if k == nil || st.TroopOf(id) != nil {
				return nil, fmt.Errorf("position: troop %s: %q is no counter of the module, or is in two troops", pt.Troop, id)
			}
			c := st.Counters[id]
			if c == nil {
				c = &Counter{ID: id, Kind: k.Kind, PE: k.PE}
				st.Counters[id] = c
			}
			if k.Side != string(Rebels) && k.Side != string(Reptilians) {
				c.People = k.Side
				if k.PEWhen != "" && c.PE == 0 {
					c.PE = k.PE // an allied people's caster has had its PE (DN3-PEOPLE-DRUID-1)
				}
			}
			c.Side = pt.Side
		}
		st.Troops = append(st.Troops, t)
	}
	slices.SortFunc(st.Troops, troopOrder)
	for _, pc := range p.Counters {
		c := st.Counters[pc.Unit]
		if c == nil {
			return nil, fmt.Errorf("position: counters: %s is in no troop of the position", pc.Unit)
		}
		c.Wounds, c.Dead = pc.Wounds, pc.Dead
		if pc.PE != nil {
			c.PE = *pc.PE
		}
	}
	switch p.Phase {
	case "", PhaseReorg:
		st.Phase, st.Step = PhaseReorg, stepAsked
		st.Waits = both(ReqReorg)
	case PhaseMovement:
		st.Phase, st.Step, st.Mover = PhaseMovement, stepTurns, Rebels
		if p.Mover != "" {
			st.Mover = p.Mover
		}
		st.Waits = []Wait{{Phase: ReqMove, Side: st.Mover}}
	case PhaseReveal:
		st.Phase, st.Step = PhaseReveal, stepAsked
		st.Waits = both(ReqReveal)
	case PhaseNegotiation:
		st.Phase, st.Step, st.Chooser = PhaseNegotiation, stepPick, Reptilians
		if len(eligibleRegions(st)) == 0 {
			return nil, fmt.Errorf("position: phase negotiation, but no Region has anything to resolve (DN3-CAMP-NEG-1)")
		}
		st.Waits = []Wait{{Phase: ReqRegion, Side: Reptilians}}
	default:
		return nil, fmt.Errorf("position: phase %q: reorganisation, movement, reveal or negotiation", p.Phase)
	}
	st.Asked = 1
	for i := range st.Waits {
		st.Waits[i].N = 1
	}
	return st, nil
}
