package referee_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/testrules"
	"github.com/umpire-pbem/umpire/mail/compose"
	"github.com/umpire-pbem/umpire/mail/referee"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
	"github.com/umpire-pbem/umpire/templates"
)

var seriesLookup = testrules.Lookup

var secretRE = regexp.MustCompile(`Your secret is: (\S+)`)

// secretsOf reads each player's secret from the welcome mails of game id.
func secretsOf(t *testing.T, st store.Store, id string) map[string]string {
	t.Helper()
	msgs, err := st.Messages(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, m := range msgs {
		s := readSent(t, m)
		if s.kind != "welcome" {
			continue
		}
		if sm := secretRE.FindStringSubmatch(s.body); sm != nil {
			out[s.to] = sm[1]
		}
	}
	return out
}

// TestSeriesByMail: a series created by mail starts at once and mails the
// welcome of the game it reaches, with its players' own secrets; the
// players play that game by mail; its end records its result in the series,
// which mails its standings and the next game's welcome; and a result sent
// by mail is refused.
func TestSeriesByMail(t *testing.T) {
	ctx := context.Background()
	st := store.NewMemory()
	clock := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	svc := &games.Service{Store: st, Rules: seriesLookup, Now: func() time.Time { clock = clock.Add(time.Second); return clock }, Rand: &fixedRand{}}
	d := &referee.Desk{Games: svc, Templates: templates.Default(), From: compose.Address{Name: "Umpire", Address: "umpire@example.org"}, Referee: "ref@example.org"}
	d.HookSeries()
	f := &fixture{t: t, desk: d, st: st}
	out := f.handle(f.mail("ref@example.org", "command: new\nid: lg\nruleset: league\nscenario: league\noptions: {games: \"2\", turns: \"1\"}\nplayers:\n  red: red@example.org\n  blue: blue@example.org\n"))
	if out.Folder != referee.Processed || out.Game != "lg" {
		t.Fatalf("new: %+v", out)
	}
	for _, id := range []string{"lg", "lg-r1"} {
		if s := secretsOf(t, st, id); len(s) != 2 {
			t.Fatalf("game %s: welcome mails with secrets for %v", id, s)
		}
	}
	// The welcomes say what a series is, and which game of it a game is.
	for id, want := range map[string]string{"lg": "This is a series: umpire creates each of its games", "lg-r1": "This game is r1 of the series lg"} {
		msgs, err := st.Messages(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range msgs {
			if s := readSent(t, m); s.kind == "welcome" && (!strings.Contains(s.body, want) || (id == "lg" && !strings.Contains(s.subject, "waiting for its games"))) {
				t.Errorf("%s's welcome to %s lacks %q:\n%s\n%s", id, s.to, want, s.subject, s.body)
			}
		}
	}
	// A result mailed by a player is refused, and says why.
	sec := secretsOf(t, st, "lg")
	out = f.handle(f.mail("red@example.org", fmt.Sprintf("game: lg\nside: series\nsecret: %s\nturn: 1\nphase: result\norders:\n  key: r1\n", sec["red@example.org"])))
	if out.Folder != referee.Rejected {
		t.Fatalf("a mailed result: %+v", out)
	}
	play := func(id string) {
		secrets := secretsOf(t, st, id)
		for i := 0; ; i++ {
			g, err := svc.Load(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if g.Over() {
				return
			}
			if i > 40 {
				t.Fatalf("%s does not end", id)
			}
			for _, r := range g.Due() {
				if _, ok := g.Answered(r.ID); ok {
					continue
				}
				pl, _ := g.Player(r.Side)
				body := fmt.Sprintf("game: %s\nside: %s\nsecret: %s\n", id, r.Side, secrets[pl.Address]) + testrules.Answer(g.State, r)
				if out := f.handle(f.mail(pl.Address, body)); out.Folder != referee.Processed {
					t.Fatalf("%s, %s: %+v", id, r.Title, out)
				}
				break
			}
		}
	}
	play("lg-r1")
	// The end of race 1: the league's results to both players, race 2's welcomes.
	msgs, err := st.Messages(ctx, "lg")
	if err != nil {
		t.Fatal(err)
	}
	results := map[string]string{}
	for _, m := range msgs {
		if s := readSent(t, m); s.kind == "results" {
			results[s.to] = s.body
		}
	}
	for _, to := range []string{"red@example.org", "blue@example.org"} {
		if !strings.Contains(results[to], "game lg-r1 ended: ") || !strings.Contains(results[to], "r1: won by") || !strings.Contains(results[to], "race 2: ") {
			t.Errorf("the league's results to %s:\n%s", to, results[to])
		}
	}
	if s := secretsOf(t, st, "lg-r2"); len(s) != 2 {
		t.Fatalf("race 2's welcomes: %v", s)
	}
	play("lg-r2")
	lg, err := svc.Load(ctx, "lg")
	if err != nil {
		t.Fatal(err)
	}
	if !lg.Over() {
		t.Fatalf("the league is not over")
	}
}

// TestNewCampaignFindsItsRuleset: new-campaign creates a series with the
// ruleset whose kind is "campaign", and says so when there is none.
func TestNewCampaignFindsItsRuleset(t *testing.T) {
	st := store.NewMemory()
	svc := &games.Service{Store: st, Rules: seriesLookup, Rand: &fixedRand{}}
	d := &referee.Desk{Games: svc, Templates: templates.Default(), From: compose.Address{Name: "Umpire", Address: "umpire@example.org"}, Referee: "ref@example.org"}
	f := &fixture{t: t, desk: d, st: st}
	cmd := "command: new-campaign\nid: lg\noptions: {games: \"1\"}\nplayers:\n  red: red@example.org\n  blue: blue@example.org\n"
	if out := f.handle(f.mail("ref@example.org", cmd)); out.Folder != referee.Rejected {
		t.Fatalf("new-campaign with no campaign ruleset: %+v", out)
	}
	d.Rulesets = func() []adjudicator.Ruleset { return []adjudicator.Ruleset{testrules.Race, testrules.League} }
	out := f.handle(f.mail("ref@example.org", cmd))
	if out.Folder != referee.Processed || out.Game != "lg" {
		t.Fatalf("new-campaign: %+v", out)
	}
	g, err := svc.Load(context.Background(), "lg")
	if err != nil || g.Created.Ruleset != "league" || g.Created.Scenario != "league" {
		t.Fatalf("created %+v, %v", g, err)
	}
}
