package dragonnoir

import (
	"fmt"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// ModuleSummary says in a line where a module's values come from: how
// many of its table entries, counter kinds, spells and scenarios follow
// the rules text, were entered by a group from its own copy, or were
// assumed. `umpire module list`, the welcome mail and the scenario list
// show it, so that nobody takes an assumed table for the printed one.
func (ruleset) ModuleSummary(m adjudicator.Module) string {
	d, err := LoadModule(m)
	if err != nil {
		return "it does not load: " + err.Error()
	}
	count := map[string]int{}
	total := 0
	for _, p := range d.provenances() {
		count[p.Source()]++
		total++
	}
	var parts []string
	for _, src := range []string{"rule", "user", "assumed"} {
		if count[src] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", count[src], src))
		}
	}
	what := fmt.Sprintf("%d table entries, counter kinds, spells and scenarios (%s)", total, strings.Join(parts, ", "))
	if d.Info.Status == "assumed" {
		return "its tables are assumed, not the printed game's: " + what + "; report lines that use an assumed value say \"(assumed table)\""
	}
	return what
}

// provenances lists the provenance of every entry of the module.
func (d *Data) provenances() []Prov {
	var out []Prov
	for _, k := range d.Key {
		out = append(out, k.Prov)
	}
	for _, c := range d.Columns {
		out = append(out, c.Prov)
	}
	for _, s := range d.Shifts {
		out = append(out, s.Prov)
	}
	for _, t := range d.Terrain {
		out = append(out, t.Prov)
	}
	for _, f := range d.Features {
		out = append(out, f.Prov)
	}
	for _, k := range d.FireKey {
		out = append(out, k.Prov)
	}
	for _, f := range d.Fire {
		out = append(out, f.Prov)
	}
	for _, wp := range d.Weapons {
		out = append(out, wp.Prov)
	}
	for _, r := range d.Infil {
		out = append(out, r.Prov)
	}
	for _, a := range d.Appear {
		out = append(out, a.Prov)
	}
	out = append(out, d.Capsize.Prov, d.Jump.Prov)
	for _, k := range d.Kinds {
		out = append(out, k.Prov)
	}
	for _, s := range d.Spells {
		out = append(out, s.Prov)
	}
	for _, s := range d.Scenarios {
		out = append(out, s.Prov)
	}
	return out
}
