package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestCommandFromTheCommandLine: a referee command run on the data file
// acts as by mail — recorded, the players' notices queued — and prints the
// referee's reply; a refused one exits 1 and says why.
func TestCommandFromTheCommandLine(t *testing.T) {
	dir := t.TempDir()
	c := &cli{t: t, data: filepath.Join(dir, "data")}
	id := strings.Split(c.ok("new", "--ruleset", "race", "--scenario", "sprint", "--option", "deadline.orders=72h",
		"--player", "red=red@example.org", "--player", "blue=blue@example.org"), "\n")[0]
	c.in = "command: pause\ngame: " + id + "\nreason: the club's break\n"
	out := c.ok("command", "-")
	if !strings.Contains(out, "Done: the referee paused the game") || !strings.Contains(out, "3 other mails") {
		t.Fatalf("pause printed:\n%s", out)
	}
	c.in = "command: pause\ngame: " + id + "\n"
	code, out, _ := c.run("command", "-")
	if code != 1 || !strings.Contains(out, "paused already") {
		t.Fatalf("a second pause: exit %d\n%s", code, out)
	}
	if out := c.ok("log", id); !strings.Contains(out, "game.paused") {
		t.Errorf("the log has no pause:\n%s", out)
	}
}
