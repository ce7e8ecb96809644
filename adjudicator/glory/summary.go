package glory

import (
	"fmt"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
)

var _ adjudicator.ModuleSummarizer = ruleset{}

// ModuleSummary says in a line where a module's values come from: how many
// of its nations, counter kinds, events and scenarios follow the rulebook,
// were entered by a group from its own copy, or were assumed; and how many
// of its map's hexes have assumed terrain.
func (ruleset) ModuleSummary(m adjudicator.Module) string {
	d, err := LoadModule(m)
	if err != nil {
		return "it does not load: " + err.Error()
	}
	if d.Info.Status == "assumed" {
		return fmt.Sprintf("everything in it is assumed: its map of %d hexes, %d nations, %d counter kinds, %d event counters and %d scenarios were invented, they are not the printed game's",
			len(d.Map.Hexes()), len(d.Nations), len(d.Kinds), len(d.Events), len(d.Scenarios))
	}
	count := map[string]int{}
	total := 0
	add := func(p Provenance) {
		count[p.Source]++
		total++
	}
	for _, n := range d.Nations {
		add(n.Prov)
	}
	for _, k := range d.Kinds {
		add(k.Prov)
	}
	for _, e := range d.Events {
		add(e.Prov)
	}
	for _, s := range d.Scenarios {
		add(s.Prov)
	}
	hexes, assumedHexes := 0, 0
	for _, h := range d.Map.Hexes() {
		hexes++
		if d.Map.TerrainProvenance(h).Assumed {
			assumedHexes++
		}
	}
	var parts []string
	for _, src := range []string{"rule", "user", "assumed"} {
		if count[src] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", count[src], src))
		}
	}
	what := fmt.Sprintf("%d nations, %d counter kinds, %d event counters and %d scenarios (%s)",
		len(d.Nations), len(d.Kinds), len(d.Events), len(d.Scenarios), strings.Join(parts, ", "))
	if count["assumed"] == total {
		what = fmt.Sprintf("its %d nations, %d counter kinds, %d event counters and %d scenarios are all assumed",
			len(d.Nations), len(d.Kinds), len(d.Events), len(d.Scenarios))
	}
	return fmt.Sprintf("%s; the terrain of %d of its %d map hexes is marked assumed", what, assumedHexes, hexes)
}
