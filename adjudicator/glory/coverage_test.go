package glory_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/script/scripttest"
)

// Every rule ID of the Dragons of Glory digest is accounted for: a rule case
// names it in its "rules:" list, a Go test checks it (byTest), it is a
// meta-ID (gaps, ambiguities, decision points, state: metaPrefixes), or it
// is a statement with nothing to play (noBehaviour, each with its reason).
// TestRuleCoverage reads the digest in place and fails on an ID that is none
// of these, and on a list entry gone stale.

const digestPath = "../../../shared/rules/dragons-of-glory.md"

var metaPrefixes = []string{"DG-GAP-", "DG-AMB-", "DG-PBEM-", "DG-STATE-"}

// byTest are the rules a Go test checks rather than a case, with the test.
var byTest = map[string]string{
	"DG-COMP-18":  "TestCRTMatchesTheRulebook: data/crt.yaml against the printed table, cell by cell (read in place from the fan data's crt.csv)",
	"DG-ERRATA-1": "TestErrataCarried: a module's counters carry the errata's values; one naming an erratum with other values is refused",
	"DG-ERRATA-2": "TestErrataCarried: the Silvanesti leader's back, TV 3, WS, 12 MP (and TestImportFound on the imported module)",
	"DG-ERRATA-3": "TestErrataCarried: the four errata fleets' backs, combat value 2, 50 MP",
	"DG-ERRATA-4": "TestErrataCarried: the five elf armies' backs, strength 3, 5 MP",
	"DG-ERRATA-5": "TestErrataCarried: the errata replace the printed values of those ten counters only",
	"DG-FLEET-12": "TestErrataCarried: the errata fleets' damaged face (2, 50 MP) is counter data the loader checks",
	"DG-SEA-7":    "TestFleetBridge: a friendly fleet on a river hexside bridges it only while it has not moved, been displaced or retreated this turn",
	"DG-SETUP-2":  "TestSplitByNation (and adjudicator/game TestTeam*, store/games, mail/referee team tests): several players a side, split by nation",
	"DG-CONQ-3":   "TestNoConquestNations: a nation the module marks no-conquest (the pirates) is never conquered",
	"DG-CONQ-4":   "TestNoConquestNations: likewise Lord Soth's legions (DG-AMB-66)",
}

// noBehaviour are the rules no case can show, each with the reason.
var noBehaviour = map[string]string{
	"DG-COMP-1":  "the components and dice a table needs; umpire rolls the d10, d4 and d6 the rules name (every roll in the cases is labelled with its die)",
	"DG-COMP-2":  "the printed map's two sheets: the module's map is one grid",
	"DG-COMP-3":  "a statement that the hex grid regulates movement; the movement rules have their cases",
	"DG-COMP-4":  "the turn track is printed on the map: the module's calendar (module.yaml) names each turn",
	"DG-COMP-5":  "counters stand for armies of several races: module data (counters.yaml race)",
	"DG-COMP-6":  "leaders and markers exist: module data; their rules have their own cases",
	"DG-COMP-20": "winter turns are longer; the text gives them no rules effect (DG-GAP-6): the calendar marks them, nothing else",
	"DG-COMP-21": "how long a campaign takes experienced players: information",
	"DG-DRAC-3":  "draconians follow the normal rules: no code treats them apart except the Dark Temple's rules, which have cases",
	"DG-MAEL-1":  "what the Maelstrom is, in words: flavour; its rules are DG-MAEL-2 on",
	"DG-MAEL-11": "the Activation Table's Maelstrom entry is not linked to the sea region (DG-AMB-15): a note on the table",
	"DG-NAVAL-2": "that naval combat differs from land combat: information; its rules are DG-NAVAL-1, -3 on",
}

var idRE = regexp.MustCompile(`^(?:- |\| )\*\*(DG-[A-Z]+(?:-[A-Z]+)*-[0-9]+)\b`)

func isMeta(id string) bool {
	for _, p := range metaPrefixes {
		if strings.HasPrefix(id, p) {
			return true
		}
	}
	return false
}

// TestRuleCoverage checks that every rule ID of the digest is accounted for.
func TestRuleCoverage(t *testing.T) {
	uncovered := scripttest.RuleCoverage(t, os.DirFS(filepath.Dir(digestPath)), filepath.Base(digestPath), scripttest.CoverageOptions{
		What: "rule IDs", Min: 300,
		Part:  scripttest.Part{ID: idRE}, // the whole digest
		Cases: scripttest.Load(t, os.DirFS("testdata"), "."),
		// A case may name a meta-ID the digest does not define in bold.
		Checked: func(id string) bool { return !isMeta(id) },
		Meta:    isMeta, MetaFirst: true,
		ByTest: byTest, NoBehaviour: noBehaviour,
	})
	if len(uncovered) > 0 {
		t.Errorf("no case, test or reason accounts for %d rule IDs: %s", len(uncovered), strings.Join(uncovered, " "))
	}
}
