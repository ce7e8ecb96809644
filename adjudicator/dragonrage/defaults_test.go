package dragonrage_test

import (
	"os"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage"
	"github.com/umpire-pbem/umpire/adjudicator/game"
)

// TestDefaultOrders: after the defender's setup, every request of Nurkott 2
// answered by the rules' default answer (what no-move=default applies) is
// accepted, turn after turn, and the log verifies and replays.
func TestDefaultOrders(t *testing.T) {
	lookup := game.Lookup(func(n string) (adjudicator.Ruleset, bool) { return dragonrage.Ruleset, n == "dragonrage" })
	secret := make([]byte, dice.SeedSize)
	rec, _, err := game.Create(game.NewGame{ID: "n2", Ruleset: dragonrage.Ruleset, Scenario: "n2",
		Players: []game.Player{{Side: "invader"}, {Side: "defender"}}, Time: time.Unix(0, 0), Secret: secret})
	if err != nil {
		t.Fatal(err)
	}
	log := []game.Entry{{Seq: 1, Record: rec}}
	g, err := game.Load(log, lookup)
	if err != nil {
		t.Fatal(err)
	}
	vault := game.Vault{}
	secrets := map[int][]byte{0: secret}
	submit := func(side adjudicator.Side, src []byte) {
		t.Helper()
		out, err := g.Submit(game.Input{Side: side, Src: src, Time: time.Unix(int64(len(log)), 0), Via: "test",
			Secrets: func(gen int) ([]byte, error) { return secrets[gen], nil }, NextSecret: dice.Hash(secret),
			Rand: zeros{}, Unseal: vault.Unseal})
		if err != nil {
			t.Fatalf("%s:\n%s\n%v", side, src, err)
		}
		for _, r := range out.Records {
			log = append(log, game.Entry{Seq: uint64(len(log) + 1), Record: r})
		}
		vault.Keep(out.Records)
		g = out.Next
	}
	setup, err := os.ReadFile("../../docs/examples/n2-defender-setup.yaml")
	if err != nil {
		t.Fatal(err)
	}
	submit("defender", setup)
	for i := 0; i < 40 && !g.Over(); i++ {
		r := g.Due()[0]
		src, ok := g.DefaultAnswer(r)
		if !ok {
			t.Fatalf("no default answer for %s (%s)", r.Title, r.Kind)
		}
		submit(r.Side, src)
	}
	if g.K < 20 {
		t.Fatalf("only %d adjudications by default answers", g.K)
	}
	if a := game.Verify(log); !a.OK() {
		t.Fatalf("verify: %v", a.Problems)
	}
	if a := game.Replay(log, lookup); !a.OK() {
		t.Fatalf("replay: %v", a.Problems)
	}
	if _, ok := g.DefaultAnswer(adjudicator.Request{Kind: "setup"}); ok {
		t.Error("a setup has a default answer")
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }
