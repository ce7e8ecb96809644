package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/storetest"
)

// The crash test runs this test binary again as a child that appends in a
// tight loop, kills it with SIGKILL in the middle of a write, and checks what
// survives. The child is selected by this variable, which names the file.
const crashEnv = "UMPIRE_STORE_CRASH_CHILD_DB"

const crashGame = "crash"

// crashPayload is what the child writes as event seq: a few KB, so that an
// append spans several pages and a torn write would show.
type crashPayload struct {
	Seq  uint64 `json:"seq"`
	Fill string `json:"fill"`
}

func crashFill(seq uint64) string {
	return strings.Repeat(fmt.Sprintf("%08x", seq*2654435761), 4096/8)
}

// TestCrashChild is the child's body; run normally, it does nothing.
func TestCrashChild(t *testing.T) {
	path := os.Getenv(crashEnv)
	if path == "" {
		return // only meaningful as TestCrash's child
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
	v, err := s.Version(ctx, crashGame)
	if err != nil && !errors.Is(err, store.ErrUnknownGame) {
		fail(err)
	}
	// Bounded so that an orphaned child cannot run for ever.
	for range 100000 {
		seq := v + 1
		p, _ := json.Marshal(crashPayload{Seq: seq, Fill: crashFill(seq)})
		_, err := s.Append(ctx, store.Batch{
			Game:     crashGame,
			Expected: v,
			Events:   []store.NewEvent{{Type: "crash.tick", Schema: 1, Time: time.Now(), Actor: "child", Payload: p}},
			Marks:    []string{fmt.Sprint("tick-", seq)},
		})
		if err != nil {
			fail(err)
		}
		v = seq
		// Written only after Append returned: the event is on disk.
		if _, err := fmt.Fprintf(os.Stdout, "%d\n", seq); err != nil {
			os.Exit(4) // the parent has gone
		}
	}
	os.Exit(0)
}

func TestCrash(t *testing.T) {
	path := filepath.Join(t.TempDir(), "crash.db")
	var confirmed uint64
	for round := range 5 {
		// Vary how many commits the child gets, so the kills land at
		// different points of the file's growth.
		want := 50 + 7*round
		last, stderr := runAndKill(t, path, want)
		if last < confirmed+uint64(want) {
			t.Fatalf("round %d: child confirmed up to %d, want at least %d; stderr:\n%s", round, last, confirmed+uint64(want), stderr)
		}
		confirmed = last
		checkAfterCrash(t, path, confirmed)
	}
}

// runAndKill starts the child, reads its confirmations until n more have
// arrived, kills it at once (the child is then inside its next Append) and
// returns the last confirmed seq.
func runAndKill(t *testing.T, path string, n int) (uint64, string) {
	t.Helper()
	return storetest.KillChildAfter(t, "TestCrashChild", crashEnv, path, n, false)
}

func checkAfterCrash(t *testing.T, path string, confirmed uint64) {
	t.Helper()
	ctx := t.Context()
	s, err := store.Open(path)
	if err != nil {
		t.Fatalf("open after kill: %v", err)
	}
	defer s.Close()
	v, err := s.Version(ctx, crashGame)
	if err != nil {
		t.Fatal(err)
	}
	// The child may have committed one append that it had no time to confirm
	// (or that the parent did not read), never fewer than confirmed.
	if v < confirmed {
		t.Fatalf("log at version %d after kill, but %d appends were confirmed", v, confirmed)
	}
	t.Logf("after kill: %d appends confirmed, log at version %d", confirmed, v)
	if err := store.Verify(ctx, s, crashGame); err != nil {
		t.Fatalf("hash chain after kill: %v", err)
	}
	err = s.Scan(ctx, crashGame, 1, func(e store.Event) error {
		var p crashPayload
		if err := json.Unmarshal(e.Payload, &p); err != nil {
			return fmt.Errorf("event %d: payload does not decode: %v", e.Seq, err)
		}
		if p.Seq != e.Seq || p.Fill != crashFill(e.Seq) {
			return fmt.Errorf("event %d: payload is for event %d or torn", e.Seq, p.Seq)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Marks were written in the same transactions as the events.
	for _, seq := range []uint64{1, confirmed, v} {
		if ok, err := s.Marked(ctx, fmt.Sprint("tick-", seq)); !ok || err != nil {
			t.Fatalf("mark of event %d missing after kill: %v", seq, err)
		}
	}
	if ok, _ := s.Marked(ctx, fmt.Sprint("tick-", v+1)); ok {
		t.Fatalf("mark of event %d present but the event is not", v+1)
	}
}
