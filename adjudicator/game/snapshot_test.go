package game_test

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/rulesets"
	"github.com/umpire-pbem/umpire/adjudicator/script"
)

var allRules = game.Lookup(func(name string) (adjudicator.Ruleset, bool) {
	if rs, ok := lookup(name); ok {
		return rs, true
	}
	return rulesets.Lookup(name)
})

// snapshotLogs are whole games: the race played to its end, and every
// Dragon Rage game of the ruleset's tests.
func snapshotLogs(t *testing.T) map[string][]game.Entry {
	logs := map[string][]game.Entry{"race": playToEnd(t, 3).log}
	files, err := filepath.Glob("../dragonrage/testdata/games/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no Dragon Rage games: %v", err)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s, err := script.Parse(f, src)
		if err != nil {
			t.Fatal(err)
		}
		run, err := script.Play(s, allRules, script.Options{})
		if err != nil || !run.OK() {
			t.Fatalf("%s: %v %v", f, err, run.Failures)
		}
		logs[filepath.Base(f)] = run.Log
	}
	return logs
}

// TestSnapshotIsTheFold: at random cut points of whole games, a snapshot
// of the fold comes back as the same fold, and folding the rest of the
// log onto it ends exactly where folding the whole log ends.
func TestSnapshotIsTheFold(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for name, log := range snapshotLogs(t) {
		whole, err := game.Load(log, allRules)
		if err != nil {
			t.Fatal(err)
		}
		cuts := []int{1, len(log)}
		for range 12 {
			cuts = append(cuts, 1+r.IntN(len(log)))
		}
		for _, cut := range cuts {
			g, err := game.Load(log[:cut], allRules)
			if err != nil {
				t.Fatal(err)
			}
			b, err := g.Snapshot()
			if err != nil {
				t.Fatalf("%s after event %d: %v", name, cut, err)
			}
			back, err := game.RestoreSnapshot(b, allRules)
			if err != nil {
				t.Fatalf("%s after event %d: %v", name, cut, err)
			}
			if !game.SameFold(back, g) {
				t.Fatalf("%s after event %d: the snapshot is not the fold", name, cut)
			}
			if cut < len(log) && game.SameFold(back, whole) {
				t.Fatalf("%s after event %d: SameFold sees no difference with the whole fold", name, cut)
			}
			for _, e := range log[cut:] {
				if err := back.Apply(e); err != nil {
					t.Fatalf("%s after event %d: event %d: %v", name, cut, e.Seq, err)
				}
			}
			if !game.SameFold(back, whole) || game.StateHash(back.State) != game.StateHash(whole.State) {
				t.Fatalf("%s after event %d: snapshot + rest is not the whole fold", name, cut)
			}
		}
	}
}

// TestSnapshotRefusals: a snapshot of another ruleset version, format or
// a damaged one is refused, never half used.
func TestSnapshotRefusals(t *testing.T) {
	tb := playToEnd(t, 3)
	b, err := tb.g.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	for name, bad := range map[string][]byte{
		"cut":     b[:len(b)/2],
		"format":  []byte(`{"format":2}`),
		"version": []byte(strings.Replace(string(b), `"ruleset_version":"`, `"ruleset_version":"0.0.0-other`, 1)),
		"ruleset": []byte(strings.Replace(string(b), `"ruleset":"race"`, `"ruleset":"chess"`, 1)),
	} {
		if _, err := game.RestoreSnapshot(bad, lookup); !errors.Is(err, game.ErrNoSnapshot) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestSnapshotKeepsResultsPreference: a side that wants results only when
// something is due from it keeps that wish through a snapshot (a snapshot
// without it did not come back whole, so such games were never
// snapshotted).
func TestSnapshotKeepsResultsPreference(t *testing.T) {
	tb := newTable(t, 0, nil)
	rec, err := tb.g.ResultsPrefRecord(t0, "blue", game.ResultsDue, game.SideActor("blue"))
	if err != nil {
		t.Fatal(err)
	}
	tb.append([]game.Record{rec})
	b, err := tb.g.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	back, err := game.RestoreSnapshot(b, allRules)
	if err != nil {
		t.Fatal(err)
	}
	if back.ResultsWhen("blue") != game.ResultsDue || !game.SameFold(back, tb.g) {
		t.Errorf("blue gets results %s after the snapshot", back.ResultsWhen("blue"))
	}
}
