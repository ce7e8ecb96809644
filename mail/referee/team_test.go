package referee_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/mail/referee"
)

// TestTeamByMail: the referee creates a game with a team by mail; each
// player of the team gets his own welcome and secret; a teammate's orders
// are refused naming the captain; everyone on the side gets the results.
func TestTeamByMail(t *testing.T) {
	f := newFixture(t)
	body := "command: new\nid: team-1\nruleset: race\nscenario: sprint\noptions: {turns: \"1\"}\nplayers:\n  red: [ann@example.org, bea@example.org]\n  blue: cid@example.org\n"
	if out := f.handle(f.mail("ref@example.org", body)); out.Folder != referee.Processed || out.Game != "team-1" || out.Replies != 4 {
		t.Fatalf("new: %+v", out)
	}
	secretRE := regexp.MustCompile(`Your secret is: ([a-z0-9]+)`)
	secrets := map[string]string{}
	for _, m := range f.outbox() {
		raw := unfold(string(m.Raw))
		if !strings.Contains(raw, "X-Umpire-Kind: welcome") {
			continue
		}
		s := secretRE.FindStringSubmatch(raw)
		if s == nil {
			t.Fatalf("a welcome without a secret:\n%s", raw)
		}
		secrets[m.To[0]] = s[1]
		if m.To[0] == "bea@example.org" && (!strings.Contains(raw, "ann@example.org (captain)") || !strings.Contains(raw, "The captain, ann@example.org, sends the side's orders")) {
			t.Errorf("bea's welcome does not tell her team:\n%s", raw)
		}
	}
	if len(secrets) != 3 || secrets["ann@example.org"] == secrets["bea@example.org"] {
		t.Fatalf("welcome secrets %v", secrets)
	}
	bid := func(side, from string, n int) string {
		return fmt.Sprintf("game: team-1\nside: %s\nsecret: %s\nturn: 1\nphase: bid\norders:\n  bid: %d\n", side, secrets[from], n)
	}
	before := len(f.outbox())
	out := f.handle(f.mail("bea@example.org", bid("red", "bea@example.org", 1)))
	if out.Folder != referee.Rejected {
		t.Fatalf("bea's bid: %+v", out)
	}
	msgs := f.outbox()
	if len(msgs) != before+1 || !strings.Contains(unfold(string(msgs[len(msgs)-1].Raw)), "captain, ann@example.org") || !strings.Contains(unfold(string(msgs[len(msgs)-1].Raw)), "not-your-part") {
		t.Fatalf("bea's refusal:\n%s", msgs[len(msgs)-1].Raw)
	}
	// Ann's secret does not speak for bea, nor bea's for ann.
	if out := f.handle(f.mail("ann@example.org", bid("red", "bea@example.org", 1))); out.Folder != referee.Rejected {
		t.Fatalf("ann with bea's secret: %+v", out)
	}
	if out := f.handle(f.mail("ann@example.org", bid("red", "ann@example.org", 1))); out.Reason != "accepted" {
		t.Fatalf("ann's bid: %+v", out)
	}
	if out := f.handle(f.mail("cid@example.org", bid("blue", "cid@example.org", 0))); out.Reason != "accepted+adjudicated" {
		t.Fatalf("cid's bid: %+v", out)
	}
	got := map[string]bool{}
	for _, m := range f.outbox() {
		raw := unfold(string(m.Raw))
		if strings.Contains(raw, "X-Umpire-Kind: results") && strings.Contains(raw, "bids: red 1, blue 0") {
			got[m.To[0]] = true
			if m.To[0] == "bea@example.org" && (!strings.Contains(raw, "energy-red") || strings.Contains(raw, "energy-blue")) {
				t.Errorf("bea's results are not red's view:\n%s", raw)
			}
		}
	}
	for _, who := range []string{"ann@example.org", "bea@example.org", "cid@example.org"} {
		if !got[who] {
			t.Errorf("no results for %s (results went to %v)", who, got)
		}
	}
}
