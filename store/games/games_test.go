package games_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/testrules"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
)

var lookup = game.Lookup(func(name string) (adjudicator.Ruleset, bool) { return testrules.Race, name == "race" })

func newService(t testing.TB) *games.Service {
	st, err := store.Open(t.TempDir() + "/umpire.db")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	clock := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	return &games.Service{Store: st, Rules: lookup, Now: func() time.Time { clock = clock.Add(time.Second); return clock }}
}

func create(t testing.TB, s *games.Service, chain int) *games.Created {
	c, err := s.Create(context.Background(), games.CreateRequest{ID: "race-1", Ruleset: "race", Scenario: "sprint", ChainLength: chain,
		Options: map[string]string{"turns": "2"},
		Players: []games.Player{{Side: "red", Address: "red@example.org"}, {Side: "blue", Address: "blue@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func orders(r adjudicator.Request, g *game.Game) string {
	src := fmt.Sprintf("turn: %d\nphase: %s\norders:\n", r.Turn, r.Phase)
	switch r.Phase {
	case "bid":
		src += fmt.Sprintf("  bid: %d\n", min(1, g.State.(*testrules.State).Energy[string(r.Side)]))
	case "move":
		p := strings.ToUpper(string(r.Side[:1]))
		src += "  - advance: " + p + "1\n  - advance: " + p + "2\n"
	case "trap":
		for _, id := range g.State.(*testrules.State).Trapped {
			src += "  " + id + ": hold\n"
		}
	}
	return src
}

func playOut(t testing.TB, s *games.Service, id string) {
	ctx := context.Background()
	for i := 0; i < 100; i++ {
		g, err := s.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		due := g.Due()
		if len(due) == 0 {
			return
		}
		r := due[0]
		for _, d := range due {
			if _, answered := g.Answered(d.ID); !answered {
				r = d
				break
			}
		}
		if _, err := s.Submit(ctx, games.SubmitRequest{Game: id, Side: r.Side, Src: []byte(orders(r, g)), Via: "test"}); err != nil {
			t.Fatalf("%s %s: %v", r.Side, r.Title, err)
		}
	}
	t.Fatal("the game did not end")
}

func TestCreatePlayVerifyExport(t *testing.T) {
	s := newService(t)
	ctx := context.Background()
	c := create(t, s, 3)
	if len(c.Commitment) != 64 || len(c.Secrets) != 2 || c.Secrets["red"] == c.Secrets["blue"] {
		t.Fatalf("created %+v", c)
	}
	// The dice secret is in the store, never in the log.
	sec, err := s.Store.Secret(ctx, "race-1", "dice/0")
	if err != nil || len(sec) != 32 {
		t.Fatalf("dice secret: %v", err)
	}
	playOut(t, s, "race-1")
	// A used-up chain's secret is its last seed, revealed by its last
	// adjudication; the secret of the chain in use must never be in the log.
	g, _ := s.Load(ctx, "race-1")
	current, err := s.Store.Secret(ctx, "race-1", fmt.Sprintf("dice/%d", len(g.Chains)-1))
	if err != nil || len(g.Chains) < 2 {
		t.Fatalf("chains %d, secret %v", len(g.Chains), err)
	}
	evs, _ := s.Store.Events(ctx, "race-1", 1)
	for _, e := range evs {
		if bytes.Contains(e.Payload, []byte(fmt.Sprintf("%x", current))) {
			t.Fatalf("event %d reveals the secret of the chain in use", e.Seq)
		}
	}
	_ = sec
	if a, err := s.Verify(ctx, "race-1", games.Known{}); err != nil || !a.OK() || a.Chains < 2 {
		t.Fatalf("verify: %+v %v", a, err)
	}
	if a, err := s.Replay(ctx, "race-1"); err != nil || !a.OK() {
		t.Fatalf("replay: %+v %v", a, err)
	}
	var buf bytes.Buffer
	if err := s.Export(ctx, "race-1", &buf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"README.txt", "events.jsonl", "seeds.txt", "orders/", "results/0001.txt"} {
		if !bytes.Contains(buf.Bytes(), []byte(want)) {
			t.Errorf("bundle lacks %s", want)
		}
	}
	if a, err := games.VerifyBundle(bytes.NewReader(buf.Bytes()), lookup, games.Known{}); err != nil || !a.OK() || a.Redecided == 0 {
		t.Fatalf("bundle verify: %+v %v", a, err)
	}
	// A changed byte in an event breaks the chain.
	bad := bytes.Replace(buf.Bytes(), []byte(`\"bid: 1\\n\"`), []byte(`\"bid: 2\\n\"`), 1)
	if bytes.Equal(bad, buf.Bytes()) {
		bad = bytes.Replace(buf.Bytes(), []byte(`bid: 1`), []byte(`bid: 2`), 1)
	}
	if a, err := games.VerifyBundle(bytes.NewReader(bad), nil, games.Known{}); err == nil && a.OK() {
		t.Error("a tampered bundle verified")
	}
}

func TestRejectionWritesNothing(t *testing.T) {
	s := newService(t)
	ctx := context.Background()
	create(t, s, 0)
	v0, _ := s.Store.Version(ctx, "race-1")
	_, err := s.Submit(ctx, games.SubmitRequest{Game: "race-1", Side: "red", Src: []byte("turn: 1\nphase: bid\norders:\n  bid: 99\n"), Marks: []string{"m1"}})
	var oe *adjudicator.OrderError
	if !errors.As(err, &oe) || oe.Code != "bad-bid" {
		t.Fatalf("got %v", err)
	}
	if v, _ := s.Store.Version(ctx, "race-1"); v != v0 {
		t.Error("a refused submission was written")
	}
	if ok, _ := s.Store.Marked(ctx, "m1"); ok {
		t.Error("a refused submission's mark was written")
	}
	if _, err := s.Load(ctx, "nope"); !errors.Is(err, games.ErrUnknownGame) {
		t.Errorf("unknown game: %v", err)
	}
	if _, err := s.Submit(ctx, games.SubmitRequest{Game: "nope", Side: "red", Src: []byte("x: 1")}); !errors.Is(err, games.ErrUnknownGame) {
		t.Errorf("unknown game: %v", err)
	}
	if _, err := s.Create(ctx, games.CreateRequest{ID: "race-1", Ruleset: "race", Scenario: "sprint", Players: []games.Player{{Side: "red"}}}); err == nil {
		t.Error("a second game with the same id was created")
	}
}

// TestSameMarkTwice: a mail handled twice (after a crash) is refused by its
// mark and nothing is adjudicated twice.
func TestSameMarkTwice(t *testing.T) {
	s := newService(t)
	ctx := context.Background()
	create(t, s, 0)
	req := games.SubmitRequest{Game: "race-1", Side: "red", Src: []byte("turn: 1\nphase: bid\norders:\n  bid: 1\n"), Marks: []string{"mail:<a@b>"}}
	if _, err := s.Submit(ctx, req); err != nil {
		t.Fatal(err)
	}
	req.Src = []byte("replace: true\nturn: 1\nphase: bid\norders:\n  bid: 2\n")
	_, err := s.Submit(ctx, req)
	var oe *adjudicator.OrderError
	if !errors.As(err, &oe) || oe.Code != adjudicator.CodeDuplicate {
		t.Fatalf("second submission under the same mark: %v", err)
	}
}

// TestConcurrentSubmitters: two goroutines submitting both bids at once
// give exactly one adjudication.
func TestConcurrentSubmitters(t *testing.T) {
	s := newService(t)
	ctx := context.Background()
	create(t, s, 0)
	errs := make(chan error, 2)
	for _, side := range []adjudicator.Side{"red", "blue"} {
		go func() {
			_, err := s.Submit(ctx, games.SubmitRequest{Game: "race-1", Side: side, Src: []byte("turn: 1\nphase: bid\norders:\n  bid: 1\n")})
			errs <- err
		}()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	g, _ := s.Load(ctx, "race-1")
	if g.K != 1 {
		t.Errorf("%d adjudications, want 1", g.K)
	}
}

func TestLoadAtAndTurn(t *testing.T) {
	s := newService(t)
	ctx := context.Background()
	create(t, s, 0)
	playOut(t, s, "race-1")
	g, err := s.LoadAt(ctx, "race-1", 1)
	if err != nil || g.K != 0 {
		t.Fatalf("LoadAt(1): %v", err)
	}
	g, err = s.LoadTurn(ctx, "race-1", 1)
	if err != nil || g.View("").Turn != 1 || g.K == 0 {
		t.Fatalf("LoadTurn(1): %v %+v", err, g.View(""))
	}
	if _, err := s.LoadAt(ctx, "race-1", 9999); err == nil {
		t.Error("an event past the end was accepted")
	}
}

// TestExportKeepsHiddenOrders: a bundle made while one side's secret bid
// waits for the other's holds only its commitment; the bid is in the
// bundle once revealed by the adjudication.
func TestExportKeepsHiddenOrders(t *testing.T) {
	s := newService(t)
	ctx := context.Background()
	create(t, s, 0)
	if _, err := s.Submit(ctx, games.SubmitRequest{Game: "race-1", Side: "red", Src: []byte("turn: 1\nphase: bid\norders:\n  bid: 3 # xyzzy\n")}); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := s.Export(ctx, "race-1", &buf); err != nil {
		t.Fatalf("export with a hidden bid pending: %v", err)
	}
	if bytes.Contains(buf.Bytes(), []byte("xyzzy")) || bytes.Contains(buf.Bytes(), []byte("bid: 3")) {
		t.Fatalf("the bundle shows the hidden bid")
	}
	if a, err := games.VerifyBundle(bytes.NewReader(buf.Bytes()), lookup, games.Known{}); err != nil || !a.OK() || a.Sealed != 1 {
		t.Fatalf("mid-game bundle: %+v %v", a, err)
	}
	if _, err := s.Submit(ctx, games.SubmitRequest{Game: "race-1", Side: "blue", Src: []byte("turn: 1\nphase: bid\norders:\n  bid: 1\n")}); err != nil {
		t.Fatal(err)
	}
	buf.Reset()
	if err := s.Export(ctx, "race-1", &buf); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(buf.Bytes(), []byte("xyzzy")) {
		t.Fatalf("the bid is not in the bundle after its adjudication")
	}
	if a, err := games.VerifyBundle(bytes.NewReader(buf.Bytes()), lookup, games.Known{}); err != nil || !a.OK() || a.Sealed != 0 || a.Revealed != 2 {
		t.Fatalf("bundle after the adjudication: %+v %v", a, err)
	}
}
