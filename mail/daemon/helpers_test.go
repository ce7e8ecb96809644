package daemon_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/testrules"
	"github.com/umpire-pbem/umpire/mail/config"
	"github.com/umpire-pbem/umpire/mail/daemon"
	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
)

func lookup(name string) (adjudicator.Ruleset, bool) { return testrules.Race, name == "race" }

const (
	refereeAddr = "ref@example.org"
	redAddr     = "red@example.org"
	blueAddr    = "blue@example.org"
)

// testConfig points a daemon at an IMAP server and an SMTP sink.
func testConfig(imapAddr, user, password, smtpAddr, data string) *config.Config {
	c := &config.Config{Data: data, File: "(test)"}
	host, port := splitHostPort(imapAddr)
	c.IMAP.Server = config.Server{Host: host, Port: port, TLS: config.TLSPlain, User: user}
	c.IMAP.Password.Set(password)
	c.IMAP.Folders = config.Folders{Inbox: "INBOX", Processed: "umpire-processed", Rejected: "umpire-rejected"}
	c.IMAP.Poll = config.Duration(100 * time.Millisecond)
	host, port = splitHostPort(smtpAddr)
	c.SMTP.Server = config.Server{Host: host, Port: port, TLS: config.TLSPlain, User: "umpire"}
	c.SMTP.Password.Set(mailtest.SinkPassword)
	c.SMTP.Auth = config.AuthPlain
	c.From = config.From{Address: "umpire@example.org", Name: "Umpire"}
	c.Referee.Address = refereeAddr
	c.Limits = config.Limits{Message: 1 << 20, Orders: 64 << 10}
	return c
}

func splitHostPort(a string) (string, int) {
	i := strings.LastIndexByte(a, ':')
	var p int
	fmt.Sscan(a[i+1:], &p)
	return a[:i], p
}

func quietLog() *slog.Logger {
	if os.Getenv("UMPIRE_TEST_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

// running is a daemon started by a test.
type running struct {
	cancel context.CancelFunc
	done   chan error
}

func startDaemon(t testing.TB, cfg *config.Config, st store.Store) *running {
	t.Helper()
	return startDaemonLog(t, cfg, st, quietLog())
}

func startDaemonLog(t testing.TB, cfg *config.Config, st store.Store, log *slog.Logger, set ...func(*daemon.Daemon)) *running {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	d := &daemon.Daemon{Config: cfg, Rules: lookup, Log: log, Store: st,
		MinBackoff: 20 * time.Millisecond, MaxBackoff: 200 * time.Millisecond, SendBackoff: 50 * time.Millisecond, SendPoll: 50 * time.Millisecond}
	for _, f := range set {
		f(d)
	}
	r := &running{cancel: cancel, done: make(chan error, 1)}
	go func() { r.done <- d.Run(ctx) }()
	t.Cleanup(r.stop)
	return r
}

func (r *running) stop() {
	r.cancel()
	<-r.done
	r.done <- nil // a second stop returns at once
}

var mailN atomic.Int64

// orderMail is a plain-text mail as a player's program would send it.
func orderMail(from, body string) (raw []byte, id string) {
	n := mailN.Add(1)
	id = fmt.Sprintf("t%d.%d@players.example", n, time.Now().UnixNano())
	raw = []byte(fmt.Sprintf("From: Player <%s>\r\nTo: umpire@example.org\r\nSubject: orders\r\nDate: Mon, 23 Nov 2026 10:00:00 +0000\r\nMessage-ID: <%s>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s",
		from, id, strings.ReplaceAll(body, "\n", "\r\n")))
	return raw, id
}

// stuck bounds every wait in these tests. It is a safety net against a
// hang, never a timing expectation: what a test waits for happens in well
// under a second on a quiet machine, and a loaded one may take many times
// that without the test failing.
const stuck = 3 * time.Minute

// waitFor polls cond, which reads the store or a mailbox, until it holds.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(stuck)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting %v for %s", stuck, what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// logWatch is a log handler that lets a test wait for, or act on, the
// daemon's log records: a way to know what the daemon has done without
// guessing how long it takes.
type logWatch struct {
	slog.Handler // where records also go (quietLog's)
	*watchState
}

type watchState struct {
	mu      sync.Mutex
	count   map[string]int // by message
	changed chan struct{}  // closed at the next record
	on      map[string]func()
}

func newLogWatch() *logWatch {
	return &logWatch{Handler: quietLog().Handler(), watchState: &watchState{count: map[string]int{}, changed: make(chan struct{}), on: map[string]func(){}}}
}

func (w *logWatch) logger() *slog.Logger { return slog.New(w) }

func (w *logWatch) Enabled(context.Context, slog.Level) bool { return true }

func (w *logWatch) Handle(ctx context.Context, r slog.Record) error {
	w.mu.Lock()
	w.count[r.Message]++
	close(w.changed)
	w.changed = make(chan struct{})
	f := w.on[r.Message]
	w.mu.Unlock()
	if f != nil {
		f()
	}
	if w.Handler.Enabled(ctx, r.Level) {
		return w.Handler.Handle(ctx, r)
	}
	return nil
}

func (w *logWatch) WithAttrs(as []slog.Attr) slog.Handler {
	return &logWatch{Handler: w.Handler.WithAttrs(as), watchState: w.watchState}
}

func (w *logWatch) WithGroup(name string) slog.Handler {
	return &logWatch{Handler: w.Handler.WithGroup(name), watchState: w.watchState}
}

// On calls f (which must not block) at each record with message msg.
func (w *logWatch) On(msg string, f func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.on[msg] = f
}

// Wait returns once n records with message msg have been logged.
func (w *logWatch) Wait(t testing.TB, msg string, n int) {
	t.Helper()
	timeout := time.After(stuck)
	for {
		w.mu.Lock()
		got, changed := w.count[msg], w.changed
		w.mu.Unlock()
		if got >= n {
			return
		}
		select {
		case <-changed:
		case <-timeout:
			t.Fatalf("gave up waiting %v for the daemon to log %q %d times (it did %d)", stuck, msg, n, got)
		}
	}
}

func marked(t testing.TB, st store.Store, id string) bool {
	ok, err := st.Marked(context.Background(), "msgid:"+id)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

var secretRE = regexp.MustCompile(`Your secret is: ([a-z0-9]+)`)

// secretsFrom reads each player's secret from the welcome mails.
func secretsFrom(t testing.TB, mails []mailtest.Received) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, m := range mails {
		if s := secretRE.FindSubmatch(m.Raw); s != nil {
			out[strings.ToLower(m.To[0])] = string(s[1])
		}
	}
	return out
}

// nextOrders returns the orders for what g waits for from side, as the
// player would write them.
func nextOrders(g *game.Game, r adjudicator.Request, secret string) string {
	src := fmt.Sprintf("game: %s\nside: %s\nsecret: %s\nturn: %d\nphase: %s\norders:\n", g.ID, r.Side, secret, r.Turn, r.Phase)
	st := g.State.(*testrules.State)
	switch r.Phase {
	case "bid":
		src += fmt.Sprintf("  bid: %d\n", min(1, st.Energy[string(r.Side)]))
	case "move":
		p := strings.ToUpper(string(r.Side[:1]))
		src += "  - advance: " + p + "1\n  - advance: " + p + "2\n"
	case "trap":
		for _, id := range st.Trapped {
			src += "  " + id + ": push\n"
		}
	}
	return src
}

// newGameMail is the referee's command creating a two-turn race.
func newGameMail(id string) []byte {
	raw, _ := orderMail(refereeAddr, fmt.Sprintf("command: new\nid: %s\nruleset: race\nscenario: sprint\noptions: {turns: \"2\"}\nplayers:\n  red: %s\n  blue: %s\n", id, redAddr, blueAddr))
	return raw
}

func loadGame(t testing.TB, st store.Store, id string) *game.Game {
	t.Helper()
	svc := &games.Service{Store: st, Rules: lookup}
	g, err := svc.Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func addrOf(side adjudicator.Side) string {
	if side == "red" {
		return redAddr
	}
	return blueAddr
}

// eventTypes counts the events of each type in a game's log from event
// from on: how the tests see that a mail was recorded exactly once.
func eventTypes(t *testing.T, st store.Store, game string, from uint64) map[string]int {
	t.Helper()
	evs, err := st.Events(context.Background(), game, from)
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, e := range evs {
		count[e.Type]++
	}
	return count
}
