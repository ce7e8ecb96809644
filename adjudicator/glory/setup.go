package glory

import (
	"fmt"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Module checks of the strategic chapter: where a scenario may put the
// Dark Temple (DG-SETUP-5), and the counter errata (DG-ERRATA).

// templeSiteProblem says why scenario s may not start with the Dark Temple
// where it says, or "": a fortress or fortified city of a nation allied to
// the Highlord at the start (DG-SETUP-5, DG-DRAC-2).
func (d *Data) templeSiteProblem(s *Scenario) string {
	h := s.Temple
	if d.Geo.Fort(h) == "" {
		return fmt.Sprintf("%s is not a fortress or fortified city: the Dark Temple goes in one (DG-SETUP-5)", h)
	}
	if n := d.Geo.Nation(h); s.Allies[n] != Highlord {
		return fmt.Sprintf("%s is in %q, which is not allied to the Highlord at the start: the Dark Temple goes in a fortification he controls (DG-DRAC-2)", h, n)
	}
	return ""
}

// errata are the back-face values the Dragon Magazine n°107 errata gives
// to ten counters whose printed backs are blank (DG-ERRATA-1 to -4): the
// Silvanesti leader, four fleets and five elf armies. A counter of a module
// that names one of these rules must carry its values, so that a group
// typing in its counter sheet cannot keep the blank printed back by
// mistake (DG-ERRATA-5, DG-AMB-71: the errata win).
var errata = map[string]struct {
	types []string
	race  string
	side  adjudicator.Side
	back  Face
	what  string
}{
	"DG-ERRATA-2": {types: []string{Leader}, side: Whitestone, back: Face{Strength: 3, MP: 12}, what: "the Silvanesti leader: Tactical Value 3, allegiance Whitestone, 12 MP"},
	"DG-ERRATA-3": {types: []string{Fleet}, back: Face{Strength: 2, MP: 50}, what: "a fleet's back: combat value 2, 50 MP"},
	"DG-ERRATA-4": {types: []string{Infantry, Cavalry}, race: "elf", back: Face{Strength: 3, MP: 5}, what: "an elf army's back: strength 3, 5 MP"},
}

// checkErrata checks a counter kind that names an errata rule.
func checkErrata(where string, k *CounterKind) []error {
	if k.Errata == "" {
		return nil
	}
	e, ok := errata[k.Errata]
	if !ok {
		return []error{fmt.Errorf("%s: errata %q: the counter errata are DG-ERRATA-2 (the Silvanesti leader), DG-ERRATA-3 (fleets) and DG-ERRATA-4 (elf armies)", where, k.Errata)}
	}
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: errata %s is %s: "+format, append([]any{where, k.Errata, e.what}, args...)...))
	}
	if !slices.Contains(e.types, k.Type) {
		bad("this counter is of type %s", k.Type)
	}
	if e.race != "" && k.Race != e.race {
		bad("this counter's race is %q", k.Race)
	}
	if e.side != "" && k.Side != "" && adjudicator.Side(k.Side) != e.side {
		bad("this counter's side is %s", k.Side)
	}
	back := k.Full // a leader has one face
	if k.Half != nil {
		back = *k.Half
	}
	if back != e.back {
		bad("its back reads strength %d, %d MP", back.Strength, back.MP)
	}
	return errs
}
