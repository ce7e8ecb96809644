package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/testrules"
)

// runApp runs the command line in-process as main would, with the race
// ruleset, and returns the exit status and both outputs.
func runApp(stdin io.Reader, build func() (*debug.BuildInfo, bool), args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	a := &app{stdin: stdin, stdout: &out, stderr: &errb, build: build,
		rules: func(n string) (adjudicator.Ruleset, bool) { return testrules.Race, n == "race" },
		all:   func() []adjudicator.Ruleset { return []adjudicator.Ruleset{testrules.Race} }}
	code = a.run(context.Background(), args)
	return code, out.String(), errb.String()
}

// TestUsageErrorsGoToStderr: a mistake on the command line is two lines on
// stderr (what is wrong, then the usage with a pointer to the help), exit
// status 2, nothing on stdout.
func TestUsageErrorsGoToStderr(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"submit", "--bogus"}, "umpire submit: flag provided but not defined: -bogus\nusage: umpire submit GAME SIDE ORDERS.yaml (umpire help submit for more)\n"},
		{[]string{"submit", "g", "red"}, "umpire submit: give the game, the side and the orders file\nusage: umpire submit GAME SIDE ORDERS.yaml (umpire help submit for more)\n"},
		{[]string{"show", "--turn", "x", "g"}, "umpire show: invalid value \"x\" for flag -turn: parse error\nusage: umpire show GAME [--turn T | --at EVENT] [--as SIDE] [--json] (umpire help show for more)\n"},
		{[]string{"games", "--bogus"}, "umpire games: flag provided but not defined: -bogus\nusage: umpire games (umpire help games for more)\n"},
		{[]string{"sumbit"}, "umpire: unknown command \"sumbit\" (did you mean \"submit\"?)\nusage: umpire COMMAND [ARGS] (umpire help lists the commands)\n"},
		{[]string{"help", "bogus"}, "umpire help: no command \"bogus\"\nusage: umpire help [COMMAND] (umpire help help for more)\n"},
		{[]string{"version", "extra"}, "umpire version: unexpected \"extra\"\nusage: umpire version (umpire help version for more)\n"},
	}
	for _, c := range cases {
		code, out, errs := runApp(strings.NewReader(""), nil, c.args...)
		if code != 2 || out != "" || errs != c.want {
			t.Errorf("umpire %s: exit %d, stdout %q, stderr:\n%s\nwant exit 2, no stdout, stderr:\n%s", strings.Join(c.args, " "), code, out, errs, c.want)
		}
	}
	// With no command at all, the list of commands, on stderr.
	if code, out, errs := runApp(strings.NewReader(""), nil); code != 2 || out != "" || !strings.Contains(errs, "Commands:") {
		t.Errorf("umpire: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// TestHelpGoesToStdout: asking for help is not a mistake: the whole help on
// stdout, exit status 0.
func TestHelpGoesToStdout(t *testing.T) {
	for _, args := range [][]string{{"submit", "--help"}, {"submit", "-h"}, {"help", "submit"}, {"submit", "g", "--help"}} {
		code, out, errs := runApp(strings.NewReader(""), nil, args...)
		if code != 0 || errs != "" || !strings.HasPrefix(out, "usage: umpire submit GAME SIDE ORDERS.yaml\n") ||
			!strings.Contains(out, "flags:\n") || !strings.Contains(out, "-dice faces") {
			t.Errorf("umpire %s: exit %d, stderr %q, stdout:\n%s", strings.Join(args, " "), code, errs, out)
		}
	}
	for _, args := range [][]string{{"help"}, {"--help"}, {"-h"}} {
		if code, out, errs := runApp(strings.NewReader(""), nil, args...); code != 0 || errs != "" || !strings.Contains(out, "  version ") {
			t.Errorf("umpire %s: exit %d, stderr %q, stdout:\n%s", strings.Join(args, " "), code, errs, out)
		}
	}
}

func TestVersion(t *testing.T) {
	devel := func() (*debug.BuildInfo, bool) {
		return &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/umpire-pbem/umpire", Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"}, {Key: "vcs.modified", Value: "true"}}}, true
	}
	release := func() (*debug.BuildInfo, bool) {
		return &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/umpire-pbem/umpire", Version: "v1.2.3"}}, true
	}
	none := func() (*debug.BuildInfo, bool) { return nil, false }
	race := "rulesets:\n  race " + testrules.Version + "\n"
	cases := []struct {
		build func() (*debug.BuildInfo, bool)
		args  []string
		want  string
	}{
		{devel, []string{"version"}, "umpire (devel) revision 0123456789abcdef0123456789abcdef01234567 (modified)\nbuilt with go1.26.8\n" + race},
		{release, []string{"--version"}, "umpire v1.2.3\nbuilt with go1.26.8\n" + race},
		{none, []string{"-version"}, "umpire (devel)\n" + race},
	}
	for _, c := range cases {
		code, out, errs := runApp(strings.NewReader(""), c.build, c.args...)
		if code != 0 || errs != "" || out != c.want {
			t.Errorf("umpire %s: exit %d, stderr %q, stdout:\n%s\nwant:\n%s", c.args[0], code, errs, out, c.want)
		}
	}
	// The real build information of this test binary.
	if code, out, _ := runApp(strings.NewReader(""), nil, "version"); code != 0 || !strings.HasPrefix(out, "umpire ") || !strings.Contains(out, race) {
		t.Errorf("umpire version: exit %d\n%s", code, out)
	}
}

// endless serves zeros for ever and counts what it served: only a limit
// can stop a read of it.
type endless struct{ served int64 }

func (e *endless) Read(p []byte) (int, error) {
	clear(p)
	e.served += int64(len(p))
	return len(p), nil
}

// TestSubmitEndlessInputFailsAtTheLimit: umpire submit of an endless
// standard input or of /dev/zero stops at the orders limit of the mail
// path, says so, records nothing, and holds no more than that in memory.
func TestSubmitEndlessInputFailsAtTheLimit(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	c := &cli{t: t, data: data}
	id := strings.Split(c.ok("new", "--ruleset", "race", "--scenario", "sprint", "--player", "red=r@example.org", "--player", "blue=b@example.org"), "\n")[0]
	events := func() int { return strings.Count(c.ok("log", id), "\n") }
	before := events()

	src := &endless{}
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	code, out, errs := runApp(src, nil, "submit", id, "red", "-", "--data", data)
	runtime.ReadMemStats(&m1)
	if want := "umpire submit: standard input: larger than the 256 KiB limit for orders; nothing was recorded\n"; code != 1 || out != "" || errs != want {
		t.Errorf("submit of an endless stdin: exit %d, stdout %q, stderr %q; want exit 1 and %q", code, out, errs, want)
	}
	if src.served > maxOrders+1 {
		t.Errorf("submit read %d bytes of standard input; the limit is %d", src.served, maxOrders)
	}
	if alloc := m1.TotalAlloc - m0.TotalAlloc; alloc > 16<<20 {
		t.Errorf("submit of an endless stdin allocated %d bytes", alloc)
	}

	if _, err := os.Stat("/dev/zero"); err == nil {
		code, out, errs := runApp(strings.NewReader(""), nil, "submit", id, "red", "/dev/zero", "--data", data)
		if want := "umpire submit: /dev/zero: larger than the 256 KiB limit for orders; nothing was recorded\n"; code != 1 || out != "" || errs != want {
			t.Errorf("submit of /dev/zero: exit %d, stdout %q, stderr %q; want exit 1 and %q", code, out, errs, want)
		}
	}
	big := write(t, dir, "orders.yaml", "turn: 1\nphase: bid\norders:\n  bid: 1\n#"+strings.Repeat("x", maxOrders)+"\n")
	code, _, errs = runApp(strings.NewReader(""), nil, "submit", id, "red", big, "--data", data)
	if want := "umpire submit: " + big + ": larger than the 256 KiB limit for orders; nothing was recorded\n"; code != 1 || errs != want {
		t.Errorf("submit of big orders: exit %d, stderr %q; want %q", code, errs, want)
	}
	if after := events(); after != before {
		t.Errorf("%d events were recorded", after-before)
	}
}

// TestEveryFileReadIsBounded: scripts, positions and maps are read up to the
// YAML limit, an audit bundle up to its own; an endless file fails at once.
func TestEveryFileReadIsBounded(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero here")
	}
	dir := t.TempDir()
	zero := filepath.Join(dir, "zero.yaml") // map files are told by their .yaml name
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"run", "/dev/zero"}, "umpire run: /dev/zero: larger than the 1 MiB limit for game scripts\n"},
		{[]string{"map", "check", zero}, "umpire map: " + zero + ": larger than the 1 MiB limit for map files\n"},
		{[]string{"new", "--ruleset", "race", "--position", "/dev/zero", "--player", "red=r@x", "--data", filepath.Join(dir, "data")}, "umpire new: /dev/zero: larger than the 1 MiB limit for positions\n"},
	}
	for _, c := range cases {
		code, out, errs := runApp(strings.NewReader(""), nil, c.args...)
		if code != 1 || out != "" || errs != c.want {
			t.Errorf("umpire %s: exit %d, stdout %q, stderr %q; want exit 1 and %q", strings.Join(c.args, " "), code, out, errs, c.want)
		}
	}
	// The bundle reader: the cap applies to the stream, not to a size
	// looked up first.
	bundle := filepath.Join(dir, "big.tar")
	if err := os.WriteFile(bundle, make([]byte, 4096), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := openCapped(bundle, 1024, "audit bundles")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := io.ReadAll(r); err == nil || err.Error() != bundle+": larger than the 1 KiB limit for audit bundles" {
		t.Errorf("reading past the cap: %v", err)
	}
	if code, _, errs := runApp(strings.NewReader(""), nil, "verify", "/dev/zero"); code != 1 || !strings.HasPrefix(errs, "umpire verify: ") {
		t.Errorf("verify /dev/zero: exit %d, %s", code, errs)
	}
}

// TestPlayerAddressesAreChecked: umpire new refuses anything but one bare
// address per side, naming the flag; nothing is created.
func TestPlayerAddressesAreChecked(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	cases := []struct {
		flag, want string
	}{
		{"red=Alice <alice@example.org>", `umpire new: --player red=...: "Alice <alice@example.org>" is not one mail address: give the bare address, "alice@example.org"`},
		{"red=a@example.org,b@example.org", `umpire new: --player red=...: "a@example.org,b@example.org" is not one mail address: it holds 2 addresses; give one`},
		{"red=a@example.org\r\nBcc: x@example.org", `umpire new: --player red=...: "a@example.org\r\nBcc: x@example.org" is not one mail address: it contains a line break`},
		{"red=alice", `umpire new: --player red=...: "alice" is not one mail address: write it as name@domain`},
		{"red=", `umpire new: --player red=...: "" is not one mail address: it is empty`},
	}
	for _, c := range cases {
		code, out, errs := runApp(strings.NewReader(""), nil, "new", "--ruleset", "race", "--scenario", "sprint", "--player", c.flag, "--player", "blue=b@example.org", "--data", data)
		if code != 2 || out != "" || !strings.HasPrefix(errs, c.want) || !strings.Contains(errs, "\nusage: umpire new ") {
			t.Errorf("--player %q: exit %d, stdout %q, stderr:\n%s\nwant exit 2 and %s…", c.flag, code, out, errs, c.want)
		}
	}
	code, _, errs := runApp(strings.NewReader(""), nil, "new", "--ruleset", "race", "--scenario", "sprint", "--referee", "Ref <ref@example.org>", "--player", "red=r@example.org", "--data", data)
	if code != 2 || !strings.HasPrefix(errs, `umpire new: --referee: "Ref <ref@example.org>" is not one mail address`) {
		t.Errorf("--referee with a display name: exit %d, %s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(data, "umpire.db")); err == nil {
		t.Error("a data file was created for a refused game")
	}
}
