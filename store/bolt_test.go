package store_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/storetest"
)

func openBolt(t *testing.T, opts ...store.Option) *store.Bolt {
	t.Helper()
	path := filepath.Join(t.TempDir(), "umpire.db")
	s, err := store.Open(path, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestBolt(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return openBolt(t) })
}

func TestBoltBatching(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return openBolt(t, store.WithBatching()) })
}

var t0 = time.Date(2025, 6, 1, 9, 0, 0, 0, time.UTC)

func event(i int) store.NewEvent {
	return store.NewEvent{Type: "test", Schema: 1, Time: t0.Add(time.Duration(i) * time.Second), Actor: "referee", Payload: []byte(`{"n":1}`)}
}

func TestBoltSurvivesReopen(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "umpire.db")
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	want, err := s.Append(ctx, store.Batch{
		Game:    "g",
		Events:  []store.NewEvent{event(0), event(1), event(2)},
		Outbox:  []store.Message{{ID: "m1", Game: "g", To: []string{"x@example.org"}, Raw: []byte("hi"), Created: t0, NextAttempt: t0}},
		Marks:   []string{"imap:1:42"},
		Secrets: map[string][]byte{"seed": []byte("s3cret")},
		Meta:    map[string][]byte{"uidvalidity": []byte("7")},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Retry(ctx, "m1", t0.Add(time.Hour), "busy"); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s, err = store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got, err := s.Events(ctx, "g", 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d events after reopening, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i].Hash != want[i].Hash || !bytes.Equal(got[i].Payload, want[i].Payload) || !got[i].Time.Equal(want[i].Time) {
			t.Fatalf("event %d after reopening: %+v, want %+v", i+1, got[i], want[i])
		}
	}
	if err := store.Verify(ctx, s, "g"); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.Marked(ctx, "imap:1:42"); !ok || err != nil {
		t.Fatalf("mark lost: %v %v", ok, err)
	}
	if v, err := s.Secret(ctx, "g", "seed"); string(v) != "s3cret" || err != nil {
		t.Fatalf("secret lost: %q %v", v, err)
	}
	if v, err := s.Meta(ctx, "uidvalidity"); string(v) != "7" || err != nil {
		t.Fatalf("meta lost: %q %v", v, err)
	}
	if due, err := s.Due(ctx, t0.Add(time.Minute), 0); len(due) != 0 || err != nil {
		t.Fatalf("retried message due too early after reopening: %v %v", due, err)
	}
	due, err := s.Due(ctx, t0.Add(time.Hour), 0)
	if err != nil || len(due) != 1 || due[0].Attempts != 1 || due[0].LastError != "busy" {
		t.Fatalf("Due after reopening = %+v, %v", due, err)
	}
	// And the log goes on from where it was.
	more, err := s.Append(ctx, store.Batch{Game: "g", Expected: 3, Events: []store.NewEvent{event(3)}})
	if err != nil {
		t.Fatal(err)
	}
	if more[0].Seq != 4 || more[0].Prev != want[2].Hash {
		t.Fatalf("event appended after reopening: seq %d prev %s", more[0].Seq, more[0].Prev)
	}
}

func TestBoltLocked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "umpire.db")
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, err = store.Open(path, store.WithLockTimeout(20*time.Millisecond))
	if !errors.Is(err, store.ErrLocked) {
		t.Fatalf("second Open: %v, want ErrLocked", err)
	}
	if msg := err.Error(); !strings.Contains(msg, path) || !strings.Contains(msg, "umpire serve") {
		t.Fatalf("lock error %q should name the file and suggest what holds it", msg)
	}
}

func TestBoltReadOnly(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "umpire.db")
	if _, err := store.OpenReadOnly(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("OpenReadOnly of a missing file: %v, want an error naming it", err)
	}
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Append(ctx, store.Batch{Game: "g", Events: []store.NewEvent{event(0)}}); err != nil {
		t.Fatal(err)
	}
	s.Close()

	r1, err := store.OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r1.Close()
	r2, err := store.OpenReadOnly(path) // readers share the file
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	if v, err := r2.Version(ctx, "g"); v != 1 || err != nil {
		t.Fatalf("Version through a reader = %d, %v", v, err)
	}
	_, err = r1.Append(ctx, store.Batch{Game: "g", Expected: 1, Events: []store.NewEvent{event(1)}})
	if !errors.Is(err, store.ErrReadOnly) {
		t.Fatalf("Append on a read-only store: %v, want ErrReadOnly", err)
	}
	if _, err := store.Open(path, store.WithLockTimeout(20*time.Millisecond)); !errors.Is(err, store.ErrLocked) {
		t.Fatalf("Open for writing while readers hold the file: %v, want ErrLocked", err)
	}
}

func TestBoltNewerFormat(t *testing.T) {
	// A file from a future umpire is refused, not misread. The format marker
	// is forged through a raw bolt handle.
	path := filepath.Join(t.TempDir(), "umpire.db")
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	forgeFormat(t, path, "2")
	_, err = store.Open(path)
	if err == nil || !strings.Contains(err.Error(), "newer umpire") || !strings.Contains(err.Error(), path) {
		t.Fatalf("Open of a format-2 file: %v", err)
	}
}

func TestBoltWriteTo(t *testing.T) {
	ctx := t.Context()
	s := openBolt(t)
	if _, err := s.Append(ctx, store.Batch{Game: "g", Events: []store.NewEvent{event(0), event(1)}}); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := s.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	copyPath := filepath.Join(t.TempDir(), "backup.db")
	if err := os.WriteFile(copyPath, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := store.OpenReadOnly(copyPath)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := store.Verify(ctx, c, "g"); err != nil {
		t.Fatal(err)
	}
	if v, err := c.Version(ctx, "g"); v != 2 || err != nil {
		t.Fatalf("backup at version %d, %v; want 2", v, err)
	}
}

func TestBoltFilePermissions(t *testing.T) {
	s := openBolt(t)
	fi, err := os.Stat(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		t.Fatalf("data file has mode %v; it holds secrets and must be private", perm)
	}
}

func TestVerifyDetectsTampering(t *testing.T) {
	// Verify must catch an event whose content no longer matches its hash.
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "umpire.db")
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Append(ctx, store.Batch{Game: "g", Events: []store.NewEvent{event(0), event(1), event(2)}}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	tamperPayload(t, path, "g", 2)
	s, err = store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	err = store.Verify(ctx, s, "g")
	if !errors.Is(err, store.ErrCorrupt) || !strings.Contains(err.Error(), "event 2") {
		t.Fatalf("Verify of a tampered log: %v, want ErrCorrupt naming event 2", err)
	}
}
