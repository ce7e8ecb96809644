package referee_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime/quotedprintable"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/mail/compose"
	"github.com/umpire-pbem/umpire/mail/referee"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
	"github.com/umpire-pbem/umpire/templates"
)

// clockDesk is a desk over a game of race with 72-hour deadlines and a
// clock the test moves by hand.
type clockDesk struct {
	t    *testing.T
	now  time.Time
	st   store.Store
	svc  *games.Service
	desk *referee.Desk
	n    int
}

func newClockDesk(t *testing.T) *clockDesk { return newClockDeskWith(t, "") }

// newClockDeskWith adds options (YAML lines under options:, indented).
func newClockDeskWith(t *testing.T, options string) *clockDesk {
	c := &clockDesk{t: t, now: time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC), st: store.NewMemory()}
	c.svc = &games.Service{Store: c.st, Rules: lookup, Now: func() time.Time { return c.now }, Rand: &fixedRand{}}
	c.desk = &referee.Desk{Games: c.svc, Templates: templates.Default(), From: compose.Address{Name: "Umpire", Address: "umpire@example.org"}, Referee: "ref@example.org"}
	if out := c.mail("ref@example.org", "command: new\nid: race-9\nruleset: race\nscenario: sprint\noptions:\n  deadline.orders: 72h\n"+options+"players:\n  red: red@example.org\n  blue: blue@example.org\n"); out.Folder != referee.Processed {
		t.Fatalf("new: %+v", out)
	}
	return c
}

func (c *clockDesk) mail(from, body string) referee.Outcome {
	c.t.Helper()
	c.n++
	raw := fmt.Sprintf("From: %s\r\nTo: umpire@example.org\r\nSubject: x\r\nMessage-ID: <g%d@example.org>\r\n\r\n%s", from, c.n, strings.ReplaceAll(body, "\n", "\r\n"))
	out, err := c.desk.Handle(context.Background(), []byte(raw))
	if err != nil {
		c.t.Fatal(err)
	}
	return out
}

// secret is the secret of the last welcome mail queued to addr ("" if
// none).
func (c *clockDesk) secret(addr string) string { return welcomeSecret(c.bodies(addr)) }

// welcomeSecret is the secret of the last welcome among bodies, "" if none.
func welcomeSecret(bodies []string) string {
	secret := ""
	for _, b := range bodies {
		if i := strings.Index(b, "Your secret is: "); i >= 0 {
			secret = strings.Fields(b[i+len("Your secret is: "):])[0]
		}
	}
	return secret
}

// tickEveryMinute runs the clock every minute up to at, as the daemon does.
func (c *clockDesk) tickEveryMinute(at time.Time) {
	c.t.Helper()
	for c.now.Before(at) {
		c.now = c.now.Add(time.Minute)
		if c.now.After(at) {
			c.now = at
		}
		if err := c.desk.Tick(context.Background()); err != nil {
			c.t.Fatal(err)
		}
	}
}

func (c *clockDesk) tick(at time.Time) {
	c.t.Helper()
	c.now = at
	if err := c.desk.Tick(context.Background()); err != nil {
		c.t.Fatal(err)
	}
}

// bodies are the texts of the mails of race-9 queued to addr, decoded.
func (c *clockDesk) bodies(to string) []string { return c.bodiesOf("race-9", to) }

// bodiesOf are the texts of the mails of a game queued to addr, decoded.
func (c *clockDesk) bodiesOf(game, to string) []string {
	msgs, err := c.st.Messages(context.Background(), game)
	if err != nil {
		c.t.Fatal(err)
	}
	var out []string
	for _, m := range msgs {
		if to == "" || m.To[0] == to {
			b, _ := io.ReadAll(quotedprintable.NewReader(bytes.NewReader(m.Raw)))
			out = append(out, string(b))
		}
	}
	return out
}

func (c *clockDesk) deadline(side string) game.Deadline {
	c.t.Helper()
	g, err := c.svc.Load(context.Background(), "race-9")
	if err != nil {
		c.t.Fatal(err)
	}
	return g.Deadlines["t1.bid."+side]
}

func countWith(bodies []string, s string) int {
	n := 0
	for _, b := range bodies {
		if strings.Contains(b, s) {
			n++
		}
	}
	return n
}

// TestDowntime: a deadline that falls while umpire is down is not
// enforced on restart; it moves 12 hours on and everyone is told why.
func TestDowntime(t *testing.T) {
	c := newClockDesk(t)
	due := c.deadline("blue").Due
	c.tickEveryMinute(c.now.Add(10 * time.Minute)) // the daemon runs…
	c.tick(due.Add(3 * time.Hour))                 // …then is down past the deadline
	dl := c.deadline("blue")
	if dl.Passed || !dl.Due.Equal(c.now.Add(12*time.Hour)) {
		t.Fatalf("after the downtime: %+v", dl)
	}
	if n := countWith(c.bodies(""), "did not run from"); n != 3 {
		t.Errorf("%d notices of the moved deadlines, want one each to red, blue and the referee", n)
	}
	if n := countWith(c.bodies("ref@example.org"), "the deadline for blue passed"); n != 0 {
		t.Errorf("the deadline was enforced blindly")
	}
	// Running again as usual, the moved deadline passes in its time.
	c.tickEveryMinute(dl.Due.Add(time.Minute))
	if !c.deadline("blue").Passed || countWith(c.bodies("ref@example.org"), "the deadline for blue passed") != 1 {
		t.Errorf("the moved deadline did not pass: %+v", c.deadline("blue"))
	}
}

// TestPauseResumeExtend: the referee's actions on the clock, each an event
// and a notice to every player and the referee.
func TestPauseResumeExtend(t *testing.T) {
	c := newClockDesk(t)
	first := c.deadline("blue").Due
	c.mail("red@example.org", "command: pause\ngame: race-9\nreason: a holiday\n")
	if g, _ := c.svc.Load(context.Background(), "race-9"); g.Paused() {
		t.Fatal("a player paused the game")
	}
	c.mail("ref@example.org", "command: pause\ngame: race-9\nreason: the club's holiday\n")
	for _, to := range []string{"red@example.org", "blue@example.org", "ref@example.org"} {
		if countWith(c.bodies(to), "the referee paused the game") == 0 || countWith(c.bodies(to), "the club's holiday") == 0 {
			t.Errorf("%s was not told of the pause", to)
		}
	}
	// Paused: nothing passes, nobody is reminded.
	c.tick(first.Add(48 * time.Hour))
	if c.deadline("blue").Passed || countWith(c.bodies(""), "Reminder: game race-9") != 0 {
		t.Fatal("the clock ran while the game was paused")
	}
	stood := c.now.Sub(time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC))
	c.mail("ref@example.org", "command: resume\ngame: race-9\n")
	if got := c.deadline("blue").Due; !got.Equal(first.Add(stood)) {
		t.Fatalf("after the resume, blue's deadline is %v, want %v", got, first.Add(stood))
	}
	if countWith(c.bodies("blue@example.org"), "the referee resumed the game") != 1 {
		t.Error("blue was not told of the resume")
	}
	before := c.deadline("blue").Due
	c.mail("ref@example.org", "command: extend\ngame: race-9\nside: blue\nby: 24h\nreason: blue asked\n")
	if got := c.deadline("blue").Due; !got.Equal(before.Add(24 * time.Hour)) {
		t.Fatalf("extended deadline %v, want %v", got, before.Add(24*time.Hour))
	}
	if red := c.deadline("red").Due; !red.Equal(before) {
		t.Errorf("red's deadline moved too: %v", red)
	}
	if countWith(c.bodies("red@example.org"), "blue asked") != 1 {
		t.Error("red was not told of blue's extension")
	}
	// A refused action writes nothing and says why.
	out := c.mail("ref@example.org", "command: extend\ngame: race-9\nuntil: 2020-01-01T00:00:00Z\n")
	if last := c.bodies("ref@example.org"); !strings.Contains(last[len(last)-1], "past") {
		t.Errorf("extend into the past: %+v\n%s", out, last[len(last)-1])
	}
	if a, err := c.svc.Verify(context.Background(), "race-9", games.Known{}); err != nil || !a.OK() {
		t.Fatalf("verify: %+v %v", a, err)
	}
}

// TestRefereeEndsReplacesProcesses: the referee gives a side to a new
// player (who gets a welcome with a new secret; the old secret and address
// no longer count), applies the late-orders rule at once, and ends the game.
func TestRefereeEndsReplacesProcesses(t *testing.T) {
	c := newClockDeskWith(t, "  no-move: default\n")
	ctx := context.Background()
	oldSecret := c.secret("blue@example.org")
	c.mail("ref@example.org", "command: replace\ngame: race-9\nside: blue\naddress: carol@example.org\nreason: bob moved away\n")
	newSecret := c.secret("carol@example.org")
	if newSecret == "" || newSecret == oldSecret {
		t.Fatalf("carol got no new secret (%q); the referee read:\n%s", newSecret, c.bodies("ref@example.org")[len(c.bodies("ref@example.org"))-1])
	}
	if countWith(c.bodies("red@example.org"), "blue is now played by carol@example.org") != 1 {
		t.Error("red is not told blue changed hands")
	}
	bid := func(from, secret string) referee.Outcome {
		return c.mail(from, "game: race-9\nside: blue\nsecret: "+secret+"\nturn: 1\nphase: bid\norders:\n  bid: 1\n")
	}
	if out := bid("blue@example.org", oldSecret); out.Folder == referee.Processed {
		t.Fatalf("the former player's orders were taken: %+v", out)
	}
	if out := bid("carol@example.org", oldSecret); out.Folder == referee.Processed {
		t.Fatalf("the former secret still counts: %+v", out)
	}
	if out := bid("carol@example.org", newSecret); out.Folder != referee.Processed {
		t.Fatalf("carol's bid: %+v", out)
	}
	// Red has not bid: the referee applies the default now.
	c.mail("ref@example.org", "command: process\ngame: race-9\n")
	g, _ := c.svc.Load(ctx, "race-9")
	if g.K != 1 || countWith(c.bodies("red@example.org"), "the rules' default answer was applied") != 1 {
		t.Fatalf("process now: K=%d", g.K)
	}
	c.mail("ref@example.org", "command: end\ngame: race-9\nresult: \"red wins: the club closed\"\nloser: blue\n")
	g, _ = c.svc.Load(ctx, "race-9")
	if !g.Over() || g.View("red").Result != "red wins: the club closed" {
		b := c.bodies("ref@example.org")
		t.Fatalf("end: over %v %q\n%s", g.Over(), g.View("red").Result, b[len(b)-1])
	}
	if countWith(c.bodies("carol@example.org"), "red wins: the club closed") == 0 {
		t.Error("carol is not told the game ended")
	}
	if a, err := c.svc.Verify(ctx, "race-9", games.Known{}); err != nil || !a.OK() || a.Sealed != 0 {
		t.Fatalf("verify: %+v %v", a, err)
	}
	if a, err := c.svc.Replay(ctx, "race-9"); err != nil || !a.OK() {
		t.Fatalf("replay: %+v %v", a, err)
	}
}

// TestRollback: the referee rolls a game back to the end of its first
// adjudication; the branch holds the same events and dice up to there,
// goes on with a fresh dice chain and the same secrets, and the old game
// is ended, pointing to the branch.
func TestRollback(t *testing.T) {
	c := newClockDesk(t)
	ctx := context.Background()
	secrets := map[string]string{"red": c.secret("red@example.org"), "blue": c.secret("blue@example.org")}
	orders := func(game, side, phase, body string) referee.Outcome {
		return c.mail(side+"@example.org", "game: "+game+"\nside: "+side+"\nsecret: "+secrets[side]+"\nturn: 1\nphase: "+phase+"\norders:\n"+body)
	}
	orders("race-9", "red", "bid", "  bid: 1\n")
	orders("race-9", "blue", "bid", "  bid: 1\n") // a tie: roll-off dice
	parent, _ := c.st.Events(ctx, "race-9", 1)
	var at uint64
	for _, e := range parent {
		if e.Type == game.TypeAdjudicated {
			at = e.Seq
		}
	}
	if at == 0 {
		t.Fatal("no adjudication")
	}
	c.mail("ref@example.org", fmt.Sprintf("command: rollback\ngame: race-9\nto: %d\nreason: testing\n", at))
	branch, err := c.st.Events(ctx, "race-9-b1", 1)
	if err != nil {
		t.Fatalf("no branch: %v\n%s", err, c.bodies("ref@example.org")[len(c.bodies("ref@example.org"))-1])
	}
	for i := 1; i < int(at); i++ {
		if !bytes.Equal(branch[i].Payload, parent[i].Payload) || branch[i].Type != parent[i].Type {
			t.Fatalf("event %d differs in the branch", i+1)
		}
	}
	if branch[at].Type != game.TypeChainExtended {
		t.Fatalf("event %d of the branch is %s, not a fresh dice chain", at+1, branch[at].Type)
	}
	for _, id := range []string{"race-9", "race-9-b1"} {
		if a, err := c.svc.Verify(ctx, id, games.Known{}); err != nil || !a.OK() {
			t.Fatalf("verify %s: %+v %v", id, a, err)
		}
		if a, err := c.svc.Replay(ctx, id); err != nil || !a.OK() {
			t.Fatalf("replay %s: %+v %v", id, a, err)
		}
	}
	old, _ := c.svc.Load(ctx, "race-9")
	if !old.Over() || !strings.Contains(old.View("red").Result, "race-9-b1") {
		t.Fatalf("the old game: over %v %q", old.Over(), old.View("red").Result)
	}
	if countWith(c.bodiesOf("race-9-b1", "blue@example.org"), "it goes on as game race-9-b1") == 0 {
		t.Error("blue is not told where the game goes on")
	}
	// The players go on in the branch with their secrets.
	g, _ := c.svc.Load(ctx, "race-9-b1")
	r := g.Due()[0]
	if out := orders("race-9-b1", string(r.Side), r.Phase, "  []\n"); out.Folder != referee.Processed {
		t.Fatalf("orders in the branch: %+v", out)
	}
}

// TestActionOnce: a referee's action is written with its mail's intake
// mark, so the same mail handled again (a crash before it was filed)
// does not act twice.
func TestActionOnce(t *testing.T) {
	c := newClockDesk(t)
	before := c.deadline("blue").Due
	raw := []byte("From: ref@example.org\r\nTo: umpire@example.org\r\nSubject: x\r\nMessage-ID: <once@example.org>\r\n\r\ncommand: extend\r\ngame: race-9\r\nside: blue\r\nby: 24h\r\n")
	for i := 0; i < 2; i++ {
		if _, err := c.desk.Handle(context.Background(), raw); err != nil && !errors.Is(err, store.ErrDuplicate) {
			t.Fatal(err)
		}
	}
	if got := c.deadline("blue").Due; !got.Equal(before.Add(24 * time.Hour)) {
		t.Fatalf("blue's deadline moved to %v, want once by 24h to %v", got, before.Add(24*time.Hour))
	}
}

// TestRefereeOrdersAnswered: orders mailed by the referee (who plays no
// side) are refused with what to do instead, not dropped in silence.
func TestRefereeOrdersAnswered(t *testing.T) {
	c := newClockDesk(t)
	out := c.mail("ref@example.org", "game: race-9\nside: blue\nturn: 1\nphase: bid\norders:\n  bid: 0\n")
	if out.Folder != referee.Rejected || out.Replies != 1 {
		t.Fatalf("the referee's orders: %+v", out)
	}
	last := c.bodies("ref@example.org")
	if b := last[len(last)-1]; !strings.Contains(b, "you are the referee of game race-9, not a player") || !strings.Contains(b, "command: process") {
		t.Errorf("the referee's reply:\n%s", b)
	}
}
