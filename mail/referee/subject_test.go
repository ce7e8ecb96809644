package referee_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"mime/quotedprintable"
	"net/mail"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/mail/compose"
	"github.com/umpire-pbem/umpire/mail/referee"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
	"github.com/umpire-pbem/umpire/templates"
)

// heads lists, for each mail, its recipient, subject and X-Umpire-*
// headers on one line: "to | subject | kind turn due deadline".
func heads(t *testing.T, msgs []store.Message) []string {
	t.Helper()
	var out []string
	for _, m := range msgs {
		msg, err := mail.ReadMessage(bytes.NewReader(m.Raw))
		if err != nil {
			t.Fatal(err)
		}
		h := msg.Header
		if h.Get("X-Umpire-Game") != m.Game {
			t.Errorf("%s: X-Umpire-Game %q, outbox game %q", m.ID, h.Get("X-Umpire-Game"), m.Game)
		}
		line := fmt.Sprintf("%s | %s | %s", m.To[0], h.Get("Subject"), h.Get("X-Umpire-Kind"))
		for _, k := range []string{"X-Umpire-Turn", "X-Umpire-Due", "X-Umpire-Deadline"} {
			if v := h.Get(k); v != "" {
				line += " " + v
			}
		}
		out = append(out, line)
	}
	return out
}

// TestSubjectsAndHeaders plays a game by mail, with deadlines, press and
// an observer, and checks the subject and X-Umpire-* headers of every
// mail umpire sends, exactly.
func TestSubjectsAndHeaders(t *testing.T) {
	st := store.NewMemory()
	now := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC) // a Tuesday
	svc := &games.Service{Store: st, Rules: lookup, Now: func() time.Time { return now }, ClockStall: 48 * time.Hour, Rand: &fixedRand{}}
	d := &referee.Desk{Games: svc, Templates: templates.Default(), From: compose.Address{Name: "Umpire", Address: "umpire@example.org"}, Referee: "ref@example.org"}
	ctx := context.Background()
	n := 0
	seen := 0
	// step handles a mail and returns the heads of the mails it caused.
	next := func() []string {
		t.Helper()
		msgs, err := st.Messages(ctx, "")
		if err != nil {
			t.Fatal(err)
		}
		out := heads(t, msgs[seen:])
		seen = len(msgs)
		return out
	}
	step := func(from, body string) []string {
		t.Helper()
		n++
		raw := fmt.Sprintf("From: %s\r\nTo: umpire@example.org\r\nSubject: x\r\nMessage-ID: <s%d@example.org>\r\n\r\n%s", from, n, strings.ReplaceAll(body, "\n", "\r\n"))
		if _, err := d.Handle(ctx, []byte(raw)); err != nil {
			t.Fatal(err)
		}
		return next()
	}
	tick := func(at time.Time) []string {
		t.Helper()
		now = at
		if err := d.Tick(ctx); err != nil {
			t.Fatal(err)
		}
		return next()
	}
	check := func(what string, got []string, want ...string) {
		t.Helper()
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s:\ngot\n  %s\nwant\n  %s", what, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
		}
	}

	check("new", step("ref@example.org", "command: new\nid: race-9\nruleset: race\nscenario: sprint\noptions:\n  turns: \"2\"\n  press: open\n  deadline.orders: 72h\n  deadline.at: \"18:00\"\n  deadline.zone: Europe/Paris\nplayers:\n  red: red@example.org\n  blue: blue@example.org\n"),
		"red@example.org | [umpire race-9] Welcome: you play red - your move: red bid, due Fri 27 Nov 17:00 UTC | welcome 1 t1.bid.red 2026-11-27T17:00:00Z",
		"blue@example.org | [umpire race-9] Welcome: you play blue - your move: blue bid, due Fri 27 Nov 17:00 UTC | welcome 1 t1.bid.blue 2026-11-27T17:00:00Z",
		"ref@example.org | [umpire race-9] Done: new | referee none")
	secrets := map[string]string{}
	msgs, _ := st.Messages(ctx, "race-9")
	for _, m := range msgs {
		b, _ := io.ReadAll(quotedprintable.NewReader(bytes.NewReader(m.Raw)))
		if i := bytes.Index(b, []byte("Your secret is: ")); i >= 0 {
			secrets[m.To[0]] = strings.Fields(string(b[i+len("Your secret is: "):]))[0]
		}
	}
	bid := func(side string, turn, bid int) string {
		return fmt.Sprintf("game: race-9\nside: %s\nsecret: %s\nturn: %d\nphase: bid\norders:\n  bid: %d\n", side, secrets[side+"@example.org"], turn, bid)
	}

	check("accepted", step("red@example.org", bid("red", 1, 1)),
		"red@example.org | [umpire race-9] Orders accepted (turn 1, bid) - waiting for blue | accepted 1 none")
	check("rejected", step("blue@example.org", "game: race-9\nside: blue\nsecret: "+secrets["blue@example.org"]+"\nturn: 1\nphase: bid\norders:\n  bid: 1\n  bdi: 2\n  x: 3\n"),
		"blue@example.org | [umpire race-9] Orders REJECTED: 1 error | rejected 1 t1.bid.blue 2026-11-27T17:00:00Z")
	check("status", step("blue@example.org", "command: status\ngame: race-9\nsecret: "+secrets["blue@example.org"]+"\n"),
		"blue@example.org | [umpire race-9] Status: turn 1, bid - your move: blue bid, due Fri 27 Nov 17:00 UTC | answer 1 t1.bid.blue 2026-11-27T17:00:00Z")
	check("history", step("blue@example.org", "command: history\ngame: race-9\nsecret: "+secrets["blue@example.org"]+"\n"),
		"blue@example.org | [umpire race-9] History: 0 adjudications | answer none")
	check("map", step("blue@example.org", "command: map\ngame: race-9\nsecret: "+secrets["blue@example.org"]+"\n"),
		"blue@example.org | [umpire race-9] Map: turn 1, bid | answer 1 none")
	check("refused", step("blue@example.org", "command: results\ngame: race-9\nsecret: "+secrets["blue@example.org"]+"\n"),
		"blue@example.org | [umpire race-9] Command REFUSED: results | rejected none")
	check("press", step("red@example.org", "command: press\ngame: race-9\nside: red\nsecret: "+secrets["red@example.org"]+"\nto: blue\ntext: |\n  Shall we?\n"),
		"blue@example.org | [umpire race-9] Press from red to blue | press none",
		"red@example.org | [umpire race-9] Press sent to blue | accepted none")
	check("press rejected", step("red@example.org", "command: press\ngame: race-9\nside: red\nsecret: "+secrets["red@example.org"]+"\ntext: |\n  Shall we?\n"),
		"red@example.org | [umpire race-9] Press REJECTED: 1 error | rejected none")
	check("observe", step("ref@example.org", "command: observe\ngame: race-9\naddress: carol@example.org\n"),
		"red@example.org | [umpire race-9] Notice: carol@example.org now observes the game | notice 1 none",
		"blue@example.org | [umpire race-9] Notice: carol@example.org now observes the game | notice 1 t1.bid.blue 2026-11-27T17:00:00Z",
		"ref@example.org | [umpire race-9] Notice: carol@example.org now observes the game | notice 1 none",
		"carol@example.org | [umpire race-9] Notice: you now observe this game | notice none",
		"ref@example.org | [umpire race-9] Done: observe | referee none")

	deadline := time.Date(2026, 11, 27, 17, 0, 0, 0, time.UTC)
	check("reminder", tick(deadline.Add(-23*time.Hour)),
		"blue@example.org | [umpire race-9] Reminder: your orders are due Fri 27 Nov 17:00 UTC (blue bid) | reminder 1 t1.bid.blue 2026-11-27T17:00:00Z")
	check("late", tick(deadline.Add(time.Minute)),
		"red@example.org | [umpire race-9] Deadline passed: blue | late 1 none",
		"blue@example.org | [umpire race-9] Deadline passed: blue | late 1 t1.bid.blue 2026-11-27T17:00:00Z",
		"ref@example.org | [umpire race-9] Deadline passed: blue (blue bid) | late 1 none")
	check("pause", step("ref@example.org", "command: pause\ngame: race-9\nreason: a holiday\n"),
		"red@example.org | [umpire race-9] Notice: the referee paused the game | notice 1 none",
		"blue@example.org | [umpire race-9] Notice: the referee paused the game | notice 1 t1.bid.blue 2026-11-27T17:00:00Z",
		"ref@example.org | [umpire race-9] Notice: the referee paused the game | notice 1 none",
		"ref@example.org | [umpire race-9] Done: pause | referee none")
	check("bad referee command", step("ref@example.org", "command: pause\ngame: race-9\n"),
		"ref@example.org | [umpire race-9] REFUSED: pause | referee none")
	check("resume", step("ref@example.org", "command: resume\ngame: race-9\n"),
		"red@example.org | [umpire race-9] Notice: the referee resumed the game | notice 1 none",
		"blue@example.org | [umpire race-9] Notice: the referee resumed the game | notice 1 t1.bid.blue 2026-11-27T17:00:00Z",
		"ref@example.org | [umpire race-9] Notice: the referee resumed the game | notice 1 none",
		"ref@example.org | [umpire race-9] Done: resume | referee none")
	check("results", step("blue@example.org", bid("blue", 1, 0)),
		// One mail to the sender: the acknowledgement, then the results.
		"blue@example.org | [umpire race-9] Orders accepted (turn 1, bid) - Turn 1 results - waiting for red | results 1 none",
		"red@example.org | [umpire race-9] Turn 1 results - your move: red move, due Tue 1 Dec 17:00 UTC | results 1 t1.move.red 2026-12-01T17:00:00Z",
		"ref@example.org | [umpire race-9] Turn 1 results (the referee's copy) - waiting for red | results 1 none",
		"carol@example.org | [umpire race-9] Turn 1 results (observer) | observer 1 none")
}
