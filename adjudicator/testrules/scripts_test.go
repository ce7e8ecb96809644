package testrules_test

import (
	"os"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/script"
	"github.com/umpire-pbem/umpire/adjudicator/script/scripttest"
	"github.com/umpire-pbem/umpire/adjudicator/testrules"
)

var lookup = testrules.Lookup

func TestScripts(t *testing.T) {
	scripts := scripttest.Load(t, os.DirFS("testdata"), ".")
	scripttest.RunParallel(t, scripts, lookup)
	if miss := scripttest.Uncovered(scripts, []string{"RACE-BID-1", "RACE-BID-2", "RACE-TRAP-1", "RACE-END-1", "RACE-ORDERS-1"}); len(miss) > 0 {
		t.Errorf("rules with no case: %v", miss)
	}
}

// TestScriptsCanFail proves the harness is not a test that cannot fail:
// scripts with wrong expectations must be reported, each for its reason.
func TestScriptsCanFail(t *testing.T) {
	want := map[string][]string{
		"wrong-square.yaml":     {"unit R1 is at 4, expected at 5", "1 scripted dice were never rolled"},
		"refusal-expected.yaml": {"accepted, but it should be refused with bad-bid", "1 scripted dice were never rolled"},
	}
	for _, s := range scripttest.Load(t, os.DirFS("testdata-fail"), ".") {
		run, err := script.Play(s, lookup, script.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if run.OK() {
			t.Errorf("%s passed; it must fail", s.File())
		}
		all := strings.Join(run.Failures, "\n")
		for _, w := range want[s.File()] {
			if !strings.Contains(all, w) {
				t.Errorf("%s: failures %q lack %q", s.File(), all, w)
			}
		}
	}
}
