package daemon_test

// Benchmarks of the real mail path: a scripted Dragon Rage game (Nurkott 2
// "Raid", pictures on) played through the local hub's own IMAP and SMTP,
// with logins at the hub's default password-hash strength, the daemon on a
// bbolt file on disk, and players who are mail clients: each mail is a new
// SMTP connection that logs in and submits, and each player watches their
// INBOX over one IMAP connection in IDLE. Every figure is reported next to
// the same thing done by plain mail through the same hub and the same
// clients, in the same run, and as a ratio of the two: the machine is
// shared and noisy, ratios much less so.
//
//	go test -run '^$' -bench 'Mail|Serve' -benchtime 1x -count 3 ./mail/daemon/

import (
	"bufio"
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator/rulesets"
	"github.com/umpire-pbem/umpire/mail/daemon"
	"github.com/umpire-pbem/umpire/mail/hub"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
)

const (
	// realPlayers hub users play every game, two by two.
	realPlayers = 20
	// realScript is the game the players play: every step moves units, so
	// every order adjudicates and both players' results carry a picture.
	realScript = "../../adjudicator/dragonrage/testdata/games/n2-raid.yaml"
	// realWait bounds every wait for a mail: a safety net, not a timing.
	realWait = 3 * time.Minute
)

// drStep is one mail of the script: who sends it and its orders.
type drStep struct {
	Side   string `yaml:"side"`
	Orders string `yaml:"orders"`
}

func loadScript(b *testing.B) []drStep {
	raw, err := os.ReadFile(realScript)
	if err != nil {
		b.Fatal(err)
	}
	var s struct {
		Ruleset  string   `yaml:"ruleset"`
		Scenario string   `yaml:"scenario"`
		Steps    []drStep `yaml:"steps"`
	}
	if err := yaml.Unmarshal(raw, &s); err != nil {
		b.Fatal(err)
	}
	if s.Ruleset != "dragonrage" || s.Scenario != "n2" || len(s.Steps) < 4 {
		b.Fatalf("%s: not the N2 game these benchmarks expect", realScript)
	}
	return s.Steps
}

// realWorld is the hub's users and the players' mail clients.
type realWorld struct {
	b        *testing.B
	data     string
	domain   string
	imapAddr string
	smtpAddr string
	pw       map[string]string // hub user → password
	players  []string
	steps    []drStep
	seen     *arrivals
	watchers []*watcher
	games    int // games created so far
	ids      atomic.Int64
}

// prepareWorld makes a data directory whose hub (default hash strength)
// has the daemon's, the referee's and the players' mailboxes. The hub is
// left running; the caller closes it or lets the daemon use it.
func prepareWorld(b *testing.B, ctx context.Context) (*realWorld, *daemon.Local) {
	w := &realWorld{b: b, data: b.TempDir(), pw: map[string]string{}, steps: loadScript(b), seen: newArrivals()}
	l, err := daemon.StartLocalHubWith(ctx, w.data, hub.Config{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0"}, quietLog())
	if err != nil {
		b.Fatal(err)
	}
	w.pw[daemon.HubRefereeUser] = l.NewPasswords[daemon.HubRefereeUser]
	for i := range realPlayers {
		u := fmt.Sprintf("p%02d", i)
		pw, err := l.Hub.EnsureUser(u)
		if err != nil || pw == "" {
			b.Fatalf("hub user %s: %v", u, err)
		}
		w.pw[u] = pw
		w.players = append(w.players, u)
	}
	w.domain = l.Hub.Domain()
	w.imapAddr, w.smtpAddr = l.Hub.Addrs()
	return w, l
}

func (w *realWorld) addr(user string) string { return user + "@" + w.domain }

// watchAll starts a watcher on the INBOX of every player and the referee.
func (w *realWorld) watchAll() {
	for _, u := range append([]string{daemon.HubRefereeUser}, w.players...) {
		wt, err := startWatcher(w.imapAddr, u, w.pw[u], w.seen)
		if err != nil {
			w.b.Fatal(err)
		}
		w.watchers = append(w.watchers, wt)
	}
}

func (w *realWorld) stopWatchers() {
	for _, wt := range w.watchers {
		wt.close()
	}
	w.watchers = nil
}

// realGame is a game of the world and who plays which side.
type realGame struct {
	id      string
	user    map[string]string // side → hub user
	secrets map[string]string
}

// createGames writes n new N2 games into st, without welcome mails: the
// players know the script.
func (w *realWorld) createGames(st store.Store, n int) []*realGame {
	svc := &games.Service{Store: st, Rules: rulesets.Lookup}
	var out []*realGame
	for range n {
		i := w.games
		w.games++
		g := &realGame{id: fmt.Sprintf("n2-bench-%d", i),
			user: map[string]string{"defender": w.players[(2*i)%len(w.players)], "invader": w.players[(2*i+1)%len(w.players)]}}
		c, err := svc.Create(context.Background(), games.CreateRequest{ID: g.id, Ruleset: "dragonrage", Scenario: "n2",
			Players: []games.Player{{Side: "defender", Address: w.addr(g.user["defender"])}, {Side: "invader", Address: w.addr(g.user["invader"])}}})
		if err != nil {
			w.b.Fatal(err)
		}
		g.secrets = map[string]string{}
		for s, v := range c.Secrets {
			g.secrets[string(s)] = v
		}
		out = append(out, g)
	}
	return out
}

func (w *realWorld) orderBody(g *realGame, s drStep) string {
	return fmt.Sprintf("game: %s\nside: %s\nsecret: %s\n%s", g.id, s.Side, g.secrets[s.Side], s.Orders)
}

// other is the user playing the other side of g than side.
func (g *realGame) other(side string) string {
	for s, u := range g.user {
		if s != side {
			return u
		}
	}
	return ""
}

// submit sends a mail from user to the address to, as a mail program
// does: a new SMTP connection, AUTH PLAIN, one message, QUIT. It returns
// the mail's Message-ID.
func (w *realWorld) submit(user, to, body string) (string, error) {
	id := fmt.Sprintf("b%d.%d@players.%s", w.ids.Add(1), time.Now().UnixNano(), w.domain)
	raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: orders\r\nDate: %s\r\nMessage-ID: <%s>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s",
		w.addr(user), to, time.Now().Format(time.RFC1123Z), id, strings.ReplaceAll(body, "\n", "\r\n"))
	c, err := smtp.Dial(w.smtpAddr)
	if err != nil {
		return "", err
	}
	defer c.Close()
	if err := c.Auth(sasl.NewPlainClient("", user, w.pw[user])); err != nil {
		return "", fmt.Errorf("%s: login: %w", user, err)
	}
	if err := c.SendMail(w.addr(user), []string{to}, strings.NewReader(raw)); err != nil {
		return "", fmt.Errorf("%s: sending: %w", user, err)
	}
	return id, c.Quit()
}

// order mails step s of g to the umpire; the key is its reply in the
// sender's INBOX.
func (w *realWorld) order(g *realGame, s drStep) (key string, err error) {
	u := g.user[s.Side]
	id, err := w.submit(u, w.addr(daemon.HubDaemonUser), w.orderBody(g, s))
	return replyKey(u, id), err
}

// plain mails the same text as order would, to the other player instead
// of the umpire: the same size, the same clients, the hub alone.
func (w *realWorld) plain(g *realGame, s drStep) (key string, err error) {
	to := g.other(s.Side)
	id, err := w.submit(g.user[s.Side], w.addr(to), w.orderBody(g, s))
	return mailKey(to, id), err
}

func replyKey(user, id string) string { return user + " re:" + id }
func mailKey(user, id string) string  { return user + " id:" + id }

// arrivals records when each mail was seen in each INBOX.
type arrivals struct {
	mu      sync.Mutex
	at      map[string]time.Time
	subject map[string]string
	err     error // a watcher's
	changed chan struct{}
}

func newArrivals() *arrivals {
	return &arrivals{at: map[string]time.Time{}, subject: map[string]string{}, changed: make(chan struct{})}
}

func (a *arrivals) add(user string, env *imap.Envelope, at time.Time) {
	a.mu.Lock()
	defer a.mu.Unlock()
	keys := []string{mailKey(user, env.MessageID)}
	for _, re := range env.InReplyTo {
		keys = append(keys, replyKey(user, re))
	}
	for _, k := range keys {
		if _, ok := a.at[k]; !ok {
			a.at[k], a.subject[k] = at, env.Subject
		}
	}
	close(a.changed)
	a.changed = make(chan struct{})
}

func (a *arrivals) fail(err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.err == nil {
		a.err = err
	}
	close(a.changed)
	a.changed = make(chan struct{})
}

// wait returns when each key has arrived, with their times and subjects.
func (a *arrivals) wait(keys []string) ([]time.Time, []string, error) {
	deadline := time.After(realWait)
	for {
		a.mu.Lock()
		missing, changed, err := 0, a.changed, a.err
		for _, k := range keys {
			if _, ok := a.at[k]; !ok {
				missing++
			}
		}
		if missing == 0 || err != nil {
			var at []time.Time
			var subj []string
			for _, k := range keys {
				at, subj = append(at, a.at[k]), append(subj, a.subject[k])
			}
			a.mu.Unlock()
			return at, subj, err
		}
		a.mu.Unlock()
		select {
		case <-changed:
		case <-deadline:
			return nil, nil, fmt.Errorf("%d of %d mails did not arrive in %v", missing, len(keys), realWait)
		}
	}
}

// watcher is a player's mail program: logged in once, the INBOX
// selected, in IDLE; at each EXISTS (or every 250 ms, should one be
// missed) it fetches the envelopes of the new mails.
type watcher struct {
	c    *imapclient.Client
	stop chan struct{}
	done chan struct{}
}

func startWatcher(addr, user, password string, seen *arrivals) (*watcher, error) {
	exists := make(chan struct{}, 1)
	c, err := imapclient.DialInsecure(addr, &imapclient.Options{UnilateralDataHandler: &imapclient.UnilateralDataHandler{
		Mailbox: func(d *imapclient.UnilateralDataMailbox) {
			if d.NumMessages != nil {
				select {
				case exists <- struct{}{}:
				default:
				}
			}
		},
	}})
	if err != nil {
		return nil, err
	}
	if err := c.Login(user, password).Wait(); err != nil {
		c.Close()
		return nil, fmt.Errorf("%s: IMAP login: %w", user, err)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		c.Close()
		return nil, err
	}
	w := &watcher{c: c, stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		if err := w.run(user, exists, seen); err != nil {
			select {
			case <-w.stop:
			default:
				seen.fail(fmt.Errorf("%s's mail program: %w", user, err))
			}
		}
	}()
	return w, nil
}

func (w *watcher) run(user string, exists chan struct{}, seen *arrivals) error {
	var last imap.UID
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for {
		msgs, err := w.c.Fetch(imap.UIDSet{{Start: last + 1, Stop: 0}}, &imap.FetchOptions{UID: true, Envelope: true}).Collect()
		if err != nil {
			return err
		}
		now := time.Now()
		for _, m := range msgs {
			if m.UID > last && m.Envelope != nil {
				seen.add(user, m.Envelope, now)
				last = m.UID
			}
		}
		idle, err := w.c.Idle()
		if err != nil {
			return err
		}
		var stopped bool
		select {
		case <-exists:
		case <-tick.C:
		case <-w.stop:
			stopped = true
		}
		if err := idle.Close(); err != nil {
			return err
		}
		if err := idle.Wait(); err != nil {
			return err
		}
		if stopped {
			return nil
		}
	}
}

func (w *watcher) close() {
	close(w.stop)
	<-w.done
	w.c.Logout().Wait()
	w.c.Close()
}

// roundTrip sends one mail and waits for its key (a reply, or the mail
// itself) in the INBOX it goes to: the time from submission to arrival.
func (w *realWorld) roundTrip(send func() (string, error)) time.Duration {
	start := time.Now()
	key, err := send()
	if err != nil {
		w.b.Fatal(err)
	}
	at, subj, err := w.seen.wait([]string{key})
	if err != nil {
		w.b.Fatal(err)
	}
	checkAccepted(w.b, subj)
	return at[0].Sub(start)
}

// roundTrips plays games one mail at a time: each step of the script as
// an order (submission to the reply in the sender's INBOX), then the same
// text as a plain mail to the other player (submission to its arrival).
func (w *realWorld) roundTrips(gs []*realGame) (orders, plains []time.Duration) {
	one := func(send func(*realGame, drStep) (string, error), g *realGame, s drStep) time.Duration {
		return w.roundTrip(func() (string, error) { return send(g, s) })
	}
	for _, g := range gs {
		for _, s := range w.steps {
			orders = append(orders, one(w.order, g, s))
			plains = append(plains, one(w.plain, g, s))
		}
	}
	return orders, plains
}

// checkAccepted fails on a reply that refused the orders: a benchmark of
// refusals would measure the wrong thing.
func checkAccepted(b *testing.B, subjects []string) {
	for _, s := range subjects {
		if strings.Contains(s, "REJECTED") || strings.Contains(s, "REFUSED") {
			b.Fatalf("orders were refused: %q", s)
		}
	}
}

// burst sends the first four steps of every game at once, one sender per
// game (its mails in order), and returns the time from the first
// submission to the last arrival.
func (w *realWorld) burst(gs []*realGame, send func(*realGame, drStep) (string, error)) (time.Duration, int) {
	start := time.Now()
	var mu sync.Mutex
	var keys []string
	var firstErr error
	var wg sync.WaitGroup
	for _, g := range gs {
		wg.Go(func() {
			for _, s := range w.steps[:4] {
				key, err := send(g, s)
				mu.Lock()
				keys = append(keys, key)
				if err != nil && firstErr == nil {
					firstErr = err
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		w.b.Fatal(firstErr)
	}
	at, subj, err := w.seen.wait(keys)
	if err != nil {
		w.b.Fatal(err)
	}
	checkAccepted(w.b, subj)
	return slices.MaxFunc(at, func(a, b time.Time) int { return a.Compare(b) }).Sub(start), len(keys)
}

// hello waits until the daemon answers: the referee asks for help.
func (w *realWorld) hello() {
	id, err := w.submit(daemon.HubRefereeUser, w.addr(daemon.HubDaemonUser), "command: help\n")
	if err != nil {
		w.b.Fatal(err)
	}
	if _, _, err := w.seen.wait([]string{replyKey(daemon.HubRefereeUser, id)}); err != nil {
		w.b.Fatal(err)
	}
}

// inProcess runs the daemon in this process against the world's hub, with
// the bbolt store on disk. It returns the store (shared with the daemon)
// and a function that stops everything.
func inProcess(b *testing.B, desk *deskTimes, workers int, opts ...store.Option) (*realWorld, store.Store, func()) {
	return inProcessOn(b, desk, workers, func(dir string) (store.Store, error) {
		return store.Open(filepath.Join(dir, "umpire.db"), opts...)
	})
}

// inProcessOn is inProcess on the store open gives (given the world's
// data directory).
func inProcessOn(b *testing.B, desk *deskTimes, workers int, open func(dir string) (store.Store, error)) (*realWorld, store.Store, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	w, l := prepareWorld(b, context.WithoutCancel(ctx))
	st, err := open(w.data)
	if err != nil {
		b.Fatal(err)
	}
	log := quietLog()
	if desk != nil {
		log = slog.New(desk)
	}
	d := &daemon.Daemon{Config: l.Config, Rules: rulesets.Lookup, Log: log, Store: st, PrepareAddresses: l.PrepareAddresses, Workers: workers}
	done := make(chan struct{})
	go func() { d.Run(ctx); close(done) }()
	w.watchAll()
	w.hello()
	return w, st, func() {
		w.stopWatchers()
		cancel()
		<-done
		l.Hub.Close()
		st.Close()
	}
}

// deskTimes is a log handler that keeps the "ms" of the daemon's "mail
// handled" records for accepted orders: the desk's share of a round trip
// (read, decide, pictures, compose, commit), the rest being mail transport.
type deskTimes struct {
	mu sync.Mutex
	ms []time.Duration
}

func (d *deskTimes) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelInfo }

func (d *deskTimes) Handle(_ context.Context, r slog.Record) error {
	if r.Message != "mail handled" {
		return nil
	}
	var ms int64 = -1
	accepted := false
	r.Attrs(func(a slog.Attr) bool {
		switch a.Key {
		case "ms":
			ms = a.Value.Int64()
		case "result":
			accepted = strings.HasPrefix(a.Value.String(), "accepted")
		}
		return true
	})
	if accepted && ms >= 0 {
		d.mu.Lock()
		d.ms = append(d.ms, time.Duration(ms)*time.Millisecond)
		d.mu.Unlock()
	}
	return nil
}

func (d *deskTimes) WithAttrs([]slog.Attr) slog.Handler { return d }
func (d *deskTimes) WithGroup(string) slog.Handler      { return d }

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// BenchmarkMailRoundTrip: one mail in flight at a time. order-p50-ms is
// the time from a player's SMTP submission of an order to the reply in
// their INBOX; plain-p50-ms the same text mailed to the other player
// instead; order/plain is the ratio (target ≤ 1.5). desk-p50-ms is the
// part of an order's round trip the daemon spent handling it (as it logs).
func BenchmarkMailRoundTrip(b *testing.B) {
	desk := &deskTimes{}
	w, st, stop := inProcess(b, desk, 0)
	defer stop()
	var orders, plains []time.Duration
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		gs := w.createGames(st, 2)
		b.StartTimer()
		o, p := w.roundTrips(gs)
		orders, plains = append(orders, o...), append(plains, p...)
	}
	b.StopTimer()
	om, pm := median(orders), median(plains)
	b.ReportMetric(ms(om), "order-p50-ms")
	b.ReportMetric(ms(pm), "plain-p50-ms")
	b.ReportMetric(float64(om)/float64(pm), "order/plain")
	b.ReportMetric(ms(slices.Max(orders)), "order-max-ms")
	desk.mu.Lock()
	if len(desk.ms) > 0 {
		b.ReportMetric(ms(median(desk.ms)), "desk-p50-ms")
	}
	desk.mu.Unlock()
	b.ReportMetric(0, "ns/op")
}

// BenchmarkMailBurst: 50 games each send four orders at once (200
// orders), next to 200 plain mails sent the same way between the same
// players. orders/s counts an order done when its reply is in the
// sender's INBOX; orders/plain is the ratio of the rates (target ≥ 0.5).
// rss-MB is this process's peak resident memory during the order burst —
// in-process, that is the daemon, the hub and the 21 mail programs
// together — and heap-MB the peak of the Go heap, sampled every 10 ms.
func BenchmarkMailBurst(b *testing.B) {
	w, st, stop := inProcess(b, nil, 0)
	defer stop()
	mailBurst(b, w, st)
}

// mailBurst is BenchmarkMailBurst's loop and metrics, on a world and store
// already started.
func mailBurst(b *testing.B, w *realWorld, st store.Store) {
	var oRate, pRate, rss, heap []float64
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		gs := w.createGames(st, 50)
		b.StartTimer()
		pd, pn := w.burst(gs, w.plain)
		runtime.GC()
		resetPeakRSS()
		peak := sampleHeap()
		od, on := w.burst(gs, w.order)
		h := peak()
		pRate, oRate = append(pRate, float64(pn)/pd.Seconds()), append(oRate, float64(on)/od.Seconds())
		rss, heap = append(rss, float64(procStatus("self", "VmHWM"))/(1<<20)), append(heap, float64(h)/(1<<20))
		b.StopTimer()
		waitDrained(b, st)
		b.StartTimer()
	}
	b.StopTimer()
	o, p := mean(oRate), mean(pRate)
	b.ReportMetric(o, "orders/s")
	b.ReportMetric(p, "plain/s")
	b.ReportMetric(o/p, "orders/plain")
	b.ReportMetric(slices.Max(rss), "rss-MB")
	b.ReportMetric(slices.Max(heap), "heap-MB")
	b.ReportMetric(0, "ns/op")
}

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// waitDrained waits until the outbox holds nothing pending: the other
// players' results of the last burst are out before the next.
func waitDrained(b *testing.B, st store.Store) {
	deadline := time.Now().Add(realWait)
	for {
		msgs, err := st.Messages(context.Background(), "")
		if err != nil {
			b.Fatal(err)
		}
		if !slices.ContainsFunc(msgs, func(m store.Message) bool { return m.Status == store.Pending }) {
			return
		}
		if time.Now().After(deadline) {
			b.Fatal("the outbox did not drain")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// resetPeakRSS resets this process's VmHWM to its current RSS (Linux:
// writing 5 to clear_refs), so the peak read later is the burst's.
func resetPeakRSS() {
	os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
}

// procStatus reads a "kB" field of /proc/PID/status, in bytes (0 when
// absent: not Linux).
func procStatus(pid, field string) int64 {
	f, err := os.Open("/proc/" + pid + "/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, rest, ok := strings.Cut(sc.Text(), ":")
		if ok && name == field {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// sampleHeap samples the Go heap every 10 ms until the returned function
// is called, which returns the peak.
func sampleHeap() func() uint64 {
	stop, done := make(chan struct{}), make(chan uint64)
	go func() {
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		var peak uint64
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(s)
			peak = max(peak, s[0].Value.Uint64())
			select {
			case <-stop:
				done <- peak
				return
			case <-t.C:
			}
		}
	}()
	return func() uint64 { close(stop); return <-done }
}

// BenchmarkServeBurst is BenchmarkMailBurst against the real binary:
// "umpire serve" built from cmd/umpire and started on a prepared data
// directory (its local hub, default hash strength). rss-MB is the serve
// process's own VmHWM — hub and daemon, no clients — over its whole life:
// start, the check of its data file, the plain burst and the order burst.
// anon-end-MB and file-end-MB split its resident memory just after the
// burst: the Go heap and stacks, and pages of mapped files (bbolt maps the
// data file, whose outbox then holds every reply with its picture).
func BenchmarkServeBurst(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "umpire")
	if out, err := exec.Command("go", "build", "-o", bin, "../../cmd/umpire").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	w, l := prepareWorld(b, context.Background())
	l.Hub.Close()
	var oRate, pRate, rss, anon, file []float64
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		st, err := store.Open(filepath.Join(w.data, "umpire.db"))
		if err != nil {
			b.Fatal(err)
		}
		gs := w.createGames(st, 50)
		if err := st.Close(); err != nil {
			b.Fatal(err)
		}
		srv := startServe(b, bin, w)
		w.watchAll()
		w.hello()
		b.StartTimer()
		pd, pn := w.burst(gs, w.plain)
		od, on := w.burst(gs, w.order)
		b.StopTimer()
		pRate, oRate = append(pRate, float64(pn)/pd.Seconds()), append(oRate, float64(on)/od.Seconds())
		pid := strconv.Itoa(srv.cmd.Process.Pid)
		rss = append(rss, float64(procStatus(pid, "VmHWM"))/(1<<20))
		anon, file = append(anon, float64(procStatus(pid, "RssAnon"))/(1<<20)), append(file, float64(procStatus(pid, "RssFile"))/(1<<20))
		w.stopWatchers()
		srv.stop(b)
	}
	o, p := mean(oRate), mean(pRate)
	b.ReportMetric(o, "orders/s")
	b.ReportMetric(p, "plain/s")
	b.ReportMetric(o/p, "orders/plain")
	b.ReportMetric(slices.Max(rss), "rss-MB")
	b.ReportMetric(slices.Max(anon), "anon-end-MB")
	b.ReportMetric(slices.Max(file), "file-end-MB")
	b.ReportMetric(0, "ns/op")
}

// serveProc is a running "umpire serve".
type serveProc struct {
	cmd  *exec.Cmd
	log  string
	done chan struct{} // closed when it exited
	err  error
}

// startServe runs "umpire serve" on the world's data directory, its hub
// on two free loopback ports, and points the world at them.
func startServe(b *testing.B, bin string, w *realWorld) *serveProc {
	ia, sa := freeAddr(b), freeAddr(b)
	log, err := os.Create(filepath.Join(w.data, fmt.Sprintf("serve-%d.log", time.Now().UnixNano())))
	if err != nil {
		b.Fatal(err)
	}
	defer log.Close()
	p := &serveProc{cmd: exec.Command(bin, "serve", "--data", w.data, "--hub-imap", ia, "--hub-smtp", sa), log: log.Name(), done: make(chan struct{})}
	p.cmd.Stdout, p.cmd.Stderr = log, log
	if err := p.cmd.Start(); err != nil {
		b.Fatal(err)
	}
	go func() { p.err = p.cmd.Wait(); close(p.done) }()
	w.imapAddr, w.smtpAddr = ia, sa
	deadline := time.After(realWait)
	for !listening(ia) || !listening(sa) {
		select {
		case <-p.done:
			out, _ := os.ReadFile(p.log)
			b.Fatalf("umpire serve exited: %v\n%s", p.err, out)
		case <-deadline:
			p.stop(b)
			b.Fatal("umpire serve did not listen")
		case <-time.After(20 * time.Millisecond):
		}
	}
	return p
}

// stop interrupts serve, as Ctrl-C would, and waits for it to end.
func (p *serveProc) stop(b *testing.B) {
	p.cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-p.done:
		if p.err != nil {
			out, _ := os.ReadFile(p.log)
			b.Errorf("umpire serve: %v\n%s", p.err, out)
		}
	case <-time.After(realWait):
		p.cmd.Process.Kill()
		<-p.done
		b.Error("umpire serve did not stop on SIGINT")
	}
}

func listening(addr string) bool {
	c, err := net.Dial("tcp", addr)
	if err == nil {
		c.Close()
	}
	return err == nil
}

func freeAddr(b *testing.B) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}
