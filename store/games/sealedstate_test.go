package games_test

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/testrules"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
)

// A game with sealed state (testrules.Hide: a treasure hidden in secret,
// revealed when found; its depth sealed until the end) kept by a store:
// the store's folds read the sealed events from its private part, its
// bundles hold none of them until revealed, and verify a mid-game bundle
// as far as it can be checked.
func TestSealedStateInStore(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(t.TempDir() + "/umpire.db")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	clock := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	now := func() time.Time { clock = clock.Add(time.Second); return clock }
	s := &games.Service{Store: st, Rules: testrules.Lookup, Now: now}
	if _, err := s.Create(ctx, games.CreateRequest{ID: "hunt-1", Ruleset: "hide", Scenario: "hunt",
		Players: []games.Player{{Side: "hider", Address: "hider@example.org"}, {Side: "seeker", Address: "seeker@example.org"}}}); err != nil {
		t.Fatal(err)
	}
	submit := func(side adjudicator.Side, turn int, phase, body string) {
		t.Helper()
		src := fmt.Sprintf("turn: %d\nphase: %s\norders: {%s}\n", turn, phase, body)
		if _, err := s.Submit(ctx, games.SubmitRequest{Game: "hunt-1", Side: side, Src: []byte(src), Via: "test"}); err != nil {
			t.Fatalf("%s %s: %v", side, phase, err)
		}
	}
	submit("hider", 1, "hide", "at: F")
	submit("hider", 1, "bury", "depth: 2")

	// Another process folds the log from the store, then from its
	// snapshot: the sealed events come from the private part.
	for _, every := range []int{-1, 1, 1} {
		other := &games.Service{Store: st, Rules: testrules.Lookup, Now: now, SnapshotEvery: every}
		g, err := other.Load(ctx, "hunt-1")
		if err != nil {
			t.Fatal(err)
		}
		if hs := g.State.(*testrules.HideState); hs.At != "F" || hs.Depth != 2 {
			t.Fatalf("the store's fold has %+v", hs)
		}
	}
	if a, err := s.Replay(ctx, "hunt-1"); err != nil || !a.OK() || a.Redecided != 2 || a.Notes != nil {
		t.Errorf("the referee's replay: %+v %v", a, err)
	}

	// Mid-game: the bundle holds no secret, verifies, and says how far it
	// replays.
	mid := exportBundle(t, s, "hunt-1")
	for _, leak := range []*regexp.Regexp{atF, depth2, regexp.MustCompile(`at: F|depth: 2|in F`)} {
		if leak.Match(mid) {
			t.Errorf("the mid-game bundle holds %s", leak)
		}
	}
	a, err := games.VerifyBundle(bytes.NewReader(mid), testrules.Lookup, games.Known{})
	if err != nil || !a.OK() || a.Sealed == 0 || len(a.Notes) != 1 || !strings.HasPrefix(a.Notes[0], "replayed to event 2; 4 sealed events are not revealed yet") {
		t.Errorf("mid-game verify: %+v %v", a, err)
	}
	checkbundlePy(t, mid)

	// A rollback to here keeps the sealed state.
	g, _ := s.Load(ctx, "hunt-1")
	br, err := s.Branch(ctx, "hunt-1", g.Version, "hunt-2", nil)
	if err != nil {
		t.Fatal(err)
	}
	if hs := br.Game.State.(*testrules.HideState); hs.At != "F" {
		t.Errorf("the branch has %+v", hs)
	}
	if _, err := s.Submit(ctx, games.SubmitRequest{Game: "hunt-2", Side: "seeker", Src: []byte("turn: 1\nphase: seek\norders: {search: F}\n"), Via: "test"}); err != nil {
		t.Fatal(err)
	}

	// The branch's end reveals everything: its bundle verifies and
	// replays whole.
	if _, err := s.Submit(ctx, games.SubmitRequest{Game: "hunt-2", Side: "seeker", Src: []byte("turn: 1\nphase: dig\norders: {depth: 3}\n"), Via: "test"}); err != nil {
		t.Fatal(err)
	}
	end := exportBundle(t, s, "hunt-2")
	a, err = games.VerifyBundle(bytes.NewReader(end), testrules.Lookup, games.Known{})
	if err != nil || !a.OK() || a.Sealed != 0 || a.Notes != nil || a.Redecided != 4 {
		t.Errorf("verify after the end: %+v %v", a, err)
	}
	if !atF.Match(end) || !depth2.Match(end) {
		t.Errorf("the end did not reveal the sealed state:\n%s", end)
	}
	checkbundlePy(t, end)
}

// The hidden event and the depth's, at any depth of JSON quoting.
var (
	atF    = regexp.MustCompile(`at\\*":\\*"F`)
	depth2 = regexp.MustCompile(`depth\\*":2`)
)

// checkbundlePy runs docs/checkbundle.py on b when python3 is at hand.
func checkbundlePy(t *testing.T, b []byte) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		return
	}
	if code, out := runCheckbundle(t, "python3", b); code != 0 || !strings.HasPrefix(out, "OK: ") {
		t.Errorf("docs/checkbundle.py exits %d:\n%s", code, out)
	}
}
