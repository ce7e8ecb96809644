package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestOlderGamesStillHold: games recorded by an earlier umpire are imported,
// verified and replayed by this one — each adjudication decided again gives
// the state hash the old log recorded. A change to a ruleset's state that
// alters the encoding of games that do not use it (a new chapter's state
// without omitzero, a renamed field) breaks every running game on upgrade;
// this test is how it shows. The bundles in testdata/compat were written by
// the umpire of the commit named in their README line: n2-compat.tar is a
// whole game of Nurkott 2 (Raid) played by the command line at bc3edef,
// before the major monsters came.
func TestOlderGamesStillHold(t *testing.T) {
	for _, tc := range []struct{ bundle, id, show string }{
		{"n2-compat.tar", "n2-compat", "the invader wins"},
	} {
		t.Run(tc.id, func(t *testing.T) {
			_, ok := dragonCLI(t)
			ok("import", filepath.Join("testdata", "compat", tc.bundle))
			ok("verify", tc.id)
			if out := ok("replay", tc.id); strings.Contains(out, "diverge") {
				t.Fatalf("replay:\n%s", out)
			}
			if show := ok("show", tc.id); !strings.Contains(show, tc.show) {
				t.Errorf("show lacks %q:\n%s", tc.show, show)
			}
		})
	}
}
