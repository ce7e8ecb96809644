package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/rulesets"
	"github.com/umpire-pbem/umpire/adjudicator/testrules"
)

type cli struct {
	t    *testing.T
	data string
	in   string
	// rulesets are what a.all gives; nil for the race alone.
	rulesets []adjudicator.Ruleset
}

func (c *cli) run(args ...string) (code int, stdout, stderr string) {
	c.t.Helper()
	var out, errb bytes.Buffer
	clock := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	all := []adjudicator.Ruleset{testrules.Race}
	if c.rulesets != nil {
		all = c.rulesets
	}
	a := &app{stdin: strings.NewReader(c.in), stdout: &out, stderr: &errb,
		rules: testLookup,
		all:   func() []adjudicator.Ruleset { return all },
		now:   func() time.Time { clock = clock.Add(time.Minute); return clock }, hubHashes: 1000}
	if c.data != "" && len(args) > 0 && args[0] != "run" && args[0] != "help" && args[0] != "rulesets" {
		args = append(args, "--data", c.data)
	}
	code = a.run(context.Background(), args)
	return code, out.String(), errb.String()
}

// testLookup is the command line's rulesets in tests: the race, and a
// league of races (a series).
var testLookup = testrules.Lookup

func (c *cli) ok(args ...string) string {
	c.t.Helper()
	code, out, errs := c.run(args...)
	if code != 0 {
		c.t.Fatalf("umpire %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errs)
	}
	return out
}

func write(t *testing.T, dir, name, body string) string {
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestWholeGameFromTheCommandLine(t *testing.T) {
	dir := t.TempDir()
	c := &cli{t: t, data: filepath.Join(dir, "data")}
	out := c.ok("new", "--ruleset", "race", "--scenario", "sprint", "--player", "red=red@example.org", "--player", "blue=blue@example.org", "--option", "turns=1", "--chain-length", "2")
	lines := strings.Split(out, "\n")
	id := lines[0]
	if id == "" || strings.Contains(id, " ") || !strings.HasPrefix(lines[1], "dice commitment: ") {
		t.Fatalf("new printed:\n%s", out)
	}
	redBid := write(t, dir, "red-bid.yaml", "turn: 1\nphase: bid\norders:\n  bid: 1\n")
	blueBid := write(t, dir, "blue-bid.yaml", "turn: 1\nphase: bid\norders:\n  bid: 0\n")
	out = c.ok("submit", id, "red", redBid)
	if !strings.Contains(out, "accepted: red orders for turn 1, phase bid") || !strings.Contains(out, "due from blue") {
		t.Errorf("submit printed:\n%s", out)
	}
	// Blue cannot see red's hidden bid in the log yet.
	if out := c.ok("log", id, "--as", "blue"); !strings.Contains(out, "sealed until the adjudication") || strings.Contains(out, "for you") {
		t.Errorf("log --as blue shows the hidden bid:\n%s", out)
	}
	c.ok("submit", id, "blue", blueBid)
	c.in = "turn: 1\nphase: move\norders:\n  - advance: R1\n"
	out = c.ok("submit", id, "red", "-")
	if !strings.Contains(out, "roll: advance R1: 1d6=") {
		t.Errorf("results lack the roll:\n%s", out)
	}
	g := c.ok("show", id, "--json")
	if !strings.Contains(g, `"phase"`) {
		t.Errorf("show --json:\n%s", g)
	}
	c.ok("show", id, "--at", "2")
	c.ok("show", id, "--turn", "1", "--as", "red")
	if out := c.ok("replay", id); !strings.Contains(out, "replay: OK") {
		t.Errorf("replay:\n%s", out)
	}
	if out := c.ok("verify", id); !strings.Contains(out, "verify: OK") || !strings.Contains(out, "dice recomputed") {
		t.Errorf("verify:\n%s", out)
	}
	if out := c.ok("replay", id, "--adjudication", "2", "--dice", "6"); !strings.Contains(out, "advance R1: 1d6=6") {
		t.Errorf("what-if:\n%s", out)
	}
	bundle := filepath.Join(dir, "audit.tar")
	c.ok("export", id, "-o", bundle)
	if out := c.ok("verify", bundle); !strings.Contains(out, "OK") {
		t.Errorf("verify bundle:\n%s", out)
	}
	if out := c.ok("games"); !strings.Contains(out, id) {
		t.Errorf("games:\n%s", out)
	}
	if out := c.ok("log", id); !strings.Contains(out, "turn.adjudicated") {
		t.Errorf("log:\n%s", out)
	}
}

func TestBadInputFromTheCommandLine(t *testing.T) {
	dir := t.TempDir()
	c := &cli{t: t, data: filepath.Join(dir, "data")}
	id := strings.Split(c.ok("new", "--ruleset", "race", "--scenario", "sprint", "--player", "red=r@x", "--player", "blue=b@x"), "\n")[0]
	bad := write(t, dir, "bad.yaml", "turn: 1\nphase: bid\norders:\n  bdi: 1\n")
	good := write(t, dir, "good.yaml", "turn: 1\nphase: bid\norders:\n  bid: 1\n")
	countEvents := func() int { return strings.Count(c.ok("log", id), "\n") }
	before := countEvents()
	cases := []struct {
		args []string
		code int
		has  string
	}{
		{[]string{"submit", id, "red", bad}, 1, "bad.yaml:4:3: unknown field \"bdi\" (did you mean \"bid\"?) [unknown-field]"},
		{[]string{"submit", "nope", "red", good}, 1, "unknown game \"nope\""},
		{[]string{"submit", id, "green", good}, 1, "[unknown-side]"},
		{[]string{"submit", id, "red", filepath.Join(dir, "missing.yaml")}, 1, "no such file"},
		{[]string{"submit", id, "red"}, 2, "usage: umpire submit"},
		{[]string{"show"}, 2, "give the game"},
		{[]string{"new", "--ruleset", "chess", "--player", "white=w@x"}, 1, "no ruleset \"chess\""},
		{[]string{"new", "--ruleset", "race", "--scenario", "sprint", "--player", "red"}, 2, "write SIDE=ADDRESS"},
		{[]string{"bogus"}, 2, "unknown command"},
		{[]string{"verify", filepath.Join(dir, "nope.tar")}, 1, "no bundle file"},
	}
	for _, cs := range cases {
		code, out, errs := c.run(cs.args...)
		if code != cs.code || !strings.Contains(out+errs, cs.has) {
			t.Errorf("umpire %s: exit %d, want %d with %q\n%s%s", strings.Join(cs.args, " "), code, cs.code, cs.has, out, errs)
		}
	}
	c.ok("submit", id, "red", good)
	if code, _, errs := c.run("submit", id, "red", good); code != 1 || !strings.Contains(errs, "[duplicate]") {
		t.Errorf("duplicate: %d %s", code, errs)
	}
	if after := countEvents(); after != before+1 {
		t.Errorf("%d events were appended, want exactly the one good submission", after-before)
	}
	if code, _, errs := (&cli{t: t, data: filepath.Join(dir, "empty")}).run("games"); code != 1 || !strings.Contains(errs, "no data file") {
		t.Errorf("games on a missing data dir: %d %s", code, errs)
	}
}

func TestRunScripts(t *testing.T) {
	c := &cli{t: t}
	out := c.ok("run", "../../adjudicator/testrules/testdata/tie-roll-off.yaml")
	var code int
	var errs string
	if !strings.Contains(out, "roll-off blue: 1d6=5, tie broken") || !strings.Contains(out, "PASS") {
		t.Errorf("run:\n%s", out)
	}
	if out := c.ok("run", "--json", "../../adjudicator/testrules/testdata/tie-roll-off.yaml"); !strings.Contains(out, `"pass": true`) {
		t.Errorf("run --json:\n%s", out)
	}
	code, out, errs = c.run("run", "../../adjudicator/testrules/testdata-fail/wrong-square.yaml")
	if code != 1 || !strings.Contains(out, "FAIL") || !strings.Contains(errs, "1 of 1 scripts failed") {
		t.Errorf("a failing script: exit %d\n%s%s", code, out, errs)
	}
	if code, out, _ := c.run("help"); code != 0 || !strings.Contains(out, "submit") {
		t.Errorf("help: %d", code)
	}
	if code, out, _ := c.run("submit", "--help"); code != 0 || !strings.Contains(out, "what-if") {
		t.Errorf("submit --help: %d %s", code, out)
	}
}

// TestTestRulesetNotShipped: the race ruleset exists for tests only; the
// umpire binary must not link it.
func TestTestRulesetNotShipped(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool on PATH to list the binary's dependencies")
	}
	out, err := exec.Command(goTool, "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	if strings.Contains(string(out), "adjudicator/testrules") {
		t.Error("the umpire binary links the test ruleset")
	}
	if !strings.Contains(string(out), "adjudicator/rulesets") {
		t.Error("go list output does not look like umpire's dependencies")
	}
}

func mustRead(t *testing.T, p string) string {
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestRenderAndRunPicture draws a real Dragon Rage game with the shipped
// rulesets: umpire render as PNG and SVG, and umpire run --picture.
func TestRenderAndRunPicture(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	a := &app{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, rules: rulesets.Lookup, all: rulesets.All}
	run := func(args ...string) int {
		out.Reset()
		errb.Reset()
		return a.run(context.Background(), append(args, "--data", filepath.Join(dir, "data")))
	}
	if code := run("new", "--ruleset", "dragonrage", "--scenario", "n2", "--id", "n2-render", "--player", "invader=a@x", "--player", "defender=b@x"); code != 0 {
		t.Fatalf("new: %s", errb.String())
	}
	if code := run("submit", "n2-render", "defender", "../../docs/examples/n2-defender-setup.yaml"); code != 0 {
		t.Fatalf("submit: %s", errb.String())
	}
	png := filepath.Join(dir, "board.png")
	if code := run("render", "n2-render", "--as", "defender", "-o", png); code != 0 {
		t.Fatalf("render: %s", errb.String())
	}
	if b, _ := os.ReadFile(png); !bytes.HasPrefix(b, []byte("\x89PNG")) {
		t.Error("render did not write a PNG")
	}
	if code := run("render", "n2-render", "--svg", "-o", "-"); code != 0 || !strings.Contains(out.String(), "<svg") {
		t.Errorf("render --svg: %d %s", code, errb.String())
	}
	if code := run("render", "n2-render", "--as", "green", "-o", png); code != 2 {
		t.Errorf("render as an unknown side: exit %d", code)
	}
	pic := filepath.Join(dir, "end.png")
	out.Reset()
	errb.Reset()
	if code := a.run(context.Background(), []string{"run", "--picture", pic, "../../adjudicator/dragonrage/testdata/setup-e2.yaml"}); code != 0 {
		t.Fatalf("run --picture: %s", errb.String())
	}
	if b, _ := os.ReadFile(pic); !bytes.HasPrefix(b, []byte("\x89PNG")) {
		t.Error("run --picture did not write a PNG")
	}
}
