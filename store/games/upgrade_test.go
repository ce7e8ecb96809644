package games_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/rulesets"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
)

// The secrets of the players of testdata/schema1 (see its README).
const oldDefender, oldInvader = "bjfgd3y64tuc4sa", "bp6jteiguo47vwa"

func fixtureCopy(t *testing.T) string {
	t.Helper()
	src, err := os.Open("testdata/schema1/umpire.db")
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	path := filepath.Join(t.TempDir(), "umpire.db")
	dst, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	dst.Close()
	return path
}

// TestUpgradeSchema1: a data file written before the Trust work is refused
// with a pointer to the upgrade, and the upgrade removes every secret,
// keeps the game going and verifies.
func TestUpgradeSchema1(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(fixtureCopy(t))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s := &games.Service{Store: st, Rules: rulesets.Lookup, Now: func() time.Time { return time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC) }}
	before, _ := st.Events(ctx, "n2-old", 1)
	if !bytes.Contains(before[1].Payload, []byte(oldDefender)) {
		t.Fatal("the fixture does not hold the secret it should")
	}
	if _, err := s.Load(ctx, "n2-old"); !errors.Is(err, game.ErrNeedsUpgrade) {
		t.Fatalf("loading a schema-1 game: %v", err)
	}
	if need, err := s.NeedsUpgrade(ctx, "n2-old"); err != nil || !need {
		t.Fatalf("needs upgrade: %v %v", need, err)
	}
	res, err := s.Upgrade(ctx, "n2-old")
	if err != nil {
		t.Fatal(err)
	}
	if !res.Upgraded || res.NewEvents != res.OldEvents+1 || res.OldHead != before[len(before)-1].Hash.String() {
		t.Fatalf("upgrade: %+v", res)
	}
	after, _ := st.Events(ctx, "n2-old", 1)
	for _, e := range after {
		if bytes.Contains(e.Payload, []byte(oldDefender)) || bytes.Contains(e.Payload, []byte(oldInvader)) || bytes.Contains(e.Payload, []byte("secret_hash")) {
			t.Errorf("event %d still holds a secret: %s", e.Seq, e.Payload)
		}
	}
	if last := after[len(after)-1]; last.Type != game.TypeUpgraded || !bytes.Contains(last.Payload, []byte(res.OldHead)) {
		t.Errorf("the last event does not record the old head: %s %s", last.Type, last.Payload)
	}
	if a, err := s.Verify(ctx, "n2-old", games.Known{}); err != nil || !a.OK() {
		t.Fatalf("verify after the upgrade: %+v %v", a, err)
	}
	if a, err := s.Replay(ctx, "n2-old"); err != nil || !a.OK() || a.Redecided == 0 {
		t.Fatalf("replay after the upgrade: %+v %v", a, err)
	}
	// The old secrets still prove the players, from outside the log.
	if ok, err := s.CheckSecret(ctx, "n2-old", "defender", oldDefender); err != nil || !ok {
		t.Fatalf("the defender's old secret: %v %v", ok, err)
	}
	if ok, _ := s.CheckSecret(ctx, "n2-old", "defender", oldInvader); ok {
		t.Fatal("the invader's secret passes for the defender")
	}
	// A second upgrade changes nothing.
	if res, err := s.Upgrade(ctx, "n2-old"); err != nil || res.Upgraded {
		t.Fatalf("second upgrade: %+v %v", res, err)
	}
	var buf bytes.Buffer
	if err := s.Export(ctx, "n2-old", &buf); err != nil {
		t.Fatal(err)
	}
	if a, err := games.VerifyBundle(bytes.NewReader(buf.Bytes()), rulesets.Lookup, games.Known{}); err != nil || !a.OK() {
		t.Fatalf("bundle after the upgrade: %+v %v", a, err)
	}
}
