package referee_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/mail/referee"
	"github.com/umpire-pbem/umpire/store/games"
)

// TestEachSideReadsItsOwn: a "then:" entry that no longer fits is told to
// its owner alone; no mail to the other side, no event and no bundle holds
// a player's secret or the orders sent ahead before they are used.
func TestEachSideReadsItsOwn(t *testing.T) {
	f := newFixture(t)
	// Red's move sent ahead advances blue's runner: it cannot fit when the
	// move phase comes, and is dropped.
	ahead := f.bid("red", 2) + "then:\n  - phase: move\n    orders:\n      - advance: B2 # plan-xyzzy\n"
	if out := f.handle(f.mail("red@example.org", ahead)); out.Folder != referee.Processed {
		t.Fatalf("red's bid with a move sent ahead: %+v", out)
	}
	// Before blue answers, nothing of red's plan is anywhere blue can read.
	ctx := context.Background()
	var bundle bytes.Buffer
	if err := f.desk.Games.Export(ctx, "race-1", &bundle); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(bundle.Bytes(), []byte("plan-xyzzy")) || bytes.Contains(bundle.Bytes(), []byte("bid: 2")) {
		t.Fatal("a mid-game bundle shows red's hidden bid or its move sent ahead")
	}
	if out := f.handle(f.mail("blue@example.org", f.bid("blue", 1))); !strings.Contains(out.Reason, "adjudicated") {
		t.Fatalf("blue's bid: %+v", out)
	}
	var toRed, toBlue []string
	for _, m := range f.outbox() {
		body := strings.ReplaceAll(string(m.Raw), "=\r\n", "")
		switch strings.ToLower(m.To[0]) {
		case "red@example.org":
			toRed = append(toRed, body)
		case "blue@example.org":
			toBlue = append(toBlue, body)
		}
	}
	blue := strings.Join(toBlue, "\n")
	red := strings.Join(toRed, "\n")
	for _, leak := range []string{f.secrets["red"], "plan-xyzzy", "no longer fit", "advance: B2"} {
		if strings.Contains(blue, leak) {
			t.Errorf("a mail to blue holds %q", leak)
		}
	}
	if !strings.Contains(red, "no longer fit") {
		t.Errorf("red is not told that its move sent ahead was dropped:\n%s", red)
	}
	evs, _ := f.st.Events(ctx, "race-1", 1)
	for _, e := range evs {
		for _, sec := range f.secrets {
			if bytes.Contains(e.Payload, []byte(sec)) {
				t.Errorf("event %d (%s) holds a secret", e.Seq, e.Type)
			}
		}
	}
	bundle.Reset()
	if err := f.desk.Games.Export(ctx, "race-1", &bundle); err != nil {
		t.Fatal(err)
	}
	for _, sec := range f.secrets {
		if bytes.Contains(bundle.Bytes(), []byte(sec)) {
			t.Error("the bundle holds a player's secret")
		}
	}
}

// TestSealedLinesByMail: a line and a roll for red alone reach red's
// results mail and not blue's, the first time and when the referee has the
// results sent again.
func TestSealedLinesByMail(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	c, err := f.desk.Games.Create(ctx, games.CreateRequest{ID: "race-3", Ruleset: "race", Scenario: "sprint", Referee: "ref@example.org",
		Options: map[string]string{"turns": "2", "scout": "yes"},
		Players: []games.Player{{Side: "red", Address: "red@example.org"}, {Side: "blue", Address: "blue@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
	bid := func(side string, n int) string {
		return fmt.Sprintf("game: race-3\nside: %s\nsecret: %s\nturn: 1\nphase: bid\norders:\n  bid: %d\n", side, c.Secrets[adjudicator.Side(side)], n)
	}
	f.handle(f.mail("red@example.org", bid("red", 1)))
	if out := f.handle(f.mail("blue@example.org", bid("blue", 0))); !strings.Contains(out.Reason, "adjudicated") {
		t.Fatalf("blue's bid: %+v", out)
	}
	check := func(when string) {
		t.Helper()
		msgs, _ := f.st.Messages(ctx, "race-3")
		var red, blue, ref int
		for _, m := range msgs {
			body := strings.ReplaceAll(string(m.Raw), "=\r\n", "")
			if !strings.Contains(body, "bids: red 1, blue 0") {
				continue // not a results mail
			}
			switch strings.ToLower(m.To[0]) {
			case "red@example.org":
				red++
				if !strings.Contains(body, "scout sees") || !strings.Contains(body, "red's scout: 1d6=") {
					t.Errorf("%s: red's results lack its scout:\n%s", when, body)
				}
			case "blue@example.org":
				blue++
				if strings.Contains(body, "scout") {
					t.Errorf("%s: blue's results tell of red's scout:\n%s", when, body)
				}
			case "ref@example.org":
				ref++ // the referee's copy reads everything
				if !strings.Contains(body, "referee: red scouted") || !strings.Contains(body, "scout sees") {
					t.Errorf("%s: the referee's copy lacks what only the referee and red read:\n%s", when, body)
				}
				continue
			}
			if strings.Contains(body, "referee: red scouted") {
				t.Errorf("%s: a player reads the referee's note", when)
			}
		}
		if red == 0 || blue == 0 || ref == 0 {
			t.Fatalf("%s: %d results mails to red, %d to blue, %d to the referee", when, red, blue, ref)
		}
	}
	check("results")
	if out := f.handle(f.mail("ref@example.org", "command: resend\ngame: race-3\n")); out.Folder != referee.Processed {
		t.Fatalf("resend: %+v", out)
	}
	check("resent")
}
