package daemon_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/mail/daemon"
	"github.com/umpire-pbem/umpire/mail/intake"
	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/store/games"
	"github.com/umpire-pbem/umpire/store/postgres"
	"github.com/umpire-pbem/umpire/store/postgres/pgtest"
)

// The two-daemon kill test: two daemons (child processes, this test
// binary again) of one mailbox on one PostgreSQL database, one active and
// one standing by. A burst of orders is mailed; the active daemon is
// paused in the middle of it, right after recording a mail and before
// filing it, and killed with SIGKILL (it cannot release its leases); the
// standby takes over once the leases' term has run out and handles the
// rest. A second round does the same to the other daemon, with a fresh
// standby. In the end no mail is lost, none is recorded twice, every reply
// is queued once and delivered at least once: a reply may go twice only
// if the daemon was killed after the mail server took it and before it
// was recorded as sent, at most once per kill, since a daemon sends one
// mail at a time.

const (
	envStandby   = "UMPIRE_STANDBY_CHILD" // the child's name
	envStandbyPG = "UMPIRE_STANDBY_PG"    // the database URL, with the test's schema
	standbyTTL   = 3 * time.Second
	// The rounds: the games per round (two mails each, the second of
	// which completes a turn), and the mails after which the active
	// daemon is paused and killed.
	killGames = 20
	killAfter = 8
	paused    = "PAUSED"
)

// TestChildStandby is the child: it does nothing in a normal test run. It
// logs to its standard error, which the parent reads; when the file
// pause-<name> appears in the data directory, holding a number k, it stops
// (for good) at its k-th mail recorded after that, and says so.
func TestChildStandby(t *testing.T) {
	name := os.Getenv(envStandby)
	if name == "" {
		t.Skip("only run as a child of TestStandbyKill")
	}
	ctx, cancel := context.WithTimeout(context.Background(), stuck)
	defer cancel()
	go func() {
		io.Copy(io.Discard, os.Stdin) // the parent went: stop
		cancel()
	}()
	st, err := postgres.Open(ctx, os.Getenv(envStandbyPG), postgres.Options{})
	if err != nil && ctx.Err() != nil {
		os.Exit(0) // stopped by the parent before it was up: a clean stop
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "child", name, "cannot open the store:", err)
		os.Exit(2)
	}
	data := os.Getenv(envData)
	pause := filepath.Join(data, "pause-"+name)
	committed := 0
	intake.Hook = func(step string) { // called by one goroutine at a time
		if step != "committed" {
			return
		}
		b, err := os.ReadFile(pause)
		if err != nil {
			return
		}
		committed++
		if k, _ := strconv.Atoi(strings.TrimSpace(string(b))); committed == k {
			fmt.Fprintln(os.Stderr, paused)
			select {} // until the parent kills this process
		}
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	cfg := testConfig(os.Getenv(envIMAP), "umpire", "secret", os.Getenv(envSMTP), data)
	d := &daemon.Daemon{Config: cfg, Rules: lookup, Log: log, Store: st, LeaseTTL: standbyTTL,
		MinBackoff: 20 * time.Millisecond, MaxBackoff: 200 * time.Millisecond, SendBackoff: 50 * time.Millisecond, SendPoll: 50 * time.Millisecond}
	d.Run(ctx) // releases the leases when ctx ends
	st.Close()
	os.Exit(0)
}

// child is a running child daemon and what it logged.
type child struct {
	name  string
	cmd   *exec.Cmd
	stdin io.WriteCloser
	done  chan struct{} // its standard error ended

	mu    sync.Mutex
	lines []string
}

func startChild(t *testing.T, name, pgURL, imapAddr, smtpAddr, data string) *child {
	t.Helper()
	c := &child{name: name, done: make(chan struct{})}
	c.cmd = exec.Command(os.Args[0], "-test.run=^TestChildStandby$", "-test.count=1")
	c.cmd.Env = append(os.Environ(), envStandby+"="+name, envStandbyPG+"="+pgURL, envIMAP+"="+imapAddr, envSMTP+"="+smtpAddr, envData+"="+data)
	var err error
	if c.stdin, err = c.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stderr, err := c.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(c.done)
		sc := bufio.NewScanner(stderr)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			c.mu.Lock()
			c.lines = append(c.lines, sc.Text())
			c.mu.Unlock()
		}
	}()
	t.Cleanup(func() { c.stop(t) })
	return c
}

// stop ends the child cleanly (if it still runs) and waits for it.
func (c *child) stop(t *testing.T) {
	if c.cmd.ProcessState != nil {
		return
	}
	c.stdin.Close()
	<-c.done
	if err := c.cmd.Wait(); err != nil {
		t.Errorf("child %s: %v\n%s", c.name, err, c.log())
	}
}

// kill ends the child with SIGKILL.
func (c *child) kill(t *testing.T) {
	if err := c.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-c.done
	c.cmd.Wait()
}

// count is how many lines hold every part.
func (c *child) count(parts ...string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
next:
	for _, l := range c.lines {
		for _, p := range parts {
			if !strings.Contains(l, p) {
				continue next
			}
		}
		n++
	}
	return n
}

func (c *child) log() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return strings.Join(c.lines, "\n")
}

// waitLine waits until the child logged n lines holding every part.
func (c *child) waitLine(t *testing.T, n int, parts ...string) {
	t.Helper()
	deadline := time.Now().Add(stuck)
	for c.count(parts...) < n {
		select {
		case <-c.done:
			t.Fatalf("child %s ended before logging %q:\n%s", c.name, parts, c.log())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting %v for child %s to log %q:\n%s", stuck, c.name, parts, c.log())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestStandbyKill(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	pgURL := pgtest.URL(t)
	ctx := context.Background()
	if _, err := postgres.Migrate(ctx, pgURL, postgres.Options{}); err != nil {
		t.Fatal(err)
	}
	st, err := postgres.Open(ctx, pgURL, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() }) // before pgtest drops the schema
	imapSrv := mailtest.StartIMAP(t)
	sink := mailtest.StartSink(t)
	data := t.TempDir()

	// Both rounds' games, each waiting for both bids.
	type bids struct{ raws [][]byte }
	var rounds [2]bids
	var ids []string
	svc := &games.Service{Store: st, Rules: lookup}
	for r := range rounds {
		var second [][]byte // the bids that complete a turn come after the others
		for i := range killGames {
			c, err := svc.Create(ctx, games.CreateRequest{ID: fmt.Sprintf("race-k%d-%02d", r, i), Ruleset: "race", Scenario: "sprint", Referee: refereeAddr,
				Players: []games.Player{{Side: "red", Address: redAddr}, {Side: "blue", Address: blueAddr}}})
			if err != nil {
				t.Fatal(err)
			}
			for k, req := range c.Game.Due() {
				raw, id := orderMail(addrOf(req.Side), nextOrders(c.Game, req, c.Secrets[req.Side]))
				ids = append(ids, id)
				if k == 0 {
					rounds[r].raws = append(rounds[r].raws, raw)
				} else {
					second = append(second, raw)
				}
			}
		}
		rounds[r].raws = append(rounds[r].raws, second...)
	}

	// The first daemon takes every lease before the second starts, so
	// that one daemon does all the work (two starting at once may share
	// the leases between them, which is correct but not this test).
	act := startChild(t, "a", pgURL, imapSrv.Addr, sink.Addr, data)
	act.waitLine(t, 3, msgTaken)
	standby := startChild(t, "b", pgURL, imapSrv.Addr, sink.Addr, data)
	kills := 0
	for r, round := range rounds {
		standby.waitLine(t, 3, msgStandby)
		before := standby.count(msgHandled)
		if err := os.WriteFile(filepath.Join(data, "pause-"+act.name), []byte(strconv.Itoa(killAfter)), 0o600); err != nil {
			t.Fatal(err)
		}
		imapSrv.Deliver(round.raws...)
		act.waitLine(t, 1, paused)
		act.kill(t)
		kills++
		t.Logf("round %d: killed %s when it had handled %d mails in all; %s takes over", r+1, act.name, act.count(msgHandled), standby.name)
		standby.waitLine(t, 3, msgTaken, "previous=")
		waitFor(t, "every mail of the round to be handled, filed and answered", func() bool {
			n := len(imapSrv.Folder("umpire-processed")) + len(imapSrv.Folder("umpire-rejected"))
			return len(imapSrv.Folder("INBOX")) == 0 && n == (r+1)*2*killGames && allSent(t, st)
		})
		if standby.count(msgHandled) == before {
			t.Errorf("round %d: the standby handled no mail: the kill came after the burst, the test tested nothing", r+1)
		}
		// The next round's standby is a fresh daemon.
		act, standby = standby, startChild(t, fmt.Sprintf("%c", 'c'+r), pgURL, imapSrv.Addr, sink.Addr, data)
	}
	act.stop(t)
	standby.stop(t)

	// No mail lost, none recorded twice.
	for _, id := range ids {
		if !marked(t, st, id) {
			t.Errorf("mail %s was lost: never marked", id)
		}
	}
	if rej := imapSrv.Folder("umpire-rejected"); len(rej) != 0 {
		t.Errorf("%d mails rejected", len(rej))
	}
	gs, err := st.Games(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range gs {
		count := eventTypes(t, st, g, 1)
		if count[game.TypeOrders] != 2 || count[game.TypeAdjudicated] != 1 {
			t.Errorf("game %s: %d orders and %d adjudications recorded, want 2 and 1", g, count[game.TypeOrders], count[game.TypeAdjudicated])
		}
		// The first bid's acknowledgement; the second's acknowledgement
		// with its results, the other side's results, the referee's copy.
		if msgs, err := st.Messages(ctx, g); err != nil || len(msgs) != 4 {
			t.Errorf("game %s: %d replies queued (%v), want 4", g, len(msgs), err)
		}
	}
	// Every reply delivered, a few perhaps twice: at most once per kill.
	msgs, err := st.Messages(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, m := range sink.Mails() {
		seen[m.MessageID]++
	}
	twice := 0
	for _, m := range msgs {
		switch n := seen[m.ID]; {
		case n == 0:
			t.Errorf("reply %s was never delivered", m.ID)
		case n > 1:
			twice += n - 1
		}
		delete(seen, m.ID)
	}
	if len(seen) > 0 {
		t.Errorf("the mail server got mails that are not in the outbox: %v", seen)
	}
	if twice > kills {
		t.Errorf("%d replies delivered twice after %d kills; a kill can send at most one twice", twice, kills)
	}
	t.Logf("%d mails, %d replies, %d delivered twice, %d kills", len(ids), len(msgs), twice, kills)
}
