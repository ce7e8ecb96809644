package daemon_test

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/mail/daemon"
	"github.com/umpire-pbem/umpire/mail/intake"
	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/mail/send"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
)

// The kill tests run the daemon in a child process (this test binary again)
// against servers the parent runs, make the child die at one step of
// handling a mail, then restart the daemon and check that nothing was lost,
// nothing was recorded twice, and every reply went out.

const (
	envStep = "UMPIRE_KILL_STEP"
	envIMAP = "UMPIRE_KILL_IMAP"
	envSMTP = "UMPIRE_KILL_SMTP"
	envData = "UMPIRE_KILL_DATA"
	killed  = 3 // the child's exit status when the hook fired
)

// TestChildDaemon is the child: it does nothing in a normal test run.
func TestChildDaemon(t *testing.T) {
	step := os.Getenv(envStep)
	if step == "" {
		t.Skip("only run as the child of TestKill")
	}
	die := func(s string) {
		if s == step {
			os.Exit(killed)
		}
	}
	intake.Hook, send.Hook = die, die
	cfg := testConfig(os.Getenv(envIMAP), "umpire", "secret", os.Getenv(envSMTP), os.Getenv(envData))
	d := &daemon.Daemon{Config: cfg, Rules: lookup, Log: quietLog(), MinBackoff: 20 * time.Millisecond, SendPoll: 50 * time.Millisecond}
	// The child stops when its parent goes (its standard input, a pipe
	// from the parent, ends), so an orphan cannot run on; the bound is
	// only a second safety net.
	ctx, cancel := context.WithTimeout(context.Background(), stuck)
	defer cancel()
	go func() {
		io.Copy(io.Discard, os.Stdin)
		cancel()
	}()
	d.Run(ctx)
	os.Exit(0) // the step was never reached
}

func TestKill(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	for _, step := range []string{"fetched", "committed", "flagged", "moved", "sending"} {
		t.Run(step, func(t *testing.T) { killAt(t, step) })
	}
}

func killAt(t *testing.T, step string) {
	imapSrv := mailtest.StartIMAP(t)
	sink := mailtest.StartSink(t)
	data := t.TempDir()
	ctx := context.Background()

	// Red's bid is in; blue's bid, by mail, completes the turn: the mail
	// causes an acknowledgement and two results mails.
	st, err := store.Open(filepath.Join(data, "umpire.db"))
	if err != nil {
		t.Fatal(err)
	}
	svc := &games.Service{Store: st, Rules: lookup}
	c, err := svc.Create(ctx, games.CreateRequest{ID: "race-kill", Ruleset: "race", Scenario: "sprint", Referee: refereeAddr,
		Players: []games.Player{{Side: "red", Address: redAddr}, {Side: "blue", Address: blueAddr}}})
	if err != nil {
		t.Fatal(err)
	}
	g := c.Game
	for _, r := range g.Due() {
		if r.Side == "red" {
			if _, err := svc.Submit(ctx, games.SubmitRequest{Game: g.ID, Side: "red", Src: []byte(nextOrders(g, r, c.Secrets["red"]))}); err != nil {
				t.Fatal(err)
			}
		}
	}
	g, _ = svc.Load(ctx, g.ID)
	var raw []byte
	var id string
	for _, r := range g.Due() {
		if r.Side == "blue" {
			raw, id = orderMail(blueAddr, nextOrders(g, r, c.Secrets["blue"]))
		}
	}
	before, _ := st.Version(ctx, g.ID)
	st.Close()
	imapSrv.Deliver(raw)

	// The child dies at the step.
	cmd := exec.Command(os.Args[0], "-test.run=^TestChildDaemon$", "-test.count=1")
	cmd.Env = append(os.Environ(), envStep+"="+step, envIMAP+"="+imapSrv.Addr, envSMTP+"="+sink.Addr, envData+"="+data)
	stdin, err := cmd.StdinPipe() // closed by Wait, or by the system if this process dies
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != killed {
		t.Fatalf("the child did not die at %q: %v\n%s", step, err, out)
	}

	// Restart in-process and let it finish.
	st, err = store.Open(filepath.Join(data, "umpire.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cfg := testConfig(imapSrv.Addr, "umpire", "secret", sink.Addr, data)
	d := startDaemon(t, cfg, st)
	waitFor(t, "the mail to be filed and every reply sent", func() bool {
		if !marked(t, st, id) {
			return false
		}
		msgs, _ := st.Messages(ctx, "")
		for _, m := range msgs {
			if m.Status != store.Sent {
				return false
			}
		}
		return len(imapSrv.Folder("INBOX")) == 0 && len(imapSrv.Folder("umpire-processed")) == 1
	})
	d.stop()

	// Recorded exactly once: one orders.accepted and one adjudication.
	count := eventTypes(t, st, g.ID, before+1)
	if count[game.TypeOrders] != 1 || count[game.TypeAdjudicated] != 1 {
		t.Errorf("after a kill at %s the mail was recorded as %v", step, count)
	}
	// Every reply delivered at least once; any duplicate has the same ID.
	msgs, _ := st.Messages(ctx, "")
	if len(msgs) != 3 {
		t.Fatalf("%d replies queued, want 3 (the acknowledgement with the sender's results, the other results, the referee's copy)", len(msgs))
	}
	seen := map[string]int{}
	t.Logf("killed at %s: the sink got %d mails for %d replies", step, len(sink.Mails()), len(msgs))
	for _, m := range sink.Mails() {
		seen[m.MessageID]++
	}
	for _, m := range msgs {
		if seen[m.ID] == 0 {
			t.Errorf("reply %s was never delivered", m.ID)
		}
		delete(seen, m.ID)
	}
	if len(seen) > 0 {
		t.Errorf("the sink got mails that are not in the outbox: %v", seen)
	}
	if p := imapSrv.Folder("umpire-processed"); len(p) != 1 {
		t.Errorf("%d mails in processed, want 1", len(p))
	}
}
