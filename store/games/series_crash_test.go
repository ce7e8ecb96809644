package games_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator/testrules"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
	"github.com/umpire-pbem/umpire/store/storetest"
)

// The series crash test: a child process plays leagues of races on a data
// file, one submission or creation per call, and is killed with SIGKILL at
// random points. After every kill, a series and its games agree: each
// series.child event has its game and each game its event (created both or
// neither), each race that ended has its result in its league (recorded
// both or neither), and every league verifies as a whole.
const seriesCrashEnv = "UMPIRE_SERIES_CRASH_CHILD_DB"

// TestSeriesCrashChild is the child's body; run normally, it does nothing.
func TestSeriesCrashChild(t *testing.T) {
	path := os.Getenv(seriesCrashEnv)
	if path == "" {
		return
	}
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, "series crash child:", err)
		os.Exit(3)
	}
	ctx := context.Background()
	st, err := store.Open(path, store.WithLockTimeout(10*time.Second))
	if err != nil {
		fail(err)
	}
	s := &games.Service{Store: st, Rules: seriesLookup}
	for n := 1; n < 100000; n++ {
		if err := seriesStep(ctx, s); err != nil {
			fail(err)
		}
		if _, err := fmt.Fprintf(os.Stdout, "%d\n", n); err != nil {
			os.Exit(4)
		}
	}
	os.Exit(0)
}

// seriesStep makes one call: the next answer in the first race not over,
// or a new league.
func seriesStep(ctx context.Context, s *games.Service) error {
	ids, err := s.Store.Games(ctx)
	if err != nil {
		return err
	}
	slices.Sort(ids)
	leagues := 0
	for _, id := range ids {
		if strings.Contains(id, "-r") {
			continue
		}
		leagues++
		lg, err := s.Load(ctx, id)
		if err != nil {
			return err
		}
		if lg.Over() {
			continue
		}
		race := id + "-" + strings.TrimPrefix(lg.Due()[0].ID, "result.")
		g, err := s.Load(ctx, race)
		if err != nil {
			return fmt.Errorf("league %s waits for %s: %w", id, race, err)
		}
		for _, r := range g.Due() {
			if _, ok := g.Answered(r.ID); ok {
				continue
			}
			_, err := s.Submit(ctx, games.SubmitRequest{Game: race, Side: r.Side, Src: []byte(orders(r, g)), Via: "test"})
			return err
		}
		return fmt.Errorf("%s waits for nothing", race)
	}
	_, err = s.Create(ctx, games.CreateRequest{ID: fmt.Sprintf("lg%03d", leagues+1), Ruleset: "league", Scenario: "league",
		Options: map[string]string{"games": "3", "turns": "1"},
		Players: []games.Player{{Side: "red", Address: "red@example.org"}, {Side: "blue", Address: "blue@example.org"}}})
	return err
}

func TestSeriesCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("kills child processes")
	}
	path := filepath.Join(t.TempDir(), "series.db")
	for round := range 8 {
		storetest.KillChildAfter(t, "TestSeriesCrashChild", seriesCrashEnv, path, 5+2*round, true)
		checkSeriesAfterCrash(t, path)
	}
}

func checkSeriesAfterCrash(t *testing.T, path string) {
	t.Helper()
	ctx := t.Context()
	st, err := store.Open(path)
	if err != nil {
		t.Fatalf("open after kill: %v", err)
	}
	defer st.Close()
	s := &games.Service{Store: st, Rules: seriesLookup}
	ids, err := st.Games(ctx)
	if err != nil {
		t.Fatal(err)
	}
	leagues, races := 0, 0
	for _, id := range ids {
		g, err := s.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		p := g.Created.Parent
		if p == nil {
			leagues++
			a, err := s.VerifySeries(ctx, id, games.Known{}, false)
			if err != nil {
				t.Fatal(err)
			}
			if !a.OK() {
				t.Fatalf("after kill, league %s: %v", id, a.Problems())
			}
			continue
		}
		races++
		lg, err := s.Load(ctx, p.Game)
		if err != nil {
			t.Fatalf("after kill, %s has no league: %v", id, err)
		}
		var n int
		fmt.Sscanf(p.Key, "r%d", &n)
		played := lg.State.(*testrules.LeagueState).Played
		if g.Over() != (n <= played) {
			t.Fatalf("after kill, race %s over=%v but its league counts %d races played", id, g.Over(), played)
		}
	}
	t.Logf("after kill: %d leagues, %d races", leagues, races)
}
