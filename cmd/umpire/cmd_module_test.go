package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/testrules"
)

func moduleCLI(t *testing.T) (*cli, string) {
	dir := t.TempDir()
	return &cli{t: t, data: filepath.Join(dir, "data"), rulesets: []adjudicator.Ruleset{testrules.Race, testrules.ModRace}}, dir
}

func TestModuleCommands(t *testing.T) {
	c, dir := moduleCLI(t)
	out := c.ok("module", "list")
	if !strings.Contains(out, "modrace/short ") || !strings.Contains(out, "builtin  track of 8 squares (rule), 4 runners") || !strings.Contains(out, "modrace/long ") || strings.Contains(out, "race/") && strings.Contains(out, "\nrace/") {
		t.Fatalf("module list:\n%s", out)
	}

	// Export a builtin module, edit it, add it back under another name.
	ed := filepath.Join(dir, "edited")
	c.ok("module", "export", "short", ed)
	b, err := os.ReadFile(filepath.Join(ed, "track.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, ed, "track.yaml", strings.Replace(string(b), "track: 8", "track: 10", 1))
	clubOut := c.ok("module", "add", "modrace", ed, "--name", "club")
	if !strings.Contains(clubOut, "modrace/club ") || !strings.Contains(clubOut, "--module club") {
		t.Fatalf("module add:\n%s", clubOut)
	}
	if code, _, errs := c.run("module", "export", "club", ed); code == 0 || !strings.Contains(errs, "not empty") {
		t.Fatalf("export into a full directory: %d %s", code, errs)
	}

	// A mistake is named by file and line, and nothing is added.
	bad := filepath.Join(dir, "bad")
	os.Mkdir(bad, 0o755)
	write(t, bad, "track.yaml", "track: 10\nrunners:\n  Z1: 0\n")
	if code, _, errs := c.run("module", "add", "modrace", bad); code == 0 || !strings.Contains(errs, "track.yaml:2: runner \"Z1\" must start with R (red) or B (blue)") {
		t.Fatalf("add of a bad module: %d %s", code, errs)
	}
	if out := c.ok("module", "list"); strings.Contains(out, "modrace/bad") {
		t.Fatalf("a refused module is listed:\n%s", out)
	}

	// Import from the toy format prints the importer's notes.
	src := filepath.Join(dir, "published")
	os.Mkdir(src, 0o755)
	write(t, src, "course.txt", "# as published\nrunner R1 0\nrunner B1 0\nweather fine\n")
	out = c.ok("module", "import", "modrace", src, "--name", "toy")
	for _, want := range []string{"note: converted a track of 12 squares and 2 runners", "note: course.txt:4: left out", "note: the course gives no length: 12 squares assumed", "modrace/toy "} {
		if !strings.Contains(out, want) {
			t.Errorf("module import: no %q in\n%s", want, out)
		}
	}
	out = c.ok("module", "show", "modrace/toy")
	if !strings.Contains(out, "source:  imported") || !strings.Contains(out, "values:  track of 12 squares (assumed), 2 runners") || !strings.Contains(out, "  track.yaml\n") {
		t.Fatalf("module show:\n%s", out)
	}

	// A game created with --module plays from it; the export carries it.
	out = c.ok("new", "--ruleset", "modrace", "--scenario", "sprint", "--module", "club", "--id", "g1", "--player", "red=red@example.org", "--player", "blue=blue@example.org")
	if !strings.HasPrefix(out, "g1\n") {
		t.Fatalf("new:\n%s", out)
	}
	digest := strings.Fields(strings.SplitN(clubOut, "digest ", 2)[1])[0]
	digest = strings.TrimSuffix(digest, ";")
	if out := c.ok("log", "g1", "--json"); !strings.Contains(out, digest) {
		t.Fatalf("game.created does not record the club's digest %s:\n%s", digest, out)
	}
	// The club edits its module again: g1 keeps its own.
	write(t, ed, "track.yaml", strings.Replace(string(b), "track: 8", "track: 14", 1))
	c.ok("module", "add", "modrace", ed, "--name", "club")
	c.ok("replay", "g1")
	if out := c.ok("module", "list"); !strings.Contains(out, "keeps 3 module versions") {
		t.Fatalf("module list after the club's edit:\n%s", out)
	}
	bundle := filepath.Join(dir, "g1.tar")
	c.ok("export", "g1", "-o", bundle)
	c.ok("verify", bundle)
	raw, err := os.ReadFile(bundle)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(raw, []byte("g1/module/track.yaml")) {
		t.Fatal("the bundle does not carry the module")
	}
	tampered := filepath.Join(dir, "tampered.tar")
	os.WriteFile(tampered, bytes.Replace(raw, []byte("track: 10"), []byte("track: 11"), 1), 0o644)
	if code, out, errs := c.run("verify", tampered); code == 0 || !strings.Contains(out+errs, "module/track.yaml") {
		t.Fatalf("verify of a tampered module file: %d\n%s%s", code, out, errs)
	}

	// A module for a ruleset not played from modules, or an unknown one.
	if code, _, errs := c.run("new", "--ruleset", "race", "--scenario", "sprint", "--module", "club", "--player", "red=red@example.org"); code == 0 || !strings.Contains(errs, "not played from module data") {
		t.Fatalf("race with --module: %d %s", code, errs)
	}
	if code, _, errs := c.run("module", "show", "nosuch"); code == 0 || !strings.Contains(errs, `no module "nosuch"`) {
		t.Fatalf("show of an unknown module: %d %s", code, errs)
	}
}
