package dragonrage_test

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/script"
	"github.com/umpire-pbem/umpire/adjudicator/script/scripttest"
)

// diceCatalogue ties each row of the digest's dice catalogue (§29.5,
// DR-DICE-*) to the rolls umpire makes for it, by their printed form
// ("label: 1d6=5, outcome") — or, for a row whose results need no die, to
// the report line that shows it. Every roll of every rule case and whole
// game must match exactly one row, and every row must be seen, except
// those made outside the referee (listed with the reason).
var diceCatalogue = []struct {
	id     string
	roll   *regexp.Regexp // a roll of this row
	report *regexp.Regexp // or a report line showing it, when it needs no die
}{
	{"DR-DICE-1", regexp.MustCompile(`: [12]d6=[0-9+=]+, CRT \d+ v \d+: needs`), nil},
	{"DR-DICE-2", regexp.MustCompile(`, off the table, \d+ v \d+`), regexp.MustCompile(`off the table, \d+ v \d+`)},
	{"DR-DICE-3", regexp.MustCompile(`^melee on [A-Z]+-\d+'s (head|wings|legs|belly) in \d{4} by `), nil},
	{"DR-DICE-4", regexp.MustCompile(`^melee on (GIANT|TREX|SERP)-\d+ in \d{4} by `), nil},
	{"DR-DICE-5", regexp.MustCompile(`^fire on [A-Z]+-\d+ (in|flying over) \d{4} by (ARH|GOB)-\d+`), nil},
	{"DR-DICE-6", regexp.MustCompile(`^fire on [A-Z]+-\d+ (in|flying over) \d{4} by BAL-\d+`), nil},
	{"DR-DICE-7", regexp.MustCompile(`^fire on [A-Z]+-\d+ (in|flying over) \d{4} by CAT-\d+`), nil},
	{"DR-DICE-8", regexp.MustCompile(`^escape roll of \S+ in \d{4} from \S+'s breath: 1d6=`), nil},
	{"DR-DICE-9", regexp.MustCompile(`^escape roll of \S+ in \d{4} under \S+'s (crash|body): 1d6=`), nil},
	{"DR-DICE-10", regexp.MustCompile(`^morale of \S+ before attacking \S+: 1d6=`), nil},
	{"DR-DICE-11", regexp.MustCompile(` climbs the wall from \d{4} into \d{4}: 1d6=`), nil},
	{"DR-DICE-12", regexp.MustCompile(` smashes the door \d{4}/\d{4}: 2d6=`), nil},
	{"DR-DICE-13", regexp.MustCompile(` smashes the (gate|palisade) \d{4}/\d{4}: 2d6=`), nil},
	{"DR-DICE-14", regexp.MustCompile(` smashes the gate \d{4}/\d{4} with \d+ MP: 1d6=`), nil},
	{"DR-DICE-15", regexp.MustCompile(`, with no legs, tries the gate \d{4}/\d{4}: [12]d6=`), nil},
	{"DR-DICE-16", regexp.MustCompile(`^crash damage of \S+ in \d{4}: [12]d6=`), nil},
	{"DR-DICE-17", regexp.MustCompile(`( (flies|bounds) through the Whirlwind in \d{4}|^Whirlwind crash check of \S+ in \d{4}): 1d6=`), nil},
	{"DR-DICE-18", regexp.MustCompile(`^Whirlwind of \S+ in \d{4} drifts: 1d6=`), nil},
	{"DR-DICE-19", regexp.MustCompile(`^berserk \S+ after the invader's melee: 1d6=`), nil},
	{"DR-DICE-20", regexp.MustCompile(`^cost for \S+ to dismiss \S+: 1d6=`), nil},
	{"DR-DICE-21", regexp.MustCompile(`^ELM-\d+ chooses between `), nil},
	{"DR-DICE-22", regexp.MustCompile(`^berserk \S+ chooses between `), nil},
	{"DR-DICE-23", nil, nil},
	{"DR-DICE-24", nil, nil},
}

// diceOutside are the rows rolled outside the referee, with the reason.
var diceOutside = map[string]string{
	"DR-DICE-23": "choosing sides (DR-SCEN-2) happens before the game is created: the players say who plays which side",
	"DR-DICE-24": "the tournament's scenario draw (DR-TOUR-8, -9) belongs to the series (tracker issue 13)",
}

// TestDiceCatalogue plays every case and game and checks each roll against
// the catalogue.
func TestDiceCatalogue(t *testing.T) {
	lookup := game.Lookup(func(n string) (adjudicator.Ruleset, bool) { return dragonrage.Ruleset, n == "dragonrage" })
	seen := map[string]int{}
	for _, s := range scripttest.Load(t, os.DirFS("testdata"), ".") {
		run, err := script.Play(s, lookup, script.Options{})
		if err != nil {
			t.Fatalf("%s: %v", s.File(), err)
		}
		for _, r := range run.Rolls() {
			var ids []string
			for _, row := range diceCatalogue {
				if row.roll != nil && row.roll.MatchString(r) {
					ids = append(ids, row.id)
				}
			}
			// An off-table attack that rolls is both a CRT attack and an
			// off-table one: the more specific row takes it.
			if slices.Contains(ids, "DR-DICE-2") {
				ids = []string{"DR-DICE-2"}
			}
			switch len(ids) {
			case 0:
				t.Errorf("%s: roll %q is in no row of the dice catalogue (DR-DICE-*): add its row or fix its label", s.File(), r)
			case 1:
				seen[ids[0]]++
			default:
				t.Errorf("%s: roll %q matches several rows: %v", s.File(), r, ids)
			}
		}
		for _, st := range run.Steps {
			for _, res := range st.Results {
				for _, line := range adjudicator.Texts(res.ReportFor(adjudicator.Referee)) {
					for _, row := range diceCatalogue {
						if row.report != nil && row.report.MatchString(line) {
							seen[row.id]++
						}
					}
				}
			}
		}
	}
	for _, row := range diceCatalogue {
		_, outside := diceOutside[row.id]
		switch {
		case outside && (row.roll != nil || seen[row.id] > 0):
			t.Errorf("%s is listed as rolled outside the referee, but umpire rolls it", row.id)
		case !outside && seen[row.id] == 0:
			t.Errorf("%s: no case or game makes this roll", row.id)
		}
	}
	// The rows are the digest's, all of them.
	lines := readDigest(t)
	var digest []string
	re := regexp.MustCompile(`^\| \*\*(DR-DICE-\d+)\*\*`)
	for _, l := range lines {
		if m := re.FindStringSubmatch(l); m != nil {
			digest = append(digest, m[1])
		}
	}
	var ours []string
	for _, row := range diceCatalogue {
		ours = append(ours, row.id)
	}
	if strings.Join(digest, " ") != strings.Join(ours, " ") {
		t.Errorf("the digest's dice catalogue is %v; this test's is %v", digest, ours)
	}
}
