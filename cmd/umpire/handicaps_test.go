package main

import (
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/rulesets"
)

// TestDRHCAP1To3FromTheCommandLine: umpire handicaps lists the handicaps of
// the finished games per pair and combined (DR-HCAP-1, DR-HCAP-2); umpire
// new --handicap gives a game the goal-adjust of DR-HCAP-3 and says why,
// and refuses what cannot take one.
func TestDRHCAP1To3FromTheCommandLine(t *testing.T) {
	c, ok := dragonCLI(t)
	game := func(id, invader, defender, loser string) {
		ok("new", "--ruleset", "dragonrage", "--scenario", "e2", "--id", id, "--player", "invader="+invader, "--player", "defender="+defender)
		c.in = "command: end\ngame: " + id + "\nresult: the referee ends it\nloser: " + loser + "\n"
		ok("command", "-")
	}
	// Alice beats Bob three times and loses once: +2 against him.
	game("g1", "alice@example.org", "bob@example.org", "defender")
	game("g2", "bob@example.org", "alice@example.org", "invader")
	game("g3", "alice@example.org", "bob@example.org", "defender")
	game("g4", "alice@example.org", "bob@example.org", "invader")
	game("g5", "carol@example.org", "bob@example.org", "defender")

	out := ok("handicaps")
	for _, want := range []string{
		"from 5 finished dragonrage games.",
		"alice@example.org  +2        bob@example.org    -2        4      3-1-0",
		"bob@example.org    -1        carol@example.org  +1        1      0-1-0",
		"alice@example.org  +2        4      1          3-1-0           the best player of the group",
		"bob@example.org    -3        5      2          1-4-0",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("umpire handicaps lacks %q:\n%s", want, out)
		}
	}
	out = ok("handicaps", "--combined", "carol@example.org")
	if !strings.Contains(out, "carol@example.org  +1        1      1          1-0-0") || strings.Contains(out, "alice") || strings.Contains(out, "Per pair") {
		t.Errorf("umpire handicaps --combined carol:\n%s", out)
	}

	// Bob invades, Alice defends: the better player defends, the invader
	// needs 2 fewer VP (pair: +2 and -2, 4 / 2 = 2).
	out = ok("new", "--ruleset", "dragonrage", "--scenario", "e2", "--id", "h1", "--player", "invader=bob@example.org", "--player", "defender=alice@example.org", "--handicap", "pair")
	if !strings.HasPrefix(out, "h1\n") || !strings.Contains(out, "Handicap (pair): the invader bob@example.org -2 and the defender alice@example.org +2 over 4 games between them; the better player defends: the invader needs 2 fewer VP ((+2 - -2) / 2, rounded down); goal-adjust=-2 (DR-HCAP-3).\n") {
		t.Errorf("new --handicap pair printed:\n%s", out)
	}
	if log := ok("log", "h1", "--json"); !strings.Contains(log, `\"options\":{\"goal-adjust\":\"-2\"}`) {
		t.Errorf("game.created has no goal-adjust=-2:\n%s", log)
	}
	// Combined: Alice +2, Carol +1: (2 - 1) / 2 = 0, recorded as +0.
	out = ok("new", "--ruleset", "dragonrage", "--scenario", "e2", "--id", "h2", "--player", "invader=alice@example.org", "--player", "defender=carol@example.org", "--handicap", "combined")
	if !strings.Contains(out, "(+2 - +1) / 2, rounded down is 0: the VP goal stays; goal-adjust=+0 (DR-HCAP-3).") {
		t.Errorf("new --handicap combined printed:\n%s", out)
	}

	for _, bad := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"new", "--ruleset", "dragonrage", "--scenario", "e2", "--player", "invader=bob@example.org", "--player", "defender=alice@example.org", "--handicap", "pair", "--option", "goal-adjust=+1"}, 2, "the option goal-adjust=+1 is given too"},
		{[]string{"new", "--ruleset", "dragonrage", "--scenario", "e2", "--player", "invader=bob@example.org", "--handicap", "pair"}, 2, "name exactly two players"},
		{[]string{"new", "--ruleset", "dragonrage", "--scenario", "e2", "--player", "invader=bob@example.org", "--player", "defender=alice@example.org", "--handicap", "best"}, 2, `handicap "best": write pair`},
		{[]string{"new", "--ruleset", "dragonrage", "--scenario", "weighted-esirien", "--player", "invader=bob@example.org", "--player", "defender=alice@example.org", "--handicap", "pair"}, 1, "the handicap (pair) set goal-adjust=-2, and the game refuses it: option goal-adjust=-2: in the weighted scenario"},
		{[]string{"handicaps", "alice"}, 2, `"alice" is not one mail address`},
		{[]string{"handicaps", "--ruleset", "chess"}, 2, `no ruleset "chess"`},
	} {
		code, out, errs := c.runWith(rulesets.Lookup, bad.args...)
		if code != bad.code || !strings.Contains(errs, bad.want) {
			t.Errorf("umpire %s: exit %d, want %d with %q\n%s%s", strings.Join(bad.args, " "), code, bad.code, bad.want, out, errs)
		}
	}
}
