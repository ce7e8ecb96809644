package daemon_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/mail/daemon"
	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
)

// fakeClock is the daemon's clock in a test: it moves only when told.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *fakeClock) Set(t time.Time) { c.mu.Lock(); c.now = t; c.mu.Unlock() }

// TestDovecotReminders: umpire serve, against a real Dovecot, sends the
// reminders and the lateness notices of a game's deadlines when its clock
// reaches them, and not before. The daemon's clock is a fake the test
// moves; its clock runs every few milliseconds.
func TestDovecotReminders(t *testing.T) {
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
	clock := &fakeClock{now: time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)}
	d := startDaemonLog(t, cfg, st, quietLog(), func(d *daemon.Daemon) { d.Now = clock.Now; d.ClockEvery = 5 * time.Millisecond })
	defer d.stop()
	c := mailtest.Login(t, dc.addr, "umpire", "secret")
	defer c.Close()
	raw, _ := orderMail(refereeAddr, "command: new\nid: race-clock\nruleset: race\nscenario: sprint\noptions:\n  deadline.orders: 72h\nplayers:\n  red: red@example.org\n  blue: blue@example.org\n")
	mailtest.Append(t, c, "INBOX", raw)
	svc := &games.Service{Store: st, Rules: lookup}
	waitFor(t, "the game with its deadlines", func() bool {
		g, err := svc.Load(t.Context(), "race-clock")
		return err == nil && len(g.Deadlines) == 2
	})
	g, _ := svc.Load(t.Context(), "race-clock")
	due := g.Deadlines["t1.bid.red"].Due
	// ranAt waits until the daemon's clock has run over the games at t.
	ranAt := func(at time.Time) {
		t.Helper()
		clock.Set(at)
		waitFor(t, "the clock to run at "+at.Format(time.RFC3339), func() bool {
			last, err := svc.LastTick(t.Context())
			return err == nil && !last.Before(at)
		})
	}
	reminders := func() int {
		n := 0
		for _, m := range sink.Mails() {
			if bytes.Contains(m.Raw, []byte("Reminder: game race-clock")) {
				n++
			}
		}
		return n
	}
	// Step the clock 9 minutes at a time, as a daemon that runs does (a
	// longer gap would count as umpire being down), up to just
	// before the 24-hour reminder: nothing is due yet.
	step := func(to time.Time) {
		for at := clock.Now().Add(9 * time.Minute); at.Before(to); at = at.Add(9 * time.Minute) {
			ranAt(at)
		}
		ranAt(to)
	}
	step(due.Add(-24*time.Hour - time.Minute))
	queued := func(what string) int {
		msgs, _ := st.Messages(t.Context(), "race-clock")
		n := 0
		for _, m := range msgs {
			if bytes.Contains(m.Raw, []byte(what)) {
				n++
			}
		}
		return n
	}
	if n := queued("Reminder: game race-clock"); n != 0 {
		t.Fatalf("%d reminders queued a minute before their time", n)
	}
	step(due.Add(-24*time.Hour + time.Minute))
	waitFor(t, "the 24-hour reminders", func() bool { return reminders() == 2 })
	step(due.Add(time.Minute))
	waitFor(t, "the lateness notices", func() bool {
		n := 0
		for _, m := range sink.Mails() {
			if bytes.Contains(m.Raw, []byte("the deadline for ")) {
				n++
			}
		}
		return n == 6 // red's and blue's deadlines, each to red, blue and the referee
	})
	var to []string
	for _, m := range sink.Mails() {
		if bytes.Contains(m.Raw, []byte("Reminder: game race-clock")) {
			to = append(to, strings.Join(m.To, ","))
		}
	}
	if reminders() != 4 { // the 24-hour and the 2-hour reminder, to each side
		t.Errorf("%d reminders sent, to %v, want 4", reminders(), to)
	}
	t.Logf("%s", fmt.Sprint(len(sink.Mails()), " mails from the referee"))
}
