package dragonrage_test

import (
	"errors"
	"os"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/script"
	"github.com/umpire-pbem/umpire/adjudicator/script/scripttest"
)

// TestDefaultsNeverStall: wherever a rule case or whole game stands —
// before each of its steps — every request due has a default answer (what
// a missed deadline applies, docs/mail.md) that the game accepts, except
// setups and army builds, which wait for the referee by design. A default
// the rules refuse would stall a game by mail on a deadline: the
// reinforcement turn did until the default landed the wave, and a berserk
// Dragon until it turned by itself.
func TestDefaultsNeverStall(t *testing.T) {
	lookup := game.Lookup(func(n string) (adjudicator.Ruleset, bool) { return dragonrage.Ruleset, n == "dragonrage" })
	checked := 0
	for _, s := range scripttest.Load(t, os.DirFS("testdata"), ".") {
		before := func(k int, g *game.Game) {
			if g.Over() {
				return
			}
			for _, r := range g.Due() {
				if _, answered := g.Answered(r.ID); answered {
					continue
				}
				ans, ok := g.DefaultAnswer(r)
				if !ok {
					if r.Kind != "setup" && r.Kind != "build" {
						t.Errorf("%s, before step %d: no default answer for %s (%s)", s.File(), k+1, r.Title, r.Kind)
					}
					continue
				}
				_, err := g.Submit(game.Input{Side: r.Side, Src: ans, Time: time.Unix(1<<30, 0), Via: "test", Dice: threes{}})
				var oe adjudicator.OrderErrors
				var one *adjudicator.OrderError
				if errors.As(err, &oe) || errors.As(err, &one) {
					t.Errorf("%s, before step %d: the default answer to %s is refused: %v\n%s", s.File(), k+1, r.Title, err, ans)
				}
				checked++
			}
		}
		if _, err := script.Play(s, lookup, script.Options{Before: before}); err != nil {
			t.Fatalf("%s: %v", s.File(), err)
		}
	}
	if checked < 200 {
		t.Errorf("only %d default answers checked", checked)
	}
	t.Logf("%d default answers checked", checked)
}

// threes rolls 3 on every die: enough dice for any default's adjudication.
type threes struct{}

func (threes) Roll(string, int) (int, error) { return 3, nil }
