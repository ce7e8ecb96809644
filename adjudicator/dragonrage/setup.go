package dragonrage

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage/board"
	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
)

// knownOptions are the game options besides counter overrides.
var knownOptions = []adjudicator.OptionInfo{
	{Name: "elowyn", Default: "off", Values: []string{"on", "off"}, Doc: "use the optional character Elowyn (DR-SCEN-11, §16.7)"},
	{Name: "counter.TYPE.FIELD", Default: "", Doc: "correct a counter value, e.g. counter.INF.attack=3 (the printed values are assumed: see README)"},
	{Name: "archers", Default: "fire-only", Values: []string{"fire-only", "may-melee"}, Doc: "DR-AMB-24: archers always attack with the fire rules (default), or may also make normal melee attacks as FR §2.7.6.1 reads"},
	{Name: "unguarded-doors", Default: "end-of-move", Values: []string{"end-of-move", "during-move"}, Doc: "DR-AMB-49: troops smash an unguarded door by ending their move next to it (default, FR §2.5.5.1), or on the way for 1 extra MP as unguarded gates are"},
	{Name: "points", Default: "80/75", Doc: "the points of the invader and the defender in a point scenario (points-esirien, points-nurkott), e.g. points=85/77 (DR-PTS-2)"},
	{Name: "goal-adjust", Default: "0", Doc: "add to the invader's VP goal, e.g. goal-adjust=+2 or goal-adjust=-1: the builder's adjustment of DR-THR-2, or the handicap of DR-HCAP-3 (higher handicap minus lower, halved, rounded down: + when the better player invades, - when he defends)"},
	{Name: "forces.SIDE.TYPE", Default: "", Doc: "set a side's number of counters of a type, e.g. forces.invader.TREX=1 (custom armies; the only way to play the T-rex and sea serpents, DR-SCEN-15)"},
}

func optionInfo(name string) adjudicator.OptionInfo {
	for _, o := range knownOptions {
		if o.Name == name {
			return o
		}
	}
	return adjudicator.OptionInfo{}
}

// ruling returns the reading a game chose for an ambiguity option.
func (st *State) ruling(name string) string {
	if v, ok := st.Options[name]; ok {
		return v
	}
	return optionInfo(name).Default
}

// boards caches the loaded boards (read-only once loaded). Games are set
// up and folded on several goroutines at once (the daemon handles mails of
// different games concurrently), so the cache is guarded.
var boards struct {
	sync.Mutex
	m map[string]*hexmap.Map
}

func loadBoard(name string) (*hexmap.Map, error) {
	boards.Lock()
	defer boards.Unlock()
	if m, ok := boards.m[name]; ok {
		return m, nil
	}
	m, err := board.Load(name)
	if err != nil {
		return nil, err
	}
	if boards.m == nil {
		boards.m = map[string]*hexmap.Map{}
	}
	boards.m[name] = m
	return m, nil
}

// setup builds a scenario's starting state: every unit in the box of its
// side, waiting for the setup orders.
func setup(s adjudicator.Setup) (*State, error) {
	d, err := Embedded()
	if err != nil {
		return nil, err
	}
	if s.Position != nil {
		return setupPosition(s)
	}
	if pd, err := Points(); err != nil {
		return nil, err
	} else if ps, ok := pd.scenario(s.Scenario); ok {
		return setupPoints(s, ps)
	}
	sc, ok := d.Scenario(s.Scenario)
	if !ok {
		var ids []string
		for _, x := range d.Scenarios {
			if x.IsPlayable() {
				ids = append(ids, x.ID)
			}
		}
		for _, x := range pointScenarioInfos(nil) {
			ids = append(ids, x.ID)
		}
		return nil, fmt.Errorf("no Dragon Rage scenario %q; the playable ones are %s", s.Scenario, strings.Join(ids, ", "))
	}
	if !sc.IsPlayable() {
		return nil, fmt.Errorf("scenario %s (%s) is not playable in this version of umpire; the playable ones are listed by umpire rulesets", sc.ID, sc.Title)
	}
	if err := checkOptions(s.Options, false); err != nil {
		return nil, err
	}
	if _, ok := s.Options["points"]; ok {
		return nil, fmt.Errorf("option points: it is for the point scenarios (points-esirien, points-nurkott); scenario %s has fixed forces", sc.ID)
	}
	if err := checkCampaignScenario(sc.ID, true, false, s.Options); err != nil { // campaign_game.go
		return nil, err
	}
	adjust, err := goalAdjust(s.Options)
	if err != nil {
		return nil, err
	}
	types, err := d.withOverrides(s.Options)
	if err != nil {
		return nil, err
	}
	m, err := loadBoard(sc.Map)
	if err != nil {
		return nil, err
	}
	st := &State{Scenario: sc.ID, Map: sc.Map, Goal: max(1, sc.Goal+adjust), First: Invader, Phase: phSetupDefender,
		Options: cloneMap(s.Options), types: types, board: m}
	if sc.DefenderFirst {
		st.First = Defender
	}
	counts := map[string]int{}
	add := func(side adjudicator.Side, forces map[string]int) error {
		codes := make([]string, 0, len(forces))
		for c := range forces {
			codes = append(codes, c)
		}
		sort.Strings(codes)
		for _, code := range codes {
			t, ok := types[code]
			if !ok {
				return fmt.Errorf("scenario %s: no counter type %s", sc.ID, code)
			}
			for i := 0; i < forces[code]; i++ {
				counts[code]++
				u := &Unit{ID: fmt.Sprintf("%s-%d", code, counts[code]), Type: code, Side: side}
				if t.Casts() {
					u.SP = 10 // DR-MAGIC-2
				}
				st.Units = append(st.Units, u)
			}
		}
		return nil
	}
	inv, def, err := forces(sc, s.Options, types)
	if err != nil {
		return nil, err
	}
	if err := add(Invader, inv); err != nil {
		return nil, err
	}
	if err := add(Defender, def); err != nil {
		return nil, err
	}
	if s.Options["elowyn"] == "on" {
		st.Units = append(st.Units, &Unit{ID: "ELW-1", Type: "ELW", Side: Defender})
	}
	// The rest of the counter mix waits in the box for reinforcements.
	for _, code := range reinforcementTypes(sc.Map) {
		for counts[code] < d.Mix[code] {
			counts[code]++
			st.Units = append(st.Units, &Unit{ID: fmt.Sprintf("%s-%d", code, counts[code]), Type: code, Side: Defender, Pool: true})
		}
	}
	sortUnits(st.Units)
	return st, nil
}
