package dragonrage

import (
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// TestDRHCAP3GoalAdjust: the higher handicap less the lower, halved and
// rounded down; more VP for a better invader, fewer for a better defender.
func TestDRHCAP3GoalAdjust(t *testing.T) {
	for _, c := range []struct{ inv, def, want int }{
		{3, -1, 2}, {-1, 3, -2}, {0, 0, 0}, {2, 1, 0}, {1, 2, 0}, {4, 1, 1}, {1, 4, -1},
		{-3, -6, 1}, {-6, -3, -1}, {5, -2, 3}, {-2, 5, -3}, {10, -10, 10},
	} {
		if got := goalAdjustFor(c.inv, c.def); got != c.want {
			t.Errorf("goalAdjustFor(invader %+d, defender %+d) = %+d, want %+d", c.inv, c.def, got, c.want)
		}
	}
}

// TestDRHCAP3Handicap: the options and words a new game gets, and what is
// refused.
func TestDRHCAP3Handicap(t *testing.T) {
	hc := Ruleset.(adjudicator.Handicapper)
	given := map[string]string{"elowyn": "off"}
	opts, words, err := hc.Handicap(map[adjudicator.Side]int{Invader: -1, Defender: 3}, given)
	if err != nil {
		t.Fatal(err)
	}
	if opts["goal-adjust"] != "-2" || opts["elowyn"] != "off" || given["goal-adjust"] != "" {
		t.Errorf("options %v (given %v)", opts, given)
	}
	if want := "the better player defends: the invader needs 2 fewer VP ((+3 - -1) / 2, rounded down); goal-adjust=-2 (DR-HCAP-3)"; words != want {
		t.Errorf("words %q, want %q", words, want)
	}
	if _, _, err := hc.Handicap(map[adjudicator.Side]int{Invader: 1}, nil); err == nil || !strings.Contains(err.Error(), "between the invader's player and the defender's") {
		t.Errorf("one side: %v", err)
	}
	if _, _, err := hc.Handicap(map[adjudicator.Side]int{Invader: 1, Defender: 0}, map[string]string{"goal-adjust": "+1"}); err == nil || !strings.Contains(err.Error(), "goal-adjust=+1 is given too") {
		t.Errorf("goal-adjust given too: %v", err)
	}
}
