package postgres_test

import (
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/postgres"
)

func dump(t *testing.T, s *postgres.Store) []store.Item {
	t.Helper()
	var items []store.Item
	if err := s.Dump(t.Context(), func(it store.Item) error { items = append(items, it); return nil }); err != nil {
		t.Fatalf("Dump: %v", err)
	}
	return items
}

// A store dumped and loaded into an empty one, a few items per call,
// dumps the same; hashes, message states and pruned bodies are kept.
func TestDumpLoad(t *testing.T) {
	src := open(t)
	ctx := t.Context()
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for g := range 3 {
		game := fmt.Sprint("g", g)
		var evs []store.NewEvent
		for i := range 700*(g%2) + 2 { // one log longer than a Scan page
			evs = append(evs, event(i))
		}
		b := store.Batch{Game: game, Events: evs, Marks: []string{"mark-" + game}, Secrets: map[string][]byte{"seed": []byte(game), "x": nil},
			Meta: map[string][]byte{"meta/" + game: []byte(game)}}
		for m := range 3 {
			b.Outbox = append(b.Outbox, store.Message{ID: fmt.Sprint(game, "-m", m), Game: game, From: "u@x", To: []string{"a@x", "b@x"},
				Raw: []byte("body " + game), Created: t0, NextAttempt: t0.Add(time.Duration(m) * time.Minute)})
		}
		if _, err := src.Append(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	// Secrets of a game with no events yet, and the outbox moved on.
	if _, err := src.Append(ctx, store.Batch{Game: "a-later", Secrets: map[string][]byte{"seed": []byte("l")}}); err != nil {
		t.Fatal(err)
	}
	if err := src.MarkSent(ctx, "g0-m0", t0); err != nil {
		t.Fatal(err)
	}
	if err := src.Fail(ctx, "g1-m1", "550"); err != nil {
		t.Fatal(err)
	}
	if err := src.Retry(ctx, "g2-m2", t0.Add(time.Hour), "421"); err != nil {
		t.Fatal(err)
	}
	if err := src.MarkSent(ctx, "g1-m0", t0); err != nil {
		t.Fatal(err)
	}
	if st, err := src.PruneSent(ctx, t0.Add(time.Second)); err != nil || st.Messages != 2 {
		t.Fatalf("PruneSent: %+v, %v", st, err)
	}
	items := dump(t, src)

	dst := open(t)
	for i := 0; i < len(items); i += 37 {
		if err := dst.Load(ctx, items[i:min(i+37, len(items))]); err != nil {
			t.Fatalf("Load of items %d to %d: %v", i, i+37, err)
		}
	}
	if again := dump(t, dst); !reflect.DeepEqual(again, items) {
		for i := range min(len(again), len(items)) {
			if !reflect.DeepEqual(again[i], items[i]) {
				t.Fatalf("item %d: loaded %+v, dumped %+v", i, again[i], items[i])
			}
		}
		t.Fatalf("%d items loaded back, %d dumped", len(again), len(items))
	}
	for _, g := range []string{"g0", "g1", "g2"} {
		if err := store.Verify(ctx, dst, g); err != nil {
			t.Fatal(err)
		}
	}
	// The copy is a store like any other: it appends on.
	if _, err := dst.Append(ctx, store.Batch{Game: "g1", Expected: 702, Events: []store.NewEvent{event(9)}, Outbox: []store.Message{{ID: "new"}}}); err != nil {
		t.Fatal(err)
	}

	// Loading again: the marks and messages are duplicates, nothing is written.
	var de *store.DuplicateError
	if err := dst.Load(ctx, items); !errors.As(err, &de) {
		t.Fatalf("Load into a full store: %v, want a *DuplicateError", err)
	}
}

// Load checks every event's chain and writes nothing when it is broken.
func TestLoadRefusesABrokenChain(t *testing.T) {
	src := open(t)
	ctx := t.Context()
	if _, err := src.Append(ctx, store.Batch{Game: "g", Events: []store.NewEvent{event(1), event(2), event(3)}}); err != nil {
		t.Fatal(err)
	}
	items := dump(t, src)
	for name, breakIt := range map[string]func(e *store.Event){
		"payload": func(e *store.Event) { e.Payload = []byte("changed") },
		"hash":    func(e *store.Event) { e.Hash[0] ^= 1 },
		"seq":     func(e *store.Event) { e.Seq++ },
		"prev":    func(e *store.Event) { e.Prev = store.Hash{} },
	} {
		dst := open(t)
		broken := make([]store.Item, len(items))
		copy(broken, items)
		e := *broken[1].Event
		breakIt(&e)
		broken[1].Event = &e
		broken = append(broken, store.Item{Mark: "after"})
		if err := dst.Load(ctx, broken); !errors.Is(err, store.ErrCorrupt) {
			t.Fatalf("%s changed: Load = %v, want ErrCorrupt", name, err)
		}
		if games, _ := dst.Games(ctx); len(games) != 0 {
			t.Fatalf("%s changed: a refused Load wrote games %q", name, games)
		}
		if ok, _ := dst.Marked(ctx, "after"); ok {
			t.Fatalf("%s changed: a refused Load wrote a mark", name)
		}
	}
	// Events must follow what is stored, too.
	dst := open(t)
	if err := dst.Load(ctx, items[1:]); !errors.Is(err, store.ErrCorrupt) {
		t.Fatalf("Load without the first event: %v, want ErrCorrupt", err)
	}
	if err := dst.Load(ctx, []store.Item{{Mark: "m", Meta: &store.KV{Key: "k"}}}); !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("an item of two parts: %v, want ErrInvalid", err)
	}
}
