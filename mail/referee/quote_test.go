package referee_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/mail/referee"
	"github.com/umpire-pbem/umpire/store"
)

// attachment is a mail from from with yaml as its orders.yaml attachment.
func (f *fixture) attachment(from, yaml string) []byte {
	f.n++
	return []byte(fmt.Sprintf("From: %s\r\nTo: umpire@example.org\r\nSubject: orders\r\nMessage-ID: <a%d@example.org>\r\n"+
		"MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b1\"\r\n\r\n"+
		"--b1\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nMy orders are attached.\r\n"+
		"--b1\r\nContent-Type: application/x-yaml\r\nContent-Disposition: attachment; filename=\"orders.yaml\"\r\n\r\n%s\r\n--b1--\r\n",
		from, f.n, strings.ReplaceAll(yaml, "\n", "\r\n")))
}

// lastReply is the one mail queued by the last Handle.
func lastReply(t *testing.T, f *fixture, out referee.Outcome) store.Message {
	t.Helper()
	if out.Folder != referee.Rejected || out.Replies != 1 {
		t.Fatalf("%+v", out)
	}
	msgs := f.outbox()
	return msgs[len(msgs)-1]
}

// TestRejectionOfAHugeAttachmentIsSmall: a 200 KB attachment with an error
// on a 65 KB line, between two more, is answered in a few KB.
func TestRejectionOfAHugeAttachmentIsSmall(t *testing.T) {
	f := newFixture(t)
	long := func(c string) string { return strings.Repeat(c, 65<<10) }
	yaml := f.bid("red", 1) + "  # " + long("a") + "\n  bdi: " + long("b") + "\n  # " + long("c") + "\n"
	if len(yaml) < 190<<10 {
		t.Fatalf("the attachment is only %d bytes", len(yaml))
	}
	msg := lastReply(t, f, f.handle(f.attachment("red@example.org", yaml)))
	if len(msg.Raw) >= 16<<10 {
		t.Fatalf("the reply is %d bytes", len(msg.Raw))
	}
	body := decodedMail(msg)
	for _, want := range []string{"1 problem in the attachment orders.yaml", "line 9", "unknown field", "|   bdi: bbbb", "  # aaaa", "  # cccc", "…"} {
		if !strings.Contains(body, want) {
			t.Errorf("the reply lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, f.secrets["red"]) {
		t.Errorf("the reply quotes the secret:\n%s", body)
	}
}

// TestManyErrorsAreCounted: thirty errors with long messages are a few of
// them listed and the rest counted.
func TestManyErrorsAreCounted(t *testing.T) {
	f := newFixture(t)
	f.handle(f.mail("red@example.org", f.bid("red", 1)))
	f.handle(f.mail("blue@example.org", f.bid("blue", 0)))
	var b strings.Builder
	fmt.Fprintf(&b, "game: race-1\nside: red\nsecret: %s\nturn: 1\nphase: move\norders:\n", f.secrets["red"])
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&b, "  - advance: R%d%s\n", i, strings.Repeat("x", 5000))
	}
	msg := lastReply(t, f, f.handle(f.attachment("red@example.org", b.String())))
	if len(msg.Raw) >= 16<<10 {
		t.Fatalf("the reply is %d bytes", len(msg.Raw))
	}
	body := decodedMail(msg)
	listed := strings.Count(body, "[unknown-unit]")
	if listed < 1 || listed > 10 || !strings.Contains(body, "30 problems in the attachment orders.yaml") ||
		!strings.Contains(body, fmt.Sprintf("and %d more problems not listed here", 30-listed)) {
		t.Errorf("%d errors listed:\n%s", listed, body)
	}
}

// TestSecretLinesAreNeverQuoted: a secret line quoted as the context of
// another error, a misspelt secret key, a secret in a flow mapping and a
// secret in a list: each shows "(hidden)", never its value.
func TestSecretLinesAreNeverQuoted(t *testing.T) {
	for name, c := range map[string]struct {
		orders, show string
	}{
		"context":     {"game: race-1\nside: red\nsecret: hunter2-guess\nturnn: 1\nphase: bid\norders:\n  bid: 1\n", "3 | secret: (hidden)"},
		"misspelt":    {"game: race-1\nside: red\nsecert: hunter2-guess\nturn: 1\nphase: bid\norders:\n  bid: 1\n", "3 | secert: (hidden)"},
		"upper case":  {"game: race-1\nside: red\nSecret: hunter2-guess\nturn: 1\nphase: bid\norders:\n  bid: 1\n", "3 | Secret: (hidden)"},
		"flow":        {"{game: race-1, side: red, secret: hunter2-guess, turnn: 1, orders: {bid: 1}}\n", "1 | {game: race-1, side: red, secret: (hidden)"},
		"block":       {"game: race-1\nside: red\nsecret: |\n  hunter2-guess\nturnn: 1\nphase: bid\norders:\n  bid: 1\n", "4 |   (hidden)"},
		"in a list":   {"game: race-1\nside: red\nsecret: RIGHT\nturn: 1\nphase: bid\norders:\n  - secret: hunter2-guess\n  - bid: 1\n", "7 |   - secret: (hidden)"},
		"wrong value": {"game: race-1\nside: red\nsecret: [hunter2-guess]\nturn: 1\nphase: bid\norders:\n  bid: 1\n", "secret: (hidden)"},
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			orders := strings.Replace(c.orders, "RIGHT", f.secrets["red"], 1)
			body := decodedMail(lastReply(t, f, f.handle(f.mail("red@example.org", orders))))
			if strings.Contains(body, "hunter2") || strings.Contains(body, f.secrets["red"]) || !strings.Contains(body, c.show) {
				t.Errorf("want %q and no secret:\n%s", c.show, body)
			}
		})
	}
}
