package daemon_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/mail/daemon"
	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/mail/referee"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
)

// benchMails makes n order mails for n/2 fresh games: both bids of each,
// so that every second mail completes a turn (an adjudication and two
// results mails besides the acknowledgement).
func benchMails(b *testing.B, st store.Store, n int) (raws [][]byte, ids []string) {
	ctx := context.Background()
	svc := &games.Service{Store: st, Rules: lookup}
	for i := 0; i < (n+1)/2; i++ {
		c, err := svc.Create(ctx, games.CreateRequest{ID: fmt.Sprintf("bench-%d", i), Ruleset: "race", Scenario: "sprint", ChainLength: 8,
			Players: []games.Player{{Side: "red", Address: redAddr}, {Side: "blue", Address: blueAddr}}})
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range c.Game.Due() {
			raw, id := orderMail(addrOf(r.Side), nextOrders(c.Game, r, c.Secrets[r.Side]))
			raws, ids = append(raws, raw), append(ids, id)
		}
	}
	return raws[:n], ids[:n]
}

// benchRun records, per Message-ID, when a mail's APPEND started and when
// the daemon had handled it. The two are paired only at the end, so the
// order in which they are recorded does not matter: the daemon may handle
// a mail before the APPEND that delivered it has returned.
type benchRun struct {
	mu      sync.Mutex
	sent    map[string]time.Time
	handled map[string]time.Time
	done    chan struct{}
	warm    chan struct{}
	want    int
}

func (r *benchRun) handle(out referee.Outcome) {
	now := time.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	if out.Reason == "stranger" {
		close(r.warm) // the warm-up mail
		return
	}
	if out.Reason != "accepted" && out.Reason != "accepted+adjudicated" {
		panic("bench mail not accepted: " + out.Reason)
	}
	r.handled[out.MessageID] = now
	if len(r.handled) == r.want {
		close(r.done)
	}
}

// latencies pairs the times of each mail; last is the last handling.
func (r *benchRun) latencies(b *testing.B) (lat []time.Duration, last time.Time) {
	for id, h := range r.handled {
		s, ok := r.sent[id]
		if !ok {
			b.Fatalf("mail %s handled but never sent", id)
		}
		lat = append(lat, h.Sub(s))
		if h.After(last) {
			last = h
		}
	}
	return lat, last
}

// runBench delivers the mails (every interval, or as fast as APPEND goes
// when 0) to a running daemon and measures, per mail, the time from the
// start of its APPEND to the commit of its replies in the outbox. The
// daemon handles up to workers mails at a time (0: its default), on a
// store opened with opts.
func runBench(b *testing.B, n int, interval time.Duration, workers int, opts ...store.Option) {
	data := b.TempDir()
	st, err := store.Open(filepath.Join(data, "umpire.db"), opts...)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	runBenchOn(b, st, data, n, interval, workers)
}

// runBenchOn is runBench on a store the caller opened (and closes), with
// data as the daemon's data directory.
func runBenchOn(b *testing.B, st store.Store, data string, n int, interval time.Duration, workers int) {
	imapSrv := mailtest.StartIMAP(b)
	sink := mailtest.StartSink(b)
	raws, ids := benchMails(b, st, n)
	cfg := testConfig(imapSrv.Addr, imapSrv.User, imapSrv.Password, sink.Addr, data)
	cfg.IMAP.Poll = 5e7 // 50ms: imapmemserver may miss an EXISTS during IDLE
	run := &benchRun{sent: map[string]time.Time{}, handled: map[string]time.Time{}, done: make(chan struct{}), warm: make(chan struct{}), want: n}
	ctx, cancel := context.WithCancel(context.Background())
	d := &daemon.Daemon{Config: cfg, Rules: lookup, Log: quietLog(), Store: st, Handled: run.handle, SendPoll: time.Second, Workers: workers}
	stopped := make(chan struct{})
	go func() { d.Run(ctx); close(stopped) }()
	defer func() { cancel(); <-stopped }()

	c := imapSrv.Client()
	defer c.Close()
	// Wait until the daemon is logged in and has handled a first mail.
	warm, _ := orderMail("warm-up@elsewhere.example", "hello")
	mailtest.Append(b, c, "INBOX", warm)
	<-run.warm
	b.ResetTimer()
	start := time.Now()
	for i, raw := range raws {
		if interval > 0 {
			time.Sleep(time.Until(start.Add(time.Duration(i) * interval)))
		}
		run.mu.Lock()
		run.sent[ids[i]] = time.Now()
		run.mu.Unlock()
		mailtest.Append(b, c, "INBOX", raw)
	}
	select {
	case <-run.done:
	case <-time.After(2 * time.Minute):
		run.mu.Lock()
		b.Fatalf("only %d of %d mails handled", len(run.handled), n)
	}
	b.StopTimer()
	run.mu.Lock()
	defer run.mu.Unlock()
	lat, last := run.latencies(b)
	slices.Sort(lat)
	elapsed := last.Sub(start)
	b.ReportMetric(float64(n)/elapsed.Seconds(), "mails/s")
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(lat[len(lat)-1].Microseconds())/1000, "max-ms")
	b.ReportMetric(0, "ns/op")
}

// The two benchmarks below are engine-only figures: the test-only race
// ruleset (no pictures), go-imap's in-memory IMAP server and an SMTP sink
// instead of the hub, no logins in the timed part. They measure the
// daemon's own loop (fetch, extract, decide, commit). What a player sees
// is measured in realpath_bench_test.go (BenchmarkMail*, BenchmarkServe*).

// BenchmarkEngineBurst: 1000 order mails arrive at once; mails/s is the
// throughput, and the latencies include the wait in the queue.
func BenchmarkEngineBurst(b *testing.B) {
	for i := 0; i < b.N; i++ {
		runBench(b, 1000, 0, 0)
	}
}

// BenchmarkEngineSteady: 1000 order mails arrive at 200 a second; the
// latencies are the daemon's share of what a player waits.
func BenchmarkEngineSteady(b *testing.B) {
	for i := 0; i < b.N; i++ {
		runBench(b, 1000, 5*time.Millisecond, 0)
	}
}
