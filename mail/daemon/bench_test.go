package daemon_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
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

type benchRun struct {
	mu      sync.Mutex
	arrived map[string]time.Time
	lat     []time.Duration
	last    time.Time
	done    chan struct{}
	warm    chan struct{}
	want    int
}

func (r *benchRun) handled(out referee.Outcome) {
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
	r.lat = append(r.lat, now.Sub(r.arrived[out.MessageID]))
	r.last = now
	if len(r.lat) == r.want {
		close(r.done)
	}
}

// runBench delivers the mails (every interval, or as fast as APPEND goes
// when 0) to a running daemon and measures, per mail, the time from the
// end of its APPEND to the commit of its replies in the outbox.
func runBench(b *testing.B, n int, interval time.Duration) {
	imapSrv := mailtest.StartIMAP(b)
	sink := mailtest.StartSink(b)
	data := b.TempDir()
	st, err := store.Open(filepath.Join(data, "umpire.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	raws, ids := benchMails(b, st, n)
	cfg := testConfig(imapSrv.Addr, imapSrv.User, imapSrv.Password, sink.Addr, data)
	cfg.IMAP.Poll = 5e7 // 50ms: imapmemserver may miss an EXISTS during IDLE
	run := &benchRun{arrived: map[string]time.Time{}, done: make(chan struct{}), warm: make(chan struct{}), want: n}
	ctx, cancel := context.WithCancel(context.Background())
	d := &daemon.Daemon{Config: cfg, Rules: lookup, Log: quietLog(), Store: st, Handled: run.handled, SendPoll: time.Second}
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
		mailtest.Append(b, c, "INBOX", raw)
		run.mu.Lock()
		run.arrived[ids[i]] = time.Now()
		run.mu.Unlock()
	}
	select {
	case <-run.done:
	case <-time.After(2 * time.Minute):
		b.Fatalf("only %d of %d mails handled", len(run.lat), n)
	}
	b.StopTimer()
	run.mu.Lock()
	defer run.mu.Unlock()
	sort.Slice(run.lat, func(i, j int) bool { return run.lat[i] < run.lat[j] })
	elapsed := run.last.Sub(start)
	b.ReportMetric(float64(n)/elapsed.Seconds(), "mails/s")
	b.ReportMetric(float64(run.lat[len(run.lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(run.lat[len(run.lat)*99/100].Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(run.lat[len(run.lat)-1].Microseconds())/1000, "max-ms")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkBurst: 1000 order mails arrive at once; mails/s is the
// throughput, and the latencies include the wait in the queue.
func BenchmarkBurst(b *testing.B) {
	for i := 0; i < b.N; i++ {
		runBench(b, 1000, 0)
	}
}

// BenchmarkSteady: 1000 order mails arrive at 200 a second (the target
// rate); the latencies are what one player sees.
func BenchmarkSteady(b *testing.B) {
	for i := 0; i < b.N; i++ {
		runBench(b, 1000, 5*time.Millisecond)
	}
}
