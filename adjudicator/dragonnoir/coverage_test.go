package dragonnoir_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/script/scripttest"
)

// Every DN- rule ID of Part A of the digest (the DN2 tactical rules) is to
// be accounted for: a rule case names it in its "rules:" list, a Go test
// checks it (byTest), or it is a statement with nothing to play
// (noBehaviour, each with its reason). TestRuleCoverage reads the digest in
// place; for now it lists the IDs nothing accounts for with t.Log, and
// fails only on a name that does not exist: the chapters' helpers make it
// strict once their cases are in.

const digestPath = "../../../shared/rules/dragon-noir.md"

// byTest are the rules a Go test checks rather than a case, with the test.
var byTest = map[string]string{
	"DN-GEN-8":  "TestBuiltinModuleChecks, TestLoaderErrors: the game sheets' tables are module data, loaded and checked",
	"DN-CNT-7":  "TestCounters: Gerfindel's printed 16, 8, 10 are his healthy face in counters.yaml, and a view prints 16-8-10",
	"DN-MAP-1":  "TestBuiltinModuleChecks: the builtin assembly joins X to X with arrows aligned (hexmap checks every join)",
	"DN-TURN-1": "TestUserCombatTable and every case: a game starts from a scenario or position of its module",
	// magic chapter
	"DN-MAGIC-3": "TestRemoteDetection: the interim spell list has no detection spell; a module's own is cast by level-2 magicians only",
	// Scenarios chapter.
	"DN-CNT-2": "TestCounters: every Adventurer kind covers one hex",
	"DN-CNT-4": "TestCounters: 8 Gharvs of one hex, with a water and a land movement",
}

// noBehaviour are the rules no case can show, each with the reason.
var noBehaviour = map[string]string{
	"DN-GEN-4": "the series of games: information",
	"DN-GEN-5": "the box's contents: module data stands for the sheets (docs/dragon-noir.md)",
	"DN-GEN-6": "scale: each counter is one character, one hex is 2 m; no rule of play",
	"DN-GEN-7": "the turn counter: the game's turn is in every view and mail",
	"DN-MAP-3": "the DN1 maps are compatible: a group adds them as boards",
	"DN-CNT-1": "the three kinds of counter: module data",
	// fire chapter
	"DN-COVER-30": "a designer's note: this steep bank is steeper than the series' other banks (its rules are DN-COVER-27 … 29)",
	// scenarios chapter
	"DN-GEN-2": "terminology of the digest",
	"DN-GEN-3": "DN3's game turns: not part of DN2",
}

var idRE = regexp.MustCompile(`^(?:- |\| )\*\*(DN-[A-Z]+-[0-9]+)\b`)

// TestRuleCoverage: every DN- rule ID of Part A (and of the conventions
// before it) is named by a rule case, checked by a Go test, or listed with
// the reason it has no behaviour to test.
func TestRuleCoverage(t *testing.T) {
	meta := regexp.MustCompile(`^(AMB|GAP|PBEM|ROLL|HID)-`)
	uncovered := scripttest.RuleCoverage(t, os.DirFS(filepath.Dir(digestPath)), filepath.Base(digestPath), scripttest.CoverageOptions{
		Name: "Part A", What: "rule IDs", Min: 200,
		// Part A, and the conventions before it where DN-GEN-1 … 3 stand.
		Part:  scripttest.Part{From: "## 0. Conventions", To: "# PART B", ID: idRE},
		Cases: scripttest.Load(t, os.DirFS("testdata"), "."),
		// DN3's tactical additions (Part B) have cases here too
		// (testdata/dn3-*); La Conquête's coverage test accounts for them.
		Others:  []scripttest.Part{{From: "# PART B", To: "# PART C", ID: regexp.MustCompile(`^(?:- |\| )\*\*(DN3-[A-Z0-9-]+-[0-9]+)\b`)}},
		Checked: func(id string) bool { return !meta.MatchString(id) },
		ByTest:  byTest, NoBehaviour: noBehaviour,
	})
	if len(uncovered) > 0 {
		t.Errorf("%d rule IDs of Part A have no case, no Go test and no reason: %s", len(uncovered), strings.Join(uncovered, " "))
	}
}
