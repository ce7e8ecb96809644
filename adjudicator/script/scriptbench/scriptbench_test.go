package scriptbench_test

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/script"
	"github.com/umpire-pbem/umpire/adjudicator/script/scriptbench"
)

var lookup = game.Lookup(func(n string) (adjudicator.Ruleset, bool) { return dragonrage.Ruleset, n == "dragonrage" })

func raid(t *testing.T) *script.Script {
	t.Helper()
	src, err := os.ReadFile("../../dragonrage/testdata/games/n2-raid.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := script.Parse("n2-raid.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestPlayIsTheRecordedGame: the reference game (dice from the script's
// secret chain, not scripted) is played again step by step to the
// position script.Play reaches, every time, with as many adjudications as
// its log holds.
func TestPlayIsTheRecordedGame(t *testing.T) {
	s := raid(t)
	run, err := script.Play(s, lookup, script.Options{})
	if err != nil || !run.OK() {
		t.Fatalf("%v %v", err, run.Failures)
	}
	g, err := scriptbench.Record(s, lookup)
	if err != nil {
		t.Fatal(err)
	}
	adjs := 0
	for _, e := range run.Log {
		if e.Type == game.TypeAdjudicated {
			adjs++
		}
	}
	if g.Adjudications() != adjs || adjs == 0 {
		t.Errorf("%d adjudications counted, the log has %d", g.Adjudications(), adjs)
	}
	for range 2 {
		end, err := g.Play()
		if err != nil {
			t.Fatal(err)
		}
		if !end.Over() || !reflect.DeepEqual(end.View(adjudicator.Referee), run.View) {
			t.Errorf("played again: over %v, %q; script.Play: %q", end.Over(), end.View(adjudicator.Referee).Result, run.View.Result)
		}
	}
}

// TestRecordRefusesAGameCutShort: a script that no longer reaches its
// recorded end is refused with its file named, never timed.
func TestRecordRefusesAGameCutShort(t *testing.T) {
	s := raid(t)
	s.Steps = s.Steps[:len(s.Steps)-1]
	if _, err := scriptbench.Record(s, lookup); err == nil || !strings.Contains(err.Error(), "n2-raid.yaml") {
		t.Errorf("a game cut short was recorded (%v)", err)
	}
}

// TestPlayUsesTheScriptsSeed: a script with a seed of its own has its dice
// secret from it, as script.Play gives it; a secret derived otherwise
// would not match the game's commitment and Play would fail.
func TestPlayUsesTheScriptsSeed(t *testing.T) {
	s := raid(t)
	s.Expect = nil
	s.Seed = "another game"
	if g, err := scriptbench.Record(s, lookup); err != nil {
		t.Fatalf("with no expectations, another seed plays: %v", err)
	} else if _, err := g.Play(); err != nil {
		t.Fatal(err)
	}
}
