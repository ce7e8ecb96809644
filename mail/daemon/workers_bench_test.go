package daemon_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator/rulesets"
	"github.com/umpire-pbem/umpire/mail/daemon"
	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/store"
)

// The benchmarks below run a burst with the intake handling 1, 2, 4 or 8
// mails at a time (Daemon.Workers), on a bbolt file with one fsynced
// transaction per Append ("fsync=each", what umpire serve opens) or with
// concurrent Appends gathered into one (store.WithBatching,
// "fsync=batched"). Compare the sub-benchmarks of one run with each other,
// never with another run: the machine is shared and noisy.

var workerCounts = []int{1, 2, 4, 8}

func workerCases(b *testing.B, run func(b *testing.B, workers int, opts ...store.Option)) {
	for _, batched := range []bool{false, true} {
		for _, w := range workerCounts {
			name := fmt.Sprintf("workers=%d/fsync=each", w)
			var opts []store.Option
			if batched {
				name = fmt.Sprintf("workers=%d/fsync=batched", w)
				opts = []store.Option{store.WithBatching()}
			}
			b.Run(name, func(b *testing.B) { run(b, w, opts...) })
		}
	}
}

// BenchmarkEngineBurstWorkers is BenchmarkEngineBurst (1,000 order mails
// to 500 race games appended at once, no pictures, go-imap's in-memory
// server) per worker count.
//
//	go test -run '^$' -bench EngineBurstWorkers -benchtime=1x -count=3 ./mail/daemon/
func BenchmarkEngineBurstWorkers(b *testing.B) {
	workerCases(b, func(b *testing.B, workers int, opts ...store.Option) {
		for range b.N {
			engineBurst(b, 1000, workers, opts...)
		}
	})
}

// engineBurst is runBench's burst with the daemon's Workers and the
// store's options given.
func engineBurst(b *testing.B, n, workers int, opts ...store.Option) {
	imapSrv := mailtest.StartIMAP(b)
	sink := mailtest.StartSink(b)
	data := b.TempDir()
	st, err := store.Open(filepath.Join(data, "umpire.db"), opts...)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
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
	warm, _ := orderMail("warm-up@elsewhere.example", "hello")
	mailtest.Append(b, c, "INBOX", warm)
	<-run.warm
	b.ResetTimer()
	start := time.Now()
	for i, raw := range raws {
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
	b.ReportMetric(float64(n)/last.Sub(start).Seconds(), "mails/s")
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkMailBurstWorkers is BenchmarkMailBurst's order burst (50
// Dragon Rage games, pictures on, each sending four orders at once
// through the local hub) per worker count. orders/s counts an order done
// when its reply is in the sender's INBOX.
//
//	go test -run '^$' -bench MailBurstWorkers -benchtime=1x -count=3 ./mail/daemon/
func BenchmarkMailBurstWorkers(b *testing.B) {
	workerCases(b, func(b *testing.B, workers int, opts ...store.Option) {
		w, st, stop := inProcessWorkers(b, workers, opts...)
		defer stop()
		var rates []float64
		b.ResetTimer()
		for range b.N {
			b.StopTimer()
			gs := w.createGames(st, 50)
			b.StartTimer()
			d, n := w.burst(gs, w.order)
			rates = append(rates, float64(n)/d.Seconds())
			b.StopTimer()
			waitDrained(b, st)
			b.StartTimer()
		}
		b.StopTimer()
		b.ReportMetric(mean(rates), "orders/s")
		b.ReportMetric(0, "ns/op")
	})
}

// inProcessWorkers is inProcess with the daemon's Workers and the store's
// options given.
func inProcessWorkers(b *testing.B, workers int, opts ...store.Option) (*realWorld, store.Store, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	w, l := prepareWorld(b, context.WithoutCancel(ctx))
	st, err := store.Open(filepath.Join(w.data, "umpire.db"), opts...)
	if err != nil {
		b.Fatal(err)
	}
	d := &daemon.Daemon{Config: l.Config, Rules: rulesets.Lookup, Log: quietLog(), Store: st, PrepareAddresses: l.PrepareAddresses, Workers: workers}
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
