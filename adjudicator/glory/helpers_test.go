package glory_test

import (
	"os"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/script"
	"github.com/umpire-pbem/umpire/adjudicator/script/scripttest"
)

// playCase plays the rule case at path (under testdata/) and fails the test
// unless it holds.
func playCase(t *testing.T, path string) *script.Run {
	t.Helper()
	return scripttest.Play(t, os.DirFS("."), path, lookup)
}
