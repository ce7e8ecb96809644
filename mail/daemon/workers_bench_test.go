package daemon_test

import (
	"fmt"
	"testing"

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
			runBench(b, 1000, 0, workers, opts...)
		}
	})
}

// BenchmarkMailBurstWorkers is BenchmarkMailBurst's order burst (50
// Dragon Rage games, pictures on, each sending four orders at once
// through the local hub) per worker count. orders/s counts an order done
// when its reply is in the sender's INBOX.
//
//	go test -run '^$' -bench MailBurstWorkers -benchtime=1x -count=3 ./mail/daemon/
func BenchmarkMailBurstWorkers(b *testing.B) {
	workerCases(b, func(b *testing.B, workers int, opts ...store.Option) {
		w, st, stop := inProcess(b, nil, workers, opts...)
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
