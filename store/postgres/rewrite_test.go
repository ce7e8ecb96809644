package postgres_test

import (
	"errors"
	"testing"

	"github.com/umpire-pbem/umpire/store"
)

func TestRewriteLog(t *testing.T) {
	s := open(t)
	ctx := t.Context()
	old, err := s.Append(ctx, store.Batch{Game: "g", Events: []store.NewEvent{event(1), event(2), event(3)}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.PutSnapshot(ctx, "g", 2, []byte("fold")); err != nil {
		t.Fatal(err)
	}
	again := []store.NewEvent{event(10), event(11)}
	if _, err := s.RewriteLog(ctx, "g", old[1].Hash, again, nil); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("rewrite with a stale head: %v, want ErrConflict", err)
	}
	if _, err := s.RewriteLog(ctx, "nope", old[2].Hash, again, nil); !errors.Is(err, store.ErrUnknownGame) {
		t.Fatalf("rewrite of an unknown game: %v", err)
	}
	if _, err := s.RewriteLog(ctx, "g", old[2].Hash, nil, nil); !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("rewrite to nothing: %v", err)
	}
	if v, _ := s.Version(ctx, "g"); v != 3 {
		t.Fatalf("a refused rewrite changed the log: version %d", v)
	}
	out, err := s.RewriteLog(ctx, "g", old[2].Hash, again, map[string][]byte{"seed": []byte("s")})
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Events(ctx, "g", 1)
	if err != nil || len(got) != 2 || got[1].Hash != out[1].Hash || out[0].Prev != (store.Hash{}) {
		t.Fatalf("rewritten log: %+v, %v", got, err)
	}
	if err := store.Verify(ctx, s, "g"); err != nil {
		t.Fatal(err)
	}
	if v, err := s.Secret(ctx, "g", "seed"); err != nil || string(v) != "s" {
		t.Fatalf("secret after rewrite: %q, %v", v, err)
	}
	if _, err := s.Snapshot(ctx, "g"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("the snapshot of the old log survived the rewrite: %v", err)
	}
	if _, err := s.Append(ctx, store.Batch{Game: "g", Expected: 2, Events: []store.NewEvent{event(12)}}); err != nil {
		t.Fatalf("append after rewrite: %v", err)
	}
}
