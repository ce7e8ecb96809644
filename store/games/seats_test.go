package games_test

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
)

// weightedBuild and the rest are a weighted Dragon Rage game at Nurkott
// (adjudicator/dragonrage/testdata/points): the invader's player builds
// both armies, the defender's takes the invader.
const (
	weightedBuild  = "turn: 0\nphase: build\norders:\n  invader: {GIANT: 5, HERO: 1}\n  defender: {HERO: 1, WZD: 1, WRG: 4, TRL: 3, ORC: 2, GOB: 3}\n"
	weightedChoice = "turn: 0\nphase: choose\norders:\n  play: invader\n"
	weightedSetup  = "turn: 0\nphase: setup\norders: {GOB-1: \"0402\", GOB-2: \"0511\", GOB-3: \"0512\", ORC-1: \"0807\", ORC-2: \"0904\", TRL-1: \"1006\", TRL-2: \"1007\", TRL-3: \"0906\", WRG-1: \"1008\", WRG-2: \"1104\", WRG-3: \"1105\", WRG-4: \"1106\", HERO-2: \"0908\", WZD-1: \"1107\"}\n"
)

func weightedGame(t *testing.T, s *games.Service, id string) map[adjudicator.Side]string {
	t.Helper()
	c, err := s.Create(context.Background(), games.CreateRequest{ID: id, Ruleset: "dragonrage", Scenario: "weighted-nurkott",
		Players: []games.Player{{Side: "invader", Address: "builder@example.org"}, {Side: "defender", Address: "chooser@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
	return c.Secrets
}

// send submits src for side with secret, as a mail does.
func send(s *games.Service, id string, side adjudicator.Side, secret, src string) error {
	_, err := s.Submit(context.Background(), games.SubmitRequest{Game: id, Side: side, Src: []byte("secret: " + secret + "\n" + src), Via: "mail", NeedSecret: true})
	return err
}

func isBadSecret(err error) bool {
	var e *adjudicator.OrderError
	return errors.As(err, &e) && e.Code == game.CodeBadSecret
}

// TestSecretsFollowTheSideChoice: once the chooser of a weighted game takes
// the invader, his secret speaks for the invader and the builder's for the
// defender, in orders and in CheckSecret; the referee's replacement of the
// invader's player takes the chooser's seat and leaves the builder's
// secret alone.
func TestSecretsFollowTheSideChoice(t *testing.T) {
	ctx := context.Background()
	s := newService(t)
	s.Rules = allRules
	const id = "weighted-1"
	sec := weightedGame(t, s, id)
	builder, chooser := sec["invader"], sec["defender"]
	if err := send(s, id, "invader", builder, weightedBuild); err != nil {
		t.Fatal(err)
	}
	if err := send(s, id, "defender", chooser, weightedChoice); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		side   adjudicator.Side
		secret string
		ok     bool
	}{{"invader", chooser, true}, {"invader", builder, false}, {"defender", builder, true}, {"defender", chooser, false}} {
		if ok, err := s.CheckSecret(ctx, id, c.side, c.secret); ok != c.ok || err != nil {
			t.Errorf("CheckSecret(%s, the %s's secret): %v %v, want %v", c.side, map[bool]string{true: "chooser", false: "builder"}[c.secret == chooser], ok, err, c.ok)
		}
	}
	// The defender's setup is the builder's now.
	if err := send(s, id, "defender", chooser, weightedSetup); !isBadSecret(err) {
		t.Fatalf("the chooser's secret set the defender up: %v", err)
	}
	if err := send(s, id, "defender", builder, weightedSetup); err != nil {
		t.Fatal(err)
	}
	// The referee gives the invader to someone else: the chooser's secret
	// dies, the builder's lives.
	_, fresh, err := s.Replace(ctx, id, "invader", "newcomer@example.org", "the chooser left", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		side   adjudicator.Side
		secret string
		ok     bool
	}{{"invader", fresh, true}, {"invader", chooser, false}, {"defender", builder, true}} {
		if ok, err := s.CheckSecret(ctx, id, c.side, c.secret); ok != c.ok || err != nil {
			t.Errorf("after the replacement, CheckSecret(%s): %v %v, want %v", c.side, ok, err, c.ok)
		}
	}
	g, err := s.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := g.Player("invader"); p.Address != "newcomer@example.org" || g.Seat("invader") != "defender" {
		t.Errorf("the invader is %+v, seat %s", p, g.Seat("invader"))
	}
}

// TestRestoreDrawsSecretsUnderSeats: a weighted game restored from its
// bundle without the check value of the chooser's secret (who plays the
// invader) gets a new secret for the invader, kept under the chooser's
// seat; the builder's stays good for the defender.
func TestRestoreDrawsSecretsUnderSeats(t *testing.T) {
	ctx := context.Background()
	s := newService(t)
	s.Rules = allRules
	const id = "weighted-2"
	sec := weightedGame(t, s, id)
	if err := send(s, id, "invader", sec["invader"], weightedBuild); err != nil {
		t.Fatal(err)
	}
	if err := send(s, id, "defender", sec["defender"], weightedChoice); err != nil {
		t.Fatal(err)
	}
	var bundle bytes.Buffer
	if err := s.Export(ctx, id, &bundle); err != nil {
		t.Fatal(err)
	}
	private := map[string][]byte{}
	for _, name := range []string{"dice/0", "player/invader"} {
		v, err := s.Store.Secret(ctx, id, name)
		if err != nil {
			t.Fatal(err)
		}
		private[name] = v
	}
	st := store.NewMemory()
	clock := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	ns := &games.Service{Store: st, Rules: allRules, Now: func() time.Time { clock = clock.Add(time.Second); return clock }}
	r, err := ns.Import(ctx, &bundle, private)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.NewSecrets) != 1 || r.NewSecrets["invader"] == "" {
		t.Fatalf("new secrets %v, want one for the invader (the chooser's)", r.NewSecrets)
	}
	if ok, err := ns.CheckSecret(ctx, id, "invader", r.NewSecrets["invader"]); !ok || err != nil {
		t.Errorf("the invader's new secret: %v %v", ok, err)
	}
	if ok, err := ns.CheckSecret(ctx, id, "defender", sec["invader"]); !ok || err != nil {
		t.Errorf("the builder's secret for the defender: %v %v", ok, err)
	}
}
