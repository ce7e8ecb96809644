package dragonrage_test

import (
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage"
	"github.com/umpire-pbem/umpire/adjudicator/game"
)

// TestBerserkDefault: when the invader's movement deadline passes with no
// orders, a berserk Dragon is not left to stall the game (no orders would
// be refused, DR-DRAGON-DEF-3): the default answer turns it towards the
// nearest enemy as far as its MP go, and the game accepts it.
func TestBerserkDefault(t *testing.T) {
	pos := []byte(`map: {cols: 12, rows: 10}
goal: 10
turn: 1
phase: invader-movement
units:
  - {id: DRAGON-1, type: DRAGON, side: invader, at: "0505", facing: N, sheet: {head: 8, legs: 6}}
  - {id: INF-1, type: INF, side: defender, at: "0509"}
`)
	g, submit := positionGame(t, "berserk", pos)
	r := g.Due()[0]
	src, ok := g.DefaultAnswer(r)
	if !ok {
		t.Fatal("no default answer")
	}
	// Two MP: N to NE to SE, two of the three turns towards S.
	if !strings.Contains(string(src), "{move: DRAGON-1, mode: walk, face: SE}") {
		t.Fatalf("default answer:\n%s", src)
	}
	next, err := submit(g, r.Side, src)
	if err != nil {
		t.Fatalf("the default answer is refused: %v\n%s", err, src)
	}
	for _, u := range next.View("").Units {
		if u.ID == "DRAGON-1" && u.Facing != "SE" {
			t.Errorf("DRAGON-1 faces %s after the default, want SE", u.Facing)
		}
	}
}

// TestReinforcementsDefault: when the defender misses the deadline of a
// reinforcement turn, the default lands the wave in the first free landing
// hexes (no orders at all would be refused: reinforcements arrive when
// due, DR-REINF-1), and the game takes it.
func TestReinforcementsDefault(t *testing.T) {
	pos := []byte(`map: esirien
goal: 16
turn: 10
phase: defender-reinforcements
units:
  - {id: GIANT-1, type: GIANT, side: invader, at: "0303"}
  - {id: INF-1, type: INF, side: defender, at: "1010"}
box: {INF: 4}
`)
	g, submit := positionGame(t, "wave", pos)
	r := g.Due()[0]
	src, ok := g.DefaultAnswer(r)
	if !ok || !strings.Contains(string(src), "arrive: [") {
		t.Fatalf("default answer %q", src)
	}
	next, err := submit(g, r.Side, src)
	if err != nil {
		t.Fatalf("the default answer is refused: %v\n%s", err, src)
	}
	landed := 0
	for _, u := range next.View("").Units {
		if strings.HasPrefix(u.ID, "INF-") && u.ID != "INF-1" && u.At != "" && u.At != "off-map" {
			landed++
		}
	}
	if landed != 4 {
		t.Errorf("%d reinforcements landed, want the wave of 4:\n%s", landed, src)
	}
}

// positionGame creates a game from a position with a committed dice chain,
// and returns it with a submit function for the default answers.
func positionGame(t *testing.T, id string, pos []byte) (*game.Game, func(g *game.Game, side adjudicator.Side, src []byte) (*game.Game, error)) {
	t.Helper()
	secret := make([]byte, dice.SeedSize)
	lookup := game.Lookup(func(n string) (adjudicator.Ruleset, bool) { return dragonrage.Ruleset, n == "dragonrage" })
	rec, _, err := game.Create(game.NewGame{ID: id, Ruleset: dragonrage.Ruleset, Position: pos,
		Players: []game.Player{{Side: "invader"}, {Side: "defender"}}, Time: time.Unix(0, 0), Secret: secret})
	if err != nil {
		t.Fatal(err)
	}
	g, err := game.Load([]game.Entry{{Seq: 1, Record: rec}}, lookup)
	if err != nil {
		t.Fatal(err)
	}
	return g, func(g *game.Game, side adjudicator.Side, src []byte) (*game.Game, error) {
		out, err := g.Submit(game.Input{Side: side, Src: src, Time: time.Unix(1, 0), Via: "test",
			Secrets: func(int) ([]byte, error) { return secret, nil }, NextSecret: dice.Hash(secret), Rand: zeros{}})
		if err != nil {
			return nil, err
		}
		return out.Next, nil
	}
}
