package referee_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"regexp"
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

// raceGame creates a race game on the fixture's desk, red and blue played
// by red@ and blue@example.org, refereed by ref@example.org.
func (f *fixture) raceGame(id string, opts map[string]string) map[adjudicator.Side]string {
	f.t.Helper()
	c, err := f.desk.Games.Create(context.Background(), games.CreateRequest{ID: id, Ruleset: "race", Scenario: "sprint", Referee: "ref@example.org",
		Options: opts, Players: []games.Player{{Side: "red", Address: "red@example.org"}, {Side: "blue", Address: "blue@example.org"}}})
	if err != nil {
		f.t.Fatal(err)
	}
	return c.Secrets
}

// step answers everything game id waits for, by mail: red bids 1 and blue
// 0 (red moves first), moves advance no runner, so that no die decides
// the course of the game. It returns the outcomes.
func (f *fixture) step(id string, secrets map[adjudicator.Side]string) []referee.Outcome {
	f.t.Helper()
	g, err := f.desk.Games.Load(context.Background(), id)
	if err != nil {
		f.t.Fatal(err)
	}
	var outs []referee.Outcome
	for _, r := range g.Due() {
		if _, ok := g.Answered(r.ID); ok {
			continue
		}
		orders := "[]"
		if r.Phase == "bid" {
			orders = map[adjudicator.Side]string{"red": "{bid: 1}", "blue": "{bid: 0}"}[r.Side]
		}
		body := fmt.Sprintf("game: %s\nside: %s\nsecret: %s\nturn: %d\nphase: %s\norders: %s\n", id, r.Side, secrets[r.Side], r.Turn, r.Phase, orders)
		out := f.handle(f.mail(string(r.Side)+"@example.org", body))
		if out.Folder != referee.Processed {
			f.t.Fatalf("%s's orders for %s: %+v", r.Side, r.Title, out)
		}
		outs = append(outs, out)
	}
	return outs
}

// bodies returns the mails queued since n (an earlier len(f.outbox())) to
// addr, each as text with quoted-printable soft breaks undone.
func (f *fixture) bodies(n int, addr string) []string {
	var out []string
	for _, m := range f.outbox()[n:] {
		if strings.EqualFold(m.To[0], addr) {
			out = append(out, textOf(m))
		}
	}
	return out
}

func textOf(m store.Message) string {
	s := strings.ReplaceAll(string(m.Raw), "=\r\n", "")
	return strings.ReplaceAll(strings.ReplaceAll(s, "=3D", "="), "\r\n", "\n")
}

var adjRE = regexp.MustCompile(`(?m)^Adjudication (\d+)$`)

func adjudicationsIn(body string) string {
	var ks []string
	for _, m := range adjRE.FindAllStringSubmatch(body, -1) {
		ks = append(ks, m[1])
	}
	return strings.Join(ks, ",")
}

// TestObserversReadOnlyPublic: an observer added by the referee is
// welcomed, the players are told, and after each adjudication the
// observer gets the public report and rolls and the board as every side
// sees it — never red's scout, the referee's note, a side's energy, a
// secret or anything due from them.
func TestObserversReadOnlyPublic(t *testing.T) {
	f := newFixture(t)
	secrets := f.raceGame("race-obs", map[string]string{"turns": "2", "scout": "yes"})
	n := len(f.outbox())
	out := f.handle(f.mail("ref@example.org", "command: observe\ngame: race-obs\naddress: carol@example.org\n"))
	if out.Folder != referee.Processed {
		t.Fatalf("observe: %+v", out)
	}
	welcome := f.bodies(n, "carol@example.org")
	if len(welcome) != 1 || !strings.Contains(welcome[0], "You observe game race-obs") || strings.Contains(welcome[0], "secret") {
		t.Fatalf("the observer's welcome: %q", welcome)
	}
	for _, p := range []string{"red@example.org", "blue@example.org", "ref@example.org"} {
		if b := f.bodies(n, p); len(b) == 0 || !strings.Contains(strings.Join(b, ""), "carol@example.org now observes the game") {
			t.Errorf("%s is not told who observes: %q", p, b)
		}
	}
	// A second observe of the same address, or of a player, is refused.
	for _, again := range []string{"carol@example.org", "red@example.org", "Carol <carol@example.org>"} {
		if out := f.handle(f.mail("ref@example.org", "command: observe\ngame: race-obs\naddress: "+again+"\n")); out.Folder != referee.Rejected {
			t.Errorf("observe %s: %+v", again, out)
		}
	}

	n = len(f.outbox())
	k := 0
	for k < 6 {
		f.step("race-obs", secrets)
		k++
		got := f.bodies(n, "carol@example.org")
		if len(got) != 1 {
			t.Fatalf("after adjudication %d the observer got %d mails", k, len(got))
		}
		body := got[0]
		if a := adjudicationsIn(body); a != fmt.Sprint(k) {
			t.Errorf("after adjudication %d the observer reads adjudications %q", k, a)
		}
		for _, leak := range []string{"scout", "referee: red scouted", "energy-", "YOU", "What the game waits for", "secret", secrets["red"], secrets["blue"]} {
			if strings.Contains(body, leak) {
				t.Errorf("adjudication %d: the observer's mail holds %q:\n%s", k, leak, body)
			}
		}
		if k == 1 && !strings.Contains(body, "bids: red 1, blue 0") {
			t.Errorf("the observer misses the public report:\n%s", body)
		}
		n = len(f.outbox())
	}
	g, _ := f.desk.Games.Load(context.Background(), "race-obs")
	if !g.Over() {
		t.Fatal("the game is not over after two turns")
	}

	// The observer cannot play: orders from their address are a stranger's.
	body := fmt.Sprintf("game: race-obs\nside: red\nsecret: %s\nturn: 1\nphase: bid\norders: {bid: 1}\n", secrets["red"])
	if out := f.handle(f.mail("carol@example.org", body)); out.Folder != referee.Rejected || out.Reason != "stranger" || out.Replies != 0 {
		t.Errorf("orders from the observer: %+v", out)
	}
}

// TestObserverCannotSubmit: mid-game, an observer's orders (even with a
// side's secret) and press are filed unanswered and change nothing.
func TestObserverCannotSubmit(t *testing.T) {
	f := newFixture(t)
	secrets := f.raceGame("race-sub", map[string]string{"turns": "2", "press": "open"})
	f.handle(f.mail("ref@example.org", "command: observe\ngame: race-sub\naddress: carol@example.org\n"))
	before, _ := f.desk.Games.Load(context.Background(), "race-sub")
	n := len(f.outbox())
	for _, body := range []string{
		fmt.Sprintf("game: race-sub\nside: red\nsecret: %s\nturn: 1\nphase: bid\norders: {bid: 1}\n", secrets["red"]),
		"game: race-sub\nturn: 1\nphase: bid\norders: {bid: 1}\n",
		fmt.Sprintf("command: press\ngame: race-sub\nside: red\nsecret: %s\nto: blue\ntext: hello\n", secrets["red"]),
	} {
		if out := f.handle(f.mail("carol@example.org", body)); out.Folder != referee.Rejected || out.Replies != 0 {
			t.Errorf("from the observer: %+v", out)
		}
	}
	after, _ := f.desk.Games.Load(context.Background(), "race-sub")
	if after.Version != before.Version || len(f.outbox()) != n {
		t.Errorf("an observer's mail changed the game (%d → %d events) or was answered (%d mails)", before.Version, after.Version, len(f.outbox())-n)
	}
}

// TestDelayedObserver: an observer one turn late gets a turn's results
// once the game is a turn past them, with the board as it stood then, and
// everything left when the game ends; unobserve stops the mails.
func TestDelayedObserver(t *testing.T) {
	f := newFixture(t)
	secrets := f.raceGame("race-late", map[string]string{"turns": "3", "scout": "yes"})
	f.handle(f.mail("ref@example.org", "command: observe\ngame: race-late\naddress: dan@example.org\ndelay: 1\n"))
	f.handle(f.mail("ref@example.org", "command: observe\ngame: race-late\naddress: eve@example.org\ndelay: 2\n"))
	// Race: bids, red moves, blue moves, each turn; the turn changes with
	// adjudications 3 and 6, and the game ends with 9.
	want := map[int]string{3: "1,2", 6: "3,4,5", 9: "6,7,8,9"}
	wantEve := map[int]string{6: "1,2", 9: "3,4,5,6,7,8,9"}
	for k := 1; k <= 9; k++ {
		n := len(f.outbox())
		f.step("race-late", secrets)
		got := f.bodies(n, "dan@example.org")
		var ks []string
		for _, b := range got {
			ks = append(ks, adjudicationsIn(b))
			if !strings.Contains(b, "1 turn late") || strings.Contains(b, "scout") || strings.Contains(b, "Game log head") {
				t.Errorf("adjudication %d: the delayed observer's mail:\n%s", k, b)
			}
		}
		if strings.Join(ks, ";") != want[k] {
			t.Errorf("after adjudication %d the observer one turn late got adjudications %q, want %q", k, ks, want[k])
		}
		var eve []string
		for _, b := range f.bodies(n, "eve@example.org") {
			eve = append(eve, adjudicationsIn(b))
		}
		if strings.Join(eve, ";") != wantEve[k] {
			t.Errorf("after adjudication %d the observer two turns late got adjudications %q, want %q", k, eve, wantEve[k])
		}
		if k == 3 && len(got) == 1 && !strings.Contains(got[0], "The game after adjudication 2:\n  turn 1") {
			t.Errorf("the delayed observer does not see the board as it stood after adjudication 2:\n%s", got[0])
		}
	}
	// Unobserving ends the mails, and is told.
	f2 := newFixture(t)
	s2 := f2.raceGame("race-stop", map[string]string{"turns": "2"})
	f2.handle(f2.mail("ref@example.org", "command: observe\ngame: race-stop\naddress: dan@example.org\n"))
	f2.step("race-stop", s2)
	n := len(f2.outbox())
	if out := f2.handle(f2.mail("ref@example.org", "command: unobserve\ngame: race-stop\naddress: DAN@example.org\n")); out.Folder != referee.Processed {
		t.Fatalf("unobserve: %+v", out)
	}
	if b := f2.bodies(n, "dan@example.org"); len(b) != 1 || !strings.Contains(b[0], "You no longer observe game race-stop") {
		t.Errorf("the farewell: %q", b)
	}
	n = len(f2.outbox())
	f2.step("race-stop", s2)
	if b := f2.bodies(n, "dan@example.org"); len(b) != 0 {
		t.Errorf("a removed observer still gets results: %q", b)
	}
	if out := f2.handle(f2.mail("ref@example.org", "command: unobserve\ngame: race-stop\naddress: dan@example.org\n")); out.Folder != referee.Rejected {
		t.Errorf("unobserve twice: %+v", out)
	}
	if out := f2.handle(f2.mail("red@example.org", "command: observe\ngame: race-stop\naddress: x@example.org\n")); out.Folder != referee.Rejected || out.Replies > 1 {
		t.Errorf("observe from a player: %+v", out)
	}
}

// TestObserverPicture: an observer of a Dragon Rage game gets the board
// as a PNG with the results.
func TestObserverPicture(t *testing.T) {
	st := store.NewMemory()
	clock := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	svc := &games.Service{Store: st, Rules: rulesets.Lookup, Now: func() time.Time { clock = clock.Add(time.Second); return clock }}
	d := &referee.Desk{Games: svc, Templates: templates.Default(), From: compose.Address{Name: "Umpire", Address: "umpire@example.org"}, Referee: "ref@example.org"}
	ctx := context.Background()
	c, err := svc.Create(ctx, games.CreateRequest{ID: "n2-obs", Ruleset: "dragonrage", Scenario: "n2",
		Players: []games.Player{{Side: "invader", Address: "alice@example.org"}, {Side: "defender", Address: "bob@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
	mail := func(from, id, body string) {
		t.Helper()
		raw := "From: " + from + "\r\nTo: umpire@example.org\r\nSubject: x\r\nMessage-ID: <" + id + "@example.org>\r\n\r\n" + strings.ReplaceAll(body, "\n", "\r\n")
		if out, err := d.Handle(ctx, []byte(raw)); err != nil || out.Folder != referee.Processed {
			t.Fatalf("%s: %+v %v", id, out, err)
		}
	}
	mail("ref@example.org", "observe", "command: observe\ngame: n2-obs\naddress: carol@example.org\n")
	setup, err := os.ReadFile("../../docs/examples/n2-defender-setup.yaml")
	if err != nil {
		t.Fatal(err)
	}
	mail("bob@example.org", "setup", "game: n2-obs\nside: defender\nsecret: "+c.Secrets["defender"]+"\n"+string(setup))
	msgs, _ := st.Messages(ctx, "n2-obs")
	found := false
	for _, m := range msgs {
		if m.To[0] == "carol@example.org" && bytes.Contains(m.Raw, []byte("for an observer")) {
			found = bytes.Contains(m.Raw, []byte("(observer).png")) && bytes.Contains(m.Raw, []byte("image/png"))
		}
	}
	if !found {
		t.Error("the observer's results carry no picture")
	}
}
