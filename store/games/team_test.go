package games_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/store/games"
)

// TestTeamSecrets: each player of a team gets his own secret, kept only as
// a check value under his seat; each speaks for his side with his own
// secret and address; a split side's moves wait for every part; replacing
// one player of the team leaves the others' secrets alone.
func TestTeamSecrets(t *testing.T) {
	ctx := context.Background()
	s := newService(t)
	const id = "team-1"
	c, err := s.Create(ctx, games.CreateRequest{ID: id, Ruleset: "race", Scenario: "sprint",
		Options: map[string]string{"team.orders": "split"},
		Players: []games.Player{{Side: "red", Address: "ann@example.org"}, {Side: "red", Address: "bea@example.org", Parts: []string{"r2"}},
			{Side: "blue", Address: "blue@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
	ann, bea, blue := c.Secrets["red"], c.Secrets["red/2"], c.Secrets["blue"]
	if ann == "" || bea == "" || blue == "" || ann == bea || len(c.Secrets) != 3 {
		t.Fatalf("secrets %v", c.Secrets)
	}
	// Only check values are stored, one per player.
	for _, seat := range []string{"red", "red/2", "blue"} {
		v, err := s.Store.Secret(ctx, id, "player/"+seat)
		if err != nil || strings.Contains(string(v), c.Secrets[adjudicator.Side(seat)]) || !strings.HasPrefix(string(v), "v1$") {
			t.Errorf("seat %s: check value %q %v", seat, v, err)
		}
	}
	for _, k := range []struct {
		from, secret string
		ok           bool
	}{{"ann@example.org", ann, true}, {"bea@example.org", bea, true}, {"bea@example.org", ann, false}, {"ann@example.org", bea, false}, {"blue@example.org", blue, false}} {
		if ok, err := s.CheckMember(ctx, id, "red", k.from, k.secret); ok != k.ok || err != nil {
			t.Errorf("CheckMember(red, %s): %v %v, want %v", k.from, ok, err, k.ok)
		}
	}
	sendFrom := func(from string, side adjudicator.Side, secret, src string) (*game.Outcome, error) {
		return s.Submit(ctx, games.SubmitRequest{Game: id, Side: side, From: from, Src: []byte("secret: " + secret + "\n" + src), Via: "mail", NeedSecret: true})
	}
	// Bea's secret does not speak for ann.
	if _, err := sendFrom("ann@example.org", "red", bea, "turn: 1\nphase: bid\norders: {bid: 2}\n"); !isBadSecret(err) {
		t.Fatalf("ann with bea's secret: %v", err)
	}
	for _, m := range []struct{ from, secret, side, src string }{
		{"ann@example.org", ann, "red", "turn: 1\nphase: bid\norders: {bid: 2}\n"},
		{"blue@example.org", blue, "blue", "turn: 1\nphase: bid\norders: {bid: 1}\n"},
		{"bea@example.org", bea, "red", "turn: 1\nphase: move\norders: [{advance: R2}]\n"},
	} {
		if _, err := sendFrom(m.from, adjudicator.Side(m.side), m.secret, m.src); err != nil {
			t.Fatalf("%s: %v", m.from, err)
		}
	}
	g, err := s.Load(ctx, id)
	if err != nil || g.K != 1 {
		t.Fatalf("K=%d %v: red's move waits for ann's part", g.K, err)
	}
	out, err := sendFrom("ann@example.org", "red", ann, "turn: 1\nphase: move\norders: [{advance: R1}]\n")
	if err != nil || len(out.Results) != 1 {
		t.Fatalf("ann's part: %v", err)
	}
	// Bea is replaced: her place and seat go to cid; ann's secret still
	// speaks for ann, and bea's no longer for anyone.
	_, cid, err := s.ReplaceMember(ctx, id, "red", "bea@example.org", "cid@example.org", "left", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []struct {
		from, secret string
		ok           bool
	}{{"ann@example.org", ann, true}, {"cid@example.org", cid, true}, {"cid@example.org", bea, false}, {"bea@example.org", bea, false}} {
		if ok, err := s.CheckMember(ctx, id, "red", k.from, k.secret); ok != k.ok || err != nil {
			t.Errorf("after the replacement, CheckMember(red, %s): %v %v, want %v", k.from, ok, err, k.ok)
		}
	}
	if _, _, err := s.ReplaceMember(ctx, id, "red", "bea@example.org", "dan@example.org", "", nil); err == nil {
		t.Error("replaced bea twice")
	}
	if a, err := s.Verify(ctx, id, games.Known{}); err != nil || !a.OK() {
		t.Fatalf("verify: %v %+v", err, a)
	}
}

// TestTeamCaptainRefusal: a teammate's orders are refused, naming the
// captain, and nothing is written.
func TestTeamCaptainRefusal(t *testing.T) {
	ctx := context.Background()
	s := newService(t)
	c, err := s.Create(ctx, games.CreateRequest{ID: "team-2", Ruleset: "race", Scenario: "sprint",
		Players: []games.Player{{Side: "red", Address: "ann@example.org"}, {Side: "red", Address: "bea@example.org"}, {Side: "blue", Address: "blue@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
	before, _ := s.Load(ctx, "team-2")
	_, err = s.Submit(ctx, games.SubmitRequest{Game: "team-2", Side: "red", From: "bea@example.org", NeedSecret: true, Via: "mail",
		Src: []byte("secret: " + c.Secrets["red/2"] + "\nturn: 1\nphase: bid\norders: {bid: 2}\n")})
	var oe *adjudicator.OrderError
	if !errors.As(err, &oe) || oe.Code != game.CodeNotYours || !strings.Contains(err.Error(), "ann@example.org") {
		t.Fatalf("bea's bid: %v", err)
	}
	after, _ := s.Load(ctx, "team-2")
	if after.Version != before.Version {
		t.Error("the refused bid was written")
	}
}
