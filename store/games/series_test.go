package games_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/testrules"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
)

var seriesLookup = testrules.Lookup

func newSeriesService(t testing.TB, st store.Store) *games.Service {
	clock := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	return &games.Service{Store: st, Rules: seriesLookup, Now: func() time.Time { clock = clock.Add(time.Second); return clock }}
}

func createLeague(t testing.TB, s *games.Service, id string, n int) *games.Created {
	t.Helper()
	c, err := s.Create(context.Background(), games.CreateRequest{ID: id, Ruleset: "league", Scenario: "league",
		Options: map[string]string{"games": string(rune('0' + n))},
		Players: []games.Player{{Side: "red", Address: "red@example.org"}, {Side: "blue", Address: "blue@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestSeriesPlaysItsChildren: a league creates its first race with itself,
// each race's end records its result in the league and creates the next
// race in the same transaction, and the league ends with its last race.
func TestSeriesPlaysItsChildren(t *testing.T) {
	ctx := context.Background()
	s := newSeriesService(t, store.NewMemory())
	var welcomes []string
	s.ChildMail = func(series, child *game.Game, secrets map[adjudicator.Side]string) ([]store.Message, error) {
		welcomes = append(welcomes, child.ID)
		return nil, nil
	}
	c := createLeague(t, s, "lg", 3)
	if c.Game.Over() {
		t.Fatal("the league is over at once")
	}
	if due := c.Game.Due(); len(due) != 1 || due[0].ID != "result.r1" {
		t.Fatalf("the league waits for %v, not the first race's result", due)
	}
	for n, id := range []string{"lg-r1", "lg-r2", "lg-r3"} {
		g, err := s.Load(ctx, id)
		if err != nil {
			t.Fatalf("race %d: %v", n+1, err)
		}
		p := g.Created.Parent
		if p == nil || p.Game != "lg" || p.Key != strings.TrimPrefix(id, "lg-") {
			t.Fatalf("%s: parent %+v", id, p)
		}
		// Odd races: the league's red player runs red; even: blue's.
		want := "red@example.org"
		if n%2 == 1 {
			want = "blue@example.org"
		}
		if pl, _ := g.Player("red"); pl.Address != want {
			t.Errorf("%s: red is %s, want %s", id, pl.Address, want)
		}
		if n < 2 {
			if _, err := s.Load(ctx, "lg-r"+string(rune('2'+n))); err == nil {
				t.Fatalf("race %d exists before race %d ended", n+2, n+1)
			}
		}
		playOut(t, s, id)
		lg, err := s.Load(ctx, "lg")
		if err != nil {
			t.Fatal(err)
		}
		if lg.State.(*testrules.LeagueState).Played != n+1 {
			t.Fatalf("after %s the league counts %d races", id, lg.State.(*testrules.LeagueState).Played)
		}
	}
	lg, err := s.Load(ctx, "lg")
	if err != nil {
		t.Fatal(err)
	}
	if !lg.Over() {
		t.Fatalf("the league is not over: due %v", lg.Due())
	}
	if strings.Join(welcomes, ",") != "lg-r1,lg-r2,lg-r3" {
		t.Errorf("welcome mails for %v", welcomes)
	}
	// Each result names its race's last event, as the race's log has it.
	evs, err := s.Store.Events(ctx, "lg", 1)
	if err != nil {
		t.Fatal(err)
	}
	results := 0
	for _, e := range evs {
		if e.Type != game.TypeOrders {
			continue
		}
		var oa game.OrdersAccepted
		if err := json.Unmarshal(e.Payload, &oa); err != nil {
			t.Fatal(err)
		}
		if oa.Kind != adjudicator.KindResult {
			continue
		}
		results++
		if !strings.Contains(oa.Text, "head: ") {
			t.Fatalf("result without a head: %s", oa.Text)
		}
	}
	if results != 3 {
		t.Fatalf("%d results recorded, want 3", results)
	}
}

// TestSeriesResultCannotBeSent: the series side is umpire's own; orders for
// it from the command line or by mail are refused, and nothing is written.
func TestSeriesResultCannotBeSent(t *testing.T) {
	ctx := context.Background()
	s := newSeriesService(t, store.NewMemory())
	c := createLeague(t, s, "lg", 1)
	src := "side: series\nturn: 1\nphase: result\norders:\n  key: r1\n  game: lg-r1\n  winner: red\n  result: red wins\n  players: []\n  view: {turn: 1, phase: x, units: [], over: true}\n  head: ab\n  events: 3\n"
	for _, via := range []string{"mail", "cli"} {
		_, err := s.Submit(ctx, games.SubmitRequest{Game: "lg", Src: []byte(src), Via: via})
		if err == nil || !strings.Contains(err.Error(), "recorded by umpire when the child ends") {
			t.Fatalf("via %s: %v", via, err)
		}
	}
	if v, _ := s.Store.Version(ctx, "lg"); v != c.Game.Version {
		t.Fatalf("the league grew from %d to %d events", c.Game.Version, v)
	}
}

// playLeague creates league id of n races and plays it out.
func playLeague(t *testing.T, s *games.Service, id string, n int) {
	t.Helper()
	createLeague(t, s, id, n)
	for i := 1; i <= n; i++ {
		playOut(t, s, id+"-r"+string(rune('0'+i)))
	}
}

// TestSeriesVerify: a series and its games verify as one, from the store
// and from the series bundle (by VerifySeriesBundle and by VerifyBundle,
// which is what `umpire verify BUNDLE` runs).
func TestSeriesVerify(t *testing.T) {
	ctx := context.Background()
	s := newSeriesService(t, store.NewMemory())
	playLeague(t, s, "lg", 3)
	a, err := s.VerifySeries(ctx, "lg", games.Known{}, true)
	if err != nil {
		t.Fatal(err)
	}
	if !a.OK() || len(a.Order) != 3 || a.Series.Redecided == 0 {
		t.Fatalf("verify: %v (games %v, redecided %d)", a.Problems(), a.Order, a.Series.Redecided)
	}
	var buf bytes.Buffer
	if err := s.ExportSeries(ctx, "lg", &buf); err != nil {
		t.Fatal(err)
	}
	ba, err := games.VerifySeriesBundle(bytes.NewReader(buf.Bytes()), seriesLookup, games.Known{})
	if err != nil {
		t.Fatal(err)
	}
	if !ba.OK() || strings.Join(ba.Order, ",") != "lg-r1,lg-r2,lg-r3" {
		t.Fatalf("bundle: %v (games %v)", ba.Problems(), ba.Order)
	}
	flat, err := games.VerifyBundle(bytes.NewReader(buf.Bytes()), seriesLookup, games.Known{})
	if err != nil {
		t.Fatal(err)
	}
	if !flat.OK() || flat.Adjudications <= a.Series.Adjudications {
		t.Fatalf("verify as one bundle: %v, %d adjudications", flat.Problems, flat.Adjudications)
	}
}

// TestSeriesGameEndedByTheReferee: a game of a series that the referee
// ends (a forfeit) reports its result like any other end; one cannot be
// rolled back, since its series waits for it.
func TestSeriesGameEndedByTheReferee(t *testing.T) {
	ctx := context.Background()
	s := newSeriesService(t, store.NewMemory())
	createLeague(t, s, "lg", 2)
	if _, err := s.Branch(ctx, "lg-r1", 1, "lg-r1-again", nil); err == nil || !strings.Contains(err.Error(), "cannot be rolled back") {
		t.Fatalf("rollback of a series' game: %v", err)
	}
	if _, err := s.End(ctx, "lg-r1", "blue left the club", "blue", nil); err != nil {
		t.Fatal(err)
	}
	lg, err := s.Load(ctx, "lg")
	if err != nil {
		t.Fatal(err)
	}
	if st := lg.State.(*testrules.LeagueState); st.Played != 1 || st.Wins["red"] != 1 {
		t.Fatalf("after the forfeit the league has %+v", st)
	}
	if _, err := s.Load(ctx, "lg-r2"); err != nil {
		t.Fatalf("the next race: %v", err)
	}
	a, err := s.VerifySeries(ctx, "lg", games.Known{}, true)
	if err != nil || !a.OK() {
		t.Fatalf("verify: %v %v", err, a.Problems())
	}
}

// TestSeriesBundleIsNotImported: umpire import takes one game's bundle; a
// series' bundle is refused, saying why, and nothing is written.
func TestSeriesBundleIsNotImported(t *testing.T) {
	ctx := context.Background()
	s := newSeriesService(t, store.NewMemory())
	playLeague(t, s, "lg", 1)
	var buf bytes.Buffer
	if err := s.ExportSeries(ctx, "lg", &buf); err != nil {
		t.Fatal(err)
	}
	fresh := newSeriesService(t, store.NewMemory())
	if _, err := fresh.Import(ctx, &buf, nil); err == nil || !strings.Contains(err.Error(), "a series is not imported") {
		t.Fatalf("import of a series bundle: %v", err)
	}
	if ids, _ := fresh.Store.Games(ctx); len(ids) != 0 {
		t.Fatalf("the import wrote %v", ids)
	}
}

// TestSeriesClockReachesItsGames: a series' deadlines are its games'
// deadlines (unless the series gives a game its own), and the series' own
// requests, which umpire answers, get none.
func TestSeriesClockReachesItsGames(t *testing.T) {
	ctx := context.Background()
	s := newSeriesService(t, store.NewMemory())
	c, err := s.Create(ctx, games.CreateRequest{ID: "lg", Ruleset: "league", Scenario: "league",
		Options: map[string]string{"games": "1", "deadline.orders": "72h"},
		Players: []games.Player{{Side: "red", Address: "red@example.org"}, {Side: "blue", Address: "blue@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Game.Deadlines) != 0 {
		t.Errorf("the series' own requests got deadlines: %v", c.Game.Deadlines)
	}
	g, err := s.Load(ctx, "lg-r1")
	if err != nil {
		t.Fatal(err)
	}
	if g.Created.Clock["deadline.orders"] != "72h" || len(g.Deadlines) != 2 {
		t.Fatalf("the race has the clock %v and deadlines %v", g.Created.Clock, g.Deadlines)
	}
}

// TestSeriesRefusesAResult: a series whose rules refuse a game's result (a
// ruleset bug) does not take the game's end down with it: the players'
// last orders are recorded, the game is over, the series waits, the
// service says so, and series verify names the game.
func TestSeriesRefusesAResult(t *testing.T) {
	ctx := context.Background()
	s := newSeriesService(t, store.NewMemory())
	var told []string
	s.OnResultRefused = func(series, game string, err error) { told = append(told, series+" "+game+": "+err.Error()) }
	if _, err := s.Create(ctx, games.CreateRequest{ID: "lg", Ruleset: "league", Scenario: "league",
		Options: map[string]string{"games": "2", "refuse": "r1"},
		Players: []games.Player{{Side: "red", Address: "red@example.org"}, {Side: "blue", Address: "blue@example.org"}}}); err != nil {
		t.Fatal(err)
	}
	playOut(t, s, "lg-r1")
	if len(told) != 1 || !strings.Contains(told[0], "lg lg-r1: ") || !strings.Contains(told[0], "refuses the result of r1") {
		t.Fatalf("told %v", told)
	}
	lg, err := s.Load(ctx, "lg")
	if err != nil {
		t.Fatal(err)
	}
	if lg.State.(*testrules.LeagueState).Played != 0 {
		t.Fatal("the league counted a result it refused")
	}
	a, err := s.VerifySeries(ctx, "lg", games.Known{}, false)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(a.Links, "\n"), "lg-r1: the game is over, but the series has not recorded its result") {
		t.Fatalf("verify: %v", a.Problems())
	}
}
