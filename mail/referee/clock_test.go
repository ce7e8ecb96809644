package referee_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"mime/quotedprintable"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/mail/compose"
	"github.com/umpire-pbem/umpire/mail/referee"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
	"github.com/umpire-pbem/umpire/templates"
)

// TestDeadlinesByMail drives a game's clock by hand: the welcome says by
// when, the side that has not answered is reminded 24 and 2 hours before
// (the one that answered is not), and when the deadline passes every
// player and the referee are told; nothing is sent twice.
func TestDeadlinesByMail(t *testing.T) {
	st := store.NewMemory()
	now := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC) // a Tuesday
	// The test runs the clock only now and then: tell it that a day
	// between two runs is not umpire being down (TestDowntime is).
	svc := &games.Service{Store: st, Rules: lookup, Now: func() time.Time { return now }, ClockStall: 48 * time.Hour}
	d := &referee.Desk{Games: svc, Templates: templates.Default(), From: compose.Address{Name: "Umpire", Address: "umpire@example.org"}, Referee: "ref@example.org"}
	ctx := context.Background()
	handle := func(n int, from, body string) referee.Outcome {
		t.Helper()
		raw := fmt.Sprintf("From: %s\r\nTo: umpire@example.org\r\nSubject: x\r\nMessage-ID: <c%d@example.org>\r\n\r\n%s", from, n, strings.ReplaceAll(body, "\n", "\r\n"))
		out, err := d.Handle(ctx, []byte(raw))
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	out := handle(1, "ref@example.org", "command: new\nid: race-9\nruleset: race\nscenario: sprint\noptions:\n  turns: \"1\"\n  deadline.orders: 72h\n  deadline.at: \"18:00\"\n  deadline.zone: Europe/Paris\nplayers:\n  red: red@example.org\n  blue: blue@example.org\n")
	if out.Folder != referee.Processed {
		t.Fatalf("new: %+v", out)
	}
	mails := func() []store.Message {
		msgs, err := st.Messages(ctx, "race-9")
		if err != nil {
			t.Fatal(err)
		}
		return msgs
	}
	body := func(m store.Message) string {
		b, _ := io.ReadAll(quotedprintable.NewReader(bytes.NewReader(m.Raw)))
		return string(b)
	}
	// 72 hours from Tuesday 09:00 is Friday 09:00; moved to 18:00 Paris
	// time, 17:00 UTC.
	const by = "due Fri 27 Nov 17:00 UTC (18:00 in Europe/Paris) — in 3 days 8 hours"
	welcome := body(mails()[0])
	if !strings.Contains(welcome, by) {
		t.Fatalf("the welcome does not say by when (%q):\n%s", by, welcome)
	}
	for _, rule := range []string{"orders: 3 days from when it comes due", "deadlines fall at 18:00, Europe/Paris", "reminders 1 day and 2 hours before", "late orders: then the game waits and the referee decides"} {
		if !strings.Contains(welcome, rule) {
			t.Errorf("the welcome does not say %q:\n%s", rule, welcome)
		}
	}
	secrets := map[string]string{}
	for _, m := range mails() {
		if s := welcomeSecret([]string{body(m)}); s != "" {
			secrets[m.To[0]] = s
		}
	}
	// Red bids at once; blue does not.
	if out := handle(2, "red@example.org", "game: race-9\nside: red\nsecret: "+secrets["red@example.org"]+"\nturn: 1\nphase: bid\norders:\n  bid: 1\n"); out.Folder != referee.Processed {
		t.Fatalf("red's bid: %+v", out)
	}
	// Mails are told apart by their first line.
	marks := map[string]string{"reminder": "Reminder: game race-9", "late": "the deadline for blue passed"}
	is := func(m store.Message, kind string) bool { return strings.Contains(body(m), marks[kind]) }
	count := func(kind, to string) int {
		n := 0
		for _, m := range mails() {
			if is(m, kind) && (to == "" || m.To[0] == to) {
				n++
			}
		}
		return n
	}
	tick := func(at time.Time) {
		t.Helper()
		now = at
		if err := d.Tick(ctx); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Date(2026, 11, 27, 17, 0, 0, 0, time.UTC)
	tick(deadline.Add(-25 * time.Hour))
	if n := count("reminder", ""); n != 0 {
		t.Fatalf("%d reminders 25 hours before", n)
	}
	tick(deadline.Add(-23 * time.Hour))
	tick(deadline.Add(-22 * time.Hour)) // the same reminder is not sent again
	if count("reminder", "blue@example.org") != 1 || count("reminder", "red@example.org") != 0 {
		t.Fatalf("24h reminders: blue %d, red %d", count("reminder", "blue@example.org"), count("reminder", "red@example.org"))
	}
	var reminder string
	for _, m := range mails() {
		if is(m, "reminder") {
			reminder = body(m)
		}
	}
	if !strings.Contains(reminder, "due Fri 27 Nov 17:00 UTC (18:00 in Europe/Paris) — in 23 hours") {
		t.Errorf("the reminder does not say by when:\n%s", reminder)
	}
	tick(deadline.Add(-90 * time.Minute))
	if n := count("reminder", "blue@example.org"); n != 2 {
		t.Fatalf("%d reminders to blue after the 2h one", n)
	}
	tick(deadline.Add(time.Minute))
	tick(deadline.Add(time.Hour))
	for _, to := range []string{"red@example.org", "blue@example.org", "ref@example.org"} {
		if n := count("late", to); n != 1 {
			t.Errorf("%d lateness notices to %s", n, to)
		}
	}
	for _, m := range mails() {
		if is(m, "late") && m.To[0] == "blue@example.org" && !strings.Contains(body(m), "Your orders have not arrived") {
			t.Errorf("blue's notice:\n%s", body(m))
		}
	}
	// Blue's late bid is still taken: the referee decides (no-move policy
	// "wait", the only one so far).
	if out := handle(3, "blue@example.org", "game: race-9\nside: blue\nsecret: "+secrets["blue@example.org"]+"\nturn: 1\nphase: bid\norders:\n  bid: 0\n"); !strings.Contains(out.Reason, "adjudicated") {
		t.Fatalf("blue's late bid: %+v", out)
	}
	// The next request got its own deadline with the adjudication.
	g, err := svc.Load(ctx, "race-9")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range g.Due() {
		if dl, ok := g.Deadlines[r.ID]; !ok || !dl.Due.After(now) {
			t.Errorf("%s has no deadline after the late bid: %+v", r.ID, dl)
		}
	}
	if a, err := svc.Replay(ctx, "race-9"); err != nil || !a.OK() {
		t.Fatalf("replay: %+v %v", a, err)
	}
}
