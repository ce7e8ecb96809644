package daemon_test

import (
	"context"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/mail/daemon"
	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
)

// Several daemons on one shared store, in one process (store.SharedMemory:
// leases and DueFrom as store/postgres has them). The two-process test,
// with a kill, on PostgreSQL is standby_kill_test.go.

const (
	msgTaken   = "lease taken: this daemon does the work now"
	msgStandby = "standing by: another daemon holds the lease"
	msgHandled = "mail handled"
)

func leaseTTL(ttl time.Duration) func(*daemon.Daemon) {
	return func(d *daemon.Daemon) { d.LeaseTTL = ttl }
}

// raceGame creates a race game on st and returns it with its secrets.
func raceGame(t *testing.T, st store.Store, id string) (*game.Game, *games.Created) {
	t.Helper()
	svc := &games.Service{Store: st, Rules: lookup}
	c, err := svc.Create(context.Background(), games.CreateRequest{ID: id, Ruleset: "race", Scenario: "sprint", Referee: refereeAddr,
		Players: []games.Player{{Side: "red", Address: redAddr}, {Side: "blue", Address: blueAddr}}})
	if err != nil {
		t.Fatal(err)
	}
	return c.Game, c
}

// bidMail is side's bid in the game's first turn.
func bidMail(t *testing.T, st store.Store, id string, c *games.Created, side string) ([]byte, string) {
	t.Helper()
	g := loadGame(t, st, id)
	for _, r := range g.Due() {
		if string(r.Side) == side {
			return orderMail(addrOf(r.Side), nextOrders(g, r, c.Secrets[r.Side]))
		}
	}
	t.Fatalf("game %s does not wait for %s", id, side)
	return nil, ""
}

// allSent reports whether every outbox message is sent.
func allSent(t *testing.T, st store.Store) bool {
	msgs, err := st.Messages(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range msgs {
		if m.Status != store.Sent {
			return false
		}
	}
	return true
}

// TestStandbyTakesOver: two daemons of one mailbox on one shared store:
// the first does all the work, the second stands by for each lease; when
// the first stops, the second takes every lease over at once (the first
// released them) and handles the next mail. Each mail is recorded once,
// each reply sent once.
func TestStandbyTakesOver(t *testing.T) {
	imapSrv := mailtest.StartIMAP(t)
	sink := mailtest.StartSink(t)
	st := store.NewSharedMemory()
	defer st.Close()
	_, c := raceGame(t, st, "race-standby")
	cfg := testConfig(imapSrv.Addr, "umpire", "secret", sink.Addr, t.TempDir())
	la, lb := newLogWatch(), newLogWatch()
	a := startDaemonLog(t, cfg, st, la.logger(), leaseTTL(300*time.Millisecond))
	la.Wait(t, msgTaken, 3)
	b := startDaemonLog(t, cfg, st, lb.logger(), leaseTTL(300*time.Millisecond))
	lb.Wait(t, msgStandby, 3)

	raw, red := bidMail(t, st, "race-standby", c, "red")
	imapSrv.Deliver(raw)
	waitFor(t, "the first mail to be handled and answered", func() bool {
		return marked(t, st, red) && allSent(t, st) && len(imapSrv.Folder("umpire-processed")) == 1
	})
	a.stop()
	lb.Wait(t, msgTaken, 3)

	raw, blue := bidMail(t, st, "race-standby", c, "blue")
	imapSrv.Deliver(raw)
	waitFor(t, "the second mail to be handled and answered", func() bool {
		return marked(t, st, blue) && allSent(t, st) && len(imapSrv.Folder("umpire-processed")) == 2
	})
	b.stop()
	la.mu.Lock()
	handledA, takenA := la.count[msgHandled], la.count[msgTaken]
	la.mu.Unlock()
	lb.mu.Lock()
	handledB := lb.count[msgHandled]
	lb.mu.Unlock()
	if handledA != 1 || handledB != 1 || takenA != 3 {
		t.Errorf("the first daemon handled %d mails (took %d leases), the second %d; want 1 (3) and 1", handledA, takenA, handledB)
	}
	count := eventTypes(t, st, "race-standby", 1)
	if count[game.TypeOrders] != 2 || count[game.TypeAdjudicated] != 1 {
		t.Errorf("the game's log has %v, want 2 orders and 1 adjudication", count)
	}
	msgs, _ := st.Messages(context.Background(), "")
	seen := map[string]int{}
	for _, m := range sink.Mails() {
		seen[m.MessageID]++
	}
	for _, m := range msgs {
		if seen[m.ID] != 1 {
			t.Errorf("reply %s delivered %d times, want once", m.ID, seen[m.ID])
		}
	}
}

// TestTwoMailboxes: two daemons, each with its own mailbox, address and
// mail server, on one shared store, both active at once: each reads its
// mailbox and sends the replies it queued through its own server, never
// the other's.
func TestTwoMailboxes(t *testing.T) {
	// Two hosts: the intake keeps its place in a mailbox under the user,
	// host and folder (not the port), as real mailboxes differ.
	imapA, imapB := mailtest.StartIMAPAt(t, "127.0.0.1:0"), mailtest.StartIMAPAt(t, "127.0.0.2:0")
	sinkA, sinkB := mailtest.StartSink(t), mailtest.StartSink(t)
	st := store.NewSharedMemory()
	defer st.Close()
	_, ca := raceGame(t, st, "race-a")
	_, cb := raceGame(t, st, "race-b")
	cfgA := testConfig(imapA.Addr, "umpire", "secret", sinkA.Addr, t.TempDir())
	cfgA.From.Address = "umpire-a@example.org"
	cfgB := testConfig(imapB.Addr, "umpire", "secret", sinkB.Addr, t.TempDir())
	cfgB.From.Address = "umpire-b@example.org"
	la, lb := newLogWatch(), newLogWatch()
	a := startDaemonLog(t, cfgA, st, la.logger(), leaseTTL(300*time.Millisecond))
	b := startDaemonLog(t, cfgB, st, lb.logger(), leaseTTL(300*time.Millisecond))
	la.Wait(t, msgTaken, 2) // intake and send, and maybe the clock
	lb.Wait(t, msgTaken, 2)

	var ids []string
	for _, side := range []string{"red", "blue"} {
		raw, id := bidMail(t, st, "race-a", ca, side)
		imapA.Deliver(raw)
		ids = append(ids, id)
		raw, id = bidMail(t, st, "race-b", cb, side)
		imapB.Deliver(raw)
		ids = append(ids, id)
		waitFor(t, "both mailboxes' mails to be handled and answered", func() bool {
			return marked(t, st, ids[len(ids)-1]) && marked(t, st, ids[len(ids)-2]) && allSent(t, st)
		})
	}
	a.stop()
	b.stop()
	for _, l := range []*logWatch{la, lb} {
		l.mu.Lock()
		released := l.count["lease released"]
		l.mu.Unlock()
		if released < 2 {
			t.Errorf("a daemon released %d leases when it stopped, want its intake and send at least", released)
		}
	}
	msgs, err := st.Messages(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		sink *mailtest.Sink
		from string
	}{{sinkA, cfgA.From.Address}, {sinkB, cfgB.From.Address}} {
		got := map[string]int{}
		for _, m := range c.sink.Mails() {
			if m.From != c.from {
				t.Errorf("the mail server of %s carried a mail from %s", c.from, m.From)
			}
			got[m.MessageID]++
		}
		want := 0
		for _, m := range msgs {
			if m.From == c.from {
				want++
				if got[m.ID] != 1 {
					t.Errorf("%s's reply %s went %d times through its server, want once", c.from, m.ID, got[m.ID])
				}
			}
		}
		if want == 0 {
			t.Errorf("%s queued no reply: the test tested nothing", c.from)
		}
	}
}
