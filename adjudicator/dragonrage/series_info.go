package dragonrage

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"sync"

	"github.com/umpire-pbem/umpire/adjudicator/dragonrage/board"
)

// What a series of Dragon Rage games (a tournament, a campaign) needs to
// know of the module data, without reaching into it: the numbered
// scenarios of each map and the VP the map holds.

// numberedRule is the rule ID of a printed, numbered scenario: DR-SCEN-E1
// is Esirien's scenario 1 (FR §3.1.2), DR-SCEN-N6 Nurkott's 6 (FR §3.2.7).
var numberedRule = regexp.MustCompile(`^DR-SCEN-([EN])([1-6])$`)

// NumberedScenarios returns the ids of the six numbered scenarios printed
// for a map (FR §3.1.2-3.1.7 for Esirien, §3.2.2-3.2.7 for Nurkott), in
// their printed order: the scenario numbered n is at index n-1. It fails
// unless the data has exactly those six, each playable: a tournament
// draws among them with 1d6 (DR-TOUR-8, DR-TOUR-9, DR-DICE-24).
func NumberedScenarios(mapName string) ([]string, error) {
	if !slices.Contains(board.Names, mapName) {
		return nil, fmt.Errorf("no Dragon Rage map %q; the maps are %v", mapName, board.Names)
	}
	d, err := Embedded()
	if err != nil {
		return nil, err
	}
	out := make([]string, 6)
	for _, s := range d.Scenarios {
		m := numberedRule.FindStringSubmatch(s.Rule)
		if m == nil || s.Map != mapName {
			continue
		}
		if (m[1] == "E") != (mapName == "esirien") {
			return nil, fmt.Errorf("scenario %s is rule %s but is played on %s", s.ID, s.Rule, s.Map)
		}
		n, _ := strconv.Atoi(m[2])
		if out[n-1] != "" {
			return nil, fmt.Errorf("scenarios %s and %s are both %s", out[n-1], s.ID, s.Rule)
		}
		if !s.IsPlayable() {
			return nil, fmt.Errorf("scenario %s (%s) is not playable in this version", s.ID, s.Title)
		}
		out[n-1] = s.ID
	}
	for i, id := range out {
		if id == "" {
			return nil, fmt.Errorf("map %s has no scenario numbered %d in the data", mapName, i+1)
		}
	}
	return out, nil
}

// ScenarioTitle returns a printed scenario's title ("" if there is none).
func ScenarioTitle(id string) string {
	d, err := Embedded()
	if err != nil {
		return ""
	}
	if s, ok := d.Scenario(id); ok {
		return s.Title
	}
	return ""
}

// MapVP is every VP value printed on a built-in map, added up: what a
// defender holds when nothing is destroyed (tournament resistance points,
// DR-TOUR-4). assumed is true when some of the values are assumed (the
// maps are reconstructions: DR-GAP-1, DR-GAP-2), so the total is too.
func MapVP(mapName string) (total int, assumed bool, err error) {
	v, ok := mapVPs.Load(mapName)
	if !ok {
		var e mapVP
		e.total, e.assumed, e.err = loadMapVP(mapName)
		v, _ = mapVPs.LoadOrStore(mapName, e)
	}
	e := v.(mapVP)
	return e.total, e.assumed, e.err
}

// mapVPs caches MapVP: the built-in maps never change.
var mapVPs sync.Map

type mapVP struct {
	total   int
	assumed bool
	err     error
}

func loadMapVP(mapName string) (total int, assumed bool, err error) {
	m, err := board.Load(mapName)
	if err != nil {
		return 0, false, err
	}
	for _, h := range m.VPHexes() {
		if m.VPProvenance(h).Assumed {
			assumed = true
		}
	}
	return m.TotalVP(), assumed, nil
}
