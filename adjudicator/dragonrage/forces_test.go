package dragonrage_test

import (
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage"
)

// TestForcesOption checks the "forces.SIDE.TYPE" option that sets up
// custom armies (the only way to play the T-rex and sea serpents).
func TestForcesOption(t *testing.T) {
	for _, c := range []struct {
		opt, val, err string
	}{
		{"forces.invader.TREX", "1", ""},
		{"forces.invader.ARH", "0", ""},
		{"forces.defender.TREX", "1", "always belong to the invader"},
		{"forces.invader.ELW", "1", "elowyn=on"},
		{"forces.invader.ELM", "1", "summoned"},
		{"forces.invader.BALROG", "1", "no unit type"},
		{"forces.nobody.INF", "1", "forces.invader.TYPE=N"},
		{"forces.invader.INF", "-2", "whole number"},
		{"forces.invader.GIANT", "0", "no units"},
	} {
		opts := map[string]string{c.opt: c.val}
		if c.opt == "forces.invader.GIANT" {
			opts["forces.invader.ARH"] = "0"
		}
		_, err := dragonrage.Ruleset.Setup(adjudicator.Setup{Scenario: "n6", Options: opts})
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s=%s: %v", c.opt, c.val, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s=%s: got %v, want an error with %q", c.opt, c.val, err, c.err)
		}
	}
}
