package store_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/umpire-pbem/umpire/store"
)

// TestSnapshotOfRewrittenLog: a snapshot bound to an event whose hash
// changed (the log was rewritten) is not handed back, and a file with
// snapshots passes the full check on open.
func TestSnapshotOfRewrittenLog(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "umpire.db")
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	evs, err := s.Append(ctx, store.Batch{Game: "g", Events: []store.NewEvent{event(1), event(2), event(3)}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.PutSnapshot(ctx, "g", 3, []byte("fold")); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = store.Open(path, store.WithCheck(store.CheckAll))
	if err != nil {
		t.Fatalf("the full check refuses a file with a snapshot: %v", err)
	}
	defer s.Close()
	if r := s.Report(); r == nil || len(r.Damage) != 0 {
		t.Fatalf("the check reports damage: %+v", r)
	}
	if sn, err := s.Snapshot(ctx, "g"); err != nil || sn.Seq != 3 {
		t.Fatalf("snapshot: %+v %v", sn, err)
	}
	other := event(4)
	if _, err := s.RewriteLog(ctx, "g", evs[2].Hash, []store.NewEvent{event(1), event(2), other}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Snapshot(ctx, "g"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("snapshot of a rewritten log: %v", err)
	}
}
