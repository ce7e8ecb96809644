package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRenderRegions draws a game played on a map of regions (the test
// ruleset patrol): umpire render for each side, as PNG and SVG, each side
// its own picture, and umpire run --picture; a game on neither a hex map
// nor a map of regions has no picture.
func TestRenderRegions(t *testing.T) {
	dir := t.TempDir()
	c := &cli{t: t, data: filepath.Join(dir, "data")}
	c.ok("new", "--ruleset", "patrol", "--scenario", "skirmish", "--id", "p1", "--player", "red=red@example.org", "--player", "blue=blue@example.org")
	c.ok("submit", "p1", "red", write(t, dir, "red.yaml", "turn: 1\nphase: move\norders:\n  - {troop: R1, to: wood}\n"))
	c.ok("submit", "p1", "blue", write(t, dir, "blue.yaml", "turn: 1\nphase: move\norders: []\n"))
	pics := map[string][]byte{}
	for _, side := range []string{"red", "blue"} {
		file := filepath.Join(dir, side+".png")
		out := c.ok("render", "p1", "--as", side, "-o", file)
		if !strings.Contains(out, "The patrol's valley, turn 2") {
			t.Errorf("render --as %s printed %q", side, out)
		}
		b, err := os.ReadFile(file)
		if err != nil || !bytes.HasPrefix(b, []byte("\x89PNG")) {
			t.Fatalf("render --as %s wrote no PNG: %v", side, err)
		}
		pics[side] = b
	}
	if bytes.Equal(pics["red"], pics["blue"]) {
		t.Error("red and blue get the same picture")
	}
	svg := c.ok("render", "p1", "--as", "blue", "--svg", "-o", "-")
	if !strings.Contains(svg, "<svg") || !strings.Contains(svg, ">B1<") || strings.Contains(svg, ">R2<") {
		t.Errorf("blue's SVG lacks its troop B1 or shows red's R2, in the fog at the gate:\n%.400s", svg)
	}
	code, out, _ := c.run("run", "--picture", filepath.Join(dir, "end.png"), "../../adjudicator/testrules/testdata/patrol-move.yaml")
	if b, _ := os.ReadFile(filepath.Join(dir, "end.png")); code != 0 || !bytes.HasPrefix(b, []byte("\x89PNG")) {
		t.Errorf("run --picture: exit %d, no PNG\n%s", code, out)
	}
	c.ok("new", "--ruleset", "race", "--scenario", "sprint", "--id", "r1", "--player", "red=red@example.org", "--player", "blue=blue@example.org")
	if code, _, errs := c.run("render", "r1", "-o", filepath.Join(dir, "race.png")); code == 0 || !strings.Contains(errs, "neither on a hex map nor on a map of regions") {
		t.Errorf("render of a race: exit %d, %s", code, errs)
	}
}
