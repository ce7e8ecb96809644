package referee_test

import (
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/mail/referee"
)

// TestWeightedGameByMail plays the beginning of a weighted Dragon Rage game
// by mail (DR-PTS-1): Alice, named for the invader, builds both armies;
// Bob, named for the defender, sees them in his results and takes the
// invader. From that mail on, Bob's address sends the invader's orders
// with the secret he was given and gets the invader's results; Alice's
// sends the defender's and gets the defender's, her setup first.
func TestWeightedGameByMail(t *testing.T) {
	t.Parallel() // its own store and desk
	g := newGoldenDesk(t)
	out, msgs := g.send("ref@example.org", "new game", "command: new\nid: weighted-1\nruleset: dragonrage\nscenario: weighted-nurkott\nplayers:\n  invader: alice@example.org\n  defender: bob@example.org\n")
	if out.Folder != referee.Processed {
		t.Fatalf("new: %+v", out)
	}
	alice := welcomeSecret([]string{goldenText(t, g.to(msgs, "alice@example.org"))})
	bob := welcomeSecret([]string{goldenText(t, g.to(msgs, "bob@example.org"))})
	if w := goldenText(t, g.to(msgs, "alice@example.org")); !strings.Contains(w, "both armies and the VP goal (weighted scenario, DR-PTS-1; then the defender's player picks his side)") {
		t.Errorf("Alice's welcome does not ask her for the build:\n%s", w)
	}

	// Alice builds; both read the armies, and Bob is asked for his side.
	out, msgs = g.send("alice@example.org", "Re: [umpire weighted-1] Welcome", "game: weighted-1\nside: invader\nsecret: "+alice+
		"\nturn: 0\nphase: build\norders:\n  invader: {GIANT: 5, HERO: 1}\n  defender: {HERO: 1, WZD: 1, WRG: 4, TRL: 3, ORC: 2, GOB: 3}\n  goal: 20\n")
	if out.Reason != "accepted+adjudicated" {
		t.Fatalf("the build: %+v", out)
	}
	for _, who := range []string{"alice@example.org", "bob@example.org"} {
		if m := goldenText(t, g.to(msgs, who)); !strings.Contains(m, "the defender's army, 72 points (72 to 77)") {
			t.Errorf("%s does not read the defender's army:\n%s", who, m)
		}
	}
	checkGolden(t, "weighted-choice-due", g.to(msgs, "bob@example.org"))

	// Bob takes the invader, with the secret he was given for the defender.
	out, msgs = g.send("bob@example.org", "Re: [umpire weighted-1] Results", "game: weighted-1\nside: defender\nsecret: "+bob+"\nturn: 0\nphase: choose\norders:\n  play: invader\n")
	if out.Reason != "accepted+adjudicated" {
		t.Fatalf("the choice: %+v", out)
	}
	if len(msgs) != 3 {
		t.Fatalf("%d mails after the choice, want Bob's acknowledgement with his results, Alice's results and the referee's copy", len(msgs))
	}
	toBob, toAlice := goldenText(t, g.to(msgs, "bob@example.org")), goldenText(t, g.to(msgs, "alice@example.org"))
	for _, want := range []string{"Orders received for game weighted-1, side defender", "Results of game weighted-1, for side invader.", "the defender's player takes the invader"} {
		if !strings.Contains(toBob, want) {
			t.Errorf("Bob's mail lacks %q:\n%s", want, toBob)
		}
	}
	if strings.Contains(toBob, "You set up now") {
		t.Errorf("Bob is asked for the defender's setup:\n%s", toBob)
	}
	for _, want := range []string{"Results of game weighted-1, for side defender.", "You set up now (defender"} {
		if !strings.Contains(toAlice, want) {
			t.Errorf("Alice's mail lacks %q:\n%s", want, toAlice)
		}
	}
	checkGolden(t, "weighted-chosen-builder", g.to(msgs, "alice@example.org"))

	// Alice may no longer speak for the invader, even with her secret.
	out, msgs = g.send("alice@example.org", "orders", "game: weighted-1\nside: invader\nsecret: "+alice+"\nturn: 1\nphase: movement\norders: []\n")
	if out.Reason != "wrong-side" || !strings.Contains(goldenText(t, g.to(msgs, "alice@example.org")), "play defender in game weighted-1, not invader") {
		t.Errorf("Alice's orders for the invader: %+v", out)
	}
	// Nor Bob for the defender.
	out, _ = g.send("bob@example.org", "orders", "game: weighted-1\nside: defender\nsecret: "+bob+"\nturn: 0\nphase: setup\norders: {HERO-2: \"0908\"}\n")
	if out.Reason != "wrong-side" {
		t.Errorf("Bob's orders for the defender: %+v", out)
	}
	// Alice sets the defender up with her own secret; the invader's turn
	// comes, and Bob gets the invader's results.
	out, msgs = g.send("alice@example.org", "setup", "game: weighted-1\nside: defender\nsecret: "+alice+"\nturn: 0\nphase: setup\norders: {GOB-1: \"0402\", GOB-2: \"0511\", GOB-3: \"0512\", ORC-1: \"0807\", ORC-2: \"0904\", TRL-1: \"1006\", TRL-2: \"1007\", TRL-3: \"0906\", WRG-1: \"1008\", WRG-2: \"1104\", WRG-3: \"1105\", WRG-4: \"1106\", HERO-2: \"0908\", WZD-1: \"1107\"}\n")
	if out.Reason != "accepted+adjudicated" || out.Side != "defender" {
		t.Fatalf("Alice's setup: %+v", out)
	}
	if m := goldenText(t, g.to(msgs, "bob@example.org")); !strings.Contains(m, "Results of game weighted-1, for side invader.") || !strings.Contains(m, "YOU (invader): turn 1, invader movement") {
		t.Errorf("Bob's results after the setup:\n%s", m)
	}
	// Bob's orders need no side line: his address plays the invader alone.
	out, _ = g.send("bob@example.org", "orders", "game: weighted-1\nsecret: "+bob+"\nturn: 1\nphase: movement\norders: []\n")
	if out.Reason != "accepted+adjudicated" || out.Side != "invader" {
		t.Errorf("Bob's invader movement: %+v", out)
	}
}
