package referee_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/rulesets"
	"github.com/umpire-pbem/umpire/mail/compose"
	"github.com/umpire-pbem/umpire/mail/referee"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
	"github.com/umpire-pbem/umpire/templates"
)

var updateGolden = flag.Bool("update-golden", false, "rewrite testdata/golden from the mails the tests build")

// goldenText is a mail as a reader meets it: who it is to, its subject
// and X-Umpire-* headers, its attachments by name and type, then its text.
func goldenText(t *testing.T, m store.Message) string {
	t.Helper()
	h, text, atts := readParts(t, m.Raw)
	var b strings.Builder
	subject, _ := h.Subject()
	fmt.Fprintf(&b, "To: %s\nSubject: %s\n", strings.Join(m.To, ", "), subject)
	var keys []string
	for f := h.Fields(); f.Next(); {
		if strings.HasPrefix(f.Key(), "X-Umpire-") {
			keys = append(keys, f.Key()+": "+f.Value())
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		b.WriteString(k + "\n")
	}
	for _, a := range atts {
		fmt.Fprintf(&b, "Attachment: %s (%s)\n", a.name, a.typ)
	}
	b.WriteString("\n" + text)
	return b.String()
}

// checkGolden compares a mail with testdata/golden/NAME.txt (rewritten
// with -update-golden).
func checkGolden(t *testing.T, name string, m store.Message) {
	t.Helper()
	got := goldenText(t, m)
	path := filepath.Join("testdata", "golden", name+".txt")
	if *updateGolden {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./mail/referee -run TestGoldenMails -update-golden to write it)", err)
	}
	if got != string(want) {
		t.Errorf("mail %s differs from %s (if the change is meant, rewrite it with -update-golden and read the diff):\n%s", name, path, lineDiff(string(want), got))
	}
}

// lineDiff shows the first lines where two texts differ.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\n- %s\n+ %s", i+1, a, b)
		}
	}
	return "(same lines)"
}

// goldenDesk is a desk on a fixed clock and fixed randomness: every run
// builds the same mails, byte for byte.
type goldenDesk struct {
	t    *testing.T
	st   *store.Memory
	svc  *games.Service
	desk *referee.Desk
	now  time.Time
	n    int
}

func newGoldenDesk(t *testing.T) *goldenDesk {
	g := &goldenDesk{t: t, st: store.NewMemory(), now: time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)}
	both := func(name string) (adjudicator.Ruleset, bool) {
		if r, ok := lookup(name); ok {
			return r, true
		}
		return rulesets.Lookup(name)
	}
	g.svc = &games.Service{Store: g.st, Rules: both, Now: func() time.Time { return g.now }, Rand: &fixedRand{}}
	g.desk = &referee.Desk{Games: g.svc, Templates: templates.Default(), From: compose.Address{Name: "Umpire", Address: "umpire@example.org"}, Referee: "ref@example.org"}
	return g
}

// send mails body from addr and returns the mails it caused.
func (g *goldenDesk) send(from, subject, body string) (referee.Outcome, []store.Message) {
	g.t.Helper()
	g.n++
	g.now = g.now.Add(time.Minute)
	before, _ := g.st.Messages(context.Background(), "")
	raw := fmt.Sprintf("From: %s\r\nTo: umpire@example.org\r\nSubject: %s\r\nMessage-ID: <golden-%d@example.org>\r\nDate: %s\r\n\r\n%s",
		from, subject, g.n, g.now.Format(time.RFC1123Z), strings.ReplaceAll(body, "\n", "\r\n"))
	out, err := g.desk.Handle(context.Background(), []byte(raw))
	if err != nil {
		g.t.Fatal(err)
	}
	after, _ := g.st.Messages(context.Background(), "")
	return out, after[len(before):]
}

// to is the one mail of msgs to addr.
func (g *goldenDesk) to(msgs []store.Message, addr string) store.Message {
	g.t.Helper()
	var found []store.Message
	for _, m := range msgs {
		if strings.EqualFold(m.To[0], addr) {
			found = append(found, m)
		}
	}
	if len(found) != 1 {
		g.t.Fatalf("%d mails to %s, want 1", len(found), addr)
	}
	return found[0]
}

// TestGoldenMails keeps the text of each kind of mail a player meets, as
// a whole, in testdata/golden: the welcome with the setup zones and the
// orders to fill in, the rejection that quotes the mistakes where they
// are, the acknowledgement alone, the results that tell the story with
// the acknowledgement first, the results of the other side, and the
// reminder with its "by when". A change to any of them shows up in review
// as a diff of what players will read.
func TestGoldenMails(t *testing.T) {
	g := newGoldenDesk(t)
	out, msgs := g.send("ref@example.org", "new game", "command: new\nid: raid-1\nruleset: dragonrage\nscenario: n2\noptions:\n  deadline.setup: 72h\n  deadline.orders: 48h\nplayers:\n  invader: alice@example.org\n  defender: bob@example.org\n")
	if out.Folder != referee.Processed {
		t.Fatalf("new: %+v", out)
	}
	checkGolden(t, "welcome-defender-setup", g.to(msgs, "bob@example.org"))
	checkGolden(t, "welcome-invader-waits", g.to(msgs, "alice@example.org"))
	secrets := map[string]string{"bob@example.org": welcomeSecret([]string{goldenText(t, g.to(msgs, "bob@example.org"))}),
		"alice@example.org": welcomeSecret([]string{goldenText(t, g.to(msgs, "alice@example.org"))})}

	setup, err := os.ReadFile("../../docs/examples/n2-defender-setup.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// Two mistakes: a troll on a hex outside the zone, a goblin twice.
	bad := strings.Replace(string(setup), `TRL-1: "`, `TRL-1: "0101" # was "`, 1)
	bad = strings.Replace(bad, "  GOB-2:", "  GOB-1: \"0511\"\n  GOB-2:", 1)
	out, msgs = g.send("bob@example.org", "Re: [umpire raid-1] Welcome", "Here is my setup, cheers!\n\ngame: raid-1\nside: defender\nsecret: "+secrets["bob@example.org"]+"\n"+bad+"\nBob\nSent from my phone\n")
	if out.Folder != referee.Rejected {
		t.Fatalf("the bad setup was not refused: %+v", out)
	}
	checkGolden(t, "rejected-setup", g.to(msgs, "bob@example.org"))

	out, msgs = g.send("bob@example.org", "Re: [umpire raid-1] Welcome", "game: raid-1\nside: defender\nsecret: "+secrets["bob@example.org"]+"\n"+string(setup))
	if out.Folder != referee.Processed {
		t.Fatalf("the setup was refused: %+v", out)
	}
	checkGolden(t, "accepted-and-results-defender", g.to(msgs, "bob@example.org"))
	checkGolden(t, "results-invader", g.to(msgs, "alice@example.org"))

	// The defender's pre-turn movement is due now, within 48 hours; a
	// day and a half later he is reminded.
	before, _ := g.st.Messages(context.Background(), "raid-1")
	g.now = g.now.Add(36 * time.Hour)
	if err := g.desk.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	after, _ := g.st.Messages(context.Background(), "raid-1")
	checkGolden(t, "reminder", g.to(after[len(before):], "bob@example.org"))

	// An acknowledgement alone: the first of two bids in a race.
	out, msgs = g.send("ref@example.org", "new race", "command: new\nid: race-1\nruleset: race\nscenario: sprint\nplayers:\n  red: red@example.org\n  blue: blue@example.org\n")
	if out.Folder != referee.Processed {
		t.Fatalf("new race: %+v", out)
	}
	red := welcomeSecret([]string{goldenText(t, g.to(msgs, "red@example.org"))})
	out, msgs = g.send("red@example.org", "bid", "game: race-1\nside: red\nsecret: "+red+"\nturn: 1\nphase: bid\norders:\n  bid: 2\n")
	if out.Folder != referee.Processed {
		t.Fatalf("the bid was refused: %+v", out)
	}
	checkGolden(t, "accepted", g.to(msgs, "red@example.org"))
}
