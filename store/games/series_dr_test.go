package games_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/rulesets"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
)

// The shipped Dragon Rage series played through the games service with
// real games: every game a series reaches is a Dragon Rage game created,
// played by submissions and ended, its result recorded in its series; the
// series' bundle verifies as a whole. The games are short: a side concedes
// (DR-WIN-1), the first side due in -a games and the other in -b games, so
// both sides win some. The rules of each series are the rule cases'
// business (adjudicator/dragonrage/campaign, …/tournament).

func newDRService(t testing.TB) *games.Service {
	var mu sync.Mutex
	clock := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	return &games.Service{Store: store.NewMemory(), Rules: rulesets.Lookup, Now: func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		clock = clock.Add(time.Minute)
		return clock
	}}
}

// concede ends game id: its first side due concedes, or the other one.
func concede(t *testing.T, s *games.Service, id string, other bool) {
	t.Helper()
	ctx := context.Background()
	g, err := s.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	due := g.Due()
	if len(due) == 0 {
		t.Fatalf("%s is over before anyone played", id)
	}
	side := due[0].Side
	if other {
		for _, sd := range g.Sides() {
			if sd != side {
				side = sd
				break
			}
		}
	}
	// Concede answering what is due from that side, or the first request
	// when nothing is (a concession may come in any phase).
	r := due[0]
	for _, d := range due {
		if d.Side == side {
			r = d
		}
	}
	if r.Side != side {
		side = r.Side
	}
	src := fmt.Sprintf("turn: %d\nphase: %s\norders:\n  concede: true\n", r.Turn, r.Phase)
	if _, err := s.Submit(ctx, games.SubmitRequest{Game: id, Side: side, Src: []byte(src), Via: "test"}); err != nil {
		t.Fatalf("%s: %s concedes: %v", id, side, err)
	}
	if g, _ = s.Load(ctx, id); !g.Over() {
		t.Fatalf("%s goes on after a concession", id)
	}
}

// playSeries ends every game of series id, as they come, until the
// series is over; it returns the games played.
func playSeries(t *testing.T, s *games.Service, id string) []string {
	t.Helper()
	ctx := context.Background()
	var played []string
	for range 200 {
		sg, err := s.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if sg.Over() {
			return played
		}
		var next string
		for _, r := range sg.Due() {
			if r.Kind == adjudicator.KindResult {
				next = adjudicator.ChildID(id, strings.TrimPrefix(r.ID, "result."))
				break
			}
		}
		if next == "" {
			t.Fatalf("series %s waits for %v, not for a game", id, sg.Due())
		}
		concede(t, s, next, strings.HasSuffix(next, "-b") || len(played)%3 == 1)
		played = append(played, next)
	}
	t.Fatalf("series %s does not end", id)
	return nil
}

// checkSeriesBundle verifies series id from the store and from its bundle,
// and a bundle whose game is changed fails.
func checkSeriesBundle(t *testing.T, s *games.Service, id string) {
	t.Helper()
	ctx := context.Background()
	a, err := s.VerifySeries(ctx, id, games.Known{}, true)
	if err != nil {
		t.Fatal(err)
	}
	if !a.OK() {
		t.Fatalf("series %s: %v", id, a.Problems())
	}
	var buf bytes.Buffer
	if err := s.ExportSeries(ctx, id, &buf); err != nil {
		t.Fatal(err)
	}
	ba, err := games.VerifySeriesBundle(bytes.NewReader(buf.Bytes()), rulesets.Lookup, games.Known{})
	if err != nil {
		t.Fatal(err)
	}
	if !ba.OK() || ba.Flat().Redecided == 0 {
		t.Fatalf("series %s bundle: %v", id, ba.Problems())
	}
	// A game's recorded concession changed into the other side's: its own
	// file no longer matches, and the series' link names the game.
	bad := bytes.Replace(buf.Bytes(), []byte(`concede: true`), []byte(`concede: True`), 1)
	if bytes.Equal(bad, buf.Bytes()) {
		t.Fatal("nothing to tamper with")
	}
	if ta, err := games.VerifySeriesBundle(bytes.NewReader(bad), rulesets.Lookup, games.Known{}); err != nil || ta.OK() {
		t.Fatalf("a tampered bundle of %s verifies: %v", id, err)
	}
}

// TestDragonRageTournamentPlayed: Swiss tournaments of six and of seven
// players, three rounds of two-game matches, every game a Dragon Rage game.
// Six players pair off every round; a bye (DR-TOUR-7) comes only with an
// odd count, so seven players have one each round.
func TestDragonRageTournamentPlayed(t *testing.T) {
	for _, n := range []int{6, 7} {
		t.Run(fmt.Sprintf("%d players", n), func(t *testing.T) {
			ctx := context.Background()
			s := newDRService(t)
			var players []games.Player
			for i := 1; i <= n; i++ {
				players = append(players, games.Player{Side: adjudicator.Side(fmt.Sprintf("p%d", i)), Address: fmt.Sprintf("player%d@example.org", i)})
			}
			c, err := s.Create(ctx, games.CreateRequest{ID: "cup", Ruleset: "dragonrage-tournament", Referee: "ref@example.org",
				Options: map[string]string{"format": "swiss", "rounds": "3", "map": "esirien"}, Players: players})
			if err != nil {
				t.Fatal(err)
			}
			if c.Game.Over() {
				t.Fatal("the tournament is over at once")
			}
			played := playSeries(t, s, "cup")
			if len(played) != 18 { // 3 rounds of 3 matches of 2 games
				t.Errorf("%d games played, want 18: %v", len(played), played)
			}
			g, err := s.Load(ctx, "cup")
			if err != nil {
				t.Fatal(err)
			}
			if v := g.View(adjudicator.Observer); !v.Over || v.Winner == "" {
				t.Fatalf("the tournament ended without a winner: %+v", v)
			}
			byes := 0
			evs, err := s.Store.Events(ctx, "cup", 1)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range evs {
				var a game.Adjudicated
				if e.Type != game.TypeAdjudicated || json.Unmarshal(e.Payload, &a) != nil {
					continue
				}
				for _, l := range a.Report {
					if strings.Contains(l.Text, "has the bye") {
						byes++
					}
				}
			}
			if want := 3 * (n % 2); byes != want {
				t.Errorf("%d byes reported, want %d", byes, want)
			}
			checkSeriesBundle(t, s, "cup")
		})
	}
}

// TestDragonRageCampaignPlayed: a whole five-game campaign, every game a
// Dragon Rage point game: the armies are recruited in secret within the
// potentials (an army over its potential or its unit cap is refused, and
// nothing is written), revealed, and one side concedes; the campaign
// scores each game, reaches the next, and ends with a winner.
func TestDragonRageCampaignPlayed(t *testing.T) {
	ctx := context.Background()
	s := newDRService(t)
	if _, err := s.Create(ctx, games.CreateRequest{ID: "siege", Ruleset: "dragonrage-campaign", Scenario: "campaign", Referee: "ref@example.org",
		Options: map[string]string{"map": "esirien"},
		Players: []games.Player{{Side: "invader", Address: "alice@example.org"}, {Side: "defender", Address: "bob@example.org"}}}); err != nil {
		t.Fatal(err)
	}
	build := func(id string, side adjudicator.Side, army string) error {
		g, err := s.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range g.Due() {
			if r.Side == side {
				_, err := s.Submit(ctx, games.SubmitRequest{Game: id, Side: side, Src: []byte(fmt.Sprintf("turn: %d\nphase: %s\norders:\n%s", r.Turn, r.Phase, army)), Via: "test"})
				return err
			}
		}
		t.Fatalf("%s: no build due from %s", id, side)
		return nil
	}
	// Game 1: over the potential (60), then over the cap (15 units).
	if err := build("siege-g1", "invader", "  GIANT: 5\n"); err == nil || !strings.Contains(err.Error(), "DR-CAMP-4") {
		t.Fatalf("an army over the potential: %v", err)
	}
	if err := build("siege-g1", "invader", "  GOB: 8\n  ORC: 8\n"); err == nil || !strings.Contains(err.Error(), "DR-CAMP-7") {
		t.Fatalf("an army over the cap: %v", err)
	}
	if err := build("siege-g1", "defender", "  ORC: 4\n"); err == nil || !strings.Contains(err.Error(), "DR-CAMP-5") {
		t.Fatalf("greenskins for Esirien's defender: %v", err)
	}
	for n := 1; n <= 5; n++ {
		id := fmt.Sprintf("siege-g%d", n)
		if err := build(id, "invader", "  ORC: 10\n  TRL: 2\n"); err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if err := build(id, "defender", "  INF: 8\n  ARH: 4\n"); err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		// The invader wins games 1, 2 and 4; the defender 3 and 5.
		loser := adjudicator.Side("defender")
		if n == 3 || n == 5 {
			loser = "invader"
		}
		if _, err := s.End(ctx, id, string(loser)+" concedes", loser, nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Load(ctx, "siege-g6"); err == nil {
		t.Fatal("a sixth game without a tie")
	}
	g, err := s.Load(ctx, "siege")
	if err != nil {
		t.Fatal(err)
	}
	v := g.View(adjudicator.Observer)
	// DR-TABLE-CAMPAIGN, potentials within 10 every game: the winner +10,
	// the loser +5. 60/60, 70/65, 80/70, 85/80, 95/85, 100/95.
	if !v.Over || v.Winner != "invader" || v.Score["invader"] != 100 || v.Score["defender"] != 95 {
		t.Fatalf("the campaign ended %v, winner %q, potentials %v; want invader, 100 to 95", v.Over, v.Winner, v.Score)
	}
	checkSeriesBundleEnded(t, s, "siege")
}

// checkSeriesBundleEnded is checkSeriesBundle for a series whose games the
// referee ended: the tamper changes a game's recorded end.
func checkSeriesBundleEnded(t *testing.T, s *games.Service, id string) {
	t.Helper()
	ctx := context.Background()
	a, err := s.VerifySeries(ctx, id, games.Known{}, true)
	if err != nil || !a.OK() {
		t.Fatalf("series %s: %v %v", id, err, a.Problems())
	}
	var buf bytes.Buffer
	if err := s.ExportSeries(ctx, id, &buf); err != nil {
		t.Fatal(err)
	}
	if ba, err := games.VerifySeriesBundle(bytes.NewReader(buf.Bytes()), rulesets.Lookup, games.Known{}); err != nil || !ba.OK() {
		t.Fatalf("series %s bundle: %v %v", id, err, ba.Problems())
	}
	bad := bytes.Replace(buf.Bytes(), []byte(`defender concedes`), []byte(`defender conceded`), 1)
	if bytes.Equal(bad, buf.Bytes()) {
		t.Fatal("nothing to tamper with")
	}
	if ta, err := games.VerifySeriesBundle(bytes.NewReader(bad), rulesets.Lookup, games.Known{}); err != nil || ta.OK() {
		t.Fatalf("a tampered bundle of %s verifies: %v", id, err)
	}
}

// TestSeriesGamesEndTogether: the four games of a tournament's round end at
// the same moment, from four goroutines (as the daemon's workers handle
// four mails of four games): every result is recorded once, the standings
// count all four, and the next round is reached once.
func TestSeriesGamesEndTogether(t *testing.T) {
	ctx := context.Background()
	s := newDRService(t)
	var players []games.Player
	for i := 1; i <= 4; i++ {
		players = append(players, games.Player{Side: adjudicator.Side(fmt.Sprintf("p%d", i)), Address: fmt.Sprintf("player%d@example.org", i)})
	}
	if _, err := s.Create(ctx, games.CreateRequest{ID: "cup", Ruleset: "dragonrage-tournament", Players: players,
		Options: map[string]string{"format": "swiss", "rounds": "2", "scenario": "1"}}); err != nil {
		t.Fatal(err)
	}
	ids, err := s.Children(ctx, "cup")
	if err != nil || len(ids) != 4 {
		t.Fatalf("round 1 reached %v, %v", ids, err)
	}
	errs := make(chan error, len(ids))
	for _, id := range ids {
		go func() {
			_, err := s.End(ctx, id, "the invader concedes", "invader", nil)
			errs <- err
		}()
	}
	for range ids {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	after, err := s.Children(ctx, "cup")
	if err != nil {
		t.Fatal(err)
	}
	if len(after) != 8 {
		t.Fatalf("after round 1 the tournament reached %d games, want 8: %v", len(after), after)
	}
	a, err := s.VerifySeries(ctx, "cup", games.Known{}, true)
	if err != nil || !a.OK() {
		t.Fatalf("verify: %v %v", err, a.Problems())
	}
}
