package extract

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

// plain is a text/plain UTF-8 mail with body (written with "\n").
func plain(body string) []byte {
	return crlf("\nFrom: Alice <alice@example.org>\nTo: referee@umpire.local\nSubject: [umpire raid-1] orders\n" +
		"Message-ID: <p1@example.org>\nContent-Type: text/plain; charset=utf-8\n\n" + body)
}

const envelope = "game: raid-1\nside: defender\nsecret: k3w6rbd2mqnhk5ia\nturn: 1\nphase: setup\norders:\n  INF-1: \"0808\"\n  INF-2: \"0909\"\n"

// Greetings and footers around the orders are dropped; the orders and their
// line offset are those of the mail.
func TestProseAroundOrders(t *testing.T) {
	cases := []struct {
		name, before, after string
		notes               []string
	}{
		{"chat before and thanks after", "Here is my setup, cheers!\n\n", "\nThanks\n", []string{"ignored 1 line of text before your orders (lines 1-2)", "ignored 1 line of text after your orders"}},
		{"hi and iPhone", "Hi Bob,\n", "\nSent from my iPhone\n", []string{"ignored 1 line of text before your orders (line 1)", "after your orders"}},
		{"outlook for android", "", "\nGet Outlook for Android<https://aka.ms/AAb9ysg>\n", []string{"ignored 1 line of text after your orders"}},
		{"signature without dashes", "Hello referee, my setup:\n\n", "\nCheers,\nAlice\nalice@example.org\n", []string{"ignored 3 lines of text after"}},
		{"greeting that ends in a colon", "Here are my orders:\n", "Regards, Alice\n", nil},
		{"nothing around", "", "", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := Extract(plain(c.before+envelope+c.after), Limits{})
			if err != nil {
				t.Fatalf("Extract: %v", err)
			}
			if string(m.Orders) != envelope {
				t.Errorf("Orders:\n%q\nwant\n%q", m.Orders, envelope)
			}
			if want := strings.Count(c.before, "\n"); m.LineOffset != want {
				t.Errorf("LineOffset = %d, want %d", m.LineOffset, want)
			}
			if m.Source != SourceBody {
				t.Errorf("Source = %q", m.Source)
			}
			for _, want := range c.notes {
				if !slices.ContainsFunc(m.Notes, func(n string) bool { return strings.Contains(n, want) }) {
					t.Errorf("no note contains %q; notes: %q", want, m.Notes)
				}
			}
		})
	}
}

// errorLine parses the extracted orders and returns the error's line as
// the player sees it in the mail.
func errorLine(t *testing.T, m *Mail) (int, string) {
	t.Helper()
	_, err := yamlx.Parse(m.Orders)
	var e *yamlx.Error
	if !errors.As(err, &e) {
		t.Fatalf("Parse(%q) = %v, want an error", m.Orders, err)
	}
	return e.Line + m.LineOffset, e.Code
}

// An error in the orders is still numbered as the line of the mail.
func TestProseKeepsErrorLines(t *testing.T) {
	cases := []struct {
		name, body string
		line       int // 1-based, in the body
		code       string
	}{
		{"tab after a greeting", "Hi Bob,\n\nHere is my setup, cheers!\n\ngame: raid-1\nside: defender\norders:\n\tINF-1: \"0808\"\n\nThanks\nSent from my iPhone\n", 8, yamlx.CodeTab},
		{"tab with quote and signature", "Hi,\ngame: raid-1\norders:\n  INF-1: \"0808\"\n\tINF-2: \"0909\"\nThanks\n\nOn Mon, 2 Nov 2026 at 10:00, Umpire <referee@umpire.local> wrote:\n> Turn 1\n-- \nAlice\n", 5, yamlx.CodeTab},
		// A line in the middle of the YAML is never dropped: the parser
		// points at it.
		{"prose in the middle", "Hi Bob,\ngame: raid-1\nside: defender\nby the way, I move first\norders:\n  INF-1: \"0808\"\nThanks\n", 4, yamlx.CodeSyntax},
		{"key without its colon", "Hi Bob,\ngame: raid-1\nside: defender\norders\n  INF-1: \"0808\"\nThanks\n", 4, yamlx.CodeSyntax},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := Extract(plain(c.body), Limits{})
			if err != nil {
				t.Fatalf("Extract: %v", err)
			}
			line, code := errorLine(t, m)
			if line != c.line || code != c.code {
				t.Errorf("error at mail line %d [%s], want %d [%s]; orders %q offset %d", line, code, c.line, c.code, m.Orders, m.LineOffset)
			}
			if lines := strings.Split(c.body, "\n"); !strings.Contains(string(m.Orders), lines[c.line-1]) {
				t.Errorf("orders %q lack the offending line %q", m.Orders, lines[c.line-1])
			}
		})
	}
}

// Fenced orders and attachments are read as before, prose or not.
func TestProseFencedAndAttachment(t *testing.T) {
	m, err := Extract(plain("Hi Bob,\n---\n"+envelope+"---\nThanks\n"), Limits{})
	if err != nil || string(m.Orders) != envelope || m.LineOffset != 2 || m.Source != SourceFenced {
		t.Fatalf("fenced: %v %q offset %d %s", err, m.Orders, m.LineOffset, m.Source)
	}
	// Orders that are one YAML mapping are kept whole, comments and all.
	whole := "# my setup\n" + envelope + "# end\n"
	m, err = Extract(plain(whole), Limits{})
	if err != nil || string(m.Orders) != whole || m.LineOffset != 0 {
		t.Fatalf("whole: %v %q offset %d", err, m.Orders, m.LineOffset)
	}
	// Without an envelope key nothing is cut: the order parser explains.
	m, err = Extract(plain("Hi Bob,\nINF-1: \"0808\"\nThanks\n"), Limits{})
	if err != nil || m.LineOffset != 0 || !strings.HasPrefix(string(m.Orders), "Hi Bob,") {
		t.Fatalf("no envelope: %v %q offset %d", err, m.Orders, m.LineOffset)
	}
}

// Two separate blocks of orders: no guessing.
func TestTwoBlocks(t *testing.T) {
	body := "Hi Bob,\n\n" + envelope + "\nOops, I meant this:\n\n" + envelope + "\nThanks\n"
	_, err := Extract(plain(body), Limits{})
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeTwoBlocks {
		t.Fatalf("Extract: %v, want %s", err, CodeTwoBlocks)
	}
	second := 3 + strings.Count(envelope, "\n") + 3
	want := "Two blocks of orders were found, at lines 3 and " + strconv.Itoa(second) + "; send one."
	if !strings.HasPrefix(e.Msg, want) {
		t.Errorf("Msg = %q, want it to start %q", e.Msg, want)
	}
	// Blocks joined by a line that is valid YAML are one mapping, not two.
	joined := "game: raid-1\nside: defender\nmy note: attack at dawn\nturn: 1\norders: {}\n"
	if m, err := Extract(plain("Hi,\n"+joined+"Thanks\n"), Limits{}); err != nil || string(m.Orders) != joined {
		t.Errorf("joined: %v %q", err, m.Orders)
	}
}

func TestThreadGames(t *testing.T) {
	m := &Mail{
		Subject:    "Re: [umpire raid-1] game raid-1",
		InReplyTo:  "umpire.raid-2.0123456789abcdef0123456789abcdef@umpire.local",
		References: []string{"umpire.raid-3.thread@umpire.local", "umpire.0123456789abcdef0123456789abcdef@umpire.local", "CAF=x@mail.gmail.com", "umpire.raid-2.thread@umpire.local"},
	}
	if got, want := m.ThreadGames(), []string{"raid-2", "raid-3", "raid-1"}; !slices.Equal(got, want) {
		t.Errorf("ThreadGames = %q, want %q", got, want)
	}
	if got := (&Mail{Subject: "orders", InReplyTo: "umpire.@x", References: []string{"umpire.a.b.c@x", "x@y"}}).ThreadGames(); len(got) != 0 {
		t.Errorf("ThreadGames = %q, want none", got)
	}
}
