package conquete

import (
	"fmt"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir"
)

// ModuleSummary says in a line where a module's values come from, and the
// campaign's length and victory conditions, which are assumed (GAP-23):
// `umpire module list` and the welcome mail show it.
func (ruleset) ModuleSummary(m adjudicator.Module) string {
	d, err := LoadModule(m)
	if err != nil {
		return "it does not load: " + err.Error()
	}
	var victory []string
	for _, v := range d.Victory {
		victory = append(victory, v.Text)
	}
	last := d.Slots[d.slot(d.Length.Slot)].Name
	total, tally := d.provenances().Tally()
	s := fmt.Sprintf("%d Regions, paths, counters, peoples, turns and markers (%s); the campaign runs to the end of the %s of day %d (option length); victory: %s",
		total, tally, last, d.Length.Day, strings.Join(victory, "; "))
	return dragonnoir.SummaryLine(d.Info.Status, "its valley, counters, calendar, victory and markers are assumed, not the draft's", s)
}

// provenances lists the provenance of every entry of the module.
func (d *Data) provenances() Provs {
	out := Provs{d.Info.Prov, d.Rebels.Prov, d.Night.Prov, d.Start.Prov, d.Length.Prov, d.SertegProv, d.KandarProv, d.LordModProv}
	for _, id := range d.Order {
		out = append(out, d.Regions[id].Prov)
	}
	for _, p := range d.Paths {
		out = append(out, p.Prov)
	}
	for _, s := range d.stealth {
		out = append(out, s.Prov)
	}
	for _, k := range d.Kinds {
		out = append(out, k.Prov)
	}
	for _, id := range d.PeopleOrder {
		out = append(out, d.Peoples[id].Prov)
	}
	for _, s := range d.Slots {
		out = append(out, s.Prov)
	}
	for _, v := range d.Victory {
		out = append(out, v.Prov)
	}
	for _, m := range d.Markers {
		out = append(out, m.Prov)
	}
	for _, l := range d.Loyalty {
		out = append(out, l.Prov)
	}
	return out
}
