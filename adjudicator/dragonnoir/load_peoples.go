package dragonnoir

import (
	"slices"
	"strings"
)

// The loader's checks of the counters' La Conquête fields (module.go Kind:
// box, masters, leash, ridden-by, horse-killed …), once
// every kind is read: a master or a rider names a counter of the module.
func (d *Data) peoples(c *checker, f countersFile) {
	const file = "counters.yaml"
	for _, l := range f.Kinds {
		k := d.Kinds[l.V.ID]
		if k == nil || k.ID == "" {
			continue
		}
		at := func(format string, args ...any) {
			c.at(file, l.Line, "kind %s: "+format, append([]any{k.ID}, args...)...)
		}
		if k.Box != "" && k.Box != "dn3" {
			at("box %q: leave it out for a counter of L'Épreuve, or write dn3 for one of La Conquête", k.Box)
		}
		if len(k.Masters) > 0 && len(k.Masters) != len(k.counterNames()) {
			at("masters: one master a counter, %d for its %d", len(k.Masters), len(k.counterNames()))
		}
		for _, m := range k.Masters {
			if d.Counters[m] == nil {
				at("masters: %q is no counter", m)
			}
		}
		if k.Leash < 0 || k.Leash > 0 && len(k.Masters) == 0 {
			at("leash: the hexes it may go from its master (a positive number, with masters:)")
		}
		for _, who := range slices.Concat(k.RiddenBy, k.NotRiddenBy) {
			tag, isTag := strings.CutPrefix(who, "tag:")
			switch {
			case who == "any" || who == "master" && len(k.Masters) > 0:
			case isTag && slices.Contains(counterTags, tag):
			case !isTag && (d.Counters[who] != nil || d.Kinds[who] != nil):
			default:
				at("ridden-by, not-ridden-by: %q is no counter or kind, tag:T with a counter tag, master (with masters:) or any", who)
			}
		}
		if len(k.RiddenBy) > 0 && k.Shape != "single" {
			at("ridden-by: only a counter of one hex is ridden")
		}
		if !slices.Contains([]string{"", Killed, "wound"}, k.HorseKilled) {
			at("horse-killed %q: killed (the default) or wound", k.HorseKilled)
		}
		if k.FireStunnedRetreat < 0 || k.FireStunnedRetreat > 6 {
			at("fire-stunned-retreat is 0 to 6 hexes")
		}
	}
}
