package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/umpire-pbem/umpire/store"
)

// The AppendAll cases: several games' batches in one transaction, as a
// series writes a parent's events and a child's creation together.

func mustAppendAll(t *testing.T, s store.Store, bs []store.Batch) [][]store.Event {
	t.Helper()
	out, err := s.AppendAll(t.Context(), bs)
	if err != nil {
		t.Fatalf("AppendAll of %d batches: %v", len(bs), err)
	}
	if len(out) != len(bs) {
		t.Fatalf("AppendAll returned %d event lists for %d batches", len(out), len(bs))
	}
	for i := range bs {
		if len(out[i]) != len(bs[i].Events) {
			t.Fatalf("AppendAll returned %d events for batch %d of %d events", len(out[i]), i, len(bs[i].Events))
		}
	}
	return out
}

// checkChain checks that the events read from game are the ones appended
// (want, in order, from Seq 1) and chained one onto the other from zero.
func checkChain(t *testing.T, s store.Store, game string, want []store.Event) {
	t.Helper()
	got := mustEvents(t, s, game, 1)
	if len(got) != len(want) {
		t.Fatalf("game %q has %d events, want %d", game, len(got), len(want))
	}
	var prev store.Hash
	for i := range got {
		sameEvent(t, fmt.Sprintf("game %q event %d", game, i+1), got[i], want[i])
		if got[i].Seq != uint64(i+1) || got[i].Prev != prev || store.ChainHash(prev, got[i].Seq, got[i].NewEvent) != got[i].Hash {
			t.Fatalf("game %q event %d: seq %d prev %s hash %s do not chain onto %s", game, i+1, got[i].Seq, got[i].Prev, got[i].Hash, prev)
		}
		prev = got[i].Hash
	}
	scanned := scanAll(t, s, game, 1)
	if len(scanned) != len(want) {
		t.Fatalf("Scan of game %q gave %d events, want %d", game, len(scanned), len(want))
	}
	for i := range scanned {
		sameEvent(t, fmt.Sprintf("game %q scanned event %d", game, i+1), scanned[i], want[i])
	}
	if v := version(t, s, game); v != uint64(len(want)) {
		t.Fatalf("game %q at version %d, want %d", game, v, len(want))
	}
	if err := store.Verify(t.Context(), s, game); err != nil {
		t.Fatalf("Verify(%q): %v", game, err)
	}
}

// wroteAll checks that every part of fullBatch(game, _, tag) was stored.
func wroteAll(t *testing.T, s store.Store, game, tag string) {
	t.Helper()
	ctx := t.Context()
	if ok, err := s.Marked(ctx, "mark-"+tag); err != nil || !ok {
		t.Fatalf("Marked(mark-%s) = %v, %v", tag, ok, err)
	}
	if v, err := s.Secret(ctx, game, "secret-"+tag); err != nil || string(v) != "s" {
		t.Fatalf("Secret(%s, secret-%s) = %q, %v", game, tag, v, err)
	}
	if v, err := s.Meta(ctx, "meta-"+tag); err != nil || string(v) != "m" {
		t.Fatalf("Meta(meta-%s) = %q, %v", tag, v, err)
	}
	msgs, err := s.Messages(ctx, game)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(messageIDs(msgs), "msg-"+tag) {
		t.Fatalf("Messages(%q) = %v, no msg-%s", game, messageIDs(msgs), tag)
	}
}

// testAppendAllBoth: an existing game and a new one written in one call;
// each keeps its own chain, and every reader sees both.
func testAppendAllBoth(t *testing.T, s store.Store) {
	parent := mustAppend(t, s, store.Batch{Game: "parent", Events: newEvents(0, 2)})
	bp := fullBatch("parent", 2, "p")
	bc := fullBatch("parent-g1", 0, "c")
	bc.Events = newEvents(100, 3)
	out := mustAppendAll(t, s, []store.Batch{bp, bc})

	for i, e := range out[0] {
		sameNew(t, fmt.Sprintf("returned parent event %d", i), e, bp.Events[i])
	}
	for i, e := range out[1] {
		sameNew(t, fmt.Sprintf("returned child event %d", i), e, bc.Events[i])
	}
	if out[0][0].Seq != 3 || out[0][0].Prev != parent[1].Hash {
		t.Fatalf("the parent's new events start at seq %d prev %s; want 3 and %s", out[0][0].Seq, out[0][0].Prev, parent[1].Hash)
	}
	if out[1][0].Seq != 1 || !out[1][0].Prev.IsZero() {
		t.Fatalf("the child's first event has seq %d prev %s; want 1 and zero", out[1][0].Seq, out[1][0].Prev)
	}
	checkChain(t, s, "parent", append(parent, out[0]...))
	checkChain(t, s, "parent-g1", out[1])
	wroteAll(t, s, "parent", "p")
	wroteAll(t, s, "parent-g1", "c")
	if games, err := s.Games(t.Context()); err != nil || !slices.Equal(games, []string{"parent", "parent-g1"}) {
		t.Fatalf("Games = %v, %v", games, err)
	}
	// The outbox keeps the call's order: the first batch's mail first.
	msgs, err := s.Messages(t.Context(), "")
	if err != nil || !slices.Equal(messageIDs(msgs), []string{"msg-p", "msg-c"}) {
		t.Fatalf("Messages = %v, %v; want [msg-p msg-c]", messageIDs(msgs), err)
	}

	// A second call goes on from both heads.
	out2 := mustAppendAll(t, s, []store.Batch{
		{Game: "parent-g1", Expected: 3, Events: newEvents(200, 1)},
		{Game: "parent", Expected: 4, Events: newEvents(300, 2)},
	})
	checkChain(t, s, "parent", slices.Concat(parent, out[0], out2[1]))
	checkChain(t, s, "parent-g1", slices.Concat(out[1], out2[0]))
}

// testAppendAllCreates: a call creates a game with Expected 0 beside
// another game's events, and creating it again conflicts like Append does.
func testAppendAllCreates(t *testing.T, s store.Store) {
	mustAppend(t, s, store.Batch{Game: "series", Events: newEvents(0, 1)})
	out := mustAppendAll(t, s, []store.Batch{
		{Game: "series", Expected: 1, Events: newEvents(1, 1)},
		{Game: "series-g1", Events: newEvents(10, 1), Secrets: map[string][]byte{"seed": []byte("7")}},
	})
	if v := version(t, s, "series-g1"); v != 1 {
		t.Fatalf("created game at version %d, want 1", v)
	}
	if v, err := s.Secret(t.Context(), "series-g1", "seed"); err != nil || string(v) != "7" {
		t.Fatalf("Secret of the created game = %q, %v", v, err)
	}
	checkChain(t, s, "series-g1", out[1])

	_, err := s.AppendAll(t.Context(), []store.Batch{
		fullBatch("series", 2, "again"),
		{Game: "series-g1", Events: newEvents(10, 1)},
	})
	var ce *store.ConflictError
	if !errors.As(err, &ce) || ce.Game != "series-g1" || ce.Expected != 0 || ce.Actual != 1 {
		t.Fatalf("creating an existing game in AppendAll: %v, want a ConflictError for series-g1 at 1", err)
	}
	wroteNothing(t, s, "series", "again", 2)

	// A batch without events neither creates its game, as with Append.
	mustAppendAll(t, s, []store.Batch{
		{Game: "series", Expected: 2, Events: newEvents(2, 1)},
		{Game: "ghost", Marks: []string{"ghost-mark"}},
	})
	if _, err := s.Version(t.Context(), "ghost"); !errors.Is(err, store.ErrUnknownGame) {
		t.Fatalf("an event-less batch created its game: %v", err)
	}
}

// testAppendAllConflict: a conflict on any game writes nothing of any batch
// and names that game.
func testAppendAllConflict(t *testing.T, s store.Store) {
	mustAppend(t, s, store.Batch{Game: "a", Events: newEvents(0, 2)})
	mustAppend(t, s, store.Batch{Game: "b", Events: newEvents(0, 3)})
	for _, tc := range []struct {
		name       string
		ea, eb     uint64
		game       string
		want, have uint64
	}{
		{"second", 2, 1, "b", 1, 3},
		{"first", 0, 3, "a", 0, 2},
		{"both, the first in order decides", 5, 7, "a", 5, 2},
	} {
		_, err := s.AppendAll(t.Context(), []store.Batch{fullBatch("a", tc.ea, "a"), fullBatch("b", tc.eb, "b")})
		var ce *store.ConflictError
		if !errors.As(err, &ce) || !errors.Is(err, store.ErrConflict) {
			t.Fatalf("%s: AppendAll gave %v, want a ConflictError", tc.name, err)
		}
		if ce.Game != tc.game || ce.Expected != tc.want || ce.Actual != tc.have {
			t.Fatalf("%s: ConflictError %+v, want game %s expected %d actual %d", tc.name, *ce, tc.game, tc.want, tc.have)
		}
		wroteNothing(t, s, "a", "a", 2)
		wroteNothing(t, s, "b", "b", 3)
	}
	// A new game in the call is not created when another batch conflicts.
	_, err := s.AppendAll(t.Context(), []store.Batch{fullBatch("new", 0, "n"), fullBatch("b", 1, "b")})
	if !errors.Is(err, store.ErrConflict) {
		t.Fatalf("AppendAll creating a game beside a conflict: %v", err)
	}
	wroteNothing(t, s, "new", "n", 0)
	if _, err := s.Version(t.Context(), "new"); !errors.Is(err, store.ErrUnknownGame) {
		t.Fatalf("a refused call created a game: %v", err)
	}
}

// testAppendAllDuplicates: a mark or message ID is unique across the call
// as within a batch, and against what is stored.
func testAppendAllDuplicates(t *testing.T, s store.Store) {
	mustAppend(t, s, store.Batch{Game: "a", Events: newEvents(0, 1), Marks: []string{"mark-old"}, Outbox: []store.Message{newMessage("msg-old", "a", base)}})
	for _, tc := range []struct {
		name      string
		change    func(a, b *store.Batch)
		kind, key string
	}{
		{"message in two batches", func(a, b *store.Batch) { b.Outbox = append(b.Outbox, newMessage("msg-a", "b", base)) }, "message", "msg-a"},
		{"mark in two batches", func(a, b *store.Batch) { b.Marks = append(b.Marks, "mark-a") }, "mark", "mark-a"},
		{"stored message in the second", func(a, b *store.Batch) { b.Outbox = append(b.Outbox, newMessage("msg-old", "b", base)) }, "message", "msg-old"},
		{"stored mark in the second", func(a, b *store.Batch) { b.Marks = append(b.Marks, "mark-old") }, "mark", "mark-old"},
		{"message twice in the second", func(a, b *store.Batch) { b.Outbox = append(b.Outbox, newMessage("msg-b", "b", base)) }, "message", "msg-b"},
	} {
		ba, bb := fullBatch("a", 1, "a"), fullBatch("b", 0, "b")
		tc.change(&ba, &bb)
		_, err := s.AppendAll(t.Context(), []store.Batch{ba, bb})
		var de *store.DuplicateError
		if !errors.As(err, &de) || !errors.Is(err, store.ErrDuplicate) || de.Kind != tc.kind || de.Key != tc.key {
			t.Fatalf("%s: AppendAll gave %v, want DuplicateError{%s, %s}", tc.name, err, tc.kind, tc.key)
		}
		wroteNothing(t, s, "a", "a", 1)
		wroteNothing(t, s, "b", "b", 0)
	}
	// Batches without a game may be several, and their keys are checked too.
	_, err := s.AppendAll(t.Context(), []store.Batch{
		{Marks: []string{"m1"}}, {Marks: []string{"m2"}}, {Marks: []string{"m1"}},
	})
	var de *store.DuplicateError
	if !errors.As(err, &de) || de.Key != "m1" {
		t.Fatalf("a mark in two game-less batches: %v, want DuplicateError{mark, m1}", err)
	}
	if ok, _ := s.Marked(t.Context(), "m2"); ok {
		t.Fatal("mark m2 of a refused call was written")
	}
	mustAppendAll(t, s, []store.Batch{{Marks: []string{"m1"}}, {Marks: []string{"m2"}, Outbox: []store.Message{newMessage("x", "", base)}}})
	for _, m := range []string{"m1", "m2"} {
		if ok, err := s.Marked(t.Context(), m); err != nil || !ok {
			t.Fatalf("Marked(%s) = %v, %v", m, ok, err)
		}
	}
}

// testAppendAllInvalid: a game in two batches, or one invalid batch,
// refuses the whole call before anything is looked at.
func testAppendAllInvalid(t *testing.T, s store.Store) {
	mustAppend(t, s, store.Batch{Game: "a", Events: newEvents(0, 1)})
	for _, tc := range []struct {
		name string
		bs   []store.Batch
	}{
		{"a game twice", []store.Batch{fullBatch("a", 1, "a"), fullBatch("b", 0, "b"), {Game: "a", Expected: 3, Events: newEvents(3, 1)}}},
		{"a game twice, once without events", []store.Batch{fullBatch("a", 1, "a"), fullBatch("b", 0, "b"), {Game: "a", Expected: 1, Marks: []string{"x"}}}},
		{"an invalid third batch", []store.Batch{fullBatch("a", 1, "a"), fullBatch("b", 0, "b"), {Game: "c", Events: []store.NewEvent{{Type: "t"}}}}},
		{"an expected version without a game", []store.Batch{fullBatch("a", 1, "a"), fullBatch("b", 0, "b"), {Expected: 2}}},
	} {
		_, err := s.AppendAll(t.Context(), tc.bs)
		if !errors.Is(err, store.ErrInvalid) {
			t.Fatalf("%s: AppendAll gave %v, want ErrInvalid", tc.name, err)
		}
		wroteNothing(t, s, "a", "a", 1)
		wroteNothing(t, s, "b", "b", 0)
	}
	// The same game twice is refused even when the versions would chain.
	_, err := s.AppendAll(t.Context(), []store.Batch{
		{Game: "a", Expected: 1, Events: newEvents(1, 1)},
		{Game: "a", Expected: 2, Events: newEvents(2, 1)},
	})
	if !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("a game twice with chaining versions: %v, want ErrInvalid", err)
	}
	if v := version(t, s, "a"); v != 1 {
		t.Fatalf("game a at version %d after a refused call, want 1", v)
	}
}

// testAppendAllEmpty: an empty list is a no-op, as an empty batch is.
func testAppendAllEmpty(t *testing.T, s store.Store) {
	for _, bs := range [][]store.Batch{nil, {}} {
		out, err := s.AppendAll(t.Context(), bs)
		if err != nil || out != nil {
			t.Fatalf("AppendAll(%v) = %v, %v; want nil, nil", bs, out, err)
		}
	}
	if games, err := s.Games(t.Context()); err != nil || len(games) != 0 {
		t.Fatalf("Games after empty calls = %v, %v", games, err)
	}
	// A list of empty batches returns a nil list of events for each.
	out := mustAppendAll(t, s, []store.Batch{{}, {}})
	if out[0] != nil || out[1] != nil {
		t.Fatalf("events of empty batches: %v", out)
	}
}

// testAppendAllMeta: a meta key that two batches set ends with the later
// batch's value, as two Appends in that order would leave it.
func testAppendAllMeta(t *testing.T, s store.Store) {
	mustAppendAll(t, s, []store.Batch{
		{Game: "a", Events: newEvents(0, 1), Meta: map[string][]byte{"k": []byte("first")}},
		{Game: "b", Events: newEvents(0, 1), Meta: map[string][]byte{"k": []byte("second")}},
	})
	if v, err := s.Meta(t.Context(), "k"); err != nil || string(v) != "second" {
		t.Fatalf("Meta(k) = %q, %v; want second", v, err)
	}
}

// testAppendAllConcurrent: writers each append, in one call, to a shared
// game and to their own; every call lands whole, so the shared game holds
// exactly one event per event of the writers' games, and both chains hold.
func testAppendAllConcurrent(t *testing.T, s store.Store) {
	const writers, each = 6, 10
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		wg.Go(func() {
			ctx := context.Background()
			own := fmt.Sprint("w", w)
			var ownV uint64
			for ownV < each {
				v, err := s.Version(ctx, "shared")
				if errors.Is(err, store.ErrUnknownGame) {
					v, err = 0, nil
				}
				if err != nil {
					errs <- err
					return
				}
				ev := newEvent(w*1000 + int(ownV))
				ev.Actor = own
				_, err = s.AppendAll(ctx, []store.Batch{
					{Game: own, Expected: ownV, Events: []store.NewEvent{ev}},
					{Game: "shared", Expected: v, Events: []store.NewEvent{ev}, Marks: []string{fmt.Sprint(own, "-", ownV)}},
				})
				var ce *store.ConflictError
				if errors.As(err, &ce) && ce.Game == "shared" {
					continue // the shared game moved; its own did not
				}
				if err != nil {
					errs <- err
					return
				}
				ownV++
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if v := version(t, s, "shared"); v != writers*each {
		t.Fatalf("shared game at version %d, want %d", v, writers*each)
	}
	if err := store.Verify(t.Context(), s, "shared"); err != nil {
		t.Fatal(err)
	}
	per := map[string][]store.Event{}
	for _, e := range mustEvents(t, s, "shared", 1) {
		per[e.Actor] = append(per[e.Actor], e)
	}
	for w := range writers {
		own := fmt.Sprint("w", w)
		evs := mustEvents(t, s, own, 1)
		if len(evs) != each || len(per[own]) != each {
			t.Fatalf("writer %d: %d events in its game and %d in the shared one, want %d each", w, len(evs), len(per[own]), each)
		}
		for i := range evs {
			if string(evs[i].Payload) != string(per[own][i].Payload) {
				t.Fatalf("writer %d, event %d: its game has %s, the shared game %s", w, i, evs[i].Payload, per[own][i].Payload)
			}
		}
		if err := store.Verify(t.Context(), s, own); err != nil {
			t.Fatal(err)
		}
	}
}
