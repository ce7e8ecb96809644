package dragonrage_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage"
	"github.com/umpire-pbem/umpire/adjudicator/game"
)

// FuzzPosition sets Dragon Rage up from arbitrary bytes as a position (what
// `umpire new --position` and a script's position: hand the ruleset).
// Whatever the bytes: no panic, and either a refusal that says where
// (a *dragonrage.PositionError or an adjudicator order error with a line),
// or a state whose game can say what it waits for and show itself to
// every side. The seeds are the positions of docs/examples/positions.
func FuzzPosition(f *testing.F) {
	for _, name := range []string{"e6-broken-gate.yaml"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "docs", "examples", "positions", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("map: {cols: 5, rows: 5}\nturn: 1\nphase: invader-movement\nunits:\n  - {id: ORC-1, type: ORC, side: invader, at: \"0202\"}\n"))
	f.Add([]byte("scenario: n2\nunits: []\n"))
	r := dragonrage.Ruleset
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		st, err := r.Setup(adjudicator.Setup{Position: data, Sides: []adjudicator.Side{"invader", "defender"}})
		if err != nil {
			var pe dragonrage.PositionError
			var oe *adjudicator.OrderError
			var oes adjudicator.OrderErrors
			if !errors.As(err, &pe) && !errors.As(err, &oe) && !errors.As(err, &oes) && err.Error() == "" {
				t.Fatalf("a refusal without words: %#v", err)
			}
			return
		}
		_ = r.Due(st)
		for _, side := range []adjudicator.Side{"invader", "defender", adjudicator.Referee, adjudicator.Observer} {
			_ = r.View(st, side)
		}
		_ = game.StateHash(st)
	})
}
