package games_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
)

// Handicaps (§22, DR-HCAP-1..3) are counted from real games stored in a
// memory store, created and ended through the Service.

const (
	alice = "alice@example.org"
	bob   = "bob@example.org"
	carol = "carol@example.org"
	dave  = "dave@example.org"
)

func handicapService(t testing.TB) *games.Service {
	clock := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	return &games.Service{Store: store.NewMemory(), Rules: allRules, Now: func() time.Time { clock = clock.Add(time.Second); return clock }}
}

// drGame creates a Dragon Rage game of Esirien 2 with invader and defender.
func drGame(t testing.TB, s *games.Service, id, invader, defender string) *games.Created {
	t.Helper()
	c, err := s.Create(context.Background(), games.CreateRequest{ID: id, Ruleset: "dragonrage", Scenario: "e2",
		Players: []games.Player{{Side: "invader", Address: invader}, {Side: "defender", Address: defender}}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// endGame ends game id as the referee does, loser "" for a draw.
func endGame(t testing.TB, s *games.Service, id string, loser adjudicator.Side) {
	t.Helper()
	if _, err := s.End(context.Background(), id, "ended by the referee", loser, nil); err != nil {
		t.Fatal(err)
	}
}

// played creates a game and ends it: loser is the side that lost ("" a
// draw).
// winsOf returns what plays games in s one after another, g1, g2 …: the
// winner invading, the loser defending and losing, times over.
func winsOf(t testing.TB, s *games.Service) func(winner, loser string, times int) {
	n := 0
	return func(winner, loser string, times int) {
		for range times {
			n++
			played(t, s, fmt.Sprintf("g%d", n), winner, loser, "defender")
		}
	}
}

func played(t testing.TB, s *games.Service, id, invader, defender string, loser adjudicator.Side) {
	t.Helper()
	drGame(t, s, id, invader, defender)
	endGame(t, s, id, loser)
}

func handicaps(t testing.TB, s *games.Service) *games.Handicaps {
	t.Helper()
	h, err := s.Handicaps(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func tableText(t *testing.T, h *games.Handicaps, tab games.HandicapTable) string {
	t.Helper()
	var b strings.Builder
	if err := h.Write(&b, tab); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestDRHCAP1WinsAndLosses: each game won is +1, each lost -1, a draw 0;
// a game belongs to the players who held its sides at its end (after a
// side choice that swapped them, after a replacement); a game won by its
// rules counts as one the referee ended with a loser; games still played,
// of another ruleset, or rolled back do not count; a game without two
// players at its end is left out and listed.
func TestDRHCAP1WinsAndLosses(t *testing.T) {
	ctx := context.Background()
	s := handicapService(t)

	// Alice beats Bob three times, from either side; Bob beats her once.
	played(t, s, "g1", alice, bob, "defender")
	played(t, s, "g2", bob, alice, "invader")
	played(t, s, "g3", alice, "Bob@Example.org", "defender") // the same player, however written
	played(t, s, "g4", alice, bob, "invader")
	// A draw: the referee ends the game without a loser.
	played(t, s, "g5", bob, alice, "")

	// Won by the rules: at the point scenario the invader (Bob) concedes
	// instead of building (DR-WIN-1); the defender (Alice) wins.
	c, err := s.Create(ctx, games.CreateRequest{ID: "g6", Ruleset: "dragonrage", Scenario: "points-esirien",
		Players: []games.Player{{Side: "invader", Address: bob}, {Side: "defender", Address: alice}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := send(s, "g6", "invader", c.Secrets["invader"], "turn: 0\nphase: build\norders:\n  concede: true\n"); err != nil {
		t.Fatal(err)
	}
	if err := send(s, "g6", "defender", c.Secrets["defender"], "turn: 0\nphase: build\norders: {INF: 8}\n"); err != nil {
		t.Fatal(err)
	}
	if g, _ := s.Load(ctx, "g6"); g.View(adjudicator.Observer).Winner != "defender" {
		t.Fatalf("g6: the concession did not end the game: %+v", g.View(adjudicator.Observer))
	}

	// Swapped: Carol, named for the invader, builds both armies of the
	// weighted scenario; Dave takes the invader. Dave, the invader at the
	// end, loses: Carol wins, though she was named for the invader.
	w, err := s.Create(ctx, games.CreateRequest{ID: "g7", Ruleset: "dragonrage", Scenario: "weighted-nurkott",
		Players: []games.Player{{Side: "invader", Address: carol}, {Side: "defender", Address: dave}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := send(s, "g7", "invader", w.Secrets["invader"], weightedBuild); err != nil {
		t.Fatal(err)
	}
	if err := send(s, "g7", "defender", w.Secrets["defender"], weightedChoice); err != nil {
		t.Fatal(err)
	}
	endGame(t, s, "g7", "invader")

	// Replaced: Bob leaves a game to Carol, who loses it to Dave. Bob's
	// part counts nothing.
	drGame(t, s, "g8", dave, bob)
	if _, _, err := s.Replace(ctx, "g8", "defender", carol, "bob left", nil); err != nil {
		t.Fatal(err)
	}
	endGame(t, s, "g8", "defender")

	// Not counted: a game still played; a game of another ruleset; a game
	// rolled back (its branch counts, once).
	drGame(t, s, "g9", alice, bob)
	if _, err := s.Create(ctx, games.CreateRequest{ID: "race-1", Ruleset: "race", Scenario: "sprint",
		Players: []games.Player{{Side: "red", Address: alice}, {Side: "blue", Address: bob}}}); err != nil {
		t.Fatal(err)
	}
	endGame(t, s, "race-1", "blue")
	drGame(t, s, "g10", dave, carol)
	if _, err := s.Branch(ctx, "g10", 1, "g10-b1", nil); err != nil {
		t.Fatal(err)
	}
	endGame(t, s, "g10-b1", "invader") // Carol wins the branch

	// Left out: a side ejected and never given again.
	drGame(t, s, "g11", alice, dave)
	if _, _, err := s.Replace(ctx, "g11", "defender", "", "ejected", nil); err != nil {
		t.Fatal(err)
	}
	endGame(t, s, "g11", "defender")

	h := handicaps(t, s)
	ab := h.Pair(bob, alice)
	if ab.A != alice || ab.B != bob || ab.Games != 6 || ab.WinsA != 4 || ab.WinsB != 1 || ab.Draws() != 1 {
		t.Errorf("alice-bob: %+v", ab)
	}
	if ab.Of(alice) != 3 || ab.Of("BOB@example.org") != -3 {
		t.Errorf("alice-bob: handicaps %+d and %+d, want +3 and -3", ab.Of(alice), ab.Of(bob))
	}
	for _, c := range []struct {
		a, b        string
		games, hOfA int
	}{{carol, dave, 3, +1}, {alice, carol, 0, 0}, {bob, carol, 0, 0}, {bob, dave, 0, 0}} {
		p := h.Pair(c.a, c.b)
		if p.Games != c.games || p.Of(c.a) != c.hOfA || p.Of(c.b) != -c.hOfA {
			t.Errorf("%s-%s: %+v, want %d games, %+d for %s", c.a, c.b, p, c.games, c.hOfA, c.a)
		}
	}
	// Carol and Dave: g7 (Carol), g8 (Dave), g10-b1 (Carol).
	if cd := h.Pair(carol, dave); cd.WinsA != 2 || cd.WinsB != 1 {
		t.Errorf("carol-dave: %+v, want Carol 2 wins (g7 after the swap, the branch g10-b1), Dave 1 (g8)", cd)
	}
	if h.Games != 9 || h.Playing != 1 {
		t.Errorf("%d games counted and %d played, want 9 (g1-g8, g10-b1) and 1 (g9)", h.Games, h.Playing)
	}
	if len(h.Skipped) != 1 || h.Skipped[0].Game != "g11" || !strings.Contains(h.Skipped[0].Why, "nobody played defender") {
		t.Errorf("left out: %+v, want g11 (nobody plays the defender)", h.Skipped)
	}
	out := tableText(t, h, games.HandicapTable{})
	for _, want := range []string{
		"from 9 finished dragonrage games; 1 still played, not counted.",
		"alice@example.org  +3        bob@example.org   -3        6      4-1-1",
		"alice@example.org  +3        6      1          4-1-1           the best player of the group",
		"g11: nobody played defender at the end",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the table lacks %q:\n%s", want, out)
		}
	}
}

// TestDRHCAP2Combined: the combined handicap is the sum over every
// opponent; a handicap of 10 or more, per pair or combined, is warned of.
func TestDRHCAP2Combined(t *testing.T) {
	s := handicapService(t)
	play := winsOf(t, s)
	play(alice, bob, 2)
	play(carol, alice, 1)
	play(alice, dave, 6)
	play(bob, dave, 4)
	play(carol, dave, 3)

	h := handicaps(t, s)
	want := map[string][3]int{ // handicap, games, opponents
		alice: {2 - 1 + 6, 9, 3},
		bob:   {-2 + 4, 6, 2},
		carol: {1 + 3, 4, 2},
		dave:  {-6 - 4 - 3, 13, 3},
	}
	for a, w := range want {
		p := h.Player(a)
		if p.Handicap != w[0] || p.Games != w[1] || p.Opponents != w[2] || p.Wins-p.Loss != p.Handicap {
			t.Errorf("%s combined: %+v, want handicap %+d over %d games against %d opponents", a, p, w[0], w[1], w[2])
		}
	}
	if h.Players[0].Address != alice || h.Players[len(h.Players)-1].Address != dave {
		t.Errorf("the combined list is not the best first: %+v", h.Players)
	}
	if ws := h.Warnings(); len(ws) != 0 {
		t.Errorf("warnings below 10: %v", ws)
	}

	// Three more over Dave: Alice is +10 combined (and +9 against Dave).
	play(alice, dave, 3)
	h = handicaps(t, s)
	if ws := h.Warnings(); len(ws) != 1 || ws[0] != "alice@example.org is +10 combined" {
		t.Errorf("warnings: %q, want Alice's combined +10 only", ws)
	}
	// One more: +10 against Dave too.
	play(alice, dave, 1)
	h = handicaps(t, s)
	if ws := h.Warnings(); len(ws) != 2 || ws[0] != "alice@example.org is +10 against dave@example.org" {
		t.Errorf("warnings: %q", ws)
	}
	if ws := h.Warnings(bob); len(ws) != 0 {
		t.Errorf("warnings of Bob: %q", ws)
	}
	out := tableText(t, h, games.HandicapTable{Combined: true, Only: []string{"ALICE@example.org", "erin@example.org"}})
	for _, want := range []string{
		"A handicap of 10 or more means the player keeps playing weaker opponents:\n  alice@example.org is +10 against dave@example.org\n  alice@example.org is +11 combined\n",
		"erin@example.org   +0        0      0          0-0-0           no finished game",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the table lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Per pair") || strings.Contains(out, "bob@example.org") {
		t.Errorf("the combined table of Alice and Erin shows pairs or Bob:\n%s", out)
	}
}

// TestDRHCAP3NewGame: a game created with a handicap, pair or combined,
// gets the goal-adjust of DR-HCAP-3 in its game.created, and its goal
// moves; what cannot take one is refused, saying why.
func TestDRHCAP3NewGame(t *testing.T) {
	ctx := context.Background()
	s := handicapService(t)
	// Alice +3 against Bob (4 wins, 1 loss); Bob +4 against Carol: Alice
	// +3 combined, Bob +1.
	play := winsOf(t, s)
	play(alice, bob, 4)
	play(bob, alice, 1)
	play(bob, carol, 4)

	for _, c := range []struct {
		kind, invader, defender string
		adjust                  string
		goal                    int // Esirien 2's 16 adjusted
		text                    string
	}{
		{"pair", alice, bob, "+3", 19, "Handicap (pair): the invader alice@example.org +3 and the defender bob@example.org -3 over 5 games between them; the better player invades: the invader needs 3 more VP ((+3 - -3) / 2, rounded down); goal-adjust=+3 (DR-HCAP-3)."},
		{"pair", alice, bob, "+3", 19, ""},
		{"pair", bob, alice, "-3", 13, "the better player defends: the invader needs 3 fewer VP"},
		{"combined", alice, bob, "+1", 17, "Handicap (combined): the invader alice@example.org +3 over 5 games, the defender bob@example.org +1 over 9 games; the better player invades: the invader needs 1 more VP ((+3 - +1) / 2, rounded down); goal-adjust=+1 (DR-HCAP-3)."},
		{"combined", carol, alice, "-3", 13, "the invader carol@example.org -4 over 4 games, the defender alice@example.org +3 over 5 games; the better player defends: the invader needs 3 fewer VP ((+3 - -4) / 2, rounded down)"},
		{"pair", alice, carol, "+0", 16, "over no games between them; equal handicaps: the VP goal stays; goal-adjust=+0"},
		{"combined", dave, "dave2@example.org", "+0", 16, "equal handicaps"},
	} {
		req := games.CreateRequest{Ruleset: "dragonrage", Scenario: "e2", Options: map[string]string{"elowyn": "off"},
			Players: []games.Player{{Side: "invader", Address: c.invader}, {Side: "defender", Address: c.defender}}}
		given := req.Options
		a, err := s.ApplyHandicap(ctx, &req, c.kind)
		if err != nil {
			t.Fatalf("%s %s-%s: %v", c.kind, c.invader, c.defender, err)
		}
		if _, ok := given["goal-adjust"]; ok {
			t.Errorf("ApplyHandicap changed the caller's options")
		}
		if strings.Join(a.Set, ",") != "goal-adjust="+c.adjust || req.Options["goal-adjust"] != c.adjust || req.Options["elowyn"] != "off" {
			t.Errorf("%s %s-%s: set %v, options %v, want goal-adjust %s", c.kind, c.invader, c.defender, a.Set, req.Options, c.adjust)
		}
		if !strings.Contains(a.Text(), c.text) {
			t.Errorf("%s %s-%s: the text is\n%s\nwant it to have\n%s", c.kind, c.invader, c.defender, a.Text(), c.text)
		}
		cr, err := s.Create(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		if cr.Game.Created.Options["goal-adjust"] != c.adjust {
			t.Errorf("game.created has options %v", cr.Game.Created.Options)
		}
		if g := cr.Game.View(adjudicator.Observer).Markers["goal"]; fmt.Sprint(g) != fmt.Sprint(c.goal) {
			t.Errorf("%s %s-%s: the goal is %v, want %d", c.kind, c.invader, c.defender, g, c.goal)
		}
	}

	refused := func(req games.CreateRequest, kind, want string) {
		t.Helper()
		_, err := s.ApplyHandicap(ctx, &req, kind)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("handicap %s of %+v: %v, want an error with %q", kind, req, err, want)
		}
	}
	two := []games.Player{{Side: "invader", Address: alice}, {Side: "defender", Address: bob}}
	refused(games.CreateRequest{Ruleset: "dragonrage", Scenario: "e2", Players: two}, "both", `handicap "both": write pair`)
	refused(games.CreateRequest{Ruleset: "dragonrage", Scenario: "e2", Players: two, Options: map[string]string{"goal-adjust": "+1"}}, "pair", "the option goal-adjust=+1 is given too")
	refused(games.CreateRequest{Ruleset: "dragonrage", Scenario: "e2", Players: two[:1]}, "pair", "name exactly two players")
	refused(games.CreateRequest{Ruleset: "dragonrage", Scenario: "e2", Players: []games.Player{{Side: "invader", Address: alice}, {Side: "defender", Address: "Alice@example.org"}}}, "pair", "plays both sides")
	refused(games.CreateRequest{Ruleset: "race", Scenario: "sprint", Players: []games.Player{{Side: "red", Address: alice}, {Side: "blue", Address: bob}}}, "pair", "ruleset race keeps no handicaps")
	refused(games.CreateRequest{Ruleset: "chess", Players: two}, "pair", `no ruleset "chess"`)

	// The weighted scenario has no goal before the side is chosen: the
	// ruleset refuses the game.
	req := games.CreateRequest{Ruleset: "dragonrage", Scenario: "weighted-esirien", Players: two}
	if _, err := s.ApplyHandicap(ctx, &req, "pair"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Create(ctx, req); err == nil || !strings.Contains(err.Error(), "DR-HCAP-3") {
		t.Errorf("a weighted game with a handicap: %v", err)
	}
}

// BenchmarkHandicaps: counting the handicaps of 400 finished Dragon Rage
// games against a reference, the Version of every game read from the store
// (what the least check of each cached game costs). Cold: a new Service,
// every game's log folded; Warm: the Service has them all cached.
func BenchmarkHandicaps(b *testing.B) {
	const n = 400
	ctx := context.Background()
	s := handicapService(b)
	players := []string{alice, bob, carol, dave}
	for i := range n {
		played(b, s, fmt.Sprintf("g%03d", i), players[i%4], players[(i/4+i+1)%4], []adjudicator.Side{"invader", "defender", ""}[i%3])
	}
	versions := func() {
		ids, err := s.Store.Games(ctx)
		if err != nil {
			b.Fatal(err)
		}
		for _, id := range ids {
			if _, err := s.Store.Version(ctx, id); err != nil {
				b.Fatal(err)
			}
		}
	}
	count := func(svc *games.Service) {
		h, err := svc.Handicaps(ctx, "")
		if err != nil || h.Games+len(h.Skipped) != n {
			b.Fatalf("%v: %+v", err, h)
		}
	}
	b.Run("Cold", func(b *testing.B) {
		ratio(b, "handicaps", versions, func() { count(&games.Service{Store: s.Store, Rules: allRules}) })
		b.ReportMetric(n, "games")
	})
	b.Run("Warm", func(b *testing.B) {
		count(s)
		ratio(b, "handicaps", versions, func() { count(s) })
		b.ReportMetric(n, "games")
	})
}
