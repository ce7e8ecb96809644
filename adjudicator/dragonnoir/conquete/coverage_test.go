package conquete_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/script/scripttest"
)

// Every DN3- rule ID of Part B of the digest (La Conquête: the campaign,
// the peoples' tactical rules, DN3 magic) is to be accounted for: a rule
// case under conquete/testdata or dragonnoir/testdata names it in its
// "rules:" list, a Go test checks it (byTest), or it is a statement with
// nothing to play (noBehaviour, with the reason). TestRuleCoverage fails
// on an ID nothing accounts for, and on a name the digest does not
// define. Only the lead edits these tables.

const digestPath = "../../../../shared/rules/dragon-noir.md"

// byTest are the rules a Go test checks rather than a case, with the test.
var byTest = map[string]string{
	"DN3-CAMP-MAP-2":   "TestValleyChecks: the paths of valley.yaml join every Region, Table DN3-T2's edges among them",
	"DN3-CAMP-MAP-8":   "TestValleyChecks: a valley has every Region the rules name, the road and the exit",
	"DN3-CAMP-TROOP-4": "TestNoLeaks: the army sheets are always hidden (HID-11): no side sees what the other's troops hold",
	"DN3-CAMP-SIDE-3":  "adjudicator/game TestTeamSeatsAndSides, TestTeamSplit: several players share a side's troops (the engine's teams, docs/teams.md)",
	// Counter lists and values the tactical ruleset's Go tests check.
	"DN3-PEOPLE-BARB-2":   "dragonnoir TestPeoplesCounters: 8 Guanche giants",
	"DN3-PEOPLE-DWARF-3":  "dragonnoir TestPeoplesCounters: the 7 Grey Dwarves",
	"DN3-PEOPLE-ELF-3":    "dragonnoir TestPeoplesCounters: 6 valley Elves",
	"DN3-PEOPLE-HERMIT-3": "dragonnoir TestPeoplesCounters: the Hermit is a hobbit (an Ent may carry him: TestEntCarriesHumansByOption's hobbit)",
	"DN3-PEOPLE-ENT-29":   "dragonnoir TestMagicResistance: Ents 3 (Table DN3-T6)",
	"DN3-PEOPLE-DRAGON-6": "dragonnoir TestMagicResistance: the Black Dragon 9 (Table DN3-T6)",
}

// noBehaviour are the rules no case can show, each with the reason.
var noBehaviour = map[string]string{
	"DN3-WORLD-1":         "setting text: the valley and its fort",
	"DN3-WORLD-4":         "the individual scenarios are still to be written (GAP-27)",
	"DN3-WORLD-5":         "setting text: the characters' traits",
	"DN3-WORLD-6":         "setting text: the peoples of Kazhdîn",
	"DN3-WORLD-7":         "setting text: about a dozen characters begin",
	"DN3-WORLD-8":         "setting text: the peoples of the valley",
	"DN3-PEOPLE-REPT-1":   "introduction to DN3-PEOPLE-REPT-2 … 4, which have cases",
	"DN3-PEOPLE-KANDAR-2": "morale rolls are Magna Carta's (GAP-16); battles are played under the Dragon Noir 2 rules, which have none",
}

var idRE = regexp.MustCompile(`^(?:- |\| )\*\*(DN3-[A-Z]+(?:-[A-Z]+)*-[0-9]+)\*\*`)

func TestRuleCoverage(t *testing.T) {
	cases := scripttest.Load(t, os.DirFS("testdata"), ".")
	cases = append(cases, scripttest.Load(t, os.DirFS("../testdata"), ".")...)
	uncovered := scripttest.RuleCoverage(t, os.DirFS(filepath.Dir(digestPath)), filepath.Base(digestPath), scripttest.CoverageOptions{
		Name: "Part B", What: "DN3 rule IDs", Min: 300,
		Part:    scripttest.Part{From: "# PART B", To: "# PART C", ID: idRE},
		Cases:   cases,
		Checked: func(id string) bool { return strings.HasPrefix(id, "DN3-") },
		ByTest:  byTest, NoBehaviour: noBehaviour,
	})
	if len(uncovered) > 0 {
		t.Errorf("%d DN3 rule IDs of Part B have no case, no Go test and no reason: %s", len(uncovered), strings.Join(uncovered, " "))
	}
}
