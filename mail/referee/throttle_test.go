package referee_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"mime/quotedprintable"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/mail/compose"
	"github.com/umpire-pbem/umpire/mail/referee"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
	"github.com/umpire-pbem/umpire/templates"
)

// testClock is the desk's clock in these tests: it moves only when told
// (and by a second at each reading, as mail arrives one after another).
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Second)
	return c.t
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// safeBuffer collects the desk's log.
type safeBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *safeBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *safeBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// guessFixture is a desk on st with a clock the test moves and a log it
// reads; newDesk makes another desk on the same store (a restart).
type guessFixture struct {
	*fixture
	clock *testClock
	logs  *safeBuffer
}

func newGuessFixture(t *testing.T, st store.Store) *guessFixture {
	g := &guessFixture{clock: &testClock{t: time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)}, logs: &safeBuffer{}}
	g.fixture = &fixture{t: t, st: st}
	g.newDesk()
	c, err := g.desk.Games.Create(context.Background(), games.CreateRequest{ID: "race-1", Ruleset: "race", Scenario: "sprint", Referee: "ref@example.org",
		Options: map[string]string{"turns": "1"},
		Players: []games.Player{{Side: "red", Address: "Red@Example.org"}, {Side: "blue", Address: "blue@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
	g.secrets = c.Secrets
	return g
}

func (g *guessFixture) newDesk() {
	svc := &games.Service{Store: g.st, Rules: lookup, Now: g.clock.Now}
	g.desk = &referee.Desk{Games: svc, Templates: templates.Default(), From: compose.Address{Name: "Umpire", Address: "umpire@example.org"},
		Referee: "ref@example.org", Log: slog.New(slog.NewTextHandler(g.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))}
}

// guess is red's bid with secret instead of red's.
func (g *guessFixture) guess(secret string) string {
	return strings.Replace(g.bid("red", 1), "secret: "+g.secrets["red"], "secret: "+secret, 1)
}

// sent is the outbox after its first from messages.
func (g *guessFixture) sent(from int) []store.Message {
	return g.outbox()[from:]
}

// decodedMail is a mail with its body decoded from quoted-printable.
func decodedMail(m store.Message) string {
	head, body, _ := strings.Cut(string(m.Raw), "\r\n\r\n")
	dec, err := io.ReadAll(quotedprintable.NewReader(strings.NewReader(body)))
	if err != nil {
		return string(m.Raw)
	}
	return head + "\r\n\r\n" + string(dec)
}

func mailsTo(msgs []store.Message, addr string) []store.Message {
	var out []store.Message
	for _, m := range msgs {
		if strings.EqualFold(m.To[0], addr) {
			out = append(out, m)
		}
	}
	return out
}

func (g *guessFixture) version() uint64 {
	v, err := g.st.Version(context.Background(), "race-1")
	if err != nil {
		g.t.Fatal(err)
	}
	return v
}

// TestWrongSecretsPauseGuessing: five wrong secrets, then the sixth mail —
// even with the right secret — is refused unread until the pause ends; the
// player and the referee are told once; blue plays on.
func TestWrongSecretsPauseGuessing(t *testing.T) {
	g := newGuessFixture(t, store.NewMemory())
	guesses := []string{"guess-aaaa1", "guess-bbbb2", "guess-cccc3", "guess-dddd4", "guess-eeee5"}
	for i, s := range guesses {
		n := len(g.outbox())
		out := g.handle(g.mail("red@example.org", g.guess(s)))
		if out.Folder != referee.Rejected || out.Reason != "bad-secret" {
			t.Fatalf("wrong secret %d: %+v", i+1, out)
		}
		msgs := g.sent(n)
		want := 1
		if i == 4 {
			want = 3 // the reply and the two notices
		}
		if len(msgs) != want || out.Replies != want {
			t.Fatalf("wrong secret %d queued %d mails (outcome says %d), want %d", i+1, len(msgs), out.Replies, want)
		}
		reply := decodedMail(msgs[0])
		if !strings.Contains(reply, "secret for side red is missing or wrong") || !strings.Contains(reply, "secret: (hidden)") {
			t.Errorf("reply %d:\n%s", i+1, reply)
		}
		if paused := strings.Contains(reply, "guessing is paused.\r\nUntil 2026-11-22 11:00:"); paused != (i == 4) {
			t.Errorf("reply %d says paused %v:\n%s", i+1, paused, reply)
		}
	}
	all := g.outbox()
	owner, ref := mailsTo(all, "Red@Example.org"), mailsTo(all, "ref@example.org")
	if len(ref) != 1 || len(owner) != 6 { // five replies and the notice
		t.Fatalf("the referee got %d mails (want 1), red %d (want 6)", len(ref), len(owner))
	}
	var notice string
	for _, m := range owner {
		if s := decodedMail(m); strings.Contains(s, "Notice: ") {
			notice = s
		}
	}
	for _, want := range []string{"Notice: guessing the secret of side red in game race-1 is paused",
		"5 order mails with a wrong secret were received within 1 hour",
		"2026-11-22 10:00:", "from red@example.org  for game race-1, side red",
		"Until 2026-11-22 11:00:", "refused unread, even with the", "ask the referee (ref@example.org)"} {
		if !strings.Contains(notice, want) {
			t.Errorf("the player's notice lacks %q:\n%s", want, notice)
		}
	}
	refNotice := decodedMail(ref[0])
	for _, want := range []string{"Referee's notice", "The side's player is Red@Example.org", "command: unlock\r\n  game: race-1\r\n  side: red"} {
		if !strings.Contains(refNotice, want) {
			t.Errorf("the referee's notice lacks %q:\n%s", want, refNotice)
		}
	}

	// The sixth mail carries the right secret: refused unread all the same.
	before := g.version()
	n := len(g.outbox())
	out := g.handle(g.mail("red@example.org", g.bid("red", 1)))
	if out.Folder != referee.Rejected || out.Reason != "paused" || out.Replies != 1 {
		t.Fatalf("the right secret during the pause: %+v", out)
	}
	reply := decodedMail(g.sent(n)[0])
	for _, want := range []string{"was not read", "guessing is paused.\r\nUntil 2026-11-22 11:00:", "UTC", "ask the referee (ref@example.org)"} {
		if !strings.Contains(reply, want) {
			t.Errorf("the paused reply lacks %q:\n%s", want, reply)
		}
	}
	// More guesses: refused unread, not counted, no more notices.
	for i := 0; i < 3; i++ {
		if out := g.handle(g.mail("red@example.org", g.guess(fmt.Sprintf("again-%d", i)))); out.Reason != "paused" || out.Replies != 1 {
			t.Fatalf("a guess during the pause: %+v", out)
		}
	}
	if v := g.version(); v != before {
		t.Fatalf("the game changed during the pause: version %d, was %d", v, before)
	}
	if r := mailsTo(g.outbox(), "ref@example.org"); len(r) != 1 {
		t.Errorf("the referee was told %d times, want once", len(r))
	}
	// Blue, another address and side, plays on.
	if out := g.handle(g.mail("blue@example.org", g.bid("blue", 0))); out.Reason != "accepted" {
		t.Errorf("blue during red's pause: %+v", out)
	}

	// The log warned, and never carried a secret or an orders text.
	logs := g.logs.String()
	if !strings.Contains(logs, "level=WARN") || !strings.Contains(logs, "guessing is paused") {
		t.Errorf("no warning in the log:\n%s", logs)
	}
	for _, s := range append(guesses, g.secrets["red"], g.secrets["blue"], "again-0", "bid: 1", "phase: bid") {
		if strings.Contains(logs, s) {
			t.Errorf("the log carries %q:\n%s", s, logs)
		}
	}
	// No reply or notice quotes a guess.
	for _, m := range g.outbox() {
		for _, s := range append(guesses, "again-0") {
			if strings.Contains(decodedMail(m), s) {
				t.Errorf("mail to %s quotes the guess %q", m.To[0], s)
			}
		}
	}

	// An hour later the pause is over and red's right secret is read.
	g.clock.Advance(time.Hour)
	if out := g.handle(g.mail("red@example.org", g.bid("red", 1))); !strings.HasPrefix(out.Reason, "accepted") {
		t.Fatalf("red's bid after the pause: %+v", out)
	}
}

// TestGuessCountsSurviveARestart: the counts and the pause are in the data
// file, written with each rejection.
func TestGuessCountsSurviveARestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "umpire.db")
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	g := newGuessFixture(t, st)
	for i := 0; i < 3; i++ {
		g.handle(g.mail("red@example.org", g.guess(fmt.Sprintf("before-%d", i))))
	}
	restart := func() {
		t.Helper()
		if err := g.st.(*store.Bolt).Close(); err != nil {
			t.Fatal(err)
		}
		st, err := store.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		g.st = st
		g.newDesk()
	}
	restart()
	t.Cleanup(func() { g.st.(*store.Bolt).Close() })
	for i := 0; i < 2; i++ {
		if out := g.handle(g.mail("red@example.org", g.guess(fmt.Sprintf("after-%d", i)))); out.Reason != "bad-secret" {
			t.Fatalf("guess %d after the restart: %+v", 4+i, out)
		}
	}
	if n := len(mailsTo(g.outbox(), "ref@example.org")); n != 1 {
		t.Fatalf("the referee was told %d times after 3+2 wrong secrets around a restart, want 1", n)
	}
	restart()
	if out := g.handle(g.mail("red@example.org", g.bid("red", 1))); out.Reason != "paused" {
		t.Fatalf("the pause did not survive a restart: %+v", out)
	}
}

// TestGuessCountsExpire: wrong secrets older than the window are forgotten.
func TestGuessCountsExpire(t *testing.T) {
	g := newGuessFixture(t, store.NewMemory())
	for i := 0; i < 4; i++ {
		g.handle(g.mail("red@example.org", g.guess(fmt.Sprintf("early-%d", i))))
	}
	g.clock.Advance(time.Hour)
	for i := 0; i < 4; i++ {
		if out := g.handle(g.mail("red@example.org", g.guess(fmt.Sprintf("late-%d", i)))); out.Reason != "bad-secret" || out.Replies != 1 {
			t.Fatalf("wrong secret %d an hour later: %+v", i+1, out)
		}
	}
	if n := len(mailsTo(g.outbox(), "ref@example.org")); n != 0 {
		t.Fatalf("8 wrong secrets, never 5 within an hour, told the referee %d times", n)
	}
	if out := g.handle(g.mail("red@example.org", g.bid("red", 1))); out.Reason != "accepted" {
		t.Fatalf("the right secret: %+v", out)
	}
	// A mail without a secret is a mistake, not a guess: never counted.
	noSecret := strings.Replace(g.bid("blue", 0), "secret: "+g.secrets["blue"]+"\n", "", 1)
	for i := 0; i < 7; i++ {
		g.handle(g.mail("blue@example.org", noSecret+fmt.Sprintf("# %d\n", i)))
	}
	if out := g.handle(g.mail("blue@example.org", g.bid("blue", 0))); !strings.HasPrefix(out.Reason, "accepted") {
		t.Fatalf("blue after mails without a secret: %+v", out)
	}
}

// TestPauseIsPerAddressAndSide: red's pause covers red's address in every
// game and nobody else.
func TestPauseIsPerAddressAndSide(t *testing.T) {
	g := newGuessFixture(t, store.NewMemory())
	ctx := context.Background()
	c2, err := g.desk.Games.Create(ctx, games.CreateRequest{ID: "race-2", Ruleset: "race", Scenario: "sprint", Referee: "other-ref@example.org",
		Players: []games.Player{{Side: "red", Address: "carol@example.org"}, {Side: "blue", Address: "red@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		g.handle(g.mail("red@example.org", g.guess(fmt.Sprintf("g-%d", i))))
	}
	// race-2's red is another address and side: unaffected.
	carol := fmt.Sprintf("game: race-2\nside: red\nsecret: %s\nturn: 1\nphase: bid\norders:\n  bid: 1\n", c2.Secrets["red"])
	if out := g.handle(g.mail("carol@example.org", carol)); out.Reason != "accepted" {
		t.Errorf("carol in race-2: %+v", out)
	}
	// The paused address is paused in race-2 too, where it plays blue.
	blue2 := fmt.Sprintf("game: race-2\nside: blue\nsecret: %s\nturn: 1\nphase: bid\norders:\n  bid: 0\n", c2.Secrets["blue"])
	if out := g.handle(g.mail("red@example.org", blue2)); out.Reason != "paused" {
		t.Errorf("the paused address in another game: %+v", out)
	}
	// Its notices went to race-1's referee only.
	if n := len(mailsTo(g.outbox(), "other-ref@example.org")); n != 0 {
		t.Errorf("race-2's referee got %d notices", n)
	}
}

// TestRefereeLiftsThePause: "command: unlock" from the referee.
func TestRefereeLiftsThePause(t *testing.T) {
	g := newGuessFixture(t, store.NewMemory())
	for i := 0; i < 5; i++ {
		g.handle(g.mail("red@example.org", g.guess(fmt.Sprintf("u-%d", i))))
	}
	// A player may not.
	if out := g.handle(g.mail("red@example.org", "command: unlock\ngame: race-1\nside: red\n")); out.Folder != referee.Rejected {
		t.Fatalf("a player's unlock: %+v", out)
	}
	if out := g.handle(g.mail("ref@example.org", "command: unlock\ngame: race-1\nside: green\n")); out.Reason != "command-unlock-refused" {
		t.Fatalf("unlock of a side that does not exist: %+v", out)
	}
	n := len(g.outbox())
	out := g.handle(g.mail("ref@example.org", "command: unlock\ngame: race-1\nside: red\n"))
	if out.Folder != referee.Processed || out.Reason != "command-unlock" {
		t.Fatalf("the referee's unlock: %+v", out)
	}
	if reply := decodedMail(g.sent(n)[0]); !strings.Contains(reply, "Done: unlock") || !strings.Contains(reply, "no longer paused for side red and red@example.org") {
		t.Errorf("unlock reply:\n%s", reply)
	}
	if out := g.handle(g.mail("red@example.org", g.bid("red", 1))); out.Reason != "accepted" {
		t.Fatalf("red after the unlock: %+v", out)
	}
	// With a referee secret, the command needs it.
	g.desk.RefereeSecret = "ref-secret"
	if out := g.handle(g.mail("ref@example.org", "command: unlock\ngame: race-1\n")); out.Reason != "command-unlock-refused" {
		t.Errorf("unlock without the referee secret: %+v", out)
	}
	if out := g.handle(g.mail("ref@example.org", "command: unlock\ngame: race-1\nsecret: ref-secret\n")); out.Reason != "command-unlock" {
		t.Errorf("unlock with the referee secret: %+v", out)
	}
}

// TestGuessLimitIsConfigurable: Desk.SecretGuesses and SecretWindow.
func TestGuessLimitIsConfigurable(t *testing.T) {
	g := newGuessFixture(t, store.NewMemory())
	g.desk.SecretGuesses, g.desk.SecretWindow = 2, 10*time.Minute
	g.handle(g.mail("red@example.org", g.guess("c-1")))
	g.handle(g.mail("red@example.org", g.guess("c-2")))
	out := g.handle(g.mail("red@example.org", g.bid("red", 1)))
	if out.Reason != "paused" {
		t.Fatalf("after 2 of 2: %+v", out)
	}
	if reply := decodedMail(g.outbox()[len(g.outbox())-1]); !strings.Contains(reply, "(2 within 10 minutes)") || !strings.Contains(reply, "Until 2026-11-22 10:1") {
		t.Errorf("reply:\n%s", reply)
	}
	g.clock.Advance(10 * time.Minute)
	if out := g.handle(g.mail("red@example.org", g.bid("red", 1))); out.Reason != "accepted" {
		t.Fatalf("after the pause: %+v", out)
	}
}
