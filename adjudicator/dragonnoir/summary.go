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
	total, tally := d.provenances().Tally()
	what := fmt.Sprintf("%d table entries, counter kinds, spells and scenarios (%s)", total, tally)
	if n := d.assumedBoards(); n > 0 {
		what += fmt.Sprintf("; %d of its %d cave boards are assumed (GAP-11)", n, len(d.Boards))
	}
	if n := d.assumedScenarios(); n > 0 {
		what += fmt.Sprintf(" and %d of its %d scenarios (GAP-13): umpire's, not the scenario booklet's", n, len(d.Scenarios))
	}
	return SummaryLine(d.Info.Status, "its tables are assumed, not the printed game's", what)
}

// assumedBoards counts the boards whose file says they are assumed.
func (d *Data) assumedBoards() int {
	n := 0
	for _, b := range d.Boards {
		if b.Status == "assumed" {
			n++
		}
	}
	return n
}

// assumedScenarios counts the scenarios marked assumed.
func (d *Data) assumedScenarios() int {
	n := 0
	for _, s := range d.Scenarios {
		if s.Prov.Assumed {
			n++
		}
	}
	return n
}

// provenances lists the provenance of every entry of the module.
func (d *Data) provenances() Provs {
	var out Provs
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

// Tally counts the provenances in all and by source, as a module's
// summary gives them: "3 rule, 1 user, 40 assumed", leaving out a source
// with none. The La Conquête campaign, whose module is in this format,
// summarises its own by it.
func (ps Provs) Tally() (total int, bySource string) {
	count := map[string]int{}
	for _, p := range ps {
		count[p.Source()]++
	}
	var parts []string
	for _, src := range []string{"rule", "user", "assumed"} {
		if count[src] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", count[src], src))
		}
	}
	return len(ps), strings.Join(parts, ", ")
}

// SummaryLine is a module summary's line: what it holds (what), and for a
// module whose status is "assumed" first what of it is assumed (assumed)
// and last that report lines using an assumed value say so.
func SummaryLine(status, assumed, what string) string {
	if status == "assumed" {
		return assumed + ": " + what + "; report lines that use an assumed value say \"(assumed table)\""
	}
	return what
}
