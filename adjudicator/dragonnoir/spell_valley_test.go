package dragonnoir_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir"
)

// TestValleyMagicSecrets: in the valley both sides have casters, and each
// caster's PE are his own side's secret (E.5, DN3-MAGIC-12: each sheet
// records its casters' PE): no line nor roll the other side reads tells
// them, nor does its view — while the owner's report and view do, so that
// the test can fail.
func TestValleyMagicSecrets(t *testing.T) {
	pe := regexp.MustCompile(`\bPE\b`)
	for _, c := range []struct {
		file  string
		sides []adjudicator.Side // the sides whose casters' PE the case tells
	}{
		{"testdata/dn3-magic/DN3-MAGIC-1-powerless-valley.yaml", []adjudicator.Side{dragonnoir.Adventurers}},
		{"testdata/dn3-magic/DN3-MAGIC-4-level-bonus.yaml", []adjudicator.Side{dragonnoir.Krobs}},
		{"testdata/dn3-magic/DN3-MAGIC-13-wounded-healed.yaml", []adjudicator.Side{dragonnoir.Adventurers, dragonnoir.Krobs}},
		{"testdata/dn3-magic/DN-MAGIC-9-reptilian-triggers.yaml", []adjudicator.Side{dragonnoir.Krobs}},
	} {
		run := playCase(t, c.file, lookup)
		sideOf := map[string]adjudicator.Side{}
		for _, u := range run.Game.View(adjudicator.Referee).Units {
			sideOf[u.ID] = u.Side
		}
		told := map[adjudicator.Side]int{}
		for _, st := range run.Steps {
			for _, r := range st.Results {
				for _, l := range r.Full {
					if !pe.MatchString(l.Text) {
						continue
					}
					owner := sideOf[strings.TrimSuffix(strings.Fields(l.Text)[0], "'s")]
					for _, other := range []adjudicator.Side{dragonnoir.Adventurers, dragonnoir.Krobs} {
						if other != owner && l.To.Includes(other) {
							t.Errorf("%s: the %s read %q", c.file, other, l.Text)
						}
					}
					if l.To.Includes(owner) {
						told[owner]++
					}
				}
				for _, ro := range r.AllRolls {
					if pe.MatchString(ro.String()) {
						t.Errorf("%s: a roll tells PE: %q", c.file, ro.String())
					}
				}
			}
		}
		for _, s := range c.sides {
			if told[s] == 0 {
				t.Errorf("%s: the %s are told nothing of their casters' PE: the test checks nothing", c.file, s)
			}
		}
		for _, viewer := range []adjudicator.Side{dragonnoir.Adventurers, dragonnoir.Krobs} {
			own := 0
			for _, u := range run.Game.View(viewer).Units {
				shows := pe.MatchString(strings.Join(u.Status, ","))
				switch {
				case shows && u.Side != viewer:
					t.Errorf("%s: the %s's view shows %s's PE: %v", c.file, viewer, u.ID, u.Status)
				case shows:
					own++
				}
			}
			for _, s := range c.sides {
				if s == viewer && own == 0 {
					t.Errorf("%s: the %s's view shows none of their casters' PE", c.file, viewer)
				}
			}
		}
	}
}
