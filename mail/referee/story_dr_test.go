package referee_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/rulesets"
	"github.com/umpire-pbem/umpire/mail/compose"
	"github.com/umpire-pbem/umpire/mail/referee"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
	"github.com/umpire-pbem/umpire/templates"
)

// TestWholeDragonRageByMail plays Esirien 2, "The Wild Horde", by mail to
// its end: the orders of the whole-game script as players mail them, with
// the game's own (seeded) dice rather than the script's, so a step the
// dice made illegal (a unit that fell) is answered with the rules'
// default instead, and once the script is spent every phase gets the
// default until the game ends. Every results mail's narrative must name
// every order of the other side that the reader may read, as played (see
// checkStory), with each adjudication told once, in order — also to the
// defender, who asked for results only when something is due from him,
// and so gets fewer mails, each telling everything since his last.
func TestWholeDragonRageByMail(t *testing.T) {
	t.Parallel() // the package's longest test: its own store and desk, run beside the other games by mail
	if testing.Short() {
		t.Skip("a whole game by mail, pictures included")
	}
	var script struct {
		Steps []struct {
			Side   adjudicator.Side
			Orders string
		}
	}
	src, err := os.ReadFile("../../adjudicator/dragonrage/testdata/games/e2-the-wild-horde.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(src, &script); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st := store.NewMemory()
	clock := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	svc := &games.Service{Store: st, Rules: rulesets.Lookup, Now: func() time.Time { clock = clock.Add(time.Second); return clock }, Rand: &fixedRand{}}
	d := &referee.Desk{Games: svc, Templates: templates.Default(), From: compose.Address{Name: "Umpire", Address: "umpire@example.org"}, Referee: "ref@example.org"}
	const id = "e2-story"
	players := map[string]adjudicator.Side{"alice@example.org": "invader", "bob@example.org": "defender"}
	c, err := svc.Create(ctx, games.CreateRequest{ID: id, Ruleset: "dragonrage", Scenario: "e2",
		Players: []games.Player{{Side: "invader", Address: "alice@example.org"}, {Side: "defender", Address: "bob@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	send := func(side adjudicator.Side, orders string) referee.Outcome {
		t.Helper()
		n++
		from := "alice@example.org"
		if side == "defender" {
			from = "bob@example.org"
		}
		body := fmt.Sprintf("Here are my orders.\n\ngame: %s\nside: %s\nsecret: %s\n%s\nCheers,\nA player\n", id, side, c.Secrets[side], strings.TrimRight(orders, "\n"))
		raw := fmt.Sprintf("From: %s\r\nTo: umpire@example.org\r\nSubject: orders\r\nMessage-ID: <e2-%d@example.org>\r\n\r\n%s", from, n, strings.ReplaceAll(body, "\n", "\r\n"))
		out, err := d.Handle(ctx, []byte(raw))
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	// The defender wants results only when something is due from him:
	// fewer mails, each telling everything since his last.
	if out := send("defender", "command: mail\nresults: due\n"); out.Folder != referee.Processed || out.Reason != "ask-mail" {
		t.Fatalf("command mail: %+v", out)
	}
	// def answers side's due request with the rules' default.
	def := func(side adjudicator.Side) bool {
		t.Helper()
		g, err := svc.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range g.Due() {
			if _, answered := g.Answered(r.ID); answered || r.Side != side {
				continue
			}
			ans, ok := g.DefaultAnswer(r)
			if !ok {
				t.Fatalf("no default answer for %+v", r)
			}
			if out := send(side, string(ans)); out.Folder != referee.Processed {
				t.Fatalf("the default answer to %s was refused: %+v\n%s", r.ID, out, ans)
			}
			return true
		}
		return false
	}
	// dueFrom reports whether side owes an answer now, and whether the
	// game is over.
	dueFrom := func(side adjudicator.Side) (bool, bool) {
		g, err := svc.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range g.Due() {
			if _, answered := g.Answered(r.ID); !answered && r.Side == side {
				return true, false
			}
		}
		return false, g.Over()
	}
	played, defaulted := 0, 0
	for _, s := range script.Steps {
		// The game's dice may have brought a phase the script's did not
		// (a melee where the script's had nobody left to fight): the
		// other side answers it by default first.
		for range 20 {
			due, over := dueFrom(s.Side)
			if due || over {
				break
			}
			other := adjudicator.Side("defender")
			if s.Side == other {
				other = "invader"
			}
			if !def(other) {
				t.Fatalf("nobody owes anything, yet the game is not over")
			}
			defaulted++
		}
		if _, over := dueFrom(s.Side); over {
			break
		}
		out := send(s.Side, s.Orders)
		if out.Folder == referee.Processed {
			played++
			continue
		}
		if !def(s.Side) {
			t.Fatalf("%s's step was refused (%s) and nothing is due from it:\n%s", s.Side, out.Reason, s.Orders)
		}
		defaulted++
	}
	for range 400 {
		g, err := svc.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if g.Over() {
			break
		}
		moved := false
		for _, side := range []adjudicator.Side{"defender", "invader"} {
			if def(side) {
				moved, defaulted = true, defaulted+1
				break
			}
		}
		if !moved {
			t.Fatal("the game waits for nobody and is not over")
		}
	}
	g, err := svc.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if !g.Over() {
		t.Fatal("the game did not end")
	}
	t.Logf("%d script steps played as written, %d answers by default, %d adjudications", played, defaulted, g.K)
	if played < len(script.Steps)/2 {
		t.Errorf("only %d of %d script steps could be played: the test no longer plays the scenario", played, len(script.Steps))
	}
	checkStory(t, st, id, players, "2-5-4(6) on a counter")
	msgs, err := st.Messages(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, m := range msgs {
		if s := readSent(t, m); s.kind == "results" {
			count[s.to]++
		}
	}
	if count["bob@example.org"] >= count["alice@example.org"] || count["bob@example.org"] == 0 {
		t.Errorf("results mails: %d to the defender (only when due), %d to the invader (every adjudication): want fewer to the defender", count["bob@example.org"], count["alice@example.org"])
	}
	t.Logf("results mails: defender %d, invader %d", count["bob@example.org"], count["alice@example.org"])
}
