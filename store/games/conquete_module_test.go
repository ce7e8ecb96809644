package games_test

import (
	"context"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir/conquete"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir/conquete/conquetetest"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/rulesets"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
)

// TestConqueteBattleModule: La Conquête's option battle-module names the
// Dragon Noir module its Battles are played from. A name the data file's
// library does not hold is refused when the campaign is created, saying
// which option and how to fix it; a group's own module is the module of
// every Battle, and series verify holds the Battle to it.
func TestConqueteBattleModule(t *testing.T) {
	ctx := context.Background()
	s := &games.Service{Store: store.NewMemory(), Rules: rulesets.Lookup, Rand: &conquetetest.Bytes{}, Now: conquetetest.Clock()}
	create := func(module string) error {
		opts := conquetetest.Options()
		opts["battle-module"] = module
		return createConquete(ctx, s, opts)
	}
	if err := create("ours"); err == nil || !strings.Contains(err.Error(), "option battle-module=ours") {
		t.Fatalf("a module the library does not hold: %v", err)
	}
	m, ok := dragonnoir.Ruleset.(adjudicator.Modular).BuiltinModule("assumed")
	if !ok {
		t.Fatal("dragonnoir ships no module assumed")
	}
	m.Name = "ours" // a group's copy, to correct from its printed counters
	if _, err := s.AddModule(ctx, conquete.BattleRuleset, m, "add", nil); err != nil {
		t.Fatal(err)
	}
	if err := create("ours"); err != nil {
		t.Fatal(err)
	}
	battles, err := conqueteDriver(ctx, s).Play(conquetetest.ID, conquetetest.NewCampaign().Next)
	if err != nil {
		t.Fatal(err)
	}
	if len(battles) == 0 {
		t.Fatal("the campaign fought no Battle")
	}
	for _, id := range battles {
		g, err := s.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if g.Created.Module == nil || g.Created.Module.Name != "ours" {
			t.Errorf("%s is played from %+v, not the group's module", id, g.Created.Module)
		}
	}
	if a, err := s.VerifySeries(ctx, conquetetest.ID, games.Known{}, false); err != nil || !a.OK() {
		t.Fatalf("verify: %v %v", a.Problems(), err)
	}
}

// createConquete creates conquetetest's campaign in s with opts.
func createConquete(ctx context.Context, s *games.Service, opts map[string]string) error {
	var players []games.Player
	for _, side := range conquetetest.Sides {
		players = append(players, games.Player{Side: side, Address: conquetetest.Address(side)})
	}
	_, err := s.Create(ctx, games.CreateRequest{ID: conquetetest.ID, Ruleset: conquete.Name, Scenario: conquete.ScenarioID,
		Options: opts, Referee: "referee@example.org", Players: players})
	return err
}

// conqueteDriver plays conquetetest's campaign through s.
func conqueteDriver(ctx context.Context, s *games.Service) *conquetetest.Driver {
	return &conquetetest.Driver{
		Load: func(id string) (*game.Game, error) { return s.Load(ctx, id) },
		Submit: func(id string, side adjudicator.Side, orders string) error {
			_, err := s.Submit(ctx, games.SubmitRequest{Game: id, Side: side, Src: []byte(orders), Via: "test"})
			return err
		},
	}
}
