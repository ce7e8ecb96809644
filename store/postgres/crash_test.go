package postgres_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/postgres"
	"github.com/umpire-pbem/umpire/store/storetest"
)

// The crash tests, as store/crash_test.go and store/crash_all_test.go do
// them for bbolt: this test binary runs again as a child that writes in a
// tight loop and prints each write that returned; the parent kills it with
// SIGKILL at a random point of a write and checks what the server kept.
// The children are selected by these variables, which hold the schema's
// URL (never printed).
const (
	crashEnv    = "UMPIRE_PG_CRASH_CHILD_URL"
	crashAllEnv = "UMPIRE_PG_CRASHALL_CHILD_URL"
)

const (
	crashGame     = "crash"
	allGameA      = "series"
	allGameB      = "series-g"
	allChildEvery = 5
)

type crashPayload struct {
	Seq  uint64 `json:"seq"`
	Fill string `json:"fill"`
}

// crashFill differs per game and event, so that an event written into the
// wrong game or place shows.
func crashFill(game string, seq uint64) string {
	return strings.Repeat(fmt.Sprintf("%s:%08x;", game, seq*2654435761), 3000/(len(game)+10))
}

func crashEvent(game string, seq uint64) store.NewEvent {
	p, _ := json.Marshal(crashPayload{Seq: seq, Fill: crashFill(game, seq)})
	return store.NewEvent{Type: "crash.tick", Schema: 1, Time: time.Now(), Actor: "child", Payload: p}
}

func allChildGame(seq uint64) string { return fmt.Sprintf("series-child-%d", seq) }

// crashChild opens the store the variable names, or returns nil when the
// test runs as itself rather than as a child.
func crashChild(env string) (*postgres.Store, func(error)) {
	url := os.Getenv(env)
	if url == "" {
		return nil, nil
	}
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, "crash child:", err)
		os.Exit(3)
	}
	s, err := postgres.Open(context.Background(), url, postgres.Options{MaxConns: 2})
	if err != nil {
		fail(err)
	}
	return s, fail
}

func childVersion(s *postgres.Store, game string, fail func(error)) uint64 {
	v, err := s.Version(context.Background(), game)
	if err != nil && !errors.Is(err, store.ErrUnknownGame) {
		fail(err)
	}
	return v
}

// confirm prints seq after the write returned: it is committed.
func confirm(seq uint64) {
	if _, err := fmt.Fprintf(os.Stdout, "%d\n", seq); err != nil {
		os.Exit(4) // the parent has gone
	}
}

// TestCrashChild appends one event and one mark per call; run normally,
// it does nothing.
func TestCrashChild(t *testing.T) {
	s, fail := crashChild(crashEnv)
	if s == nil {
		return
	}
	v := childVersion(s, crashGame, fail)
	for range 100000 { // bounded, so that an orphan cannot run for ever
		seq := v + 1
		_, err := s.Append(context.Background(), store.Batch{
			Game: crashGame, Expected: v, Events: []store.NewEvent{crashEvent(crashGame, seq)},
			Marks: []string{fmt.Sprint("tick-", seq)},
		})
		if err != nil {
			fail(err)
		}
		v = seq
		confirm(seq)
	}
	os.Exit(0)
}

// TestCrashAllChild appends event N to games A and B in one AppendAll,
// with mail N and marks N, and creates game child-N every allChildEvery
// calls; run normally, it does nothing.
func TestCrashAllChild(t *testing.T) {
	s, fail := crashChild(crashAllEnv)
	if s == nil {
		return
	}
	v := childVersion(s, allGameA, fail)
	if vb := childVersion(s, allGameB, fail); vb != v {
		fail(fmt.Errorf("games at versions %d and %d on start", v, vb))
	}
	for range 100000 {
		seq := v + 1
		bs := []store.Batch{
			{Game: allGameA, Expected: v, Events: []store.NewEvent{crashEvent(allGameA, seq)}, Marks: []string{fmt.Sprint("all-a-", seq)}},
			{
				Game: allGameB, Expected: v, Events: []store.NewEvent{crashEvent(allGameB, seq)}, Marks: []string{fmt.Sprint("all-b-", seq)},
				Outbox: []store.Message{{ID: fmt.Sprint("all-", seq), Game: allGameB, Raw: []byte(crashFill("mail", seq)), Created: time.Now()}},
			},
		}
		if seq%allChildEvery == 0 {
			child := allChildGame(seq)
			bs = append(bs, store.Batch{Game: child, Events: []store.NewEvent{crashEvent(child, 1)}, Secrets: map[string][]byte{"seed": []byte(child)}})
		}
		if _, err := s.AppendAll(context.Background(), bs); err != nil {
			fail(err)
		}
		v = seq
		confirm(seq)
	}
	os.Exit(0)
}

// childURL is url with an application_name of its own, by which
// waitChildGone finds the child's connections.
func childURL(t *testing.T, raw string) (string, string) {
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	name := "umpire-crash-" + q.Get("search_path")
	q.Set("application_name", name)
	u.RawQuery = q.Encode()
	return u.String(), name
}

// waitChildGone waits until the server has ended every connection of the
// killed child: only then is its last transaction committed or rolled
// back for good, and what the parent reads final.
func waitChildGone(t *testing.T, raw, name string) {
	t.Helper()
	conn, err := pgx.Connect(t.Context(), raw)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(t.Context())
	deadline := time.Now().Add(time.Minute)
	for {
		var n int
		if err := conn.QueryRow(t.Context(), `SELECT count(*) FROM pg_stat_activity WHERE application_name = $1`, name).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the killed child's %d connections were still open after a minute", n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestCrash(t *testing.T) {
	base := migrated(t)
	dsn, name := childURL(t, base)
	var confirmed uint64
	for round := range 5 {
		want := 20 + 7*round
		last, stderr := storetest.KillChildAfter(t, "TestCrashChild", crashEnv, dsn, want, true)
		waitChildGone(t, base, name)
		if last < confirmed+uint64(want) {
			t.Fatalf("round %d: child confirmed up to %d, want at least %d; stderr:\n%s", round, last, confirmed+uint64(want), stderr)
		}
		confirmed = last
		s := openURL(t, base)
		v := checkLog(t, s, crashGame, confirmed, func(e store.Event) uint64 { return e.Seq })
		for _, seq := range []uint64{1, confirmed, v} {
			if ok, err := s.Marked(t.Context(), fmt.Sprint("tick-", seq)); !ok || err != nil {
				t.Fatalf("mark of event %d missing after kill: %v", seq, err)
			}
		}
		if ok, _ := s.Marked(t.Context(), fmt.Sprint("tick-", v+1)); ok {
			t.Fatalf("mark of event %d present but the event is not", v+1)
		}
		s.Close()
	}
}

func TestCrashAll(t *testing.T) {
	base := migrated(t)
	dsn, name := childURL(t, base)
	var confirmed uint64
	for round := range 6 {
		want := 10 + 3*round
		last, stderr := storetest.KillChildAfter(t, "TestCrashAllChild", crashAllEnv, dsn, want, true)
		waitChildGone(t, base, name)
		if last < confirmed+uint64(want) {
			t.Fatalf("round %d: child confirmed up to %d, want at least %d; stderr:\n%s", round, last, confirmed+uint64(want), stderr)
		}
		confirmed = last
		s := openURL(t, base)
		checkAfterCrashAll(t, s, confirmed)
		s.Close()
	}
}

// checkLog checks a game's log after a kill: at or past confirmed, every
// event whole and in its place, the chain intact. It returns the version.
func checkLog(t *testing.T, s *postgres.Store, game string, confirmed uint64, seqOf func(store.Event) uint64) uint64 {
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

func checkAfterCrashAll(t *testing.T, s *postgres.Store, confirmed uint64) {
	t.Helper()
	ctx := t.Context()
	v := checkLog(t, s, allGameA, confirmed, func(e store.Event) uint64 { return e.Seq })
	if vb := checkLog(t, s, allGameB, confirmed, func(e store.Event) uint64 { return e.Seq }); vb != v {
		t.Fatalf("after kill: game %s at version %d, game %s at %d; one call wrote one game and not the other", allGameA, v, allGameB, vb)
	}
	t.Logf("after kill: %d calls confirmed, logs at version %d", confirmed, v)
	want := []string{allGameA, allGameB}
	for seq := uint64(allChildEvery); seq <= v; seq += allChildEvery {
		child := allChildGame(seq)
		want = append(want, child)
		if cv := checkLog(t, s, child, 1, func(store.Event) uint64 { return 1 }); cv != 1 {
			t.Fatalf("child game %s has %d events", child, cv)
		}
		if sec, err := s.Secret(ctx, child, "seed"); err != nil || string(sec) != child {
			t.Fatalf("secret of %s after kill: %q, %v", child, sec, err)
		}
	}
	slices.Sort(want)
	games, err := s.Games(ctx)
	if err != nil || !slices.Equal(games, want) {
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
	msgs, err := s.Messages(ctx, allGameB)
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
}
