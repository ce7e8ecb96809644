package compose

import (
	"mime"
	"net/mail"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func build(t *testing.T, m Mail) *mail.Message {
	t.Helper()
	if m.ID == "" {
		m.ID = MessageID("example.org", m.Game, "test")
	}
	m.From, m.To = Address{Address: "u@example.org"}, Address{Address: "p@example.org"}
	m.Date = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	out, err := Build(m)
	if err != nil {
		t.Fatal(err)
	}
	msg, err := mail.ReadMessage(strings.NewReader(string(out.Raw)))
	if err != nil {
		t.Fatal(err)
	}
	return msg
}

// TestUmpireHeaders: every X-Umpire-* header, exactly.
func TestUmpireHeaders(t *testing.T) {
	msg := build(t, Mail{Game: "raid-1", Subject: Subject("raid-1", "Turn 3 results - your move: invader melee, due Fri 28 Nov 18:00 UTC"),
		Kind: KindResults, Turn: 3, Due: []string{"t3.melee", "t3.melee", ""},
		Deadline: time.Date(2026, 11, 28, 19, 0, 0, 0, time.FixedZone("CET", 3600))})
	for k, want := range map[string]string{
		"Subject":           "[umpire raid-1] Turn 3 results - your move: invader melee, due Fri 28 Nov 18:00 UTC",
		"X-Umpire-Game":     "raid-1",
		"X-Umpire-Kind":     "results",
		"X-Umpire-Turn":     "3",
		"X-Umpire-Due":      "t3.melee",
		"X-Umpire-Deadline": "2026-11-28T18:00:00Z",
	} {
		if got := msg.Header.Get(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	// Nothing due, no turn, no deadline.
	msg = build(t, Mail{Game: "raid-1", Subject: Subject("raid-1", "Notice"), Kind: KindNotice})
	if got := msg.Header.Get("X-Umpire-Due"); got != "none" {
		t.Errorf("X-Umpire-Due = %q, want none", got)
	}
	for _, k := range []string{"X-Umpire-Turn", "X-Umpire-Deadline"} {
		if _, ok := msg.Header[k]; ok {
			t.Errorf("%s is set: %q", k, msg.Header.Get(k))
		}
	}
	msg = build(t, Mail{Game: "raid-1", Subject: "x", Kind: KindAccepted, Due: []string{"a", "b"}})
	if got := msg.Header.Get("X-Umpire-Due"); got != "a b" {
		t.Errorf("X-Umpire-Due = %q, want \"a b\"", got)
	}
}

// TestSubjectEncoding: a subject with other characters than ASCII is
// encoded word by word, so the game's prefix stays readable in the raw
// header, and decodes to the text given.
func TestSubjectEncoding(t *testing.T) {
	text := "Notice: the referee ended the game: Amélie wins — à la régulière"
	m, err := Build(Mail{From: Address{Address: "u@example.org"}, To: Address{Address: "p@example.org"}, ID: "x@example.org", Game: "raid-1",
		Subject: Subject("raid-1", text), Kind: KindNotice, Date: time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	raw := string(m.Raw)
	if !strings.Contains(raw, "\r\nSubject: [umpire raid-1] Notice: the referee ended the game:\r\n =?utf-8?q?Am=C3=A9lie?= wins") {
		t.Errorf("the prefix is not plain:\n%s", raw)
	}
	msg, _ := mail.ReadMessage(strings.NewReader(raw))
	got, err := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	if err != nil || got != "[umpire raid-1] "+text {
		t.Errorf("decoded subject %q (%v)", got, err)
	}
	for _, line := range strings.Split(raw[:strings.Index(raw, "\r\n\r\n")], "\r\n") {
		for i := 0; i < len(line); i++ {
			if line[i] > 0x7e {
				t.Fatalf("a header is not ASCII: %q", line)
			}
		}
	}
	// A word that looks like an encoded word is encoded itself.
	got = encodeText("a =?x?q?y?= b\r\nBcc: c")
	if got != "a =?utf-8?q?=3D=3Fx=3Fq=3Fy=3F=3D_b=0D=0ABcc=3A?= c" {
		t.Errorf("encodeText = %q", got)
	}
	if dec, err := new(mime.WordDecoder).DecodeHeader(got); err != nil || dec != "a =?x?q?y?= b\r\nBcc: c" {
		t.Errorf("decoded %q (%v)", dec, err)
	}
	long := encodeText(strings.Repeat("é", 100))
	for _, w := range strings.Fields(long) {
		if len(w) > 75 {
			t.Errorf("encoded word of %d characters: %s", len(w), w)
		}
	}
	if dec, _ := new(mime.WordDecoder).DecodeHeader(long); dec != strings.Repeat("é", 100) {
		t.Errorf("decoded %q", dec)
	}
}

// TestSubjectBounded: control characters go, and a subject is at most
// MaxSubject runes.
func TestSubjectBounded(t *testing.T) {
	if got := Subject("g", "a\r\nBcc: x@y\tz  "); got != "[umpire g] a Bcc: x@y z" {
		t.Errorf("Subject = %q", got)
	}
	long := Subject("g", strings.Repeat("très long ", 40))
	if n := utf8.RuneCountInString(long); n > MaxSubject || !strings.HasSuffix(long, "...") || !strings.HasPrefix(long, "[umpire g] très") {
		t.Errorf("%d runes: %q", n, long)
	}
	if got := Subject("", "Your mail to the referee"); got != "Your mail to the referee" {
		t.Errorf("Subject without a game = %q", got)
	}
}
