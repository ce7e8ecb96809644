package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/store"
)

// The workloads of the crash tests, one for every store: a child process
// (the test binary again, see KillChildAfter) writes in a tight loop and
// prints each write that returned; the parent kills it with SIGKILL at a
// random point of a write, opens the store again and checks what
// survived. AppendChild appends one event and one mark per call;
// AppendAllChild writes, per call N, event N to two games at once, mail N
// and marks N, and every AllChildEvery-th call creates a third game, as a
// series writes a parent and its child games. A store's test supplies the
// opening and the kill loop; the writes and the checks are these.

const (
	// CrashGame is the game AppendChild writes.
	CrashGame = "crash"
	// AllGameA and AllGameB are the two games every AppendAllChild call
	// writes.
	AllGameA = "series"
	AllGameB = "series-g"
	// AllChildEvery: every AllChildEvery-th call also creates a game.
	AllChildEvery = 5
)

// AllChildGame is the game the seq-th AppendAllChild call creates.
func AllChildGame(seq uint64) string { return fmt.Sprintf("series-child-%d", seq) }

// crashPayload is what a child writes as event seq of a game: a few KB,
// so that a write spans several pages and a torn one would show.
type crashPayload struct {
	Seq  uint64 `json:"seq"`
	Fill string `json:"fill"`
}

// crashFill differs per game and event, so that an event written into the
// wrong game or place shows.
func crashFill(game string, seq uint64) string {
	return strings.Repeat(fmt.Sprintf("%s:%08x;", game, seq*2654435761), 4096/(len(game)+10))
}

func crashEvent(game string, seq uint64) store.NewEvent {
	p, _ := json.Marshal(crashPayload{Seq: seq, Fill: crashFill(game, seq)})
	return store.NewEvent{Type: "crash.tick", Schema: 1, Time: time.Now(), Actor: "child", Payload: p}
}

// childFail ends the child on an error, which the parent reports.
func childFail(err error) {
	fmt.Fprintln(os.Stderr, "crash child:", err)
	os.Exit(3)
}

func childVersion(s store.Store, game string) uint64 {
	v, err := s.Version(context.Background(), game)
	if err != nil && !errors.Is(err, store.ErrUnknownGame) {
		childFail(err)
	}
	return v
}

// confirm prints seq once the write returned: it is durable.
func confirm(seq uint64) {
	if _, err := fmt.Fprintf(os.Stdout, "%d\n", seq); err != nil {
		os.Exit(4) // the parent has gone
	}
}

// AppendChild is the body of a child that appends to CrashGame until it
// is killed (or, bounded so that an orphan cannot run for ever, for a
// hundred thousand calls). It never returns.
func AppendChild(s store.Store) {
	v := childVersion(s, CrashGame)
	for range 100000 {
		seq := v + 1
		_, err := s.Append(context.Background(), store.Batch{
			Game: CrashGame, Expected: v, Events: []store.NewEvent{crashEvent(CrashGame, seq)},
			Marks: []string{fmt.Sprint("tick-", seq)},
		})
		if err != nil {
			childFail(err)
		}
		v = seq
		confirm(seq)
	}
	os.Exit(0)
}

// AppendAllChild is the body of a child that writes AppendAll calls
// across games until it is killed. It never returns.
func AppendAllChild(s store.Store) {
	v := childVersion(s, AllGameA)
	if vb := childVersion(s, AllGameB); vb != v {
		childFail(fmt.Errorf("games at versions %d and %d on start", v, vb))
	}
	for range 100000 {
		seq := v + 1
		bs := []store.Batch{
			{Game: AllGameA, Expected: v, Events: []store.NewEvent{crashEvent(AllGameA, seq)}, Marks: []string{fmt.Sprint("all-a-", seq)}},
			{
				Game: AllGameB, Expected: v, Events: []store.NewEvent{crashEvent(AllGameB, seq)}, Marks: []string{fmt.Sprint("all-b-", seq)},
				Outbox: []store.Message{{ID: fmt.Sprint("all-", seq), Game: AllGameB, Raw: []byte(crashFill("mail", seq)), Created: time.Now()}},
			},
		}
		if seq%AllChildEvery == 0 {
			child := AllChildGame(seq)
			bs = append(bs, store.Batch{Game: child, Events: []store.NewEvent{crashEvent(child, 1)}, Secrets: map[string][]byte{"seed": []byte(child)}})
		}
		if _, err := s.AppendAll(context.Background(), bs); err != nil {
			childFail(err)
		}
		v = seq
		confirm(seq)
	}
	os.Exit(0)
}

// CheckAfterAppend checks a store after AppendChild was killed with
// confirmed calls confirmed: the log at or past them (calls the child
// confirmed after the parent stopped reading, or committed without time to
// confirm, are there too), every event whole and in its place, the chain
// intact, the marks exactly those of the events. It returns the version.
func CheckAfterAppend(t *testing.T, s store.Store, confirmed uint64) uint64 {
	t.Helper()
	ctx := t.Context()
	v := checkCrashLog(t, s, CrashGame, confirmed, func(e store.Event) uint64 { return e.Seq })
	for _, seq := range []uint64{1, confirmed, v} {
		if ok, err := s.Marked(ctx, fmt.Sprint("tick-", seq)); !ok || err != nil {
			t.Fatalf("mark of event %d missing after kill: %v", seq, err)
		}
	}
	if ok, _ := s.Marked(ctx, fmt.Sprint("tick-", v+1)); ok {
		t.Fatalf("mark of event %d present but the event is not", v+1)
	}
	t.Logf("after kill: %d calls confirmed, log at version %d", confirmed, v)
	return v
}

// CheckAfterAppendAll checks a store after AppendAllChild was killed: both
// games at one version (a call wrote both or neither), at or past the
// confirmed calls, and the child games, marks and mail exactly those of
// the calls that left their events.
func CheckAfterAppendAll(t *testing.T, s store.Store, confirmed uint64) uint64 {
	t.Helper()
	ctx := t.Context()
	v := checkCrashLog(t, s, AllGameA, confirmed, func(e store.Event) uint64 { return e.Seq })
	if vb := checkCrashLog(t, s, AllGameB, confirmed, func(e store.Event) uint64 { return e.Seq }); vb != v {
		t.Fatalf("after kill: game %s at version %d, game %s at %d; one call wrote one game and not the other", AllGameA, v, AllGameB, vb)
	}
	want := []string{AllGameA, AllGameB}
	for seq := uint64(AllChildEvery); seq <= v; seq += AllChildEvery {
		child := AllChildGame(seq)
		want = append(want, child)
		if cv := checkCrashLog(t, s, child, 1, func(store.Event) uint64 { return 1 }); cv != 1 {
			t.Fatalf("child game %s has %d events", child, cv)
		}
		if sec, err := s.Secret(ctx, child, "seed"); err != nil || string(sec) != child {
			t.Fatalf("secret of %s after kill: %q, %v", child, sec, err)
		}
	}
	slices.Sort(want)
	if games, err := s.Games(ctx); err != nil || !slices.Equal(games, want) {
		t.Fatalf("games after kill at version %d: %v, %v; want %v", v, games, err, want)
	}
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
	msgs, err := s.Messages(ctx, AllGameB)
	if err != nil {
		t.Fatal(err)
	}
	if uint64(len(msgs)) != v {
		t.Fatalf("%d messages after kill, want one per call: %d", len(msgs), v)
	}
	for i, m := range msgs {
		if want := fmt.Sprint("all-", i+1); m.ID != want || string(m.Raw) != crashFill("mail", uint64(i+1)) {
			t.Fatalf("message %d after kill is %s (%d bytes), want %s", i, m.ID, len(m.Raw), want)
		}
	}
	t.Logf("after kill: %d calls confirmed, logs at version %d", confirmed, v)
	return v
}

// checkCrashLog checks a game's log after a kill: at or past confirmed,
// every event whole and in its place, the chain intact. It returns the
// version.
func checkCrashLog(t *testing.T, s store.Store, game string, confirmed uint64, seqOf func(store.Event) uint64) uint64 {
	t.Helper()
	ctx := t.Context()
	v, err := s.Version(ctx, game)
	if err != nil {
		t.Fatalf("game %s after kill: %v", game, err)
	}
	if v < confirmed {
		t.Fatalf("game %s at version %d after kill, but %d writes were confirmed", game, v, confirmed)
	}
	if err := store.Verify(ctx, s, game); err != nil {
		t.Fatalf("hash chain of %s after kill: %v", game, err)
	}
	var n uint64
	err = s.Scan(ctx, game, 1, func(e store.Event) error {
		n++
		var p crashPayload
		if err := json.Unmarshal(e.Payload, &p); err != nil {
			return fmt.Errorf("game %s event %d: payload does not decode: %v", game, e.Seq, err)
		}
		if want := seqOf(e); p.Seq != want || p.Fill != crashFill(game, want) {
			return fmt.Errorf("game %s event %d: payload is for event %d or torn", game, e.Seq, p.Seq)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != v {
		t.Fatalf("game %s: Scan saw %d events, version is %d", game, n, v)
	}
	return v
}
