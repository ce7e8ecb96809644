package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/storetest"
)

// The AppendAll crash test: as TestCrash, but the child writes to several
// games per call, as a series writes a parent and its child games. Call N
// appends event N to game A and to game B, queues mail N and marks N; every
// allChildEvery-th call also creates game child-N. After every SIGKILL, A
// and B have the same length, and the mail, marks and child games are
// exactly those of the calls that left their events.
const crashAllEnv = "UMPIRE_STORE_CRASHALL_CHILD_DB"

const (
	allGameA      = "series"
	allGameB      = "series-g"
	allChildEvery = 5
)

func allChildGame(seq uint64) string { return fmt.Sprintf("series-child-%d", seq) }

// allFill differs per game, so that an event written into the wrong game
// shows.
func allFill(game string, seq uint64) string {
	return strings.Repeat(fmt.Sprintf("%s:%08x;", game, seq*2654435761), 6000/(len(game)+10))
}

func allEvent(game string, seq uint64) store.NewEvent {
	p, _ := json.Marshal(crashPayload{Seq: seq, Fill: allFill(game, seq)})
	return store.NewEvent{Type: "crash.all", Schema: 1, Time: time.Now(), Actor: "child", Payload: p}
}

// TestCrashAllChild is the child's body; run normally, it does nothing.
func TestCrashAllChild(t *testing.T) {
	path := os.Getenv(crashAllEnv)
	if path == "" {
		return // only meaningful as TestCrashAll's child
	}
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, "crash child:", err)
		os.Exit(3)
	}
	ctx := context.Background()
	s, err := store.Open(path, store.WithLockTimeout(10*time.Second))
	if err != nil {
		fail(err)
	}
	version := func(game string) uint64 {
		v, err := s.Version(ctx, game)
		if err != nil && !errors.Is(err, store.ErrUnknownGame) {
			fail(err)
		}
		return v
	}
	v := version(allGameA)
	if vb := version(allGameB); vb != v {
		fail(fmt.Errorf("games at versions %d and %d on start", v, vb))
	}
	// Bounded so that an orphaned child cannot run for ever.
	for range 100000 {
		seq := v + 1
		bs := []store.Batch{
			{
				Game: allGameA, Expected: v, Events: []store.NewEvent{allEvent(allGameA, seq)},
				Marks: []string{fmt.Sprint("all-a-", seq)},
			},
			{
				Game: allGameB, Expected: v, Events: []store.NewEvent{allEvent(allGameB, seq)},
				Marks:  []string{fmt.Sprint("all-b-", seq)},
				Outbox: []store.Message{{ID: fmt.Sprint("all-", seq), Game: allGameB, Raw: []byte(allFill("mail", seq)), Created: time.Now()}},
			},
		}
		if seq%allChildEvery == 0 {
			child := allChildGame(seq)
			bs = append(bs, store.Batch{
				Game: child, Events: []store.NewEvent{allEvent(child, 1)},
				Secrets: map[string][]byte{"seed": []byte(child)},
			})
		}
		if _, err := s.AppendAll(ctx, bs); err != nil {
			fail(err)
		}
		v = seq
		// Written only after AppendAll returned: the call is on disk.
		if _, err := fmt.Fprintf(os.Stdout, "%d\n", seq); err != nil {
			os.Exit(4) // the parent has gone
		}
	}
	os.Exit(0)
}

func TestCrashAll(t *testing.T) {
	path := filepath.Join(t.TempDir(), "crash-all.db")
	var confirmed uint64
	for round := range 10 {
		// Vary how many calls the child gets, so that the kills land at
		// different points of the file's growth and of the child cycle.
		want := 10 + 3*round
		last, stderr := storetest.KillChildAfter(t, "TestCrashAllChild", crashAllEnv, path, want, true)
		if last < confirmed+uint64(want) {
			t.Fatalf("round %d: child confirmed up to %d, want at least %d; stderr:\n%s", round, last, confirmed+uint64(want), stderr)
		}
		confirmed = last
		checkAfterCrashAll(t, path, confirmed)
	}
}

func checkAfterCrashAll(t *testing.T, path string, confirmed uint64) {
	t.Helper()
	ctx := t.Context()
	s, err := store.Open(path)
	if err != nil {
		t.Fatalf("open after kill: %v", err)
	}
	defer s.Close()
	va, err := s.Version(ctx, allGameA)
	if err != nil {
		t.Fatal(err)
	}
	vb, err := s.Version(ctx, allGameB)
	if err != nil {
		t.Fatal(err)
	}
	if va != vb {
		t.Fatalf("after kill: game %s at version %d, game %s at %d; one call wrote one game and not the other", allGameA, va, allGameB, vb)
	}
	v := va
	// The child may have committed one call that it had no time to confirm
	// (or that the parent did not read), never fewer than confirmed.
	if v < confirmed {
		t.Fatalf("logs at version %d after kill, but %d calls were confirmed", v, confirmed)
	}
	t.Logf("after kill: %d calls confirmed, logs at version %d", confirmed, v)

	check := func(game string, wantLen uint64, seqOf func(e store.Event) uint64) {
		if err := store.Verify(ctx, s, game); err != nil {
			t.Fatalf("hash chain of %s after kill: %v", game, err)
		}
		var n uint64
		err := s.Scan(ctx, game, 1, func(e store.Event) error {
			n++
			var p crashPayload
			if err := json.Unmarshal(e.Payload, &p); err != nil {
				return fmt.Errorf("game %s event %d: payload does not decode: %v", game, e.Seq, err)
			}
			if want := seqOf(e); p.Seq != want || p.Fill != allFill(game, want) {
				return fmt.Errorf("game %s event %d: payload is for event %d or torn", game, e.Seq, p.Seq)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if n != wantLen {
			t.Fatalf("game %s has %d events, want %d", game, n, wantLen)
		}
	}
	check(allGameA, v, func(e store.Event) uint64 { return e.Seq })
	check(allGameB, v, func(e store.Event) uint64 { return e.Seq })

	// The child games are exactly those of the calls that were written.
	want := []string{allGameA, allGameB}
	for seq := uint64(allChildEvery); seq <= v; seq += allChildEvery {
		child := allChildGame(seq)
		want = append(want, child)
		check(child, 1, func(store.Event) uint64 { return 1 })
		if sec, err := s.Secret(ctx, child, "seed"); err != nil || string(sec) != child {
			t.Fatalf("secret of %s after kill: %q, %v", child, sec, err)
		}
	}
	slices.Sort(want)
	games, err := s.Games(ctx)
	if err != nil || !slices.Equal(games, want) {
		t.Fatalf("games after kill at version %d: %v, %v; want %v", v, games, err, want)
	}

	// Marks and mail were written in the same calls as the events.
	for _, seq := range []uint64{1, confirmed, v} {
		for _, mark := range []string{fmt.Sprint("all-a-", seq), fmt.Sprint("all-b-", seq)} {
			if ok, err := s.Marked(ctx, mark); !ok || err != nil {
				t.Fatalf("mark %s missing after kill: %v", mark, err)
			}
		}
	}
	for _, mark := range []string{fmt.Sprint("all-a-", v+1), fmt.Sprint("all-b-", v+1)} {
		if ok, _ := s.Marked(ctx, mark); ok {
			t.Fatalf("mark %s present but event %d is not", mark, v+1)
		}
	}
	msgs, err := s.Messages(ctx, allGameB)
	if err != nil {
		t.Fatal(err)
	}
	if uint64(len(msgs)) != v {
		t.Fatalf("%d messages after kill, want one per call: %d", len(msgs), v)
	}
	for i, m := range msgs {
		if want := fmt.Sprint("all-", i+1); m.ID != want || string(m.Raw) != allFill("mail", uint64(i+1)) {
			t.Fatalf("message %d after kill is %s (%d bytes), want %s", i, m.ID, len(m.Raw), want)
		}
	}
}
