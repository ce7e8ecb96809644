package main

import (
	"strings"
	"testing"
)

// TestTeamFromTheCommandLine: new takes several players a side, with
// parts; it prints each player's secret; show lists the team and the parts
// a split request still waits for.
func TestTeamFromTheCommandLine(t *testing.T) {
	c := &cli{t: t, data: t.TempDir() + "/umpire.db"}
	out := c.ok("new", "--ruleset", "race", "--scenario", "sprint", "--option", "team.orders=split",
		"--player", "red=ann@example.org", "--player", "red=bea@example.org:r2", "--player", "blue=cid@example.org")
	id := strings.Split(out, "\n")[0]
	for _, want := range []string{"secret for red (ann@example.org): ", "secret for red (bea@example.org): ", "secret for blue: "} {
		if !strings.Contains(out, want) {
			t.Errorf("new does not print %q:\n%s", want, out)
		}
	}
	c.in = "turn: 1\nphase: bid\norders: {bid: 2}\n"
	c.ok("submit", id, "red", "-")
	c.in = "turn: 1\nphase: bid\norders: {bid: 1}\n"
	c.ok("submit", id, "blue", "-")
	show := c.ok("show", id)
	for _, want := range []string{"team red (team.orders split): ann@example.org (captain; parts r1), bea@example.org (parts r2)",
		"waiting for the parts r1, r2: ann@example.org (r1), bea@example.org (r2)"} {
		if !strings.Contains(show, want) {
			t.Errorf("show lacks %q:\n%s", want, show)
		}
	}
	if code, _, errs := c.run("new", "--ruleset", "race", "--scenario", "sprint", "--player", "red=ann@example.org:r9", "--player", "blue=cid@example.org", "--option", "team.orders=split"); code == 0 || !strings.Contains(errs, "no part \"r9\"") {
		t.Errorf("an unknown part: exit %d, %s", code, errs)
	}
}
