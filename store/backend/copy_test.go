package backend

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/store"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// fill writes games (one longer than a chunk), secrets, marks, meta
// values and messages in every status.
func fill(t *testing.T, s store.Store) {
	t.Helper()
	ctx := t.Context()
	ev := func(i int) store.NewEvent {
		return store.NewEvent{Type: "t", Schema: 1, Time: t0.Add(time.Duration(i) * time.Second), Actor: "referee", Payload: fmt.Appendf(nil, `{"i":%d}`, i)}
	}
	long := make([]store.NewEvent, ChunkItems+500)
	for i := range long {
		long[i] = ev(i)
	}
	must := func(b store.Batch) {
		t.Helper()
		if _, err := s.Append(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	must(store.Batch{Game: "long", Events: long, Secrets: map[string][]byte{"dice": []byte("seed")}})
	must(store.Batch{Game: "short", Events: []store.NewEvent{ev(0), ev(1)}, Marks: []string{"imap:1:1", "imap:1:2"},
		Meta: map[string][]byte{"uidvalidity": []byte("9")},
		Outbox: []store.Message{
			{ID: "m1", Game: "short", To: []string{"a@example.org"}, Raw: bytes.Repeat([]byte("x"), ChunkBytes/2), Created: t0},
			{ID: "m2", Game: "short", To: []string{"b@example.org"}, Raw: bytes.Repeat([]byte("y"), ChunkBytes/2), Created: t0},
			{ID: "m3", To: []string{"c@example.org"}, Raw: []byte("z"), Created: t0},
		}})
	if err := s.MarkSent(ctx, "m1", t0); err != nil {
		t.Fatal(err)
	}
	if err := s.Retry(ctx, "m2", t0.Add(time.Hour), "busy"); err != nil {
		t.Fatal(err)
	}
	if err := s.Fail(ctx, "m3", "no such user"); err != nil {
		t.Fatal(err)
	}
}

func openBolt(t *testing.T, dir string) store.Store {
	t.Helper()
	st, err := Open(t.Context(), Bolt(dir), Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// TestCopyBoltMemoryBolt: bolt → memory → bolt, in chunks, verified equal
// at each step.
func TestCopyBoltMemoryBolt(t *testing.T) {
	dir := t.TempDir()
	a := openBolt(t, filepath.Join(dir, "a"))
	fill(t, a)
	m := store.NewMemory()
	var last Progress
	rep, err := Copy(t.Context(), a, m, func(p Progress) { last = p })
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() {
		t.Fatalf("bolt → memory: %v %v %v", rep.Mismatches, rep.From.Broken, rep.To.Broken)
	}
	want := Counts{Games: 2, Events: ChunkItems + 502, Secrets: 1, Marks: 2, Meta: 1, Messages: 3, Pending: 1}
	if rep.From.Counts != want || rep.To.Counts != want || rep.To.Verified != 2 {
		t.Errorf("counts %+v and %+v, want %+v", rep.From.Counts, rep.To.Counts, want)
	}
	// The long game spans two chunks; the two big bodies one each.
	if rep.Chunks < 3 || last.Chunks != rep.Chunks || last.Items != ChunkItems+502+1+2+1+3 {
		t.Errorf("%d chunks, last progress %+v", rep.Chunks, last)
	}
	b := openBolt(t, filepath.Join(dir, "b"))
	rep, err = Copy(t.Context(), m, b, nil)
	if err != nil || !rep.OK() {
		t.Fatalf("memory → bolt: %v %+v", err, rep)
	}
	if ms, _ := b.Due(t.Context(), t0.Add(2*time.Hour), 0); len(ms) != 1 || ms[0].ID != "m2" || ms[0].Attempts != 1 {
		t.Errorf("Due after the copies: %+v", ms)
	}
}

// TestCopyRefusesNonEmptyTarget: a target holding anything is refused,
// saying what it holds, and nothing is written.
func TestCopyRefusesNonEmptyTarget(t *testing.T) {
	a := store.NewMemory()
	fill(t, a)
	for name, b := range map[string]store.Batch{
		"intake mark":    {Marks: []string{"only-a-mark"}},
		"meta value":     {Meta: map[string][]byte{"k": nil}},
		"game":           {Game: "g", Events: []store.NewEvent{{Type: "t", Schema: 1, Time: t0}}},
		"outbox message": {Outbox: []store.Message{{ID: "x"}}},
	} {
		to := store.NewMemory()
		if _, err := to.Append(t.Context(), b); err != nil {
			t.Fatal(err)
		}
		_, err := Copy(t.Context(), a, to, nil)
		if !errors.Is(err, ErrNotEmpty) || !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), "umpire store migrate") {
			t.Errorf("copy into a store with a %s: %v", name, err)
		}
		if gs, _ := to.Games(t.Context()); len(gs) > 1 {
			t.Errorf("a refused copy wrote games %v", gs)
		}
	}
}

// brokenLoader loads all but one message, as a faulty store would.
type brokenLoader struct{ *store.Memory }

func (b brokenLoader) Load(ctx context.Context, items []store.Item) error {
	var keep []store.Item
	for _, it := range items {
		if it.Message == nil || it.Message.ID != "m3" {
			keep = append(keep, it)
		}
	}
	return b.Memory.Load(ctx, keep)
}

// TestCopyFindsDifferences: a target that did not take everything is a
// report that is not OK, naming what differs.
func TestCopyFindsDifferences(t *testing.T) {
	a := store.NewMemory()
	fill(t, a)
	rep, err := Copy(t.Context(), a, brokenLoader{store.NewMemory()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK() || !strings.Contains(strings.Join(rep.Mismatches, "\n"), "outbox messages: 3 in the source, 2 in the target") {
		t.Errorf("mismatches: %v", rep.Mismatches)
	}
	// Same counts, another content: the digests tell.
	x, y := Side{Heads: map[string]Head{"g": {1, store.Hash{1}}}, digest: map[string]store.Hash{"meta": {1}}},
		Side{Heads: map[string]Head{"g": {1, store.Hash{2}}}, digest: map[string]store.Hash{"meta": {2}}}
	got := strings.Join(compare(&x, &y), "\n")
	if !strings.Contains(got, `game "g": 1 events, head 01`) || !strings.Contains(got, "the metas differ in content") {
		t.Errorf("compare: %s", got)
	}
}

// TestOpenBolt: a missing data file is ErrNoData unless created; a
// read-only store refuses writes.
func TestOpenBolt(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	if _, err := Open(t.Context(), Bolt(dir), Options{}); !errors.Is(err, ErrNoData) || !strings.Contains(err.Error(), filepath.Join(dir, DataFile)) {
		t.Fatalf("Open of a missing file: %v", err)
	}
	st := openBolt(t, dir)
	if _, ok := AsBolt(st); !ok {
		t.Fatalf("AsBolt(%T) is false", st)
	}
	st.Close()
	ro, err := Open(t.Context(), Spec{Where: dir}, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if _, err := ro.Append(t.Context(), store.Batch{Marks: []string{"m"}}); !errors.Is(err, store.ErrReadOnly) {
		t.Fatalf("Append to a read-only store: %v", err)
	}
	if applied, err := Migrate(t.Context(), Bolt(dir)); err != nil || len(applied) > 0 {
		t.Fatalf("Migrate of a bbolt file: %v %v", applied, err)
	}
}
