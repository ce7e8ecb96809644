package referee_test

import (
	"context"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/mail/referee"
	"github.com/umpire-pbem/umpire/store/games"
)

// A mail that cannot be read at all, but answers one of the sender's
// games, is answered in that game's thread with what the game waits for,
// not in whichever of the sender's games comes first.
func TestUnreadableStaysInTheThread(t *testing.T) {
	f := newFixture(t)
	if _, err := f.desk.Games.Create(context.Background(), games.CreateRequest{ID: "race-2", Ruleset: "race", Scenario: "sprint", Referee: "ref@example.org",
		Options: map[string]string{"turns": "1"},
		Players: []games.Player{{Side: "blue", Address: "red@example.org"}, {Side: "red", Address: "green@example.org"}}}); err != nil {
		t.Fatal(err)
	}
	html := "Content-Type: text/html\r\n\r\n<p>bid 1</p>\r\n"
	cases := []struct {
		name, header, game, side string
	}{
		{"subject", "Subject: Re: [umpire race-2] game race-2\r\n", "race-2", "blue"},
		{"in-reply-to", "Subject: Re: my bid\r\nIn-Reply-To: <umpire.race-2.0123456789abcdef0123456789abcdef@example.org>\r\n", "race-2", "blue"},
		{"references", "Subject: bid\r\nReferences: <umpire.race-2.thread@example.org> <x@example.org>\r\n", "race-2", "blue"},
		{"a game the sender does not play", "Subject: Re: [umpire nope-9] game nope-9\r\n", "race-1", ""},
		{"no thread", "Subject: bid\r\n", "race-1", ""},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := len(f.outbox())
			raw := []byte("From: red@example.org\r\nMessage-ID: <u" + string(rune('a'+i)) + "@x>\r\n" + c.header + html)
			out := f.handle(raw)
			if out.Folder != referee.Rejected || out.Replies != 1 {
				t.Fatalf("%+v", out)
			}
			msgs := f.outbox()
			if len(msgs) != before+1 {
				t.Fatalf("%d replies", len(msgs)-before)
			}
			msg := msgs[len(msgs)-1]
			text := string(msg.Raw)
			if msg.Game != c.game || !strings.Contains(text, "umpire."+c.game+".thread@") {
				t.Errorf("reply in game %q, want %q:\n%s", msg.Game, c.game, text)
			}
			if !strings.Contains(text, "HTML") {
				t.Errorf("no advice:\n%s", text)
			}
			if c.side != "" && (!strings.Contains(text, "Your mail about game "+c.game+" (side "+c.side+")") || !strings.Contains(text, "YOU ("+c.side+"): turn 1, bids")) {
				t.Errorf("the reply does not say what %s waits for from %s:\n%s", c.game, c.side, text)
			}
		})
	}
}

// Orders whose YAML does not parse (a tab), sent in reply to a game's
// mail, are answered in that game's thread with what it waits for.
func TestBadYAMLStaysInTheThread(t *testing.T) {
	f := newFixture(t)
	raw := []byte("From: red@example.org\r\nMessage-ID: <tab@x>\r\nSubject: Re: [umpire race-1] game race-1\r\n\r\ngame: race-1\r\nside: red\r\nturn: 1\r\nphase: bid\r\norders:\r\n\tbid: 1\r\n")
	out := f.handle(raw)
	if out.Folder != referee.Rejected || out.Replies != 1 {
		t.Fatalf("%+v", out)
	}
	msgs := f.outbox()
	msg := msgs[len(msgs)-1]
	text := strings.ReplaceAll(string(msg.Raw), "=\r\n", "")
	if msg.Game != "race-1" || !strings.Contains(text, "yaml-tab") || !strings.Contains(text, "YOU (red): turn 1, bids") {
		t.Errorf("reply in game %q:\n%s", msg.Game, text)
	}
}
