package games_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/store/games"
)

// TestSealedRollsAndLines: a roll and a line for red alone and a note for
// the referee alone are sealed in the log during the game (verify checks
// the public dice and counts the sealed part), given to whom they are for,
// and revealed and checked, dice included, when the game ends.
func TestSealedRollsAndLines(t *testing.T) {
	s := newService(t)
	ctx := context.Background()
	if _, err := s.Create(ctx, games.CreateRequest{ID: "race-1", Ruleset: "race", Scenario: "sprint",
		Options: map[string]string{"turns": "2", "scout": "yes"},
		Players: []games.Player{{Side: "red", Address: "red@example.org"}, {Side: "blue", Address: "blue@example.org"}}}); err != nil {
		t.Fatal(err)
	}
	g, _ := s.Load(ctx, "race-1")
	var res *game.Outcome
	for _, side := range []adjudicator.Side{"red", "blue"} {
		r, _ := g.Request("t1.bid." + string(side))
		out, err := s.Submit(ctx, games.SubmitRequest{Game: "race-1", Side: side, Src: []byte(orders(r, g))})
		if err != nil {
			t.Fatal(err)
		}
		res, g = out, out.Next
	}
	adj := res.Results[0]
	if adj.Sealed == "" || len(adj.Report) != len(adj.Full)-2 {
		t.Fatalf("the public record holds %d of %d lines, sealed %q", len(adj.Report), len(adj.Full), adj.Sealed)
	}
	red, blue, ref := adjudicator.Texts(adj.ReportFor("red")), adjudicator.Texts(adj.ReportFor("blue")), adjudicator.Texts(adj.ReportFor(adjudicator.Referee))
	has := func(lines []string, s string) bool { return strings.Contains(strings.Join(lines, "\n"), s) }
	switch {
	case !has(red, "scout sees") || has(red, "referee: red scouted"):
		t.Errorf("red reads %q", red)
	case has(blue, "scout"):
		t.Errorf("blue reads %q", blue)
	case !has(ref, "scout sees") || !has(ref, "referee: red scouted"):
		t.Errorf("the referee reads %q", ref)
	}
	if n := len(adj.RollsFor("blue")); n != len(adj.AllRolls)-1 {
		t.Errorf("blue sees %d of %d rolls", n, len(adj.AllRolls))
	}
	for _, r := range adj.Rolls {
		if r.Sealed && (r.Label != "" || r.Faces != nil) {
			t.Errorf("a sealed stand-in shows %+v", r)
		}
	}
	// Mid-game: the bundle verifies, the sealed part counted, not shown.
	var buf bytes.Buffer
	if err := s.Export(ctx, "race-1", &buf); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(buf.Bytes(), []byte("scout sees")) || bytes.Contains(buf.Bytes(), []byte("red scouted")) {
		t.Fatal("a mid-game bundle shows a sealed line")
	}
	mid, err := games.VerifyBundle(bytes.NewReader(buf.Bytes()), lookup, games.Known{})
	if err != nil || !mid.OK() || mid.Sealed == 0 {
		t.Fatalf("mid-game: %+v %v", mid, err)
	}
	// At the end, everything is revealed and every die checked.
	playOut(t, s, "race-1")
	buf.Reset()
	if err := s.Export(ctx, "race-1", &buf); err != nil {
		t.Fatal(err)
	}
	end, err := games.VerifyBundle(bytes.NewReader(buf.Bytes()), lookup, games.Known{})
	if err != nil || !end.OK() || end.Sealed != 0 || end.Dice <= mid.Dice || !bytes.Contains(buf.Bytes(), []byte("referee: red scouted")) {
		t.Fatalf("after the game: %+v %v", end, err)
	}
	// A revealed roll that was changed is caught: its opening no longer
	// hashes to the commitment.
	bad := bytes.Replace(buf.Bytes(), []byte(`scout sees`), []byte(`scout saw `), 1)
	if a, err := games.VerifyBundle(bytes.NewReader(bad), nil, games.Known{}); err == nil && a.OK() {
		t.Fatal("a changed revealed line verified")
	}
}

// TestRevealedDiceChecked: a hidden roll whose faces were changed before
// sealing (commitment made over the changed opening) is caught when
// revealed: its dice are recomputed from the adjudication's seed.
func TestRevealedDiceChecked(t *testing.T) {
	s := newService(t)
	ctx := context.Background()
	if _, err := s.Create(ctx, games.CreateRequest{ID: "race-1", Ruleset: "race", Scenario: "sprint",
		Options: map[string]string{"turns": "1", "scout": "yes"},
		Players: []games.Player{{Side: "red", Address: "red@example.org"}, {Side: "blue", Address: "blue@example.org"}}}); err != nil {
		t.Fatal(err)
	}
	playOut(t, s, "race-1")
	entries, _, err := s.Entries(ctx, "race-1")
	if err != nil {
		t.Fatal(err)
	}
	if a := game.Verify(entries); !a.OK() || a.Revealed == 0 {
		t.Fatalf("the untouched log: %+v", a)
	}
	// Find the reveal of the first adjudication's sealed part and forge it.
	for i, e := range entries {
		if e.Type != game.TypeRevealed {
			continue
		}
		var rv game.Revealed
		json.Unmarshal(e.Payload, &rv)
		var op game.AdjudicationOpening
		if json.Unmarshal([]byte(rv.Opening), &op) != nil || len(op.Rolls) == 0 {
			continue
		}
		op.Rolls[0].Faces[0] = op.Rolls[0].Faces[0]%6 + 1
		op.Rolls[0].Total = op.Rolls[0].Faces[0]
		forged, _ := json.Marshal(op)
		c := game.Digest(forged)
		for j := range entries {
			if entries[j].Seq == rv.Of {
				entries[j].Payload = bytes.Replace(entries[j].Payload, []byte(rv.Commitment), []byte(c), 1)
			}
		}
		rv.Commitment, rv.Opening = c, string(forged)
		entries[i].Payload, _ = json.Marshal(rv)
		a := game.Verify(entries)
		if a.OK() || !strings.Contains(strings.Join(a.Problems, "\n"), "red's scout") {
			t.Fatalf("a forged hidden roll was not caught: %+v", a.Problems)
		}
		return
	}
	t.Fatal("no revealed roll in the log")
}
