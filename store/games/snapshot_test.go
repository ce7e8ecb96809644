package games_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
)

// TestLoadFromSnapshotIsTheFold plays a race through a Service that keeps
// a snapshot every few events, and at random moments loads the game in a
// new Service (nothing cached, so the load reads the snapshot and folds
// the events after it): the game is the fold of the whole log, field for
// field, with the same state hash.
func TestLoadFromSnapshotIsTheFold(t *testing.T) {
	ctx := context.Background()
	s := newService(t)
	s.SnapshotEvery = 5
	if _, err := s.Create(ctx, games.CreateRequest{ID: "race-1", Ruleset: "race", Scenario: "sprint", ChainLength: 4,
		Options: map[string]string{"turns": "12", "track": "100"},
		Players: []games.Player{{Side: "red", Address: "red@example.org"}, {Side: "blue", Address: "blue@example.org"}}}); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 6))
	used := 0
	for step := 0; ; step++ {
		if r.IntN(3) == 0 || step%10 == 0 {
			cold := &games.Service{Store: s.Store, Rules: lookup, SnapshotEvery: 5}
			got, err := cold.Load(ctx, "race-1")
			if err != nil {
				t.Fatal(err)
			}
			entries, _, err := s.Entries(ctx, "race-1")
			if err != nil {
				t.Fatal(err)
			}
			want, err := game.Load(entries, lookup)
			if err != nil {
				t.Fatal(err)
			}
			if !game.SameFold(got, want) || game.StateHash(got.State) != game.StateHash(want.State) {
				t.Fatalf("step %d: the game loaded from its snapshot is not the fold of its %d events", step, len(entries))
			}
			if sn, err := s.Store.(store.Snapshots).Snapshot(ctx, "race-1"); err == nil && sn.Seq > 1 {
				used++
			}
		}
		g, err := s.Load(ctx, "race-1")
		if err != nil {
			t.Fatal(err)
		}
		due := g.Due()
		if len(due) == 0 {
			break
		}
		req := due[0]
		for _, d := range due {
			if _, ok := g.Answered(d.ID); !ok {
				req = d
				break
			}
		}
		if _, err := s.Submit(ctx, games.SubmitRequest{Game: "race-1", Side: req.Side, Src: []byte(orders(req, g)), Via: "test"}); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d loads from a snapshot", used)
	if used < 5 {
		t.Fatalf("only %d loads had a snapshot to start from", used)
	}
}

// TestSnapshotNotTrusted: a snapshot that does not decode, or whose fold
// is not at the event the store bound it to, is ignored: the log is folded.
func TestSnapshotNotTrusted(t *testing.T) {
	ctx := context.Background()
	s := newService(t)
	s.SnapshotEvery = -1
	create(t, s, 0)
	playOut(t, s, "race-1")
	entries, _, err := s.Entries(ctx, "race-1")
	if err != nil {
		t.Fatal(err)
	}
	want, err := game.Load(entries, lookup)
	if err != nil {
		t.Fatal(err)
	}
	early, err := game.Load(entries[:5], lookup)
	if err != nil {
		t.Fatal(err)
	}
	earlySnap, err := early.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	sn := s.Store.(store.Snapshots)
	last := uint64(len(entries))
	for name, put := range map[string]struct {
		seq  uint64
		data []byte
	}{
		"garbage":              {last - 1, []byte("{not a snapshot")},
		"of another event":     {last - 1, earlySnap},
		"of another version":   {last, []byte(`{"format":1,"ruleset":"race","ruleset_version":"0.0.1"}`)},
		"empty":                {last, nil},
		"of the first event 1": {1, earlySnap},
	} {
		if err := sn.PutSnapshot(ctx, "race-1", put.seq, put.data); err != nil {
			t.Fatal(err)
		}
		got, err := (&games.Service{Store: s.Store, Rules: lookup}).Load(ctx, "race-1")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !game.SameFold(got, want) {
			t.Fatalf("%s: the load used a snapshot that is not the fold", name)
		}
	}
}
