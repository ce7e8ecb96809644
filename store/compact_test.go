package store_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/store"
)

// TestCompact: after pruning, Compact gives the freed pages back to the
// disk and keeps everything else, the outbox's queue order included.
func TestCompact(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "umpire.db")
	damagedFile(t, path) // games, secrets, marks, meta, mail in every status
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for i, id := range fillOutbox(t, s, "big", 40, t0) {
		if i%4 != 3 { // every fourth stays pending
			if err := s.MarkSent(ctx, id, t0.Add(time.Duration(i)*time.Hour)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := s.PruneSent(ctx, t0.Add(1000*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := s.PutSnapshot(ctx, "big", 120, []byte("fold of big")); err != nil {
		t.Fatal(err)
	}
	want := contents(t, s)

	// Not while another holds the file.
	before, _ := os.ReadFile(path)
	if _, err := store.Compact(ctx, path, store.WithLockTimeout(50*time.Millisecond)); !errors.Is(err, store.ErrLocked) {
		t.Fatalf("Compact of a file in use: %v, want ErrLocked", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(after, before) {
		t.Fatal("a refused Compact changed the file")
	}

	st, err := store.Compact(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("compacted: %d -> %d bytes", st.Before, st.After)
	if fi, err := os.Stat(path); err != nil || fi.Size() != st.After || st.After >= st.Before/2 {
		t.Fatalf("Compact = %+v, the file is %v bytes (%v): want less than half", st, fi.Size(), err)
	}
	if _, err := os.Stat(path + ".compact"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the copy is left beside the file: %v", err)
	}
	rep, err := store.CheckFile(ctx, path)
	if err != nil || !rep.OK() {
		t.Fatalf("check of the compacted file: %v, %v", rep.Damage, err)
	}
	s, err = store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := contents(t, s); !reflect.DeepEqual(got, want) {
		t.Fatalf("the compacted file holds\n%+v\nnot\n%+v", got, want)
	}
	// The queue order goes on from where it was (the bucket's sequence was
	// copied): a new message comes last.
	if _, err := s.Append(ctx, store.Batch{Outbox: []store.Message{{ID: "new@umpire", Raw: []byte("x")}}}); err != nil {
		t.Fatal(err)
	}
	if ms, err := s.Messages(ctx, ""); err != nil || len(ms) != len(want.messages)+1 || ms[len(ms)-1].ID != "new@umpire" {
		t.Fatalf("after compacting, a new message is not queued last: %v", err)
	}
}

// content is everything damagedFile and TestCompact put in a file.
type content struct {
	games    []string
	events   map[string][]store.Event
	secrets  map[string][]byte
	messages []store.Message
	marks    []bool
	meta     []byte
	snapshot store.Snapshot
}

func contents(t *testing.T, s *store.Bolt) content {
	t.Helper()
	ctx := t.Context()
	c := content{events: map[string][]store.Event{}, secrets: map[string][]byte{}}
	var err error
	must := func(e error) {
		t.Helper()
		if e != nil {
			t.Fatal(e)
		}
	}
	c.games, err = s.Games(ctx)
	must(err)
	for _, g := range c.games {
		c.events[g], err = s.Events(ctx, g, 1)
		must(err)
		for _, name := range []string{"dice/0", "dice/1", "dice/2"} {
			if v, err := s.Secret(ctx, g, name); err == nil {
				c.secrets[g+"/"+name] = v
			} else if !errors.Is(err, store.ErrNotFound) {
				t.Fatal(err)
			}
		}
	}
	c.messages, err = s.Messages(ctx, "")
	must(err)
	for _, m := range []string{"imap:1:big-0", "imap:1:mid-10", "imap:1:one-0", "imap:1:none"} {
		ok, err := s.Marked(ctx, m)
		must(err)
		c.marks = append(c.marks, ok)
	}
	c.meta, err = s.Meta(ctx, "uidvalidity")
	must(err)
	c.snapshot, err = s.Snapshot(ctx, "big")
	must(err)
	return c
}

// TestCompactRefusesDamage: a damaged file is left as it is, for umpire
// recover.
func TestCompactRefusesDamage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "umpire.db")
	damagedFile(t, path)
	tamperEvent(t, path, "mid", 5)
	before, _ := os.ReadFile(path)
	if _, err := store.Compact(t.Context(), path); !errors.Is(err, store.ErrCorrupt) {
		t.Fatalf("Compact of a damaged file: %v, want ErrCorrupt", err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(after, before) {
		t.Fatal("a refused Compact changed the file")
	}
	if _, err := os.Stat(path + ".compact"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a copy is left beside the file: %v", err)
	}
}
