package dragonrage_test

import (
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/script"
	"github.com/umpire-pbem/umpire/adjudicator/script/scripttest"
)

// Every rule ID the digest defines is accounted for, in one of four ways:
// a script names it in its "rules:" list (a rule case or a whole game); a
// Go test checks it (byTest: tables compared cell by cell with the digest,
// the dice catalogue tied to the rolls); it is a meta-ID (gaps,
// ambiguities, the glossary: metaPrefixes) or a statement with nothing to
// play (outOfScope, each with its reason). TestRuleCoverage reads the digest in place and fails on an
// ID that is none of these, and on a list entry gone stale (an ID a case
// now names, or one the digest no longer defines).

// metaPrefixes are the digest's meta-IDs: the gaps (content the books do
// not print, filled as module data marked assumed), the ambiguities (each
// settled by a default, written in docs/rulings/dragon-rage.md and named
// by the cases that apply it) and the glossary.
var metaPrefixes = []string{"DR-GAP-", "DR-AMB-", "DR-GLOSS-"}

// byTest are the rules a Go test checks rather than a case, with the test.
var byTest = map[string]string{
	"DR-MMT-1":    "TestMajorSheetsMatchDigest: the four record sheets against Table DR-TABLE-MMT, cell by cell",
	"DR-MMT-2":    "TestDragonCombatTable: the Dragon's sheet against Table DR-TABLE-DRAGON-COMBAT",
	"DR-ROC-1":    "TestMajorSheetsMatchDigest: the Roc's groups and hit points",
	"DR-WYVERN-1": "TestMajorSheetsMatchDigest: the wyvern's groups and hit points",
	"DR-HCAP-1":   "store/games TestDRHCAP1WinsAndLosses (and cmd/umpire, mail/referee TestDRHCAP1To3…): handicaps counted across the games of a data file, +1 a win, -1 a loss",
	"DR-HCAP-2":   "store/games TestDRHCAP2Combined: per pair and combined, and the warning at 10",
}

// byTestPrefixes are whole chapters a Go test checks.
var byTestPrefixes = map[string]string{
	"DR-DICE-": "TestDiceCatalogue: every roll of every case and game against the catalogue's rows",
}

// outOfScope are the rules no script can show, each with the reason.
var outOfScope = map[string]string{
	"DR-GEN-1":    "the two rulebooks and what each holds: a statement about the books, no rules effect",
	"DR-GEN-4":    "an unforeseen question goes to the players and the game's referee, outside the engine; umpire plays a stated default for every known question, cited by its DR-AMB or DR-GAP ID (docs/rulings/dragon-rage.md), and takes an agreed other reading as a game option (testdata/rulings/)",
	"DR-GEN-5":    "the scale of the game (25 m a hex, a minute a turn, 50 men a unit): no rules effect",
	"DR-MAP-7":    "the colour of an entrance's glow on the printed map: a drawing convention, which umpire's pictures follow (gates red, doors blue: board/style.go); gate or door is map data",
	"DR-MAP-15":   "the colours of the printed turn track: a drawing convention; the reinforcement turns it marks are DR-REINF-1's",
	"DR-MAP-16":   "VP values printed on the map: map data, checked by board.Check (values 1 to 5)",
	"DR-COMP-1":   "counter colours: no rules effect",
	"DR-COMP-2":   "counter colours: no rules effect (the human counters are the capability human: in data/counters.yaml, TestCapabilitiesMatchRules)",
	"DR-COMP-12":  "double-sided counter art: no rules effect",
	"DR-TERR-9":   "a pointer to §17 and §18, whose rules have their own cases",
	"DR-TOWER-10": "Nurkott has no towers: a fact of the map data, checked by board.Check (facts_nurkott.go)",
	"DR-REINF-9":  "other arrival turns or hexes are a variant the players agree before the game; no scenario uses one (DR-SCEN-7) and umpire has no option for it",
	"DR-SCEN-2":   "choosing sides happens before the game is created: the players say who plays which side",
	"DR-SCEN-15":  "a statement about the scenario lists, checked by TestScenariosAsPrinted against the French text",
	"DR-THR-4":    "a check the digest made of the formula against scenario 1, not a rule; fixed scenarios keep their printed goals",
	"DR-TEC-1":    "how the digest restates the terrain chart; its entries are the DR-TERR, DR-WALL, DR-TOWER and DR-ENTR rules and DR-TEC-2, each with its cases",
	"DR-PBEM-37":  "a facing is never ambiguous in umpire: every major monster's setup line and position must give it (refused otherwise: core/setup/dragon-setup-errors.yaml) and every move ends with one",
}

// idRE finds the rule IDs the digest defines: list items and table rows
// starting with the bold ID.
var idRE = regexp.MustCompile(`^(?:- |\| )\*\*(DR-[A-Z]+(?:-[A-Z]+)*-[A-Z]?[0-9]+)\b`)

// scriptDirs are where the scripts of Dragon Rage live: this package's
// rule cases and games, and those of the series rulesets (campaign,
// tournament), which play Dragon Rage's chapters 23 and 24.
var scriptDirs = []string{"testdata", "campaign/testdata", "tournament/testdata"}

func hasPrefix(id string, prefixes []string) bool {
	for _, p := range prefixes {
		if id == p || (strings.HasSuffix(p, "-") && strings.HasPrefix(id, p)) {
			return true
		}
	}
	return false
}

// TestRuleCoverage checks that every rule ID of the digest is accounted for.
func TestRuleCoverage(t *testing.T) {
	var cases []*script.Script
	for _, dir := range scriptDirs {
		// Named from this directory in messages: campaign/testdata/….
		cases = append(cases, scripttest.Load(t, os.DirFS("."), dir)...)
	}
	uncovered := scripttest.RuleCoverage(t, os.DirFS(filepath.Dir(digestPath)), filepath.Base(digestPath), scripttest.CoverageOptions{
		What: "rule IDs", Min: 700,
		Part:   scripttest.Part{ID: idRE}, // the whole digest
		Cases:  cases,
		ByTest: byTest, NoBehaviour: outOfScope,
		Tested: func(id string) bool { return hasPrefix(id, slices.Collect(maps.Keys(byTestPrefixes))) },
		Meta:   func(id string) bool { return hasPrefix(id, metaPrefixes) },
		Words: scripttest.Words{
			Named:       "named by a case or game",
			Meta:        "meta (gaps, ambiguities, glossary)",
			NoBehaviour: "out of scope, with the reason",
			Listed:      "out of scope",
		},
	})
	if len(uncovered) > 0 {
		t.Errorf("no case, test or reason accounts for %d rule IDs: %s", len(uncovered), strings.Join(uncovered, " "))
	}
}
