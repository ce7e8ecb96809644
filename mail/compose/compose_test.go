package compose

import (
	"strings"
	"testing"
	"time"
)

func TestStableIDsAndHeaders(t *testing.T) {
	a := MessageID("example.org", "race-1", "results", "3", "red")
	if a != MessageID("example.org", "race-1", "results", "3", "red") || a == MessageID("example.org", "race-1", "results", "3", "blue") {
		t.Fatal("Message-IDs are not stable and distinct")
	}
	if !strings.HasPrefix(a, "umpire.race-1.") || !strings.HasSuffix(a, "@example.org") {
		t.Errorf("id %s", a)
	}
	m, err := Build(Mail{From: Address{Name: "Umpire Référé", Address: "u@example.org"}, To: Address{Address: "p@example.org"},
		Subject: Subject("race-1", "Orders accepted (turn 1, bid)"), ID: a, InReplyTo: "x@y", References: []string{ThreadRoot("example.org", "race-1"), "x@y", "x@y"},
		Date: time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC), Game: "race-1", Body: "héllo\nworld\n"})
	if err != nil {
		t.Fatal(err)
	}
	raw := string(m.Raw)
	for _, want := range []string{"Message-Id: <" + a + ">", "In-Reply-To: <x@y>", "References: <umpire.race-1.thread@example.org> <x@y>\r\n",
		"Subject: [umpire race-1] Orders accepted (turn 1, bid)\r\n", "From: =?utf-8?", "charset=utf-8", "h=C3=A9llo\r\nworld"} {
		if !strings.Contains(raw, want) {
			t.Errorf("missing %q in\n%s", want, raw)
		}
	}
	if m.ID != a || m.To[0] != "p@example.org" || m.From != "u@example.org" {
		t.Errorf("%+v", m)
	}
}
