package referee

import (
	"crypto/rand"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/testrules"
)

// TestRegionTracesSince: on a map of regions, both sides send two turns
// in one mail (the second under "then:"); the last mail makes two
// adjudications, and each side's picture gets the moves of both, numbered
// by the adjudication, as its map of regions shows them: red sees its own
// two moves, blue only R1's step into the wood, next to its hill.
func TestRegionTracesSince(t *testing.T) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	secret := make([]byte, 32)
	rec, _, err := game.Create(game.NewGame{ID: "ahead", Ruleset: testrules.Patrol, Scenario: "skirmish", Time: now, Secret: secret,
		Players: []game.Player{{Side: "red"}, {Side: "blue"}}})
	if err != nil {
		t.Fatal(err)
	}
	g, err := game.Load([]game.Entry{{Seq: 1, Record: rec}}, testrules.Lookup)
	if err != nil {
		t.Fatal(err)
	}
	mails := []struct {
		side adjudicator.Side
		src  string
	}{
		{"red", "turn: 1\nphase: move\norders: [{troop: R2, to: meadow}]\nthen:\n  - turn: 2\n    phase: move\n    orders: [{troop: R1, to: wood}]\n"},
		{"blue", "turn: 1\nphase: move\norders: []\nthen:\n  - turn: 2\n    phase: move\n    orders: []\n"},
	}
	var before *game.Game
	var out *game.Outcome
	vault := game.Vault{} // the hidden orders' openings
	for _, m := range mails {
		before = g
		out, err = g.Submit(game.Input{Side: m.side, Src: []byte(m.src), Time: now,
			Secrets: func(int) ([]byte, error) { return secret, nil }, NextSecret: secret, Rand: rand.Reader, Unseal: vault.Unseal})
		if err != nil {
			t.Fatalf("%s: %v", m.side, err)
		}
		vault.Keep(out.Records)
		g = out.Next
	}
	if len(out.Results) != 2 {
		t.Fatalf("the last mail made %d adjudications, want 2", len(out.Results))
	}
	k1, k2 := out.Results[0].K, out.Results[1].K
	tr := tracerOf(before, out.Records)
	got := map[adjudicator.Side][]adjudicator.RegionTrace{"red": tr.regions("red"), "blue": tr.regions("blue")}
	want := map[adjudicator.Side][]adjudicator.RegionTrace{
		"red":  {{Side: "red", Path: []string{"gate", "meadow"}, Label: "R2", Step: k1}, {Side: "red", Path: []string{"meadow", "wood"}, Label: "R1", Step: k2}},
		"blue": {},
	}
	for side, w := range want {
		if len(got[side]) != len(w) {
			t.Errorf("%s: traces %+v, want %+v", side, got[side], w)
			continue
		}
		for i := range w {
			a, b := got[side][i], w[i]
			if a.Side != b.Side || a.Label != b.Label || a.Step != b.Step || len(a.Path) != 2 || a.Path[0] != b.Path[0] || a.Path[1] != b.Path[1] {
				t.Errorf("%s: trace %d is %+v, want %+v", side, i, a, b)
			}
		}
	}
	if h := tr.hex("red"); len(h) != 0 {
		t.Errorf("a map of regions gives hex traces %v", h)
	}
	if got := tracerOf(before, out.Records[:1]).regions("red"); got != nil {
		t.Errorf("records without two adjudications give traces %v, want nil (the graph's own)", got)
	}
	var none *tracer
	if none.regions("red") != nil || none.hex("red") != nil {
		t.Error("no tracer gives traces")
	}
}
