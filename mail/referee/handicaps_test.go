package referee_test

import (
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/mail/referee"
)

// TestDRHCAP1To3ByMail: "command: handicaps" answers the referee with the
// handicaps of the finished games, per pair and combined (DR-HCAP-1,
// DR-HCAP-2); "command: new" with "handicap: pair" gives the game the
// goal-adjust of DR-HCAP-3, and the referee's reply and both welcomes say
// it and why; what cannot take a handicap is refused, saying where.
func TestDRHCAP1To3ByMail(t *testing.T) {
	t.Parallel() // its own store and desk
	g := newGoldenDesk(t)
	game := func(id, invader, defender, loser string) {
		t.Helper()
		if out, _ := g.send("ref@example.org", "new", "command: new\nid: "+id+"\nruleset: dragonrage\nscenario: e2\nplayers:\n  invader: "+invader+"\n  defender: "+defender+"\n"); out.Folder != referee.Processed {
			t.Fatalf("new %s: %+v", id, out)
		}
		if out, _ := g.send("ref@example.org", "end", "command: end\ngame: "+id+"\nresult: the referee ends it\nloser: "+loser+"\n"); out.Folder != referee.Processed {
			t.Fatalf("end %s: %+v", id, out)
		}
	}
	// Alice beats Bob three times, Bob beats her once, and Bob beats Carol.
	game("g1", "alice@example.org", "bob@example.org", "defender")
	game("g2", "alice@example.org", "bob@example.org", "defender")
	game("g3", "bob@example.org", "alice@example.org", "defender")
	game("g4", "bob@example.org", "alice@example.org", "invader")
	game("g5", "bob@example.org", "carol@example.org", "defender")

	out, msgs := g.send("ref@example.org", "handicaps", "command: handicaps\n")
	if out.Folder != referee.Processed {
		t.Fatalf("handicaps: %+v", out)
	}
	text := goldenText(t, g.to(msgs, "ref@example.org"))
	for _, want := range []string{
		"from 5 finished dragonrage games.",
		"  alice@example.org  +2        bob@example.org    -2        4      3-1-0\n",
		"  bob@example.org    +1        carol@example.org  -1        1      1-0-0\n",
		"  alice@example.org  +2        4      1          3-1-0           the best player of the group\n",
		"  bob@example.org    -1        5      2          2-3-0\n",
		"  carol@example.org  -1        1      1          0-1-0\n",
		`"handicap: pair" or "handicap: combined"`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the handicaps reply lacks %q:\n%s", want, text)
		}
	}
	_, msgs = g.send("ref@example.org", "handicaps", "command: handicaps\naddress: Carol@example.org\n")
	if text := goldenText(t, g.to(msgs, "ref@example.org")); !strings.Contains(text, "  carol@example.org  -1        bob@example.org  +1        1      0-1-0\n") || strings.Contains(text, "alice") {
		t.Errorf("Carol's handicaps:\n%s", text)
	}
	if out, _ := g.send("bob@example.org", "handicaps", "command: handicaps\n"); out.Folder != referee.Rejected {
		t.Errorf("a player listed the handicaps: %+v", out)
	}

	// Bob invades Alice, the better player: the invader needs 1 fewer VP
	// ((2 - -2) / 2 = 2 for the pair).
	out, msgs = g.send("ref@example.org", "new", "command: new\nid: h1\nruleset: dragonrage\nscenario: e2\nhandicap: pair\nplayers:\n  invader: bob@example.org\n  defender: alice@example.org\n")
	if out.Folder != referee.Processed {
		t.Fatalf("new with a handicap: %+v", out)
	}
	const why = "Handicap (pair): the invader bob@example.org -2 and the defender alice@example.org +2 over 4 games between them; the better player defends: the invader needs 2 fewer VP ((+2 - -2) / 2, rounded down); goal-adjust=-2 (DR-HCAP-3)."
	for _, who := range []string{"ref@example.org", "alice@example.org", "bob@example.org"} {
		if text := goldenText(t, g.to(msgs, who)); !strings.Contains(strings.Join(strings.Fields(text), " "), why) {
			t.Errorf("the mail to %s does not say the handicap:\n%s", who, text)
		}
	}
	if gm, err := g.svc.Load(t.Context(), "h1"); err != nil || gm.Created.Options["goal-adjust"] != "-2" {
		t.Errorf("h1 was created with %v (%v)", gm.Created.Options, err)
	}
	// Without a handicap, no welcome speaks of one.
	_, msgs = g.send("ref@example.org", "new", "command: new\nid: h2\nruleset: dragonrage\nscenario: e2\nplayers:\n  invader: bob@example.org\n  defender: alice@example.org\n")
	if text := goldenText(t, g.to(msgs, "alice@example.org")); strings.Contains(text, "andicap") {
		t.Errorf("a welcome without a handicap:\n%s", text)
	}

	for _, bad := range []struct{ body, want string }{
		{"command: new\nruleset: dragonrage\nscenario: e2\noptions: {goal-adjust: \"+1\"}\nhandicap: pair\nplayers:\n  invader: bob@example.org\n  defender: alice@example.org\n",
			"The game was not created:\nline 5, column 11: handicap: the option goal-adjust=+1 is given too"},
		{"command: new\nruleset: dragonrage\nscenario: e2\nhandicap: best\nplayers:\n  invader: bob@example.org\n  defender: alice@example.org\n",
			"line 4, column 11: handicap \"best\": write pair"},
		{"command: new\nruleset: dragonrage\nscenario: weighted-esirien\nhandicap: combined\nplayers:\n  invader: bob@example.org\n  defender: alice@example.org\n",
			"The game was not created: the handicap (combined) set goal-adjust=-1, and the game refuses it: option goal-adjust=-1: in the weighted scenario"},
		{"command: handicaps\naddress: bob\n", "address: \"bob\" is not one mail address"},
		{"command: handicaps\nruleset: chess\n", "no ruleset \"chess\""},
	} {
		out, msgs := g.send("ref@example.org", "bad", bad.body)
		if out.Folder != referee.Rejected {
			t.Errorf("%q: %+v", bad.body, out)
			continue
		}
		if text := goldenText(t, g.to(msgs, "ref@example.org")); !strings.Contains(text, bad.want) {
			t.Errorf("the refusal of %q lacks %q:\n%s", bad.body, bad.want, text)
		}
	}
}
