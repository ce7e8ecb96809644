// Package scripttest runs a directory of game scripts as Go subtests: the
// harness behind every ruleset's rule cases (testdata/*.yaml), and the
// coverage check that every rule ID in scope has at least one case.
package scripttest

import (
	"bytes"
	"errors"
	"io/fs"
	"path"
	"sort"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/script"
)

// Load reads every *.yaml script under dir in fsys (recursively), sorted by path.
func Load(t testing.TB, fsys fs.FS, dir string) []*script.Script {
	t.Helper()
	var out []*script.Script
	err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || (!strings.HasSuffix(p, ".yaml") && !strings.HasSuffix(p, ".yml")) {
			return nil
		}
		src, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		s, err := script.Parse(p, src)
		if err != nil {
			t.Errorf("%v", err)
			return nil
		}
		out = append(out, s)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].File() < out[j].File() })
	return out
}

// RunAll plays every script as a subtest named after its file; a failing
// script prints its whole run.
func RunAll(t *testing.T, scripts []*script.Script, lookup game.Lookup) {
	t.Helper()
	runAll(t, scripts, lookup, false)
}

// RunParallel is RunAll with the scripts played in parallel (up to
// -test.parallel at once, GOMAXPROCS by default), for a ruleset whose
// games share no mutable state: `go test -race` over its cases says so.
func RunParallel(t *testing.T, scripts []*script.Script, lookup game.Lookup) {
	t.Helper()
	runAll(t, scripts, lookup, true)
}

func runAll(t *testing.T, scripts []*script.Script, lookup game.Lookup, parallel bool) {
	t.Helper()
	if len(scripts) == 0 {
		t.Fatal("no scripts found")
	}
	for _, s := range scripts {
		t.Run(strings.TrimSuffix(path.Base(s.File()), path.Ext(s.File())), func(t *testing.T) {
			if parallel {
				t.Parallel()
			}
			run, err := script.Play(s, lookup, script.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !run.OK() {
				var b bytes.Buffer
				run.WriteText(&b)
				t.Errorf("%s:\n%s", s.File(), b.String())
			}
		})
	}
}

// Coverage maps each rule ID to the scripts that name it in rules:.
func Coverage(scripts []*script.Script) map[string][]string {
	out := map[string][]string{}
	for _, s := range scripts {
		for _, r := range s.Rules {
			out[r] = append(out[r], s.File())
		}
	}
	return out
}

// Uncovered returns the rule IDs of want that no script names, sorted.
func Uncovered(scripts []*script.Script, want []string) []string {
	cov := Coverage(scripts)
	var out []string
	for _, r := range want {
		if len(cov[r]) == 0 {
			out = append(out, r)
		}
	}
	sort.Strings(out)
	return out
}

// CheckRefusal fails t unless err, the refusal of orders, is a player's
// mistake said properly: an OrderError or OrderErrors, each with a stable
// code, a message and a place inside the text (fuzz tests of every
// ruleset).
func CheckRefusal(t testing.TB, err error, orders []byte) {
	t.Helper()
	var list []*adjudicator.OrderError
	var one *adjudicator.OrderError
	var many adjudicator.OrderErrors
	switch {
	case errors.As(err, &many):
		list = many
	case errors.As(err, &one):
		list = []*adjudicator.OrderError{one}
	default:
		t.Fatalf("refused with %T, not an order error: %v", err, err)
	}
	if len(list) == 0 {
		t.Fatalf("refused with an empty list of errors: %v", err)
	}
	lines := 1 + strings.Count(strings.ReplaceAll(strings.ReplaceAll(string(orders), "\r\n", "\n"), "\r", "\n"), "\n")
	for _, e := range list {
		if e == nil || e.Code == "" || e.Msg == "" {
			t.Fatalf("an order error without a code or message: %#v (in %v)", e, err)
		}
		// One past the end: yaml.v3 places an empty document's null there.
		if e.Line < 0 || e.Line > lines+1 || e.Column < 0 {
			t.Fatalf("error %q is at line %d, column %d of %d lines", e, e.Line, e.Column, lines)
		}
	}
}

// Play plays the script at file in fsys (os.DirFS(".") for the test's
// directory) and fails the test unless it holds: where a test reads more
// of a case than its expectations can say (what each side's mail shows),
// it starts here.
func Play(t testing.TB, fsys fs.FS, file string, lookup game.Lookup) *script.Run {
	t.Helper()
	src, err := fs.ReadFile(fsys, file)
	if err != nil {
		t.Fatal(err)
	}
	return PlayText(t, path.Base(file), src, lookup)
}

// PlayText plays the case src (named name in messages) and fails the test
// unless it holds, as Play does for a case in a file.
func PlayText(t testing.TB, name string, src []byte, lookup game.Lookup) *script.Run {
	t.Helper()
	s, err := script.Parse(name, src)
	if err != nil {
		t.Fatal(err)
	}
	run, err := script.Play(s, lookup, script.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !run.OK() {
		t.Fatalf("%s fails: %v", name, run.Failures)
	}
	return run
}

// Digest returns the lines of a rules digest read in place (the shared
// folder beside the repository: dir is its directory, file its name), or
// skips the test when it is not there: a checkout on its own, as in CI,
// has no digest to check against.
func Digest(t testing.TB, dir fs.FS, file string) []string {
	t.Helper()
	b, err := fs.ReadFile(dir, file)
	if err != nil {
		t.Skipf("the rules digest %s is not there (%v): skipping the check against it", file, err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// Between returns the lines after the first that starts with from and
// before the next that starts with to ("" to the end): a part of a digest.
func Between(lines []string, from, to string) []string {
	for i, l := range lines {
		if !strings.HasPrefix(l, from) {
			continue
		}
		rest := lines[i+1:]
		for j, m := range rest {
			if to != "" && strings.HasPrefix(m, to) {
				return rest[:j]
			}
		}
		return rest
	}
	return nil
}
