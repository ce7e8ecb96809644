package referee_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-message/mail"

	"github.com/umpire-pbem/umpire/adjudicator/rulesets"
	"github.com/umpire-pbem/umpire/mail/compose"
	"github.com/umpire-pbem/umpire/mail/referee"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
	"github.com/umpire-pbem/umpire/templates"
)

// TestResultsCarryThePicture plays a Dragon Rage setup by mail and checks
// that every player's results mail carries the board as a PNG attachment,
// after the text.
func TestResultsCarryThePicture(t *testing.T) {
	st := store.NewMemory()
	clock := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	svc := &games.Service{Store: st, Rules: rulesets.Lookup, Now: func() time.Time { clock = clock.Add(time.Second); return clock }}
	d := &referee.Desk{Games: svc, Templates: templates.Default(), From: compose.Address{Name: "Umpire", Address: "umpire@example.org"}}
	c, err := svc.Create(context.Background(), games.CreateRequest{ID: "n2-pic", Ruleset: "dragonrage", Scenario: "n2",
		Players: []games.Player{{Side: "invader", Address: "alice@example.org"}, {Side: "defender", Address: "bob@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
	setup, err := os.ReadFile("../../docs/examples/n2-defender-setup.yaml")
	if err != nil {
		t.Fatal(err)
	}
	body := "game: n2-pic\nside: defender\nsecret: " + c.Secrets["defender"] + "\n" + string(setup)
	raw := "From: bob@example.org\r\nTo: umpire@example.org\r\nSubject: setup\r\nMessage-ID: <setup@example.org>\r\n\r\n" + strings.ReplaceAll(body, "\n", "\r\n")
	out, err := d.Handle(context.Background(), []byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	if out.Folder != referee.Processed {
		t.Fatalf("the setup was not accepted: %+v", out)
	}
	msgs, err := st.Messages(context.Background(), "n2-pic")
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, m := range msgs {
		if !bytes.Contains(m.Raw, []byte("Results of game")) && !bytes.Contains(m.Raw, []byte("multipart/mixed")) {
			continue
		}
		r, err := mail.CreateReader(bytes.NewReader(m.Raw))
		if err != nil {
			t.Fatal(err)
		}
		var text bool
		for {
			p, err := r.NextPart()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(p.Body)
			switch h := p.Header.(type) {
			case *mail.InlineHeader:
				text = text || strings.Contains(string(b), "Results of game")
			case *mail.AttachmentHeader:
				name, _ := h.Filename()
				if !text || !strings.HasSuffix(name, ".png") || !bytes.HasPrefix(b, []byte("\x89PNG")) {
					t.Errorf("%s: attachment %q (%d bytes) after text=%v", m.To, name, len(b), text)
				}
				found++
			}
		}
	}
	if found != 2 {
		t.Errorf("%d results mails carry a picture, want one for each of the 2 players", found)
	}
}

// TestNoPictureWhenNothingMoved: after the defender's pre-turn movement in
// which nothing moves (a pass), the results mails carry no picture: the
// board did not change.
func TestNoPictureWhenNothingMoved(t *testing.T) {
	st := store.NewMemory()
	clock := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	svc := &games.Service{Store: st, Rules: rulesets.Lookup, Now: func() time.Time { clock = clock.Add(time.Second); return clock }}
	d := &referee.Desk{Games: svc, Templates: templates.Default(), From: compose.Address{Name: "Umpire", Address: "umpire@example.org"}}
	c, err := svc.Create(context.Background(), games.CreateRequest{ID: "n2-same", Ruleset: "dragonrage", Scenario: "n2",
		Players: []games.Player{{Side: "invader", Address: "alice@example.org"}, {Side: "defender", Address: "bob@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
	send := func(n int, file string) []store.Message {
		t.Helper()
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		before, _ := st.Messages(context.Background(), "n2-same")
		body := "game: n2-same\nside: defender\nsecret: " + c.Secrets["defender"] + "\n" + string(src)
		raw := "From: bob@example.org\r\nTo: umpire@example.org\r\nSubject: orders\r\nMessage-ID: <same" + string(rune('0'+n)) + "@example.org>\r\n\r\n" + strings.ReplaceAll(body, "\n", "\r\n")
		if out, err := d.Handle(context.Background(), []byte(raw)); err != nil || out.Folder != referee.Processed {
			t.Fatalf("%s: %+v %v", file, out, err)
		}
		after, _ := st.Messages(context.Background(), "n2-same")
		return after[len(before):]
	}
	pictures := func(msgs []store.Message) int {
		n := 0
		for _, m := range msgs {
			if bytes.Contains(m.Raw, []byte("image/png")) {
				n++
			}
		}
		return n
	}
	if n := pictures(send(1, "../../docs/examples/n2-defender-setup.yaml")); n == 0 {
		t.Fatal("the setup's results carry no picture")
	}
	if n := pictures(send(2, "../../docs/examples/n2-defender-movement.yaml")); n != 0 {
		t.Errorf("%d results mails carry a picture of a board that did not change", n)
	}
}
