package referee_test

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/mail/referee"
	"github.com/umpire-pbem/umpire/store/games"
)

func pressMail(id string, secrets map[adjudicator.Side]string, from, to, text string) string {
	return fmt.Sprintf("command: press\ngame: %s\nside: %s\nsecret: %s\nto: %s\ntext: |\n  %s\n", id, from, secrets[adjudicator.Side(from)], to, text)
}

// pressEvents returns the payloads of game id's press.sent events.
func (f *fixture) pressEvents(id string) [][]byte {
	evs, err := f.st.Events(context.Background(), id, 1)
	if err != nil {
		f.t.Fatal(err)
	}
	var out [][]byte
	for _, e := range evs {
		if e.Type == game.TypePressSent {
			out = append(out, e.Payload)
		}
	}
	return out
}

// TestPressOff: without the press option, press is refused politely and
// nothing is recorded.
func TestPressOff(t *testing.T) {
	f := newFixture(t)
	secrets := f.raceGame("race-p0", map[string]string{"turns": "1"})
	n := len(f.outbox())
	out := f.handle(f.mail("red@example.org", pressMail("race-p0", secrets, "red", "blue", "hello")))
	if out.Folder != referee.Rejected || out.Replies != 1 {
		t.Fatalf("press in a game without press: %+v", out)
	}
	if b := f.bodies(n, "red@example.org"); len(b) != 1 || !strings.Contains(b[0], "has no press") {
		t.Errorf("the refusal: %q", b)
	}
	if len(f.bodies(n, "blue@example.org")) != 0 || len(f.pressEvents("race-p0")) != 0 {
		t.Error("press off, yet something was delivered or recorded")
	}
}

// TestPressOpen: every side reads open press, with who wrote to whom; the
// event holds it in the clear.
func TestPressOpen(t *testing.T) {
	f := newFixture(t)
	secrets := f.raceGame("race-po", map[string]string{"turns": "1", "press": "open"})
	n := len(f.outbox())
	out := f.handle(f.mail("red@example.org", pressMail("race-po", secrets, "red", "blue", "open-words-1")))
	if out.Folder != referee.Processed || out.Reason != "press" {
		t.Fatalf("open press: %+v", out)
	}
	blue := f.bodies(n, "blue@example.org")
	if len(blue) != 1 || !strings.Contains(blue[0], "red wrote to blue") || !strings.Contains(blue[0], "open-words-1") || !strings.Contains(blue[0], "to: red") {
		t.Errorf("blue's press mail: %q", blue)
	}
	red := f.bodies(n, "red@example.org")
	if len(red) != 1 || !strings.Contains(red[0], "was delivered") || strings.Contains(red[0], secrets["red"]) {
		t.Errorf("red's acknowledgement: %q", red)
	}
	if len(f.bodies(n, "ref@example.org")) != 0 {
		t.Error("the referee got a copy of open press")
	}
	evs := f.pressEvents("race-po")
	if len(evs) != 1 || !bytes.Contains(evs[0], []byte("open-words-1")) || bytes.Contains(evs[0], []byte(`"sealed"`)) {
		t.Errorf("the open press event: %s", evs)
	}
	for _, e := range evs {
		if bytes.Contains(e, []byte(secrets["red"])) {
			t.Error("the press event holds red's secret")
		}
	}
}

// TestPressPrivate: the addressee and the referee alone read private
// press; the log and a mid-game bundle hold only a commitment, revealed
// when the game ends, and the audit of the log and bundle passes.
func TestPressPrivate(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	secrets := f.raceGame("race-pp", map[string]string{"turns": "1", "press": "private"})
	n := len(f.outbox())
	if out := f.handle(f.mail("red@example.org", pressMail("race-pp", secrets, "red", "blue", "private-words-xyzzy"))); out.Folder != referee.Processed {
		t.Fatalf("private press: %+v", out)
	}
	if b := f.bodies(n, "blue@example.org"); len(b) != 1 || !strings.Contains(b[0], "red wrote to you (blue)") || !strings.Contains(b[0], "private-words-xyzzy") {
		t.Errorf("blue's press mail: %q", b)
	}
	if b := f.bodies(n, "ref@example.org"); len(b) != 1 || !strings.Contains(b[0], "referee's copy") || !strings.Contains(b[0], "private-words-xyzzy") {
		t.Errorf("the referee's copy: %q", b)
	}
	if b := f.bodies(n, "red@example.org"); len(b) != 1 || !strings.Contains(b[0], "delivered") {
		t.Errorf("red's acknowledgement: %q", b)
	}
	// Red writes to every side: under private press, every side reads it.
	if out := f.handle(f.mail("red@example.org", pressMail("race-pp", secrets, "red", "all", "to-all-words"))); out.Folder != referee.Processed {
		t.Fatalf("private press to all: %+v", out)
	}
	evs := f.pressEvents("race-pp")
	if len(evs) != 2 || bytes.Contains(evs[0], []byte("xyzzy")) || bytes.Contains(evs[0], []byte("red")) || !bytes.Contains(evs[0], []byte(`"sealed"`)) {
		t.Fatalf("the private press event: %s", evs)
	}
	if !bytes.Contains(evs[1], []byte("to-all-words")) {
		t.Errorf("private press to all is sealed: %s", evs[1])
	}
	all, _ := f.st.Events(ctx, "race-pp", 1)
	for _, e := range all {
		if bytes.Contains(e.Payload, []byte("xyzzy")) {
			t.Errorf("event %d (%s) holds the private text", e.Seq, e.Type)
		}
		if e.Type == game.TypePressSent && e.Actor != game.ActorEngine && bytes.Contains(e.Payload, []byte(`"sealed"`)) {
			t.Errorf("a sealed press event names its sender as actor %q", e.Actor)
		}
	}
	var bundle bytes.Buffer
	if err := f.desk.Games.Export(ctx, "race-pp", &bundle); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(bundle.Bytes(), []byte("xyzzy")) {
		t.Error("a mid-game bundle holds the private text")
	}
	if a, err := games.VerifyBundle(bytes.NewReader(bundle.Bytes()), lookup, games.Known{}); err != nil || !a.OK() || a.Sealed != 1 {
		t.Errorf("the mid-game bundle: %+v %v", a, err)
	}
	// The game ends: the press is revealed in the log and the bundle.
	for i := 0; i < 3; i++ {
		f.step("race-pp", secrets)
	}
	g, _ := f.desk.Games.Load(ctx, "race-pp")
	if !g.Over() {
		t.Fatal("the game is not over")
	}
	all, _ = f.st.Events(ctx, "race-pp", 1)
	revealed := false
	for _, e := range all {
		revealed = revealed || (e.Type == game.TypeRevealed && bytes.Contains(e.Payload, []byte("private-words-xyzzy")))
	}
	if !revealed {
		t.Error("the private press is not revealed at the end of the game")
	}
	bundle.Reset()
	if err := f.desk.Games.Export(ctx, "race-pp", &bundle); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(bundle.Bytes(), []byte("private-words-xyzzy")) {
		t.Error("the final bundle lacks the press")
	}
	if a, err := games.VerifyBundle(bytes.NewReader(bundle.Bytes()), lookup, games.Known{}); err != nil || !a.OK() || a.Sealed != 0 {
		t.Errorf("the final bundle: %+v %v", a, err)
	}
	// Press ends with the game.
	if out := f.handle(f.mail("red@example.org", pressMail("race-pp", secrets, "red", "blue", "late"))); out.Folder != referee.Rejected {
		t.Errorf("press after the game: %+v", out)
	}
}

// TestPressGrey: the addressee reads grey press without its sender; the
// referee's copy names it.
func TestPressGrey(t *testing.T) {
	f := newFixture(t)
	secrets := f.raceGame("race-pg", map[string]string{"turns": "1", "press": "grey"})
	n := len(f.outbox())
	if out := f.handle(f.mail("red@example.org", pressMail("race-pg", secrets, "red", "blue", "grey-words"))); out.Folder != referee.Processed {
		t.Fatalf("grey press: %+v", out)
	}
	blue := f.bodies(n, "blue@example.org")
	if len(blue) != 1 || !strings.Contains(blue[0], "grey-words") || !strings.Contains(blue[0], "the sender is not named") {
		t.Fatalf("blue's grey press: %q", blue)
	}
	if regexp.MustCompile(`\bred\b`).MatchString(blue[0]) {
		t.Errorf("blue's grey press names red:\n%s", blue[0])
	}
	if b := f.bodies(n, "ref@example.org"); len(b) != 1 || !strings.Contains(b[0], "red wrote to blue") {
		t.Errorf("the referee's copy: %q", b)
	}
	if evs := f.pressEvents("race-pg"); len(evs) != 1 || bytes.Contains(evs[0], []byte("red")) || bytes.Contains(evs[0], []byte("grey-words")) {
		t.Errorf("the grey press event: %s", evs)
	}
}

// TestPressMistakes: a wrong side, one's own side, a text too long, no
// secret: each refused with its line; nothing recorded.
func TestPressMistakes(t *testing.T) {
	f := newFixture(t)
	secrets := f.raceGame("race-pm", map[string]string{"turns": "1", "press": "open"})
	for _, c := range []struct{ body, want string }{
		{pressMail("race-pm", secrets, "red", "green", "x"), "line 5, column 1: to: game race-pm has no side \"green\""},
		{pressMail("race-pm", secrets, "red", "red", "x"), "your own side"},
		{pressMail("race-pm", secrets, "red", "blue", strings.Repeat("x", game.MaxPressText+1)), "a message may have 8192"},
		{"command: press\ngame: race-pm\nside: red\nto: blue\ntext: hi\n", "secret for side red is missing or wrong"},
		{"command: press\ngame: race-pm\nside: red\nsecret: " + secrets["red"] + "\ntext: hi\n", "say to whom"},
		{"command: press\ngame: race-pm\nside: red\nsecret: " + secrets["red"] + "\nto: blue\ntxt: hi\n", "txt"},
	} {
		n := len(f.outbox())
		out := f.handle(f.mail("red@example.org", c.body))
		b := f.bodies(n, "red@example.org")
		if out.Folder != referee.Rejected || len(b) != 1 || !strings.Contains(b[0], c.want) {
			t.Errorf("%q: %+v\n%q", c.want, out, b)
		}
	}
	if len(f.pressEvents("race-pm")) != 0 {
		t.Error("a refused press was recorded")
	}
}

// TestPressWrongSecretCounts: wrong secrets in press mails count toward
// the pause on guessing, like those in order mails.
func TestPressWrongSecretCounts(t *testing.T) {
	f := newFixture(t)
	secrets := f.raceGame("race-pw", map[string]string{"turns": "1", "press": "open"})
	wrong := map[adjudicator.Side]string{"red": "aaaaaaaaaaaaaaa"}
	for i := 1; i <= referee.DefaultSecretGuesses; i++ {
		out := f.handle(f.mail("red@example.org", pressMail("race-pw", wrong, "red", "blue", "x")))
		if out.Folder != referee.Rejected || out.Reason != "bad-secret" {
			t.Fatalf("wrong secret %d: %+v", i, out)
		}
	}
	// Guessing is paused: even the right secret is refused unread.
	if out := f.handle(f.mail("red@example.org", pressMail("race-pw", secrets, "red", "blue", "x"))); out.Reason != "paused" {
		t.Errorf("press after %d wrong secrets: %+v", referee.DefaultSecretGuesses, out)
	}
	body := fmt.Sprintf("game: race-pw\nside: red\nsecret: %s\nturn: 1\nphase: bid\norders: {bid: 1}\n", secrets["red"])
	if out := f.handle(f.mail("red@example.org", body)); out.Reason != "paused" {
		t.Errorf("orders after wrong secrets in press: %+v", out)
	}
}
