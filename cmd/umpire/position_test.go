package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/rulesets"
)

// runWith runs the command line as c.run does, with the rulesets lookup
// finds.
func (c *cli) runWith(lookup func(string) (adjudicator.Ruleset, bool), args ...string) (code int, stdout, stderr string) {
	c.t.Helper()
	var out, errb bytes.Buffer
	clock := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	a := &app{stdin: strings.NewReader(c.in), stdout: &out, stderr: &errb, rules: lookup, all: rulesets.All,
		now: func() time.Time { clock = clock.Add(time.Minute); return clock }, hubHashes: 1000}
	if c.data != "" {
		args = append(args, "--data", c.data)
	}
	code = a.run(context.Background(), args)
	return code, out.String(), errb.String()
}

// dragonCLI runs the command line with the shipped rulesets.
func dragonCLI(t *testing.T) (*cli, func(args ...string) string) {
	c := &cli{t: t, data: filepath.Join(t.TempDir(), "data")}
	return c, func(args ...string) string {
		t.Helper()
		code, out, errs := c.runWith(rulesets.Lookup, args...)
		if code != 0 {
			t.Fatalf("umpire %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errs)
		}
		return out
	}
}

// TestNewFromDocsPositions: umpire new --position creates a game from each
// example of docs/examples/positions (one of them on a custom map read from
// a map file); the game's log replays and verifies without the files.
func TestNewFromDocsPositions(t *testing.T) {
	for _, tc := range []struct{ file, due, show string }{
		{"e6-broken-gate.yaml", "due from invader: turn 3, invader movement (phase 2)", "GIANT-1"},
		{"skirmish.yaml", "due from invader: turn 1, invader movement (phase 2)", "TRL-1"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			_, ok := dragonCLI(t)
			out := ok("new", "--ruleset", "dragonrage", "--position", filepath.Join("..", "..", "docs", "examples", "positions", tc.file),
				"--player", "invader=a@example.org", "--player", "defender=b@example.org")
			id := strings.Split(out, "\n")[0]
			if !strings.Contains(out, tc.due) {
				t.Fatalf("new printed:\n%s", out)
			}
			if show := ok("show", id); !strings.Contains(show, tc.show) {
				t.Errorf("show lacks %s:\n%s", tc.show, show)
			}
			ok("replay", id)
			ok("verify", id)
			// The board is drawn, on the position's own map too.
			png := filepath.Join(t.TempDir(), "board.png")
			ok("render", id, "-o", png)
			if b, err := os.ReadFile(png); err != nil || !bytes.HasPrefix(b, []byte("\x89PNG")) {
				t.Errorf("render drew no PNG: %v", err)
			}
		})
	}
}

// TestNewPositionRefused: a bad position is refused with its line, and
// nothing is created.
func TestNewPositionRefused(t *testing.T) {
	c, _ := dragonCLI(t)
	dir := t.TempDir()
	p := write(t, dir, "bad.yaml", "map: {cols: 6, rows: 6}\ngoal: 4\nturn: 1\nphase: invader-movement\nunits:\n  - {id: ORC-1, type: ORC, side: invader, at: \"0909\"}\n")
	code, out, errs := c.runWith(rulesets.Lookup, "new", "--ruleset", "dragonrage", "--position", p, "--player", "invader=a@example.org", "--player", "defender=b@example.org")
	if code == 0 || !strings.Contains(errs, "line 6") || !strings.Contains(errs, "hex 0909 is not on the map open-6x6") {
		t.Errorf("exit %d\n%s%s", code, out, errs)
	}
	m := write(t, dir, "nomap.yaml", "map: {file: missing.yaml}\ngoal: 4\nturn: 1\nphase: invader-movement\nunits: []\n")
	code, _, errs = c.runWith(rulesets.Lookup, "new", "--ruleset", "dragonrage", "--position", m, "--player", "invader=a@example.org")
	if code == 0 || !strings.Contains(errs, "line 1: the map file") {
		t.Errorf("exit %d\n%s", code, errs)
	}
}
