package daemon

import (
	"strings"
	"testing"
	"time"
)

func TestRefereeHint(t *testing.T) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	mk := func(from, extra, body string) []byte {
		return []byte("From: " + from + "\r\nTo: referee@umpire.local\r\nSubject: my orders\r\nMessage-ID: <p1@umpire.local>\r\n" + extra + "\r\n" + strings.ReplaceAll(body, "\n", "\r\n"))
	}
	orders := "Hi ref, here they are.\n\ngame: raid-1\nside: invader\nsecret: abc\nturn: 1\nphase: movement\norders: []\n"
	for _, tc := range []struct {
		name, from, extra, body string
		want                    string // "" for no hint
	}{
		{"orders", "alice@umpire.local", "", orders, "orders for game raid-1"},
		{"command", "alice@umpire.local", "", "command: status\ngame: raid-1\nside: invader\nsecret: abc\n", `the command "status" for game raid-1`},
		{"a question in words", "alice@umpire.local", "", "Can a troll climb a wall?\n", ""},
		{"from umpire", "umpire@umpire.local", "", orders, ""},
		{"an automatic reply", "alice@umpire.local", "Auto-Submitted: auto-replied\r\n", orders, ""},
		{"not a hub mailbox", "alice@example.org", "", orders, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			to, msg, ok := refereeHint(mk(tc.from, tc.extra, tc.body), "umpire@umpire.local", "referee@umpire.local", "umpire.local", now)
			if tc.want == "" {
				if ok {
					t.Fatalf("a hint to %s:\n%s", to, msg)
				}
				return
			}
			if !ok {
				t.Fatal("no hint")
			}
			text := string(msg)
			for _, w := range []string{tc.want, "umpire@umpire.local", "referee@umpire.local", "Auto-Submitted: auto-replied", "In-Reply-To: <p1@umpire.local>"} {
				if !strings.Contains(text, w) {
					t.Errorf("the hint lacks %q:\n%s", w, text)
				}
			}
			if to != tc.from {
				t.Errorf("the hint goes to %s, want %s", to, tc.from)
			}
			if strings.Contains(text, "secret: abc") {
				t.Errorf("the hint repeats the secret:\n%s", text)
			}
		})
	}
}
