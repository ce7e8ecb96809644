package glory_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/script"
)

// playCase plays the rule case at path (under testdata/) and fails the test
// unless it holds: the tests that read more of a case than its expectations
// can say (what each side's mail shows) start from it.
func playCase(t *testing.T, path string) *script.Run {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := script.Parse(filepath.Base(path), src)
	if err != nil {
		t.Fatal(err)
	}
	run, err := script.Play(s, lookup, script.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !run.OK() {
		t.Fatalf("%s fails: %v", path, run.Failures)
	}
	return run
}
