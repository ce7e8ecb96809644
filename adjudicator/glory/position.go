package glory

import (
	"fmt"
	"sort"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

// Position is a game set up at any moment, for rule cases and custom
// set-ups: a turn and step, the nations' standing, and where each counter
// is. Counters it does not name stay in their nation's reserve (neutral) or
// out of play. Victory conditions and the last turn come from Scenario
// when it names one of the module's; otherwise the game has none and ends
// after End.
type Position struct {
	Scenario   string                                 `yaml:"scenario"`
	Turn       int                                    `yaml:"turn"`
	End        int                                    `yaml:"end"`
	Step       string                                 `yaml:"step"` // strategic (default) or move
	Mover      adjudicator.Side                       `yaml:"mover"`
	First      adjudicator.Side                       `yaml:"first"`
	Initiative adjudicator.Side                       `yaml:"initiative"`
	Allies     map[string]adjudicator.Side            `yaml:"allies"`
	Conquered  map[string]adjudicator.Side            `yaml:"conquered"`
	Units      []PosUnits                             `yaml:"units"`
	Cup        []string                               `yaml:"cup"`
	Temple     string                                 `yaml:"temple"`
	Draconians int                                    `yaml:"draconians"`
	Knights    bool                                   `yaml:"knights"`
	Done       map[string][]string                    `yaml:"done"`
	Standing   map[adjudicator.Side]map[string]string `yaml:"standing"`
	// Bonus is this turn's Activation bonus from events already drawn, by
	// side and nation ("" for every nation).
	Bonus    map[adjudicator.Side]map[string]int `yaml:"bonus"`
	Held     map[string]adjudicator.Side         `yaml:"held"`     // fortifications an enemy army took (DG-CONQ-2)
	Capitals map[string]PosCapital               `yaml:"capitals"` // semi-human capitals that moved (DG-CAP)
}

// PosUnits places counters: on the map At a hex (the default), Aboard a
// fleet, in the Maelstrom, in the pool, out, or on the track for Turn.
type PosUnits struct {
	Units   []string         `yaml:"units"`
	At      string           `yaml:"at"`
	Where   string           `yaml:"where"`
	Carrier string           `yaml:"carrier"`
	Turn    int              `yaml:"turn"`
	Side    adjudicator.Side `yaml:"side"`
	Reduced bool             `yaml:"reduced"`
}

func positionSetup(d *Data, opts Rules, src []byte) (*State, error) {
	var p Position
	if err := yamlx.Unmarshal(src, &p); err != nil {
		return nil, fmt.Errorf("position: %w", err)
	}
	st := newState(d, opts)
	if p.Scenario != "" {
		sc, ok := d.Scenario(p.Scenario)
		if !ok {
			return nil, fmt.Errorf("position: module %s has no scenario %q", d.Info.Name, p.Scenario)
		}
		st.Scenario, st.End = sc.ID, sc.End
	}
	if p.Turn < 1 {
		return nil, fmt.Errorf("position: turn %d: give the turn, from 1", p.Turn)
	}
	st.Turn = p.Turn
	if p.End > 0 {
		st.End = p.End
	}
	if st.End < st.Turn {
		st.End = st.Turn
	}
	st.Step = p.Step
	switch p.Step {
	case "", StepStrategic:
		st.Step = StepStrategic
	case StepMove:
		if !validSide(p.Mover) {
			return nil, fmt.Errorf("position: step move needs the mover: highlord or whitestone")
		}
		st.Mover, st.First = p.Mover, p.First
		if st.First == "" {
			st.First = p.Mover
		}
	default:
		return nil, fmt.Errorf("position: step %q: write strategic or move", p.Step)
	}
	st.Initiative = p.Initiative
	for n, side := range p.Allies {
		if st.Nations[n] == nil || !validSide(side) {
			return nil, fmt.Errorf("position: allies: %s: %s", n, side)
		}
		st.Nations[n].Side = side
	}
	for n, side := range p.Conquered {
		if st.Nations[n] == nil || !validSide(side) {
			return nil, fmt.Errorf("position: conquered: %s: %s", n, side)
		}
		st.Nations[n].Conquered = side
	}
	for _, u := range st.Units {
		if k := d.Counters[u.ID]; k.Nation != "" && u.Side == "" {
			u.Side = st.Nations[k.Nation].Side
		}
		if k := d.Counters[u.ID]; u.Side != "" && k.Nation != "" {
			u.Where = Unused // a counter of a nation at war that the position does not place
		}
	}
	for i, pu := range p.Units {
		for _, id := range pu.Units {
			u := st.Units[id]
			if u == nil {
				return nil, fmt.Errorf("position: units %d: no counter %q in the module", i+1, id)
			}
			if pu.Side != "" {
				u.Side = pu.Side
			}
			if u.Side == "" {
				return nil, fmt.Errorf("position: units %d: %s belongs to a neutral nation: give it a side or make its nation an ally", i+1, id)
			}
			u.Reduced, u.Turn = pu.Reduced, pu.Turn
			switch pu.Where {
			case "", OnMap:
				at, err := d.posAt(pu.At, d.Counters[id].Type == Fleet)
				if err != nil {
					return nil, fmt.Errorf("position: units %d: %v", i+1, err)
				}
				u.Where, u.Hex = OnMap, at
			case Aboard:
				u.Where, u.Carrier = Aboard, pu.Carrier
			case InMael, InPool, Out:
				u.Where = pu.Where
			case OnTrack:
				u.Where, u.Hex = OnTrack, pu.At
			default:
				return nil, fmt.Errorf("position: units %d: where %q: write map, aboard, maelstrom, pool, out or track", i+1, pu.Where)
			}
		}
	}
	st.Cup = append([]string(nil), p.Cup...)
	sort.Strings(st.Cup)
	for _, e := range st.Cup {
		if d.Events[e] == nil {
			return nil, fmt.Errorf("position: cup: no event %q in the module", e)
		}
	}
	st.Temple, st.Draconians, st.Knights = p.Temple, p.Draconians, p.Knights
	for f, ids := range p.Done {
		for _, id := range ids {
			st.mark(f, id)
		}
	}
	st.Pause.Standing = p.Standing
	for side, m := range p.Bonus {
		if !validSide(side) {
			return nil, fmt.Errorf("position: bonus: %q is not highlord or whitestone", side)
		}
		for n := range m {
			if n != "" && st.Nations[n] == nil {
				return nil, fmt.Errorf("position: bonus: no nation %q in the module", n)
			}
		}
	}
	if len(p.Bonus) > 0 {
		st.Bonus = p.Bonus
	}
	if err := positionStrategic(st, &p); err != nil {
		return nil, err
	}
	st.Strength = map[adjudicator.Side]int{}
	for _, u := range st.Units {
		if u.Where == OnMap && d.Counters[u.ID].IsArmy() {
			st.Strength[u.Side] += st.Face(u).Strength
		}
	}
	return st, nil
}
