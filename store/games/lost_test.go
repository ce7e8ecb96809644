package games_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/store/games"
)

// TestImportRecordsLostOpenings: a game restored from a bundle without the
// data file has sealed parts whose openings are gone (red's scout report);
// the import says so in the log (sealed.lost), so the game still plays to
// its end, where everything else is revealed, and verifies.
func TestImportRecordsLostOpenings(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := serviceAt(t, filepath.Join(dir, "a", "umpire.db"))
	if _, err := s.Create(ctx, games.CreateRequest{ID: "race-1", Ruleset: "race", Scenario: "sprint",
		Options: map[string]string{"turns": "2", "scout": "yes"},
		Players: []games.Player{{Side: "red", Address: "red@example.org"}, {Side: "blue", Address: "blue@example.org"}}}); err != nil {
		t.Fatal(err)
	}
	play(t, s, "race-1", 3)
	path := filepath.Join(dir, "race-1.tar")
	export(t, s, "race-1", path)
	b, _ := os.ReadFile(path)
	ns := serviceAt(t, filepath.Join(dir, "b", "umpire.db"))
	r, err := ns.Import(ctx, bytes.NewReader(b), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Lost) == 0 {
		t.Fatalf("nothing reported lost: %+v", r)
	}
	evs, _ := ns.Store.Events(ctx, "race-1", 1)
	lost := 0
	for _, e := range evs {
		if e.Type == game.TypeLost {
			lost++
		}
	}
	if lost != len(r.Lost) {
		t.Fatalf("%d sealed.lost events for %d lost openings", lost, len(r.Lost))
	}
	play(t, ns, "race-1", 100)
	g, err := ns.Load(ctx, "race-1")
	if err != nil || !g.Over() || len(g.Unrevealed) != 0 {
		t.Fatalf("the restored game did not end cleanly: %v over %v unrevealed %v", err, g.Over(), g.Unrevealed)
	}
	if a, err := ns.Verify(ctx, "race-1", games.Known{}); err != nil || !a.OK() || a.Lost != lost {
		t.Fatalf("verify: %+v %v", a, err)
	}
}
