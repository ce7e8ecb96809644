package daemon_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/rulesets"
	"github.com/umpire-pbem/umpire/mail/daemon"
	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
)

// TestDovecotGloryFirstTurn plays the first turn of a Dragons of Glory
// scenario by mail through a real Dovecot: the referee creates the game by
// mail, both sides send their steps 1 to 4 at once, then each mover his
// moves, as a player's mail program would send them; every reply goes out,
// and the game reaches turn 2 with the results and pictures of each
// adjudication mailed to both sides.
func TestDovecotGloryFirstTurn(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Dovecot")
	}
	dc := startDovecot(t)
	sink := mailtest.StartSink(t)
	data := t.TempDir()
	st, err := store.Open(filepath.Join(data, "umpire.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cfg := testConfig(dc.addr, "umpire", "secret", sink.Addr, data)
	cfg.IMAP.Poll = 2e8
	d := startDaemonLog(t, cfg, st, quietLog(), func(d *daemon.Daemon) { d.Rules = rulesets.Lookup })
	c := mailtest.Login(t, dc.addr, "umpire", "secret")
	defer c.Close()
	deliver := func(raw []byte) { mailtest.Append(t, c, "INBOX", raw) }

	const id = "glory-dovecot"
	hl, ws := redAddr, blueAddr
	raw, _ := orderMail(refereeAddr, fmt.Sprintf("command: new\nid: %s\nruleset: glory\nscenario: first-strike\nplayers:\n  highlord: %s\n  whitestone: %s\n", id, hl, ws))
	deliver(raw)
	welcomes := sink.WaitFor(t, 3, stuck)
	secrets := secretsFrom(t, welcomes)
	if len(secrets) != 2 {
		t.Fatalf("welcome mails carry %d secrets, want 2", len(secrets))
	}
	for _, m := range welcomes {
		if bytes.Contains(m.Raw, []byte("Your secret is")) && !bytes.Contains(m.Raw, []byte("everything in it is assumed")) {
			t.Errorf("the welcome to %s does not say the demonstration module is assumed:\n%s", m.To[0], m.Raw)
		}
	}
	svc := &games.Service{Store: st, Rules: rulesets.Lookup}
	load := func() (turn int, phase string, due []string) {
		g, err := svc.Load(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range g.Due() {
			if _, ok := g.Answered(r.ID); !ok {
				due = append(due, string(r.Side))
			}
			turn, phase = r.Turn, r.Phase
		}
		return turn, phase, due
	}
	send := func(from, side, body string) {
		t.Helper()
		raw, mid := orderMail(from, fmt.Sprintf("game: %s\nside: %s\nsecret: %s\n%s", id, side, secrets[from], body))
		deliver(raw)
		waitFor(t, "the daemon to handle "+mid, func() bool { return marked(t, st, mid) })
	}
	// Steps 1 to 4, both sides at once: the Highlord takes the initiative
	// if he wins it, the Whitestone would move second.
	send(hl, "highlord", "turn: 1\nphase: strategic\norders:\n  initiative: first\n")
	send(ws, "whitestone", "turn: 1\nphase: strategic\norders:\n  activate: [karthay]\n  initiative: second\n")
	moves := map[string]string{
		"highlord":   "turn: 1\nphase: move\norders:\n  moves:\n    - {unit: khelmar-cav, path: [\"1806\"]}\n",
		"whitestone": "turn: 1\nphase: move\norders:\n  moves:\n    - {unit: valen-cav-1, path: [\"1305\"]}\n",
	}
	for i := 0; i < 2; i++ {
		turn, phase, due := load()
		if turn != 1 || phase != "move" || len(due) != 1 {
			t.Fatalf("after steps 1 to 4: turn %d, phase %s, due %v; want one mover in turn 1", turn, phase, due)
		}
		from := hl
		if due[0] == "whitestone" {
			from = ws
		}
		send(from, due[0], moves[due[0]])
	}
	if turn, phase, _ := load(); turn != 2 || phase != "strategic" {
		t.Fatalf("after both movers: turn %d, phase %s; want turn 2's steps 1 to 4", turn, phase)
	}
	waitFor(t, "every reply sent", func() bool {
		msgs, _ := st.Messages(t.Context(), "")
		for _, m := range msgs {
			if m.Status != store.Sent {
				return false
			}
		}
		return true
	})
	d.stop()
	pictures := map[string]int{}
	for _, m := range sink.Mails() {
		if bytes.Contains(m.Raw, []byte("Results of game "+id)) && bytes.Contains(m.Raw, []byte("image/png")) {
			pictures[strings.ToLower(m.To[0])]++
		}
	}
	if pictures[hl] < 3 || pictures[ws] < 3 {
		t.Errorf("results mails with a picture: %v; want one for each side after each of the three adjudications", pictures)
	}
	check := mailtest.Login(t, dc.addr, "umpire", "secret")
	defer check.Close()
	if in := mailtest.List(t, check, "INBOX"); len(in) != 0 {
		t.Errorf("%d mails left in the INBOX", len(in))
	}
}
