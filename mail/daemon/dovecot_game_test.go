package daemon_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/rulesets"
	"github.com/umpire-pbem/umpire/mail/daemon"
	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
)

// mailGame is a game of a shipped ruleset played by mail through a real
// Dovecot, as the end-to-end game tests play it: the daemon on a data file
// of its own, a sink for the mail it sends, the game created by the
// referee's `command: new` mail, and the players' secrets read from their
// welcomes.
type mailGame struct {
	t        *testing.T
	id       string
	dc       *dovecot
	sink     *mailtest.Sink
	st       store.Store
	d        *running
	svc      *games.Service
	deliver  func([]byte)
	welcomes []mailtest.Received
	secrets  map[string]string // by player address
}

// startMailGame starts Dovecot and the daemon and mails `command: new`
// with the given ruleset, scenario and players (side: address, in order);
// it returns once the welcomes (one to each player and the referee) are
// out. It skips when Dovecot is not installed or the tests are short.
func startMailGame(t *testing.T, id, ruleset, scenario string, players [2][2]string) *mailGame {
	t.Helper()
	if testing.Short() {
		t.Skip("starts Dovecot")
	}
	g := &mailGame{t: t, id: id, dc: startDovecot(t), sink: mailtest.StartSink(t)}
	data := t.TempDir()
	st, err := store.Open(filepath.Join(data, "umpire.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	g.st = st
	cfg := testConfig(g.dc.addr, "umpire", "secret", g.sink.Addr, data)
	cfg.IMAP.Poll = 2e8
	g.d = startDaemonLog(t, cfg, st, quietLog(), func(d *daemon.Daemon) { d.Rules = rulesets.Lookup })
	c := mailtest.Login(t, g.dc.addr, "umpire", "secret")
	t.Cleanup(func() { c.Close() })
	g.deliver = func(raw []byte) { mailtest.Append(t, c, "INBOX", raw) }
	g.svc = &games.Service{Store: st, Rules: rulesets.Lookup}

	raw, _ := orderMail(refereeAddr, fmt.Sprintf("command: new\nid: %s\nruleset: %s\nscenario: %s\nplayers:\n  %s: %s\n  %s: %s\n",
		id, ruleset, scenario, players[0][0], players[0][1], players[1][0], players[1][1]))
	g.deliver(raw)
	g.welcomes = g.sink.WaitFor(t, 3, stuck)
	g.secrets = secretsFrom(t, g.welcomes)
	if len(g.secrets) != 2 {
		t.Fatalf("welcome mails carry %d secrets, want 2", len(g.secrets))
	}
	return g
}

// due is what the game waits for: the turn and phase of its requests and
// the sides that have not answered them.
func (g *mailGame) due() (turn int, phase string, sides []string) {
	gm, err := g.svc.Load(context.Background(), g.id)
	if err != nil {
		g.t.Fatal(err)
	}
	for _, r := range gm.Due() {
		if _, ok := gm.Answered(r.ID); !ok {
			sides = append(sides, string(r.Side))
		}
		turn, phase = r.Turn, r.Phase
	}
	return turn, phase, sides
}

// send mails body (turn:, phase:, orders:) as side's orders from its
// player, and waits until the daemon has handled it.
func (g *mailGame) send(from, side, body string) {
	g.t.Helper()
	raw, mid := orderMail(from, fmt.Sprintf("game: %s\nside: %s\nsecret: %s\n%s", g.id, side, g.secrets[from], body))
	g.deliver(raw)
	waitFor(g.t, "the daemon to handle "+mid, func() bool { return marked(g.t, g.st, mid) })
}

// allSent waits until the outbox holds nothing unsent.
func (g *mailGame) allSent() {
	waitFor(g.t, "every reply sent", func() bool {
		msgs, _ := g.st.Messages(g.t.Context(), "")
		for _, m := range msgs {
			if m.Status != store.Sent {
				return false
			}
		}
		return true
	})
}

// inboxEmpty checks that the daemon filed every mail it read.
func (g *mailGame) inboxEmpty() {
	check := mailtest.Login(g.t, g.dc.addr, "umpire", "secret")
	defer check.Close()
	if in := mailtest.List(g.t, check, "INBOX"); len(in) != 0 {
		g.t.Errorf("%d mails left in the INBOX", len(in))
	}
}
