package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/testrules"
)

// A game with sealed state from the command line: the log shows a
// state.sealed event to the side it is for and hides it from the other;
// a mid-game bundle verifies and says how far it replays.
func TestSealedStateFromTheCommandLine(t *testing.T) {
	dir := t.TempDir()
	c := &cli{t: t, data: filepath.Join(dir, "data"), rulesets: []adjudicator.Ruleset{testrules.Hide}}
	id := strings.Split(c.ok("new", "--ruleset", "hide", "--scenario", "hunt", "--player", "hider=h@example.org", "--player", "seeker=s@example.org"), "\n")[0]
	c.ok("submit", id, "hider", write(t, dir, "hide.yaml", "turn: 1\nphase: hide\norders: {at: F}\n"))
	out := c.ok("log", id, "--as", "seeker")
	if !strings.Contains(out, "state.sealed") || !strings.Contains(out, "a change of the game for hider alone, sealed until revealed (key treasure)") {
		t.Errorf("log --as seeker:\n%s", out)
	}
	if strings.Contains(out, "for you") || strings.Contains(out, `\"at\"`) || strings.Contains(out, "at: F") {
		t.Errorf("log --as seeker shows the hider's secret:\n%s", out)
	}
	if out := c.ok("log", id, "--as", "hider"); !strings.Contains(out, `\"event\":{\"at\":\"F\"}`) && !strings.Contains(out, `"event":{"at":"F"}`) {
		t.Errorf("log --as hider lacks the opening:\n%s", out)
	}
	bundle := filepath.Join(dir, "mid.tar")
	c.ok("export", id, "-o", bundle)
	if out := c.ok("verify", bundle); !strings.Contains(out, ": OK") || !strings.Contains(out, "note: replayed to event 2; 2 sealed events are not revealed yet (they are when the game ends)") {
		t.Errorf("verify of a mid-game bundle:\n%s", out)
	}
	if out := c.ok("replay", id); !strings.Contains(out, "replay: OK") || strings.Contains(out, "note:") {
		t.Errorf("the referee's replay:\n%s", out)
	}
}
