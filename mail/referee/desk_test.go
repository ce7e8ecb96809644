package referee_test

import (
	"context"
	"crypto/sha256"
	"fmt"
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

func lookup(name string) (adjudicator.Ruleset, bool) { return testrules.Race, name == "race" }

type fixture struct {
	t       *testing.T
	desk    *referee.Desk
	st      store.Store
	secrets map[adjudicator.Side]string
	n       int
}

func newFixture(t *testing.T) *fixture {
	st := store.NewMemory()
	clock := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	// The dice and secrets come from a fixed stream: every run of a test
	// plays the same game.
	svc := &games.Service{Store: st, Rules: lookup, Now: func() time.Time { clock = clock.Add(time.Second); return clock }, Rand: &fixedRand{}}
	d := &referee.Desk{Games: svc, Templates: templates.Default(), From: compose.Address{Name: "Umpire", Address: "umpire@example.org"}, Referee: "ref@example.org"}
	f := &fixture{t: t, desk: d, st: st}
	c, err := svc.Create(context.Background(), games.CreateRequest{ID: "race-1", Ruleset: "race", Scenario: "sprint", Referee: "ref@example.org",
		Options: map[string]string{"turns": "1"},
		Players: []games.Player{{Side: "red", Address: "Red@Example.org"}, {Side: "blue", Address: "blue@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
	f.secrets = c.Secrets
	return f
}

func (f *fixture) mail(from, body string) []byte {
	f.n++
	return []byte(fmt.Sprintf("From: %s\r\nTo: umpire@example.org\r\nSubject: orders\r\nMessage-ID: <m%d@example.org>\r\n\r\n%s", from, f.n, strings.ReplaceAll(body, "\n", "\r\n")))
}

func (f *fixture) handle(raw []byte) referee.Outcome {
	f.t.Helper()
	out, err := f.desk.Handle(context.Background(), raw)
	if err != nil {
		f.t.Fatal(err)
	}
	return out
}

func (f *fixture) outbox() []store.Message {
	msgs, err := f.st.Messages(context.Background(), "")
	if err != nil {
		f.t.Fatal(err)
	}
	return msgs
}

func (f *fixture) bid(side string, bid int) string {
	return fmt.Sprintf("game: race-1\nside: %s\nsecret: %s\nturn: 1\nphase: bid\norders:\n  bid: %d\n", side, f.secrets[adjudicator.Side(side)], bid)
}

func TestAcceptAdjudicateAndResults(t *testing.T) {
	f := newFixture(t)
	out := f.handle(f.mail("red@example.org", "Hello referee,\n---\n"+f.bid("red", 1)+"---\n-- \nRed\n"))
	if out.Folder != referee.Processed || out.Reason != "accepted" || out.Replies != 1 {
		t.Fatalf("red's bid: %+v", out)
	}
	out = f.handle(f.mail("Bob <blue@example.org>", f.bid("blue", 0)))
	if out.Reason != "accepted+adjudicated" || out.Replies != 3 { // blue's ack with its results, red's results, the referee's copy
		t.Fatalf("blue's bid: %+v", out)
	}
	msgs := f.outbox()
	if len(msgs) != 4 { // red's ack; blue's ack with its results, red's results, the referee's copy
		t.Fatalf("%d mails queued, want 4", len(msgs))
	}
	ack := string(msgs[0].Raw)
	for _, want := range []string{"In-Reply-To: <m1@example.org>", "Subject: [umpire race-1] Orders accepted (turn 1, bid) - waiting for blue\r\n", "X-Umpire-Kind: accepted\r\n", "bid: 1", "SHA-256"} {
		if !strings.Contains(ack, want) {
			t.Errorf("ack lacks %q:\n%s", want, ack)
		}
	}
	evs, _ := f.st.Events(context.Background(), "race-1", 1)
	head := evs[len(evs)-1].Hash.String()
	var red, blue string
	for _, m := range msgs[1:3] {
		switch m.To[0] {
		case "Red@Example.org":
			red = string(m.Raw)
		case "blue@example.org":
			blue = string(m.Raw)
		}
	}
	for _, body := range []string{red, blue} {
		flat := strings.ReplaceAll(body, "=\r\n", "")
		if !strings.Contains(flat, head) || !strings.Contains(flat, "Revealed dice seed") || !strings.Contains(flat, "bids: red 1, blue 0") {
			t.Errorf("results lack the head %s, the seed or the report:\n%s", head, body)
		}
	}
	if !strings.Contains(red, "energy-red: 5") || strings.Contains(red, "energy-blue") {
		t.Errorf("red's view is wrong:\n%s", red)
	}
	// Blue's one mail answers blue's: the acknowledgement, then the results.
	merged := strings.ReplaceAll(strings.ReplaceAll(blue, "=\r\n", ""), "\r\n ", " ")
	for _, want := range []string{"In-Reply-To: <m2@example.org>", "Subject: [umpire race-1] Orders accepted (turn 1, bid) - Turn 1 results - waiting for red\r\n",
		"X-Umpire-Kind: results\r\n", "Orders received for game race-1, side blue", "the results follow below"} {
		if !strings.Contains(merged, want) {
			t.Errorf("blue's mail lacks %q:\n%s", want, blue)
		}
	}
	if i, j := strings.Index(merged, "SHA-256 of the orders text"), strings.Index(merged, "Results of game race-1"); i < 0 || j < i {
		t.Errorf("blue's mail does not put the acknowledgement before the results:\n%s", blue)
	}
	if ref := strings.ReplaceAll(string(msgs[3].Raw), "=\r\n", ""); msgs[3].To[0] != "ref@example.org" ||
		!strings.Contains(ref, "the referee's copy") || !strings.Contains(ref, "energy-red") || !strings.Contains(ref, "energy-blue") {
		t.Errorf("the referee's copy:\n%s", ref)
	}
	// The same mail again: nothing new.
	out = f.handle(f.mail("red@example.org", f.bid("red", 1)))
	if out.Folder != referee.Rejected || out.Reason != "bad-orders" {
		t.Errorf("a bid for a turn that is over: %+v", out)
	}
}

func TestSameMailTwice(t *testing.T) {
	f := newFixture(t)
	raw := f.mail("red@example.org", f.bid("red", 1))
	f.handle(raw)
	out := f.handle(raw)
	if !out.Again || out.Folder != referee.Processed {
		t.Fatalf("second time: %+v", out)
	}
	if n := len(f.outbox()); n != 1 {
		t.Fatalf("%d mails, want 1", n)
	}
	if v, _ := f.st.Version(context.Background(), "race-1"); v != 2 {
		t.Fatalf("version %d, want 2", v)
	}
}

func TestStrangersGetNoReply(t *testing.T) {
	f := newFixture(t)
	for _, body := range []string{f.bid("red", 1), "game: race-1\nside: red\n", "hello", "game: nope\n"} {
		out := f.handle(f.mail("spam@elsewhere.example", body))
		if out.Folder != referee.Rejected || out.Replies != 0 || out.Reason != "stranger" {
			t.Errorf("%q: %+v", body, out)
		}
	}
	if n := len(f.outbox()); n != 0 {
		t.Fatalf("%d replies to strangers", n)
	}
}

func TestWrongSecretIsAnswered(t *testing.T) {
	f := newFixture(t)
	out := f.handle(f.mail("red@example.org", "game: race-1\nside: red\nsecret: guess\nturn: 1\nphase: bid\norders:\n  bid: 1\n"))
	if out.Folder != referee.Rejected || out.Replies != 1 {
		t.Fatalf("%+v", out)
	}
	body := string(f.outbox()[0].Raw)
	if !strings.Contains(body, "secret for side red is missing or wrong") || !strings.Contains(body, "line 3") {
		t.Errorf("reply:\n%s", body)
	}
}

func TestErrorLinesCountInTheMail(t *testing.T) {
	f := newFixture(t)
	body := "Dear referee,\nhere are my orders.\n---\n" + strings.Replace(f.bid("red", 1), "bid: 1", "bdi: 1", 1) + "---\nRegards\n"
	f.handle(f.mail("red@example.org", body))
	reply := strings.ReplaceAll(string(f.outbox()[0].Raw), "=\r\n", "")
	// "bdi" is on line 7 of the orders, line 10 of the mail's text.
	if !strings.Contains(reply, "line 10, column 3: unknown field") || !strings.Contains(reply, "| =20 bdi: 1") && !strings.Contains(reply, "|   bdi: 1") {
		t.Errorf("reply:\n%s", reply)
	}
}

func TestKnownPlayerWithHTMLGetsAdvice(t *testing.T) {
	f := newFixture(t)
	raw := []byte("From: red@example.org\r\nMessage-ID: <h1@x>\r\nContent-Type: text/html\r\n\r\n<p>bid 1</p>\r\n")
	out := f.handle(raw)
	if out.Folder != referee.Rejected || out.Replies != 1 {
		t.Fatalf("%+v", out)
	}
	if !strings.Contains(string(f.outbox()[0].Raw), "HTML") {
		t.Errorf("no advice:\n%s", f.outbox()[0].Raw)
	}
	// Junk from nobody: no reply, no crash.
	for _, junk := range [][]byte{nil, []byte("\x00\x01\x02"), []byte("From: \r\n\r\n"), []byte("Subject: x\r\n\r\nbody")} {
		if out := f.handle(junk); out.Folder != referee.Rejected || out.Replies != 0 {
			t.Errorf("%q: %+v", junk, out)
		}
	}
}

func TestRefereeCommands(t *testing.T) {
	f := newFixture(t)
	out := f.handle(f.mail("ref@example.org", "command: new\nid: race-2\nruleset: race\nscenario: sprint\nplayers:\n  red: a@example.org\n  blue: b@example.org\n"))
	if out.Folder != referee.Processed || out.Game != "race-2" {
		t.Fatalf("new: %+v", out)
	}
	msgs, _ := f.st.Messages(context.Background(), "race-2")
	if len(msgs) != 3 {
		t.Fatalf("new queued %d mails, want 2 welcomes and the reply", len(msgs))
	}
	if !strings.Contains(string(msgs[0].Raw), "Your secret is: ") {
		t.Errorf("welcome:\n%s", msgs[0].Raw)
	}
	out = f.handle(f.mail("ref@example.org", "command: show\ngame: race-2\n"))
	if out.Folder != referee.Processed {
		t.Fatalf("show: %+v", out)
	}
	out = f.handle(f.mail("ref@example.org", "command: resend\ngame: race-2\n"))
	if out.Folder != referee.Rejected || out.Replies != 1 {
		t.Fatalf("resend before any result: %+v", out)
	}
	out = f.handle(f.mail("red@example.org", "command: new\nruleset: race\n"))
	if out.Folder != referee.Rejected {
		t.Fatalf("a player's command: %+v", out)
	}
}

func TestHostileMailFromAPlayer(t *testing.T) {
	f := newFixture(t)
	f.desk.Limits.MaxMessage = 1 << 20
	bomb := "game: race-1\nside: red\na: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
	big := "game: race-1\n# " + strings.Repeat("x", 2<<20) + "\n"
	for name, raw := range map[string][]byte{
		"alias bomb": f.mail("red@example.org", bomb),
		"too large":  f.mail("red@example.org", big),
		"binary":     f.mail("red@example.org", "game: race-1\n\x00\x01\x02\xff"),
		"no body":    f.mail("red@example.org", ""),
		"bad mime":   []byte("From: red@example.org\r\nMessage-ID: <mime@x>\r\nContent-Type: multipart/mixed; boundary=\"\r\n\r\n--\r\n"),
	} {
		before := len(f.outbox())
		out := f.handle(raw)
		if out.Folder != referee.Rejected || out.Replies != 1 || len(f.outbox()) != before+1 {
			t.Errorf("%s: %+v", name, out)
		}
	}
	if v, _ := f.st.Version(context.Background(), "race-1"); v != 1 {
		t.Errorf("hostile mail changed the game: version %d", v)
	}
}

// TestOrdersSentAheadByMail: a mail with "then:" is acknowledged with the
// phases sent ahead, and the results say they were used.
func TestOrdersSentAheadByMail(t *testing.T) {
	f := newFixture(t)
	ahead := f.bid("red", 2) + "then:\n  - phase: move\n    orders:\n      - advance: R1\n"
	if out := f.handle(f.mail("red@example.org", ahead)); out.Folder != referee.Processed {
		t.Fatalf("red's bid with a move sent ahead: %+v", out)
	}
	ack := strings.ReplaceAll(string(f.outbox()[0].Raw), "=\r\n", "")
	if !strings.Contains(ack, "Orders sent ahead") || !strings.Contains(ack, "turn 1, move") {
		t.Errorf("the acknowledgement does not list the move sent ahead:\n%s", ack)
	}
	if out := f.handle(f.mail("blue@example.org", f.bid("blue", 1))); !strings.Contains(out.Reason, "adjudicated") {
		t.Fatalf("blue's bid: %+v", out)
	}
	found := false
	for _, m := range f.outbox() {
		if strings.Contains(strings.ReplaceAll(string(m.Raw), "=\r\n", ""), "orders sent ahead for turn 1, red moves were used") {
			found = true
		}
	}
	if !found {
		t.Error("no results mail says red's move sent ahead was used")
	}
}

// fixedRand is a deterministic stream of bytes (SHA-256 of a counter): the
// secrets and dice of a test's games are the same at every run.
type fixedRand struct {
	n   uint64
	buf []byte
}

func (r *fixedRand) Read(p []byte) (int, error) {
	for len(r.buf) < len(p) {
		r.n++
		h := sha256.Sum256([]byte(fmt.Sprintf("umpire-test-%d", r.n)))
		r.buf = append(r.buf, h[:]...)
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}
