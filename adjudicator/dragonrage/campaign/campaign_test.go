package campaign_test

import (
	"encoding/json"
	"maps"
	"os"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage/campaign"
	"github.com/umpire-pbem/umpire/adjudicator/script"
)

var both = []adjudicator.Side{campaign.Invader, campaign.Defender}

func TestSetup(t *testing.T) {
	for _, c := range []struct {
		s    adjudicator.Setup
		want string // "" when accepted
	}{
		{adjudicator.Setup{Scenario: "campaign", Sides: both}, ""},
		{adjudicator.Setup{Sides: both, Options: map[string]string{"map": "nurkott", "elowyn": "on", "weaker-loser": "loses-10"}}, ""},
		{adjudicator.Setup{Scenario: "e1", Sides: both}, `a campaign's only scenario is "campaign"`},
		{adjudicator.Setup{Position: []byte("units: []"), Sides: both}, "not from a position"},
		{adjudicator.Setup{Sides: both, Options: map[string]string{"map": "mordor"}}, "use map=esirien or map=nurkott"},
		{adjudicator.Setup{Sides: both, Options: map[string]string{"elowyn": "yes"}}, "say on or off"},
		{adjudicator.Setup{Sides: both, Options: map[string]string{"weaker-loser": "0"}}, "gains-10"},
		{adjudicator.Setup{Sides: both, Options: map[string]string{"points": "80/75"}}, `unknown option "points"`},
		{adjudicator.Setup{Sides: []adjudicator.Side{campaign.Invader}}, "give the defender's player too"},
	} {
		st, err := campaign.Ruleset.Setup(c.s)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%+v: %v", c.s, err)
		case c.want != "" && err == nil:
			t.Errorf("%+v was set up", c.s)
		case c.want != "" && !strings.Contains(err.Error(), c.want):
			t.Errorf("%+v: %v, want it to say %q", c.s, err, c.want)
		case c.want == "":
			v := campaign.Ruleset.View(st, adjudicator.Observer)
			if v.Score[campaign.Invader] != 60 || v.Score[campaign.Defender] != 60 {
				t.Errorf("potentials at the start %v, want 60 each (DR-CAMP-2)", v.Score)
			}
			due := campaign.Ruleset.Due(st)
			if len(due) != 1 || due[0].Kind != adjudicator.KindAuto || due[0].Side != adjudicator.SeriesSide {
				t.Errorf("due at the start: %+v, want the automatic start", due)
			}
		}
	}
}

// TestGains is Table DR-TABLE-CAMPAIGN cell by cell, in both readings of
// DR-AMB-28, with a draw scored as a loss for both.
func TestGains(t *testing.T) {
	for _, c := range []struct {
		inv, def    int
		winner      adjudicator.Side
		weakerLoses bool
		gi, gd      int
	}{
		{60, 60, campaign.Invader, false, 10, 5},
		{60, 70, campaign.Invader, false, 10, 5}, // 10 apart: 10 or less
		{70, 60, campaign.Defender, false, 5, 10},
		{60, 60, "", false, 5, 5},
		{60, 71, campaign.Invader, false, 15, 0}, // the weaker wins, the stronger loses
		{60, 71, campaign.Defender, false, 10, 5},
		{71, 60, campaign.Invader, false, 5, 10},
		{71, 60, campaign.Defender, false, 0, 15},
		{71, 60, "", false, 0, 10},
		{60, 71, campaign.Defender, true, -10, 5}, // "perd 10" read literally
		{71, 60, campaign.Invader, true, 5, -10},
		{71, 60, campaign.Defender, true, 0, 15},
		{60, 60, campaign.Defender, true, 5, 10}, // the literal reading only changes the weaker loser
		{71, 60, "", true, 0, -10},
	} {
		gi, gd, why := campaign.Gains(c.inv, c.def, c.winner, c.weakerLoses)
		if gi != c.gi || gd != c.gd {
			t.Errorf("%d/%d won by %q (weaker loses %v): %+d/%+d (%s), want %+d/%+d", c.inv, c.def, c.winner, c.weakerLoses, gi, gd, why, c.gi, c.gd)
		}
	}
}

// TestBalance: DR-CAMP-10 and DR-CAMP-11, 1 VP per 5 points from 15 on.
func TestBalance(t *testing.T) {
	for _, c := range []struct{ inv, def, vp, adj int }{
		{60, 60, 0, 0}, {60, 74, 0, 0}, {60, 75, 3, 0}, {60, 78, 3, 0}, {60, 80, 4, 0},
		{74, 60, 0, 0}, {75, 60, 0, 3}, {78, 60, 0, 3}, {95, 60, 0, 7},
	} {
		if vp, adj := campaign.Balance(c.inv, c.def); vp != c.vp || adj != c.adj {
			t.Errorf("%d/%d: balance-vp %d, goal-adjust %d; want %d, %d", c.inv, c.def, vp, adj, c.vp, c.adj)
		}
	}
}

// TestKills reads the Heroes and Dragons destroyed from a result's view:
// gone, not wounded nor off the map; killed by the other side's player.
func TestKills(t *testing.T) {
	res := &adjudicator.ChildResult{
		Players: []adjudicator.ChildPlayer{{Side: campaign.Invader, Player: campaign.Invader}, {Side: campaign.Defender, Player: campaign.Defender}},
		View: adjudicator.View{Units: []adjudicator.UnitView{
			{ID: "HERO-1", Side: campaign.Invader, Type: "HERO", Gone: true},
			{ID: "HERO-2", Side: campaign.Defender, Type: "HERO", Status: []string{"wounded"}},
			{ID: "DRAGON-1", Side: campaign.Invader, Type: "DRAGON", Gone: true},
			{ID: "YDRAGON-1", Side: campaign.Invader, Type: "YDRAGON", Gone: true},
			{ID: "ELW-1", Side: campaign.Defender, Type: "ELW", At: "off-map", Status: []string{"saved"}},
			{ID: "WZD-1", Side: campaign.Defender, Type: "WZD", Gone: true},
		}},
	}
	got := campaign.Kills(res)
	want := []campaign.Kill{{By: campaign.Defender, Unit: "HERO-1", Type: "HERO"}, {By: campaign.Defender, Unit: "DRAGON-1", Type: "DRAGON"}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("kills %+v, want %+v", got, want)
	}
}

// TestChildGames plays the whole campaign and reads the children it
// created from its log: one per game, each a point game of the campaign's
// map played by the same players on the same sides, with the potentials,
// game number and balancing the games stood at; and every child's options
// are ones the dragonrage ruleset sets up.
func TestChildGames(t *testing.T) {
	src, err := os.ReadFile("testdata/DR-CAMP-1-a-whole-campaign.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := script.Parse("testdata/DR-CAMP-1-a-whole-campaign.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	run, err := script.Play(s, lookup, script.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !run.OK() {
		t.Fatalf("the script fails: %v", run.Failures)
	}
	var children []adjudicator.ChildGame
	for _, e := range run.Log {
		if e.Type != adjudicator.TypeChildGame {
			continue
		}
		var c adjudicator.ChildGame
		if err := json.Unmarshal(e.Payload, &c); err != nil {
			t.Fatal(err)
		}
		children = append(children, c)
	}
	want := []map[string]string{
		{"points": "60/60", "campaign-game": "1", "elowyn": "off"},
		{"points": "65/70", "campaign-game": "2", "elowyn": "off"},
		{"points": "75/80", "campaign-game": "3", "elowyn": "off"},
		{"points": "80/95", "campaign-game": "4", "elowyn": "off", "balance-vp": "3"},
		{"points": "95/95", "campaign-game": "5", "elowyn": "off"},
	}
	if len(children) != len(want) {
		t.Fatalf("%d children, want %d", len(children), len(want))
	}
	for i, c := range children {
		if c.Key != "g"+string(rune('1'+i)) || c.Ruleset != "dragonrage" || c.Scenario != "points-esirien" || !maps.Equal(c.Options, want[i]) {
			t.Errorf("child %d: %+v, want options %v", i+1, c, want[i])
		}
		if len(c.Players) != 2 || c.Players[0] != (adjudicator.ChildPlayer{Side: campaign.Invader, Player: campaign.Invader}) ||
			c.Players[1] != (adjudicator.ChildPlayer{Side: campaign.Defender, Player: campaign.Defender}) {
			t.Errorf("child %d players %+v: each player keeps his side (DR-CAMP-1)", i+1, c.Players)
		}
		if err := adjudicator.CheckChild(&c); err != nil {
			t.Error(err)
		}
		if _, err := dragonrage.Ruleset.Setup(adjudicator.Setup{Scenario: c.Scenario, Options: c.Options, Sides: both}); err != nil {
			t.Errorf("child %d: the dragonrage ruleset refuses it: %v", i+1, err)
		}
	}
	if due := run.Game.Due(); len(due) != 0 {
		t.Errorf("due after the campaign: %+v", due)
	}
}

// TestEventTypes: the campaign decodes the engine's series events too.
func TestEventTypes(t *testing.T) {
	names := map[string]bool{}
	for _, e := range campaign.Ruleset.EventTypes() {
		if names[e.Name] {
			t.Errorf("event %s twice", e.Name)
		}
		names[e.Name] = true
		if got := e.New().EventType(); got != e.Name {
			t.Errorf("event %s decodes as %s", e.Name, got)
		}
	}
	if !names[adjudicator.TypeChildGame] {
		t.Error("the campaign's events lack series.child")
	}
}
