// Package storetest is the conformance suite every store.Store must pass.
// Both the bolt and the memory store run it, which is what keeps the memory
// store a faithful stand-in in other packages' tests.
package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/store"
)

// Run runs the suite. open must return a new, empty store for each call and
// arrange for it to be closed at the end of the test; the suite closes some
// stores itself, so a second Close failing with store.ErrClosed is expected.
func Run(t *testing.T, open func(t *testing.T) store.Store) {
	tests := []struct {
		name string
		fn   func(*testing.T, store.Store)
	}{
		{"RoundTrip", testRoundTrip},
		{"HashChain", testHashChain},
		{"EventsFrom", testEventsFrom},
		{"ScanFrom", testScanFrom},
		{"ScanStops", testScanStops},
		{"ScanMayWrite", testScanMayWrite},
		{"ConflictWritesNothing", testConflict},
		{"ConflictUnknownGame", testConflictUnknownGame},
		{"EmptyBatch", testEmptyBatch},
		{"DuplicateMark", testDuplicateMark},
		{"DuplicateMessage", testDuplicateMessage},
		{"Invalid", testInvalid},
		{"UnknownGame", testUnknownGame},
		{"GamesSorted", testGamesSorted},
		{"Secrets", testSecrets},
		{"Meta", testMeta},
		{"MetaKeys", testMetaKeys},
		{"MetaWithGame", testMetaWithGame},
		{"OutboxLifecycle", testOutboxLifecycle},
		{"OutboxDueOrder", testDueOrder},
		{"OutboxByGame", testMessagesByGame},
		{"PruneSent", testPruneSent},
		{"PruneSentChunks", testPruneSentChunks},
		{"CallerMutation", testCallerMutation},
		{"Closed", testClosed},
		{"ContextCancelled", testContextCancelled},
		{"ConcurrentOneWinnerPerVersion", testConcurrentOneWinner},
		{"ConcurrentAppenders", testConcurrentAppenders},
		{"Snapshots", testSnapshots},
		{"AppendAllBothGames", testAppendAllBoth},
		{"AppendAllCreatesGame", testAppendAllCreates},
		{"AppendAllConflictWritesNothing", testAppendAllConflict},
		{"AppendAllDuplicates", testAppendAllDuplicates},
		{"AppendAllInvalid", testAppendAllInvalid},
		{"AppendAllEmpty", testAppendAllEmpty},
		{"AppendAllMeta", testAppendAllMeta},
		{"AppendAllConcurrent", testAppendAllConcurrent},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, open(t)) })
	}
	runDump(t, open)
}

// base is deliberately not in UTC and carries nanoseconds: stores must give
// back the same instant, in UTC.
var base = time.Date(2025, 3, 1, 12, 30, 15, 123456789, time.FixedZone("CET", 3600))

func newEvent(i int) store.NewEvent {
	return store.NewEvent{
		Type:    "test.event",
		Schema:  1,
		Time:    base.Add(time.Duration(i) * time.Minute),
		Actor:   "side:invader",
		Payload: fmt.Appendf(nil, `{"i":%d}`, i),
	}
}

func newEvents(from, n int) []store.NewEvent {
	out := make([]store.NewEvent, n)
	for i := range out {
		out[i] = newEvent(from + i)
	}
	return out
}

func mustAppend(t *testing.T, s store.Store, b store.Batch) []store.Event {
	t.Helper()
	evs, err := s.Append(t.Context(), b)
	if err != nil {
		t.Fatalf("Append(game %q, expected %d): %v", b.Game, b.Expected, err)
	}
	if len(evs) != len(b.Events) {
		t.Fatalf("Append returned %d events for %d", len(evs), len(b.Events))
	}
	return evs
}

func mustEvents(t *testing.T, s store.Store, game string, from uint64) []store.Event {
	t.Helper()
	evs, err := s.Events(t.Context(), game, from)
	if err != nil {
		t.Fatalf("Events(%q, %d): %v", game, from, err)
	}
	return evs
}

func version(t *testing.T, s store.Store, game string) uint64 {
	t.Helper()
	v, err := s.Version(t.Context(), game)
	if errors.Is(err, store.ErrUnknownGame) {
		return 0
	}
	if err != nil {
		t.Fatalf("Version(%q): %v", game, err)
	}
	return v
}

// sameEvent compares every field; times by instant and also by location,
// which must be UTC.
func sameEvent(t *testing.T, what string, got, want store.Event) {
	t.Helper()
	if got.Seq != want.Seq || got.Type != want.Type || got.Schema != want.Schema ||
		got.Actor != want.Actor || !bytes.Equal(got.Payload, want.Payload) ||
		got.Prev != want.Prev || got.Hash != want.Hash || !got.Time.Equal(want.Time) {
		t.Fatalf("%s:\n got %+v\nwant %+v", what, got, want)
	}
	if got.Time.Location() != time.UTC {
		t.Fatalf("%s: time %v is not in UTC", what, got.Time)
	}
}

func sameNew(t *testing.T, what string, got store.Event, want store.NewEvent) {
	t.Helper()
	if got.Type != want.Type || got.Schema != want.Schema || got.Actor != want.Actor ||
		!bytes.Equal(got.Payload, want.Payload) || !got.Time.Equal(want.Time) {
		t.Fatalf("%s:\n got %+v\nwant %+v", what, got.NewEvent, want)
	}
	if got.Time.Location() != time.UTC {
		t.Fatalf("%s: time %v is not in UTC", what, got.Time)
	}
}

func testRoundTrip(t *testing.T, s store.Store) {
	big := bytes.Repeat([]byte("0123456789abcdef"), 64<<10/16)
	in := []store.NewEvent{
		{Type: "game.created", Schema: 1, Time: base, Actor: "referee", Payload: []byte(`{"name":"Übung"}`)},
		{Type: "orders.submitted", Schema: 7, Time: base.Add(time.Nanosecond), Actor: "", Payload: []byte{0, 1, 2, 0xff, 0}},
		{Type: "turn.resolved", Schema: 2, Time: base.Add(48 * time.Hour), Actor: "engine", Payload: big},
		{Type: "note", Schema: 1, Time: time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC), Actor: "a", Payload: nil},
		{Type: "early", Schema: 1, Time: time.Date(1969, 7, 20, 20, 17, 40, 999, time.UTC), Actor: "b", Payload: []byte("x")},
	}
	got := mustAppend(t, s, store.Batch{Game: "g1", Events: in})
	var prev store.Hash
	for i, e := range got {
		if e.Seq != uint64(i+1) {
			t.Fatalf("event %d has seq %d", i, e.Seq)
		}
		if e.Prev != prev {
			t.Fatalf("event %d prev %s, want %s", e.Seq, e.Prev, prev)
		}
		prev = e.Hash
		sameNew(t, fmt.Sprintf("appended event %d", e.Seq), e, in[i])
	}
	read := mustEvents(t, s, "g1", 1)
	if len(read) != len(in) {
		t.Fatalf("Events returned %d events, want %d", len(read), len(in))
	}
	for i := range read {
		sameEvent(t, fmt.Sprintf("read event %d", i+1), read[i], got[i])
	}
	if v := version(t, s, "g1"); v != uint64(len(in)) {
		t.Fatalf("Version = %d, want %d", v, len(in))
	}

	more := mustAppend(t, s, store.Batch{Game: "g1", Expected: uint64(len(in)), Events: newEvents(10, 2)})
	if more[0].Seq != uint64(len(in)+1) || more[0].Prev != got[len(got)-1].Hash {
		t.Fatalf("second append starts with seq %d prev %s; want %d and %s", more[0].Seq, more[0].Prev, len(in)+1, got[len(got)-1].Hash)
	}
}

func testHashChain(t *testing.T, s store.Store) {
	mustAppend(t, s, store.Batch{Game: "g", Events: newEvents(0, 3)})
	mustAppend(t, s, store.Batch{Game: "g", Expected: 3, Events: newEvents(3, 4)})
	mustAppend(t, s, store.Batch{Game: "g", Expected: 7, Events: newEvents(7, 1)})
	evs := mustEvents(t, s, "g", 0)
	if len(evs) != 8 {
		t.Fatalf("got %d events, want 8", len(evs))
	}
	var prev store.Hash
	for i, e := range evs {
		if e.Seq != uint64(i+1) {
			t.Fatalf("event %d has seq %d", i, e.Seq)
		}
		if i == 0 && !e.Prev.IsZero() {
			t.Fatalf("first event has prev %s, want zero", e.Prev)
		}
		if e.Prev != prev {
			t.Fatalf("event %d prev %s, want %s", e.Seq, e.Prev, prev)
		}
		if h := store.ChainHash(prev, e.Seq, e.NewEvent); h != e.Hash {
			t.Fatalf("event %d hash %s, ChainHash gives %s", e.Seq, e.Hash, h)
		}
		prev = e.Hash
	}
	if err := store.Verify(t.Context(), s, "g"); err != nil {
		t.Fatalf("Verify: %v", err)
	}
}

func testEventsFrom(t *testing.T, s store.Store) {
	mustAppend(t, s, store.Batch{Game: "g", Events: newEvents(0, 10)})
	for _, tc := range []struct {
		from  uint64
		first uint64
		n     int
	}{{0, 1, 10}, {1, 1, 10}, {2, 2, 9}, {10, 10, 1}, {11, 0, 0}, {1 << 40, 0, 0}} {
		evs := mustEvents(t, s, "g", tc.from)
		if len(evs) != tc.n {
			t.Fatalf("Events from %d: %d events, want %d", tc.from, len(evs), tc.n)
		}
		for i, e := range evs {
			if e.Seq != tc.first+uint64(i) {
				t.Fatalf("Events from %d: event %d has seq %d", tc.from, i, e.Seq)
			}
		}
	}
}

// scanAll returns the seqs Scan visits from from.
func scanAll(t *testing.T, s store.Store, game string, from uint64) []store.Event {
	t.Helper()
	var out []store.Event
	err := s.Scan(t.Context(), game, from, func(e store.Event) error {
		out = append(out, e)
		return nil
	})
	if err != nil {
		t.Fatalf("Scan(%q, %d): %v", game, from, err)
	}
	return out
}

func testScanFrom(t *testing.T, s store.Store) {
	// More events than any sensible read chunk, so that chunk borders are crossed.
	const n = 1300
	mustAppend(t, s, store.Batch{Game: "g", Events: newEvents(0, n)})
	all := mustEvents(t, s, "g", 1)
	for _, from := range []uint64{0, 1, 2, 511, 512, 513, 1024, 1025, n, n + 1} {
		got := scanAll(t, s, "g", from)
		start := max(from, 1)
		want := n - int(start) + 1
		if want < 0 {
			want = 0
		}
		if len(got) != want {
			t.Fatalf("Scan from %d visited %d events, want %d", from, len(got), want)
		}
		for i, e := range got {
			sameEvent(t, fmt.Sprintf("Scan from %d, event %d", from, i), e, all[int(start)-1+i])
		}
	}
}

func testScanStops(t *testing.T, s store.Store) {
	mustAppend(t, s, store.Batch{Game: "g", Events: newEvents(0, 1000)})
	stop := errors.New("enough")
	calls := 0
	err := s.Scan(t.Context(), "g", 1, func(e store.Event) error {
		calls++
		if e.Seq == 2 {
			return stop
		}
		return nil
	})
	if err != stop {
		t.Fatalf("Scan returned %v, want fn's error unchanged", err)
	}
	if calls != 2 {
		t.Fatalf("fn called %d times after returning an error at the 2nd event", calls)
	}
}

func testScanMayWrite(t *testing.T, s store.Store) {
	mustAppend(t, s, store.Batch{Game: "g", Events: newEvents(0, 5)})
	var seqs []uint64
	err := s.Scan(t.Context(), "g", 1, func(e store.Event) error {
		seqs = append(seqs, e.Seq)
		if e.Seq <= 2 {
			v := version(t, s, "g")
			if _, err := s.Append(t.Context(), store.Batch{Game: "g", Expected: v, Events: newEvents(int(v), 1)}); err != nil {
				return err
			}
			if _, err := s.Append(t.Context(), store.Batch{Game: "other", Expected: e.Seq - 1, Events: newEvents(0, 1)}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("Scan with appends inside fn: %v", err)
	}
	if len(seqs) < 5 || !slices.IsSorted(seqs) || seqs[0] != 1 {
		t.Fatalf("Scan visited %v", seqs)
	}
	if v := version(t, s, "g"); v != 7 {
		t.Fatalf("version %d after two appends during Scan, want 7", v)
	}
}

// fullBatch has something of every kind.
func fullBatch(game string, expected uint64, tag string) store.Batch {
	return store.Batch{
		Game:     game,
		Expected: expected,
		Events:   newEvents(int(expected), 2),
		Outbox:   []store.Message{newMessage("msg-"+tag, game, base)},
		Marks:    []string{"mark-" + tag},
		Secrets:  map[string][]byte{"secret-" + tag: []byte("s")},
		Meta:     map[string][]byte{"meta-" + tag: []byte("m")},
	}
}

// wroteNothing checks that no part of fullBatch(game, _, tag) was stored and
// that the game is still at version v.
func wroteNothing(t *testing.T, s store.Store, game, tag string, v uint64) {
	t.Helper()
	ctx := t.Context()
	if got := version(t, s, game); got != v {
		t.Fatalf("game %q at version %d after a refused batch, want %d", game, got, v)
	}
	if ok, err := s.Marked(ctx, "mark-"+tag); err != nil || ok {
		t.Fatalf("Marked(mark-%s) = %v, %v after a refused batch", tag, ok, err)
	}
	if _, err := s.Secret(ctx, game, "secret-"+tag); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Secret(secret-%s) after a refused batch: %v, want ErrNotFound", tag, err)
	}
	if _, err := s.Meta(ctx, "meta-"+tag); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Meta(meta-%s) after a refused batch: %v, want ErrNotFound", tag, err)
	}
	msgs, err := s.Messages(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range msgs {
		if m.ID == "msg-"+tag {
			t.Fatalf("message msg-%s queued by a refused batch", tag)
		}
	}
	due, err := s.Due(ctx, base.Add(1000*time.Hour), 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range due {
		if m.ID == "msg-"+tag {
			t.Fatalf("message msg-%s due after a refused batch", tag)
		}
	}
}

func testConflict(t *testing.T, s store.Store) {
	mustAppend(t, s, store.Batch{Game: "g", Events: newEvents(0, 2)})
	for _, expected := range []uint64{0, 1, 3, 100} {
		tag := fmt.Sprint("c", expected)
		_, err := s.Append(t.Context(), fullBatch("g", expected, tag))
		var ce *store.ConflictError
		if !errors.As(err, &ce) || !errors.Is(err, store.ErrConflict) {
			t.Fatalf("Append at expected %d of a game at 2: %v, want a ConflictError", expected, err)
		}
		if ce.Game != "g" || ce.Expected != expected || ce.Actual != 2 {
			t.Fatalf("ConflictError %+v, want game g, expected %d, actual 2", *ce, expected)
		}
		wroteNothing(t, s, "g", tag, 2)
	}
	// An empty batch is checked too, as the game exists.
	_, err := s.Append(t.Context(), store.Batch{Game: "g", Expected: 1, Marks: []string{"mark-e"}})
	if !errors.Is(err, store.ErrConflict) {
		t.Fatalf("empty batch at a stale version: %v, want ErrConflict", err)
	}
	wroteNothing(t, s, "g", "e", 2)
}

func testConflictUnknownGame(t *testing.T, s store.Store) {
	_, err := s.Append(t.Context(), fullBatch("new", 3, "u"))
	var ce *store.ConflictError
	if !errors.As(err, &ce) || ce.Actual != 0 || ce.Expected != 3 || ce.Game != "new" {
		t.Fatalf("Append at expected 3 of an unknown game: %v, want a ConflictError at actual 0", err)
	}
	wroteNothing(t, s, "new", "u", 0)
	if _, err := s.Version(t.Context(), "new"); !errors.Is(err, store.ErrUnknownGame) {
		t.Fatalf("game created by a refused batch: Version gives %v", err)
	}
}

func testEmptyBatch(t *testing.T, s store.Store) {
	ctx := t.Context()
	evs, err := s.Append(ctx, store.Batch{})
	if err != nil || len(evs) != 0 {
		t.Fatalf("empty batch: %v, %v", evs, err)
	}
	// Marks, mail and meta without events, for no game and for a game that
	// does not exist: neither creates a game.
	mustAppend(t, s, store.Batch{Marks: []string{"m1"}, Meta: map[string][]byte{"k": []byte("v")}, Outbox: []store.Message{newMessage("a", "", base)}})
	mustAppend(t, s, store.Batch{Game: "ghost", Marks: []string{"m2"}, Secrets: map[string][]byte{"seed": []byte("42")}})
	if games, err := s.Games(ctx); err != nil || len(games) != 0 {
		t.Fatalf("Games after event-less batches = %v, %v; want none", games, err)
	}
	for _, m := range []string{"m1", "m2"} {
		if ok, err := s.Marked(ctx, m); err != nil || !ok {
			t.Fatalf("Marked(%s) = %v, %v", m, ok, err)
		}
	}
	if v, err := s.Secret(ctx, "ghost", "seed"); err != nil || string(v) != "42" {
		t.Fatalf("Secret(ghost, seed) = %q, %v", v, err)
	}
	// Once the game exists, an empty batch is checked and passes at the right version.
	mustAppend(t, s, store.Batch{Game: "g", Events: newEvents(0, 3)})
	mustAppend(t, s, store.Batch{Game: "g", Expected: 3, Marks: []string{"m3"}})
	if v := version(t, s, "g"); v != 3 {
		t.Fatalf("version %d after an empty batch, want 3", v)
	}
}

func testDuplicateMark(t *testing.T, s store.Store) {
	mustAppend(t, s, store.Batch{Game: "g", Events: newEvents(0, 1), Marks: []string{"mark-x"}})
	b := fullBatch("g", 1, "d")
	b.Marks = append(b.Marks, "mark-x")
	_, err := s.Append(t.Context(), b)
	var de *store.DuplicateError
	if !errors.As(err, &de) || !errors.Is(err, store.ErrDuplicate) || de.Kind != "mark" || de.Key != "mark-x" {
		t.Fatalf("Append with a recorded mark: %v, want DuplicateError{mark, mark-x}", err)
	}
	wroteNothing(t, s, "g", "d", 1)

	// The same mark twice in one batch is a duplicate as well.
	b = fullBatch("g", 1, "d2")
	b.Marks = append(b.Marks, "mark-d2")
	_, err = s.Append(t.Context(), b)
	if !errors.As(err, &de) || de.Kind != "mark" || de.Key != "mark-d2" {
		t.Fatalf("Append with a mark twice: %v, want DuplicateError{mark, mark-d2}", err)
	}
	wroteNothing(t, s, "g", "d2", 1)
}

func testDuplicateMessage(t *testing.T, s store.Store) {
	mustAppend(t, s, store.Batch{Game: "g", Events: newEvents(0, 1), Outbox: []store.Message{newMessage("msg-x", "g", base)}})
	b := fullBatch("g", 1, "d")
	b.Outbox = append(b.Outbox, newMessage("msg-x", "g", base))
	_, err := s.Append(t.Context(), b)
	var de *store.DuplicateError
	if !errors.As(err, &de) || !errors.Is(err, store.ErrDuplicate) || de.Kind != "message" || de.Key != "msg-x" {
		t.Fatalf("Append with a queued message ID: %v, want DuplicateError{message, msg-x}", err)
	}
	wroteNothing(t, s, "g", "d", 1)

	// Sent messages keep their IDs: a resend under the same ID is refused.
	if err := s.MarkSent(t.Context(), "msg-x", base); err != nil {
		t.Fatal(err)
	}
	_, err = s.Append(t.Context(), store.Batch{Outbox: []store.Message{newMessage("msg-x", "", base)}})
	if !errors.As(err, &de) || de.Key != "msg-x" {
		t.Fatalf("Append with a sent message's ID: %v, want DuplicateError", err)
	}

	b = fullBatch("g", 1, "d2")
	b.Outbox = append(b.Outbox, newMessage("msg-d2", "g", base))
	_, err = s.Append(t.Context(), b)
	if !errors.As(err, &de) || de.Kind != "message" || de.Key != "msg-d2" {
		t.Fatalf("Append with a message ID twice: %v, want DuplicateError{message, msg-d2}", err)
	}
	wroteNothing(t, s, "g", "d2", 1)
}

func testInvalid(t *testing.T, s store.Store) {
	long := string(bytes.Repeat([]byte("x"), store.MaxKeyLen+1))
	mutate := map[string]func(*store.Batch){
		"no game":           func(b *store.Batch) { b.Game = "" },
		"game too long":     func(b *store.Batch) { b.Game = long },
		"no type":           func(b *store.Batch) { b.Events[1].Type = "" },
		"schema 0":          func(b *store.Batch) { b.Events[0].Schema = 0 },
		"no time":           func(b *store.Batch) { b.Events[0].Time = time.Time{} },
		"time out of range": func(b *store.Batch) { b.Events[0].Time = time.Date(2300, 1, 1, 0, 0, 0, 0, time.UTC) },
		"empty mark":        func(b *store.Batch) { b.Marks = append(b.Marks, "") },
		"empty message ID":  func(b *store.Batch) { b.Outbox = append(b.Outbox, store.Message{}) },
		"empty secret name": func(b *store.Batch) { b.Secrets[""] = []byte("x") },
		"empty meta key":    func(b *store.Batch) { b.Meta[""] = []byte("x") },
		"mark too long":     func(b *store.Batch) { b.Marks = append(b.Marks, long) },
	}
	for name, change := range mutate {
		b := fullBatch("g", 0, "i")
		change(&b)
		_, err := s.Append(t.Context(), b)
		if !errors.Is(err, store.ErrInvalid) {
			t.Fatalf("%s: Append gave %v, want ErrInvalid", name, err)
		}
		wroteNothing(t, s, "g", "i", 0)
	}
	_, err := s.Append(t.Context(), store.Batch{Expected: 2, Marks: []string{"m"}})
	if !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("expected version without a game: %v, want ErrInvalid", err)
	}
}

func testUnknownGame(t *testing.T, s store.Store) {
	ctx := t.Context()
	mustAppend(t, s, store.Batch{Game: "known", Events: newEvents(0, 1), Secrets: map[string][]byte{"k": []byte("v")}})
	if _, err := s.Events(ctx, "nope", 1); !errors.Is(err, store.ErrUnknownGame) {
		t.Fatalf("Events of an unknown game: %v", err)
	}
	if err := s.Scan(ctx, "nope", 1, func(store.Event) error { return nil }); !errors.Is(err, store.ErrUnknownGame) {
		t.Fatalf("Scan of an unknown game: %v", err)
	}
	if _, err := s.Version(ctx, "nope"); !errors.Is(err, store.ErrUnknownGame) {
		t.Fatalf("Version of an unknown game: %v", err)
	}
	if _, err := s.Secret(ctx, "nope", "k"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Secret of an unknown game: %v", err)
	}
	if _, err := s.Version(ctx, "Known"); !errors.Is(err, store.ErrUnknownGame) {
		t.Fatalf("game ids must be case-sensitive: %v", err)
	}
}

func testGamesSorted(t *testing.T, s store.Store) {
	if games, err := s.Games(t.Context()); err != nil || len(games) != 0 {
		t.Fatalf("Games of an empty store = %v, %v", games, err)
	}
	for _, g := range []string{"b", "a-1", "c", "a", "B", "ä"} {
		mustAppend(t, s, store.Batch{Game: g, Events: newEvents(0, 1)})
	}
	games, err := s.Games(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"B", "a", "a-1", "b", "c", "ä"}
	if !slices.Equal(games, want) {
		t.Fatalf("Games = %q, want %q", games, want)
	}
}

func testSecrets(t *testing.T, s store.Store) {
	ctx := t.Context()
	mustAppend(t, s, store.Batch{Game: "g", Events: newEvents(0, 1), Secrets: map[string][]byte{"seed": []byte("one"), "empty": {}}})
	mustAppend(t, s, store.Batch{Game: "h", Events: newEvents(0, 1), Secrets: map[string][]byte{"seed": []byte("h-seed")}})
	check := func(game, name, want string) {
		t.Helper()
		v, err := s.Secret(ctx, game, name)
		if err != nil || string(v) != want {
			t.Fatalf("Secret(%s, %s) = %q, %v; want %q", game, name, v, err, want)
		}
	}
	check("g", "seed", "one")
	check("g", "empty", "")
	check("h", "seed", "h-seed")
	mustAppend(t, s, store.Batch{Game: "g", Expected: 1, Secrets: map[string][]byte{"seed": []byte("two")}})
	check("g", "seed", "two")
	check("h", "seed", "h-seed")
	if _, err := s.Secret(ctx, "g", "absent"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("absent secret: %v, want ErrNotFound", err)
	}
	if _, err := s.Secret(ctx, "h", "empty"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("secret of another game: %v, want ErrNotFound", err)
	}
}

func testMeta(t *testing.T, s store.Store) {
	ctx := t.Context()
	if _, err := s.Meta(ctx, "uidvalidity"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("absent meta: %v, want ErrNotFound", err)
	}
	mustAppend(t, s, store.Batch{Meta: map[string][]byte{"uidvalidity": []byte("1"), "empty": nil}})
	mustAppend(t, s, store.Batch{Game: "g", Events: newEvents(0, 1), Meta: map[string][]byte{"uidvalidity": []byte("2")}})
	if v, err := s.Meta(ctx, "uidvalidity"); err != nil || string(v) != "2" {
		t.Fatalf("Meta(uidvalidity) = %q, %v; want 2", v, err)
	}
	if v, err := s.Meta(ctx, "empty"); err != nil || len(v) != 0 {
		t.Fatalf("Meta(empty) = %q, %v; want an empty value", v, err)
	}
}

// testMetaKeys: MetaKeys lists the keys under a prefix in byte order,
// whatever order they were written in, and nothing else.
func testMetaKeys(t *testing.T, s store.Store) {
	ctx := t.Context()
	if keys, err := s.MetaKeys(ctx, "lib/"); err != nil || len(keys) != 0 {
		t.Fatalf("MetaKeys of an empty store = %q, %v", keys, err)
	}
	mustAppend(t, s, store.Batch{Meta: map[string][]byte{"lib/b": []byte("2"), "lib/a/x": nil, "lia": []byte("no"), "lib0": []byte("no")}})
	mustAppend(t, s, store.Batch{Game: "g", Events: newEvents(0, 1), Meta: map[string][]byte{"lib/a": []byte("1"), "lib/": []byte("root")}})
	keys, err := s.MetaKeys(ctx, "lib/")
	if want := []string{"lib/", "lib/a", "lib/a/x", "lib/b"}; err != nil || !slices.Equal(keys, want) {
		t.Fatalf("MetaKeys(lib/) = %q, %v; want %q", keys, err, want)
	}
	all, err := s.MetaKeys(ctx, "")
	if want := []string{"lia", "lib/", "lib/a", "lib/a/x", "lib/b", "lib0"}; err != nil || !slices.Equal(all, want) {
		t.Fatalf("MetaKeys() = %q, %v; want %q", all, err, want)
	}
	if keys, err := s.MetaKeys(ctx, "lib/c"); err != nil || len(keys) != 0 {
		t.Fatalf("MetaKeys(lib/c) = %q, %v; want none", keys, err)
	}
}

// testMetaWithGame: meta values written with a game's first events are
// written with them or not at all (a library of module files is kept
// this way, in the transaction that creates the game).
func testMetaWithGame(t *testing.T, s store.Store) {
	ctx := t.Context()
	mustAppend(t, s, store.Batch{Game: "g", Events: newEvents(0, 1)})
	_, err := s.Append(ctx, store.Batch{Game: "g", Events: newEvents(0, 1), Meta: map[string][]byte{"lib/x": []byte("files")}})
	if !errors.Is(err, store.ErrConflict) {
		t.Fatalf("creating g again: %v, want ErrConflict", err)
	}
	if keys, err := s.MetaKeys(ctx, "lib/"); err != nil || len(keys) != 0 {
		t.Fatalf("a refused creation left meta keys %q (%v)", keys, err)
	}
	mustAppend(t, s, store.Batch{Game: "h", Events: newEvents(0, 1), Meta: map[string][]byte{"lib/x": []byte("files")}})
	// Writing the same value again (a second game of the same module) is
	// harmless.
	mustAppend(t, s, store.Batch{Game: "i", Events: newEvents(0, 1), Meta: map[string][]byte{"lib/x": []byte("files")}})
	if v, err := s.Meta(ctx, "lib/x"); err != nil || string(v) != "files" {
		t.Fatalf("Meta(lib/x) = %q, %v", v, err)
	}
}

func newMessage(id, game string, next time.Time) store.Message {
	return store.Message{
		ID:          id,
		Game:        game,
		From:        "umpire@example.org",
		To:          []string{"a@example.org", "b@example.org"},
		Raw:         []byte("Subject: " + id + "\r\n\r\nbody\r\n"),
		Created:     base,
		NextAttempt: next,
	}
}

func messageIDs(ms []store.Message) []string {
	ids := make([]string, len(ms))
	for i, m := range ms {
		ids[i] = m.ID
	}
	return ids
}

func due(t *testing.T, s store.Store, now time.Time) []string {
	t.Helper()
	ms, err := s.Due(t.Context(), now, 0)
	if err != nil {
		t.Fatalf("Due(%v): %v", now, err)
	}
	for _, m := range ms {
		if m.Status != store.Pending {
			t.Fatalf("Due returned %s with status %s", m.ID, m.Status)
		}
	}
	all := messageIDs(ms)
	// At most max: the first max of them, in the same order.
	for max := 1; max <= len(all)+1; max++ {
		some, err := s.Due(t.Context(), now, max)
		if err != nil {
			t.Fatalf("Due(%v, %d): %v", now, max, err)
		}
		if want := all[:min(max, len(all))]; !slices.Equal(messageIDs(some), want) {
			t.Fatalf("Due(%v, %d) = %v, want the first %d of %v", now, max, messageIDs(some), max, all)
		}
	}
	return all
}

func message(t *testing.T, s store.Store, id string) store.Message {
	t.Helper()
	ms, err := s.Messages(t.Context(), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if m.ID == id {
			return m
		}
	}
	t.Fatalf("message %s not in the outbox", id)
	return store.Message{}
}

func testOutboxLifecycle(t *testing.T, s store.Store) {
	ctx := t.Context()
	now := base.Add(time.Hour)
	m1 := newMessage("m1", "g", now)
	m1.Status, m1.Attempts, m1.LastError = store.Sent, 7, "left over" // Append queues as Pending regardless
	m2 := newMessage("m2", "g", now.Add(-time.Minute))
	mustAppend(t, s, store.Batch{Game: "g", Events: newEvents(0, 1), Outbox: []store.Message{m1, m2}})

	got := message(t, s, "m1")
	if got.Status != store.Pending || got.Attempts != 0 || got.LastError != "" || !got.SentAt.IsZero() {
		t.Fatalf("queued message: status %s, attempts %d, error %q, sent %v", got.Status, got.Attempts, got.LastError, got.SentAt)
	}
	if got.From != m1.From || !slices.Equal(got.To, m1.To) || !bytes.Equal(got.Raw, m1.Raw) || got.Game != "g" ||
		!got.Created.Equal(m1.Created) || !got.NextAttempt.Equal(m1.NextAttempt) {
		t.Fatalf("queued message:\n got %+v\nwant %+v", got, m1)
	}
	if got.Created.Location() != time.UTC || got.NextAttempt.Location() != time.UTC {
		t.Fatalf("message times not in UTC: %v, %v", got.Created, got.NextAttempt)
	}

	if ids := due(t, s, now.Add(-2*time.Minute)); len(ids) != 0 {
		t.Fatalf("Due before any NextAttempt = %v", ids)
	}
	if ids := due(t, s, now.Add(-time.Minute)); !slices.Equal(ids, []string{"m2"}) {
		t.Fatalf("Due at m2's NextAttempt = %v, want [m2]", ids)
	}
	if ids := due(t, s, now); !slices.Equal(ids, []string{"m2", "m1"}) {
		t.Fatalf("Due = %v, want [m2 m1]", ids)
	}

	later := now.Add(30 * time.Minute)
	if err := s.Retry(ctx, "m1", later, "421 try again"); err != nil {
		t.Fatal(err)
	}
	if ids := due(t, s, now); !slices.Equal(ids, []string{"m2"}) {
		t.Fatalf("Due right after Retry = %v, want [m2]", ids)
	}
	if ids := due(t, s, later); !slices.Equal(ids, []string{"m2", "m1"}) {
		t.Fatalf("Due at the retry time = %v, want [m2 m1]", ids)
	}
	got = message(t, s, "m1")
	if got.Status != store.Pending || got.Attempts != 1 || got.LastError != "421 try again" || !got.NextAttempt.Equal(later) {
		t.Fatalf("after Retry: %+v", got)
	}

	sentAt := later.Add(time.Second)
	if err := s.MarkSent(ctx, "m1", sentAt); err != nil {
		t.Fatal(err)
	}
	if ids := due(t, s, later.Add(time.Hour)); !slices.Equal(ids, []string{"m2"}) {
		t.Fatalf("Due after MarkSent = %v, want [m2]", ids)
	}
	got = message(t, s, "m1")
	if got.Status != store.Sent || got.Attempts != 2 || got.LastError != "" || !got.SentAt.Equal(sentAt) {
		t.Fatalf("after MarkSent: %+v", got)
	}

	if err := s.Fail(ctx, "m2", "550 no such user"); err != nil {
		t.Fatal(err)
	}
	if ids := due(t, s, later.Add(time.Hour)); len(ids) != 0 {
		t.Fatalf("Due after Fail = %v, want none", ids)
	}
	got = message(t, s, "m2")
	if got.Status != store.Failed || got.Attempts != 1 || got.LastError != "550 no such user" {
		t.Fatalf("after Fail: %+v", got)
	}

	// The referee may retry a failed message once the address is fixed.
	if err := s.Retry(ctx, "m2", now, "retried by the referee"); err != nil {
		t.Fatal(err)
	}
	if ids := due(t, s, now); !slices.Equal(ids, []string{"m2"}) {
		t.Fatalf("Due after retrying a failed message = %v, want [m2]", ids)
	}

	for name, move := range map[string]func() error{
		"MarkSent": func() error { return s.MarkSent(ctx, "nope", now) },
		"Retry":    func() error { return s.Retry(ctx, "nope", now, "x") },
		"Fail":     func() error { return s.Fail(ctx, "nope", "x") },
	} {
		if err := move(); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("%s of an unknown message: %v, want ErrNotFound", name, err)
		}
	}
}

func testDueOrder(t *testing.T, s store.Store) {
	mustAppend(t, s, store.Batch{Outbox: []store.Message{
		newMessage("c", "", base.Add(3*time.Second)),
		newMessage("b", "", base.Add(time.Second)),
		newMessage("z", "", time.Time{}), // no NextAttempt: due at once
		newMessage("a", "", base.Add(time.Second)),
	}})
	if ids := due(t, s, base.Add(time.Hour)); !slices.Equal(ids, []string{"z", "a", "b", "c"}) {
		t.Fatalf("Due = %v, want [z a b c] (by NextAttempt, then ID)", ids)
	}
	if ids := due(t, s, base.Add(2*time.Second)); !slices.Equal(ids, []string{"z", "a", "b"}) {
		t.Fatalf("Due = %v, want [z a b]", ids)
	}
	if ids := due(t, s, time.Time{}); !slices.Equal(ids, []string{"z"}) {
		t.Fatalf("Due(zero time) = %v, want [z]", ids)
	}
}

func testMessagesByGame(t *testing.T, s store.Store) {
	ctx := t.Context()
	mustAppend(t, s, store.Batch{Game: "g", Events: newEvents(0, 1), Outbox: []store.Message{
		newMessage("g2", "g", base), newMessage("g1", "g", base)}})
	mustAppend(t, s, store.Batch{Outbox: []store.Message{newMessage("n1", "", base), newMessage("h1", "h", base)}})
	mustAppend(t, s, store.Batch{Outbox: []store.Message{newMessage("g3", "g", base), newMessage("gg", "gg", base)}})
	for game, want := range map[string][]string{
		"":     {"g2", "g1", "n1", "h1", "g3", "gg"},
		"g":    {"g2", "g1", "g3"},
		"h":    {"h1"},
		"gg":   {"gg"},
		"none": nil,
	} {
		ms, err := s.Messages(ctx, game)
		if err != nil {
			t.Fatal(err)
		}
		if ids := messageIDs(ms); !slices.Equal(ids, want) {
			t.Fatalf("Messages(%q) = %v, want %v (in the order queued)", game, ids, want)
		}
	}
}

func testCallerMutation(t *testing.T, s store.Store) {
	ctx := t.Context()
	payload := []byte(`{"x":1}`)
	m := newMessage("m", "g", base)
	secret := []byte("seed")
	meta := []byte("meta")
	b := store.Batch{
		Game:    "g",
		Events:  []store.NewEvent{{Type: "t", Schema: 1, Time: base, Actor: "a", Payload: payload}},
		Outbox:  []store.Message{m},
		Secrets: map[string][]byte{"s": secret},
		Meta:    map[string][]byte{"k": meta},
	}
	evs := mustAppend(t, s, b)
	want := evs[0]
	want.Payload = bytes.Clone(want.Payload)

	// Change everything the caller handed in or got back.
	payload[0] = 'X'
	m.To[0] = "evil@example.org"
	m.Raw[0] = 'X'
	secret[0] = 'X'
	meta[0] = 'X'
	evs[0].Payload[1] = 'X'

	read := mustEvents(t, s, "g", 1)
	sameEvent(t, "event after the caller changed its slices", read[0], want)
	read[0].Payload[0] = 'Y'
	err := s.Scan(ctx, "g", 1, func(e store.Event) error {
		sameEvent(t, "event after a reader changed its copy", e, want)
		e.Payload[0] = 'Z'
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sameEvent(t, "event after a scanner changed its copy", mustEvents(t, s, "g", 1)[0], want)

	got := message(t, s, "m")
	if got.To[0] != "a@example.org" || got.Raw[0] != 'S' {
		t.Fatalf("stored message changed with the caller's: %+v", got)
	}
	got.To[0] = "x"
	got.Raw[0] = 'x'
	if got := message(t, s, "m"); got.To[0] != "a@example.org" || got.Raw[0] != 'S' {
		t.Fatalf("stored message changed with a reader's copy: %+v", got)
	}
	ds, err := s.Due(ctx, base, 0)
	if err != nil || len(ds) != 1 {
		t.Fatalf("Due = %v, %v", ds, err)
	}
	ds[0].To[0], ds[0].Raw[0] = "x", 'x'
	if got := message(t, s, "m"); got.To[0] != "a@example.org" || got.Raw[0] != 'S' {
		t.Fatalf("stored message changed with Due's copy: %+v", got)
	}

	v, err := s.Secret(ctx, "g", "s")
	if err != nil || string(v) != "seed" {
		t.Fatalf("Secret = %q, %v; want seed", v, err)
	}
	v[0] = 'X'
	if v, _ := s.Secret(ctx, "g", "s"); string(v) != "seed" {
		t.Fatalf("Secret changed with a reader's copy: %q", v)
	}
	v, err = s.Meta(ctx, "k")
	if err != nil || string(v) != "meta" {
		t.Fatalf("Meta = %q, %v; want meta", v, err)
	}
	v[0] = 'X'
	if v, _ := s.Meta(ctx, "k"); string(v) != "meta" {
		t.Fatalf("Meta changed with a reader's copy: %q", v)
	}
}

func testClosed(t *testing.T, s store.Store) {
	mustAppend(t, s, store.Batch{Game: "g", Events: newEvents(0, 1), Outbox: []store.Message{newMessage("m", "g", base)}})
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	ctx := t.Context()
	calls := map[string]func() error{
		"Append": func() error {
			_, err := s.Append(ctx, store.Batch{Game: "g", Expected: 1, Events: newEvents(1, 1)})
			return err
		},
		"AppendAll": func() error {
			_, err := s.AppendAll(ctx, []store.Batch{{Game: "g", Expected: 1, Events: newEvents(1, 1)}})
			return err
		},
		"AppendAll of none": func() error {
			_, err := s.AppendAll(ctx, nil)
			return err
		},
		"Events":   func() error { _, err := s.Events(ctx, "g", 1); return err },
		"Scan":     func() error { return s.Scan(ctx, "g", 1, func(store.Event) error { return nil }) },
		"Version":  func() error { _, err := s.Version(ctx, "g"); return err },
		"Games":    func() error { _, err := s.Games(ctx); return err },
		"Secret":   func() error { _, err := s.Secret(ctx, "g", "s"); return err },
		"Marked":   func() error { _, err := s.Marked(ctx, "m"); return err },
		"Meta":     func() error { _, err := s.Meta(ctx, "k"); return err },
		"MetaKeys": func() error { _, err := s.MetaKeys(ctx, ""); return err },
		"Due":      func() error { _, err := s.Due(ctx, base, 0); return err },
		"Messages": func() error { _, err := s.Messages(ctx, ""); return err },
		"MarkSent": func() error { return s.MarkSent(ctx, "m", base) },
		"Retry":    func() error { return s.Retry(ctx, "m", base, "x") },
		"Fail":     func() error { return s.Fail(ctx, "m", "x") },
		"PruneSent": func() error {
			_, err := s.PruneSent(ctx, base)
			return err
		},
		"Close": s.Close,
	}
	for name, call := range calls {
		if err := call(); !errors.Is(err, store.ErrClosed) {
			t.Errorf("%s on a closed store: %v, want ErrClosed", name, err)
		}
	}
}

func testContextCancelled(t *testing.T, s store.Store) {
	mustAppend(t, s, store.Batch{Game: "g", Events: newEvents(0, 1), Outbox: []store.Message{newMessage("m", "g", base)}})
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	calls := map[string]func() error{
		"Append": func() error {
			_, err := s.Append(ctx, fullBatch("g", 1, "x"))
			return err
		},
		"AppendAll": func() error {
			_, err := s.AppendAll(ctx, []store.Batch{fullBatch("g", 1, "x"), fullBatch("h", 0, "y")})
			return err
		},
		"Events":   func() error { _, err := s.Events(ctx, "g", 1); return err },
		"Scan":     func() error { return s.Scan(ctx, "g", 1, func(store.Event) error { return nil }) },
		"Version":  func() error { _, err := s.Version(ctx, "g"); return err },
		"Games":    func() error { _, err := s.Games(ctx); return err },
		"Secret":   func() error { _, err := s.Secret(ctx, "g", "s"); return err },
		"Marked":   func() error { _, err := s.Marked(ctx, "m"); return err },
		"Meta":     func() error { _, err := s.Meta(ctx, "k"); return err },
		"MetaKeys": func() error { _, err := s.MetaKeys(ctx, ""); return err },
		"Due":      func() error { _, err := s.Due(ctx, base, 0); return err },
		"Messages": func() error { _, err := s.Messages(ctx, ""); return err },
		"MarkSent": func() error { return s.MarkSent(ctx, "m", base) },
		"Retry":    func() error { return s.Retry(ctx, "m", base, "x") },
		"Fail":     func() error { return s.Fail(ctx, "m", "x") },
		"PruneSent": func() error {
			_, err := s.PruneSent(ctx, base)
			return err
		},
	}
	for name, call := range calls {
		if err := call(); !errors.Is(err, context.Canceled) {
			t.Errorf("%s with a cancelled context: %v, want context.Canceled", name, err)
		}
	}
	wroteNothing(t, s, "g", "x", 1)
	if m := message(t, s, "m"); m.Status != store.Pending || m.Attempts != 0 {
		t.Fatalf("message moved under a cancelled context: %+v", m)
	}

	// Scan notices a cancellation between events, not only at the start.
	mustAppend(t, s, store.Batch{Game: "g", Expected: 1, Events: newEvents(1, 3000)})
	ctx, cancel = context.WithCancel(t.Context())
	defer cancel()
	n := 0
	err := s.Scan(ctx, "g", 1, func(store.Event) error {
		n++
		if n == 1 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) || n >= 3001 {
		t.Fatalf("Scan cancelled during the first event: %v after %d events, want context.Canceled early", err, n)
	}
}

func testConcurrentOneWinner(t *testing.T, s store.Store) {
	const rounds, racers = 10, 6
	for v := uint64(0); v < rounds; v++ {
		var wg sync.WaitGroup
		start := make(chan struct{})
		errs := make([]error, racers)
		for r := range racers {
			wg.Go(func() {
				<-start
				_, errs[r] = s.Append(context.Background(), store.Batch{
					Game: "g", Expected: v, Events: newEvents(int(v)*100+r, 1),
					Marks: []string{fmt.Sprintf("mark-%d-%d", v, r)},
				})
			})
		}
		close(start)
		wg.Wait()
		wins := 0
		for r, err := range errs {
			var ce *store.ConflictError
			switch {
			case err == nil:
				wins++
			case errors.As(err, &ce) && ce.Actual == v+1:
				if ok, _ := s.Marked(t.Context(), fmt.Sprintf("mark-%d-%d", v, r)); ok {
					t.Fatalf("round %d: loser %d's mark was written", v, r)
				}
			default:
				t.Fatalf("round %d, racer %d: %v", v, r, err)
			}
		}
		if wins != 1 {
			t.Fatalf("round %d: %d appends won at version %d, want exactly 1", v, wins, v)
		}
	}
	if err := store.Verify(t.Context(), s, "g"); err != nil {
		t.Fatal(err)
	}
	if v := version(t, s, "g"); v != rounds {
		t.Fatalf("version %d, want %d", v, rounds)
	}
}

func testConcurrentAppenders(t *testing.T, s store.Store) {
	const writers, each = 8, 20
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		wg.Go(func() {
			ctx := context.Background()
			for i := 0; i < each; {
				v, err := s.Version(ctx, "g")
				if errors.Is(err, store.ErrUnknownGame) {
					v, err = 0, nil
				}
				if err != nil {
					errs <- err
					return
				}
				ev := newEvent(w*1000 + i)
				ev.Actor = fmt.Sprintf("writer-%d", w)
				_, err = s.Append(ctx, store.Batch{Game: "g", Expected: v, Events: []store.NewEvent{ev}})
				if errors.Is(err, store.ErrConflict) {
					continue
				}
				if err != nil {
					errs <- err
					return
				}
				i++
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if v := version(t, s, "g"); v != writers*each {
		t.Fatalf("version %d after %d writers appended %d events each", v, writers, each)
	}
	if err := store.Verify(t.Context(), s, "g"); err != nil {
		t.Fatal(err)
	}
	per := map[string]int{}
	for _, e := range mustEvents(t, s, "g", 1) {
		per[e.Actor]++
	}
	for w := range writers {
		if n := per[fmt.Sprintf("writer-%d", w)]; n != each {
			t.Fatalf("writer %d has %d events, want %d", w, n, each)
		}
	}
}

// testSnapshots: a store with snapshots keeps one per game, bound to the
// hash of the event it was taken after, and hands back copies.
func testSnapshots(t *testing.T, s store.Store) {
	sn, ok := s.(store.Snapshots)
	if !ok {
		t.Skip("no snapshots")
	}
	ctx := context.Background()
	if _, err := sn.Snapshot(ctx, "g"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("snapshot of an unknown game: %v", err)
	}
	evs := mustAppend(t, s, store.Batch{Game: "g", Events: newEvents(1, 3)})
	if err := sn.PutSnapshot(ctx, "g", 4, []byte("x")); !errors.Is(err, store.ErrUnknownGame) {
		t.Fatalf("snapshot after an event not stored: %v", err)
	}
	if err := sn.PutSnapshot(ctx, "other", 1, []byte("x")); !errors.Is(err, store.ErrUnknownGame) {
		t.Fatalf("snapshot of an unknown game: %v", err)
	}
	if _, err := sn.Snapshot(ctx, "g"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("no snapshot yet: %v", err)
	}
	data := []byte("fold after 2")
	if err := sn.PutSnapshot(ctx, "g", 2, data); err != nil {
		t.Fatal(err)
	}
	data[0] = 'X'
	got, err := sn.Snapshot(ctx, "g")
	if err != nil || got.Seq != 2 || got.Hash != evs[1].Hash || string(got.Data) != "fold after 2" {
		t.Fatalf("snapshot: %+v %v", got, err)
	}
	got.Data[0] = 'Y'
	if again, _ := sn.Snapshot(ctx, "g"); string(again.Data) != "fold after 2" {
		t.Fatalf("the caller changed the stored snapshot: %q", again.Data)
	}
	mustAppend(t, s, store.Batch{Game: "g", Expected: 3, Events: newEvents(4, 1)})
	if err := sn.PutSnapshot(ctx, "g", 4, []byte("fold after 4")); err != nil {
		t.Fatal(err)
	}
	if got, err := sn.Snapshot(ctx, "g"); err != nil || got.Seq != 4 || string(got.Data) != "fold after 4" {
		t.Fatalf("the newer snapshot: %+v %v", got, err)
	}
	if v := version(t, s, "g"); v != 4 {
		t.Fatalf("a snapshot changed the log: version %d", v)
	}
}

// sameButBody compares every field of two messages but Raw and Pruned.
func sameButBody(t *testing.T, what string, got, want store.Message) {
	t.Helper()
	if got.ID != want.ID || got.Game != want.Game || got.From != want.From || !slices.Equal(got.To, want.To) ||
		!got.Created.Equal(want.Created) || got.Status != want.Status || got.Attempts != want.Attempts ||
		!got.NextAttempt.Equal(want.NextAttempt) || got.LastError != want.LastError || !got.SentAt.Equal(want.SentAt) {
		t.Fatalf("%s:\n got %+v\nwant %+v", what, got, want)
	}
}

func prune(t *testing.T, s store.Store, before time.Time) store.PruneStats {
	t.Helper()
	st, err := s.PruneSent(t.Context(), before)
	if err != nil {
		t.Fatalf("PruneSent(%v): %v", before, err)
	}
	return st
}

func testPruneSent(t *testing.T, s store.Store) {
	ctx := t.Context()
	big := newMessage("s2", "g", base)
	big.Raw = bytes.Repeat([]byte("x"), 70000)
	mustAppend(t, s, store.Batch{Game: "g", Events: newEvents(0, 1), Outbox: []store.Message{
		newMessage("s1", "g", base), big, newMessage("s3", "h", base),
		newMessage("p", "g", base), newMessage("r", "g", base), newMessage("f", "g", base), newMessage("fs", "", base),
	}})
	for i, id := range []string{"s1", "s2", "s3"} {
		if err := s.Retry(ctx, id, base, "421 busy"); err != nil {
			t.Fatal(err)
		}
		if err := s.MarkSent(ctx, id, base.Add(time.Duration(i+1)*time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Retry(ctx, "r", base.Add(-time.Hour), "421 busy"); err != nil {
		t.Fatal(err)
	}
	if err := s.Fail(ctx, "f", "550 no such user"); err != nil {
		t.Fatal(err)
	}
	// Sent long ago, then refused when the referee had it sent again: Failed.
	if err := s.MarkSent(ctx, "fs", base.Add(-48*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := s.Fail(ctx, "fs", "550 gone"); err != nil {
		t.Fatal(err)
	}
	before, err := s.Messages(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	was := map[string]store.Message{}
	for _, m := range before {
		was[m.ID] = m
	}

	// SentAt must be before the time given: s2 was sent at exactly base+2h.
	st := prune(t, s, base.Add(2*time.Hour))
	if want := (store.PruneStats{Messages: 1, Bytes: int64(len(was["s1"].Raw))}); st != want {
		t.Fatalf("PruneSent(sent+2h) = %+v, want %+v", st, want)
	}
	st = prune(t, s, base.Add(2*time.Hour+time.Nanosecond))
	if want := (store.PruneStats{Messages: 1, Bytes: 70000}); st != want {
		t.Fatalf("PruneSent(sent+2h+1ns) = %+v, want %+v", st, want)
	}
	if st := prune(t, s, base.Add(2*time.Hour+time.Nanosecond)); st != (store.PruneStats{}) {
		t.Fatalf("PruneSent again = %+v, want nothing", st)
	}

	after, err := s.Messages(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(messageIDs(after), messageIDs(before)) {
		t.Fatalf("Messages after pruning = %v, want %v", messageIDs(after), messageIDs(before))
	}
	for _, m := range after {
		sameButBody(t, "message "+m.ID+" after pruning", m, was[m.ID])
		switch m.ID {
		case "s1", "s2":
			if m.Raw != nil || !m.Pruned {
				t.Fatalf("pruned message %s: Raw %d bytes, Pruned %v; want nil and true", m.ID, len(m.Raw), m.Pruned)
			}
		default:
			if !bytes.Equal(m.Raw, was[m.ID].Raw) || m.Pruned {
				t.Fatalf("message %s (%s) changed by pruning: Raw %q, Pruned %v", m.ID, m.Status, m.Raw, m.Pruned)
			}
		}
	}
	if ms, err := s.Messages(ctx, "g"); err != nil || !slices.Equal(messageIDs(ms), []string{"s1", "s2", "p", "r", "f"}) {
		t.Fatalf("Messages(g) after pruning = %v, %v", messageIDs(ms), err)
	}

	// The IDs stay known: queueing one again is still a duplicate.
	_, err = s.Append(ctx, store.Batch{Outbox: []store.Message{newMessage("s1", "g", base)}})
	var de *store.DuplicateError
	if !errors.As(err, &de) || de.Kind != "message" || de.Key != "s1" {
		t.Fatalf("queueing a pruned message's ID again: %v, want a DuplicateError", err)
	}

	// Nothing can send a message without its body again.
	for name, move := range map[string]func() error{
		"Retry": func() error { return s.Retry(ctx, "s1", base, "again") },
		"Fail":  func() error { return s.Fail(ctx, "s1", "x") },
	} {
		if err := move(); !errors.Is(err, store.ErrPruned) {
			t.Fatalf("%s of a pruned message: %v, want ErrPruned", name, err)
		}
	}
	sameButBody(t, "pruned message after a refused Retry and Fail", message(t, s, "s1"), was["s1"])
	if ids := due(t, s, base.Add(100*time.Hour)); !slices.Equal(ids, []string{"r", "p"}) {
		t.Fatalf("Due after pruning = %v, want [r p]", ids)
	}
	// MarkSent of a pruned message counts the attempt and keeps it pruned.
	if err := s.MarkSent(ctx, "s1", base.Add(5*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if m := message(t, s, "s1"); !m.Pruned || m.Raw != nil || m.Status != store.Sent || m.Attempts != was["s1"].Attempts+1 {
		t.Fatalf("pruned message after MarkSent: %+v", m)
	}

	// The rest goes when its time comes; Pending and Failed never do.
	if st := prune(t, s, base.Add(1000*time.Hour)); st != (store.PruneStats{Messages: 1, Bytes: int64(len(was["s3"].Raw))}) {
		t.Fatalf("PruneSent(later) = %+v, want s3 only", st)
	}
	for _, id := range []string{"p", "r", "f", "fs"} {
		if m := message(t, s, id); m.Pruned || !bytes.Equal(m.Raw, was[id].Raw) {
			t.Fatalf("%s message %s pruned: %+v", m.Status, id, m)
		}
	}
	// A sent message without a body that is not marked pruned (umpire
	// recover copies them so) is marked, freeing nothing.
	empty := newMessage("e", "", base)
	empty.Raw = nil
	mustAppend(t, s, store.Batch{Outbox: []store.Message{empty}})
	if err := s.MarkSent(ctx, "e", base); err != nil {
		t.Fatal(err)
	}
	if st := prune(t, s, base.Add(time.Hour)); st != (store.PruneStats{Messages: 1}) {
		t.Fatalf("PruneSent of a sent message without a body = %+v, want 1 message, 0 bytes", st)
	}
	if m := message(t, s, "e"); !m.Pruned {
		t.Fatalf("sent message without a body not marked pruned: %+v", m)
	}
}

// testPruneSentChunks prunes more messages than one transaction takes,
// between pending ones.
func testPruneSentChunks(t *testing.T, s store.Store) {
	ctx := t.Context()
	n := store.PruneChunk + 3
	var ms []store.Message
	for i := range 2 * n {
		ms = append(ms, newMessage(fmt.Sprintf("m%04d", i), "g", base))
	}
	mustAppend(t, s, store.Batch{Outbox: ms})
	var bodies int64
	for i := 0; i < 2*n; i += 2 {
		if err := s.MarkSent(ctx, ms[i].ID, base); err != nil {
			t.Fatal(err)
		}
		bodies += int64(len(ms[i].Raw))
	}
	if st := prune(t, s, base.Add(time.Second)); st != (store.PruneStats{Messages: n, Bytes: bodies}) {
		t.Fatalf("PruneSent = %+v, want %d messages of %d bytes", st, n, bodies)
	}
	got, err := s.Messages(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range got {
		if sent := i%2 == 0; m.Pruned != sent || (m.Raw == nil) != sent {
			t.Fatalf("message %s (%s): Pruned %v, %d bytes", m.ID, m.Status, m.Pruned, len(m.Raw))
		}
	}
	if ids := due(t, s, base); len(ids) != n {
		t.Fatalf("Due after pruning: %d messages, want %d", len(ids), n)
	}
}
