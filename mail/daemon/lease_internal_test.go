package daemon

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/store"
)

// These tests run the lease logic alone, on a SharedMemory store whose
// clock the test moves, with a piece of work that says when it starts and
// stops. The terms are short; nothing waits on a duration to know
// something happened: the tests wait for the work's signals and the logs.

const leaseTestTTL = 150 * time.Millisecond

// leaseStuck bounds every wait here: a safety net against a hang, never a
// timing expectation.
const leaseStuck = 3 * time.Minute

// fakeClock is a clock that moves only when the test moves it.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *fakeClock) Add(d time.Duration) { c.mu.Lock(); defer c.mu.Unlock(); c.t = c.t.Add(d) }

func sharedOnClock(t *testing.T) (*store.SharedMemory, *fakeClock) {
	c := &fakeClock{t: time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)}
	s := store.NewSharedMemory()
	s.Now = c.Now
	t.Cleanup(func() { s.Close() })
	return s, c
}

// records is a log handler that keeps every record's message and
// attributes, for a test to wait on.
type records struct {
	pre []slog.Attr
	*recState
}

type recState struct {
	mu   sync.Mutex
	list []string // message, then " key=value" for each attribute
}

func newRecords() *records { return &records{recState: &recState{}} }

func (r *records) logger() *slog.Logger { return slog.New(r) }

func (r *records) Enabled(context.Context, slog.Level) bool { return true }

func (r *records) Handle(_ context.Context, rec slog.Record) error {
	var b strings.Builder
	b.WriteString(rec.Message)
	for _, a := range r.pre {
		fmt.Fprintf(&b, " %s=%s", a.Key, a.Value)
	}
	rec.Attrs(func(a slog.Attr) bool { fmt.Fprintf(&b, " %s=%s", a.Key, a.Value); return true })
	r.mu.Lock()
	defer r.mu.Unlock()
	r.list = append(r.list, b.String())
	return nil
}

func (r *records) WithAttrs(as []slog.Attr) slog.Handler {
	return &records{pre: append(append([]slog.Attr{}, r.pre...), as...), recState: r.recState}
}

func (r *records) WithGroup(string) slog.Handler { return r }

// count is how many records start with msg and contain every part.
func (r *records) count(msg string, parts ...string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
next:
	for _, l := range r.list {
		if !strings.HasPrefix(l, msg) {
			continue
		}
		for _, p := range parts {
			if !strings.Contains(l, p) {
				continue next
			}
		}
		n++
	}
	return n
}

// wait returns once n records match.
func (r *records) wait(t *testing.T, n int, msg string, parts ...string) {
	t.Helper()
	deadline := time.Now().Add(leaseStuck)
	for r.count(msg, parts...) < n {
		if time.Now().After(deadline) {
			r.mu.Lock()
			defer r.mu.Unlock()
			t.Fatalf("gave up waiting for %d log record(s) %q with %q; the log:\n%s", n, msg, parts, strings.Join(r.list, "\n"))
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// work is a piece of work that signals when it starts and stops.
type work struct {
	started, stopped chan struct{}
	running          atomic.Int32
}

func newWork() *work {
	return &work{started: make(chan struct{}, 16), stopped: make(chan struct{}, 16)}
}

func (w *work) run(ctx context.Context) {
	w.running.Add(1)
	w.started <- struct{}{}
	<-ctx.Done()
	w.running.Add(-1)
	w.stopped <- struct{}{}
}

func await(t *testing.T, c <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-c:
	case <-time.After(leaseStuck):
		t.Fatalf("gave up waiting %v for %s", leaseStuck, what)
	}
}

// holding is a leaser's hold running in the background.
type holding struct {
	w      *work
	log    *records
	cancel context.CancelFunc
	done   chan struct{}
}

func startHold(t *testing.T, ls store.Leases, holder, name string) *holding {
	ctx, cancel := context.WithCancel(context.Background())
	h := &holding{w: newWork(), log: newRecords(), cancel: cancel, done: make(chan struct{})}
	l := &leaser{leases: ls, holder: holder, ttl: leaseTestTTL, log: h.log.logger()}
	go func() { defer close(h.done); l.hold(ctx, "clock", name, h.w.run) }()
	t.Cleanup(h.stop)
	return h
}

func (h *holding) stop() { h.cancel(); <-h.done }

// TestLeaseHandOver: the first daemon takes the lease and works, the
// second stands by; when the first stops cleanly it releases the lease
// and the second takes over without waiting for the term (the store's
// clock does not move at all here).
func TestLeaseHandOver(t *testing.T) {
	s, _ := sharedOnClock(t)
	a := startHold(t, s, "a", "clock")
	await(t, a.w.started, "a to start working")
	b := startHold(t, s, "b", "clock")
	b.log.wait(t, 1, "standing by", "holder=a", "role=clock", "lease=clock")
	if n := b.w.running.Load(); n != 0 {
		t.Fatal("b works while a holds the lease")
	}
	a.stop()
	await(t, a.w.stopped, "a to stop working")
	a.log.wait(t, 1, "lease released", "holder=a")
	await(t, b.w.started, "b to take over")
	b.log.wait(t, 1, "lease taken", "previous=a", "holder=b")
	if a.log.count("lease lost") != 0 {
		t.Error("a clean stop was logged as a lost lease")
	}
}

// TestLeaseLostWhenTaken: the term runs out (the store's clock jumps, as
// when the holder hung) and another holder takes the lease: the holder's
// next renewal is refused, its work is stopped, and it stands by until
// the lease is free again.
func TestLeaseLostWhenTaken(t *testing.T) {
	s, clock := sharedOnClock(t)
	ctx := context.Background()
	a := startHold(t, s, "a", "clock")
	await(t, a.w.started, "a to start working")
	deadline := time.Now().Add(leaseStuck)
	for {
		clock.Add(leaseTestTTL + time.Nanosecond)
		held, _, err := s.Lease(ctx, "clock", "thief", time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		if held {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the thief never got the lease whose term ran out")
		}
	}
	await(t, a.w.stopped, "a to stop the work of a lease it lost")
	a.log.wait(t, 1, "lease lost", "holder=thief", "role=clock")
	a.log.wait(t, 1, "work stopped after the lease was lost")
	if err := s.Release(ctx, "clock", "thief"); err != nil {
		t.Fatal(err)
	}
	await(t, a.w.started, "a to take the lease again")
	a.log.wait(t, 1, "lease taken", "previous=thief")
	if n := a.w.running.Load(); n != 1 {
		t.Errorf("%d copies of the work run, want 1", n)
	}
}

// flaky is a lease store that fails, or hangs until the caller gives up,
// while told to.
type flaky struct {
	store.Leases
	mode atomic.Value // "", "fail" or "hang"
}

func (f *flaky) Lease(ctx context.Context, name, holder string, ttl time.Duration) (bool, string, error) {
	switch f.mode.Load() {
	case "fail":
		return false, "", errors.New("the database went away (a test)")
	case "hang":
		<-ctx.Done()
		return false, "", ctx.Err()
	}
	return f.Leases.Lease(ctx, name, holder, ttl)
}

// TestLeaseLostOnError: a renewal that fails, or that the store does not
// answer within a third of the term, stops the work at once (the holder
// cannot know whether it still holds the lease); once the store answers
// again, the lease is taken again.
func TestLeaseLostOnError(t *testing.T) {
	for _, mode := range []string{"fail", "hang"} {
		t.Run(mode, func(t *testing.T) {
			s, _ := sharedOnClock(t)
			f := &flaky{Leases: s}
			f.mode.Store("")
			a := startHold(t, f, "a", "clock")
			await(t, a.w.started, "a to start working")
			f.mode.Store(mode)
			await(t, a.w.stopped, "a to stop working when its renewal "+mode+"s")
			a.log.wait(t, 1, "lease lost: renewing it failed")
			f.mode.Store("")
			await(t, a.w.started, "a to take the lease again")
			a.log.wait(t, 2, "lease taken")
		})
	}
}
