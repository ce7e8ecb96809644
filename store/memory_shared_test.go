package store_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/storetest"
)

// TestSharedMemory: a SharedMemory is a Store like any other.
func TestSharedMemory(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		s := store.NewSharedMemory()
		t.Cleanup(func() { s.Close() })
		return s
	})
}

// fakeClock is a clock a test moves by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *fakeClock) Add(d time.Duration) { c.mu.Lock(); defer c.mu.Unlock(); c.t = c.t.Add(d) }

func sharedOnClock() (*store.SharedMemory, *fakeClock) {
	c := &fakeClock{t: time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)}
	s := store.NewSharedMemory()
	s.Now = c.Now
	return s, c
}

func lease(t *testing.T, s store.Leases, name, holder string, ttl time.Duration) (bool, string) {
	t.Helper()
	held, other, err := s.Lease(context.Background(), name, holder, ttl)
	if err != nil {
		t.Fatalf("Lease(%s, %s): %v", name, holder, err)
	}
	return held, other
}

// TestSharedMemoryLeaseTerm: one holder at a time; the holder renews; the
// other takes the lease only once the term has run out, and then the
// first one's renewal is refused and names the new holder.
func TestSharedMemoryLeaseTerm(t *testing.T) {
	s, clock := sharedOnClock()
	defer s.Close()
	const ttl = 15 * time.Second
	if held, _ := lease(t, s, "clock", "a", ttl); !held {
		t.Fatal("a free lease was refused")
	}
	if held, other := lease(t, s, "clock", "b", ttl); held || other != "a" {
		t.Fatalf("b got a held lease: held %v, other %q", held, other)
	}
	if held, _ := lease(t, s, "intake x", "b", ttl); !held {
		t.Fatal("another lease's name was refused: names must be independent")
	}
	clock.Add(ttl - time.Nanosecond)
	if held, _ := lease(t, s, "clock", "a", ttl); !held {
		t.Fatal("the holder's renewal within its term was refused")
	}
	clock.Add(ttl - time.Nanosecond) // within the renewed term
	if held, other := lease(t, s, "clock", "b", ttl); held || other != "a" {
		t.Fatalf("b took a renewed lease before its term ran out: held %v, other %q", held, other)
	}
	clock.Add(time.Nanosecond) // the term has run out
	if held, _ := lease(t, s, "clock", "b", ttl); !held {
		t.Fatal("b could not take a lease whose term ran out")
	}
	if held, other := lease(t, s, "clock", "a", ttl); held || other != "b" {
		t.Fatalf("a renewed a lease b took over: held %v, other %q", held, other)
	}
}

// TestSharedMemoryRelease: a release frees the lease at once, but only
// the holder's.
func TestSharedMemoryRelease(t *testing.T) {
	s, _ := sharedOnClock()
	defer s.Close()
	ctx := context.Background()
	lease(t, s, "send a@x", "a", time.Minute)
	if err := s.Release(ctx, "send a@x", "b"); err != nil {
		t.Fatal(err)
	}
	if held, _ := lease(t, s, "send a@x", "b", time.Minute); held {
		t.Fatal("a release by someone who does not hold the lease freed it")
	}
	if err := s.Release(ctx, "send a@x", "a"); err != nil {
		t.Fatal(err)
	}
	if held, _ := lease(t, s, "send a@x", "b", time.Minute); !held {
		t.Fatal("a released lease was not free at once")
	}
	if err := s.Release(ctx, "never taken", "a"); err != nil {
		t.Fatalf("releasing a lease never taken: %v", err)
	}
}

// TestSharedMemoryLeaseRefusals: invalid arguments, a closed store and an
// ended context are errors, never a lease.
func TestSharedMemoryLeaseRefusals(t *testing.T) {
	s, _ := sharedOnClock()
	ctx := context.Background()
	for _, c := range []struct {
		name, holder string
		ttl          time.Duration
	}{{"", "a", time.Second}, {"n", "", time.Second}, {"n", "a", 0}, {"n", "a", -time.Second}} {
		if held, _, err := s.Lease(ctx, c.name, c.holder, c.ttl); !errors.Is(err, store.ErrInvalid) || held {
			t.Errorf("Lease(%q, %q, %v) = %v, %v; want ErrInvalid", c.name, c.holder, c.ttl, held, err)
		}
	}
	done, cancel := context.WithCancel(ctx)
	cancel()
	if held, _, err := s.Lease(done, "n", "a", time.Second); !errors.Is(err, context.Canceled) || held {
		t.Errorf("Lease with an ended context = %v, %v", held, err)
	}
	s.Close()
	if held, _, err := s.Lease(ctx, "n", "a", time.Second); !errors.Is(err, store.ErrClosed) || held {
		t.Errorf("Lease on a closed store = %v, %v", held, err)
	}
	if err := s.Release(ctx, "n", "a"); !errors.Is(err, store.ErrClosed) {
		t.Errorf("Release on a closed store = %v", err)
	}
}

// TestSharedMemoryDueFrom: DueFrom is Due restricted to one From, in Due's
// order, cut at max after the restriction.
func TestSharedMemoryDueFrom(t *testing.T) {
	s, clock := sharedOnClock()
	defer s.Close()
	ctx := context.Background()
	now := clock.Now()
	var msgs []store.Message
	for i, m := range []struct {
		id, from string
		at       time.Duration
	}{{"a3", "a@x", 3}, {"b1", "b@x", 1}, {"a1", "a@x", 1}, {"a2", "a@x", 2}, {"b2", "b@x", 2}, {"a9", "a@x", 9}, {"A0", "A@x", 0}} {
		msgs = append(msgs, store.Message{ID: m.id, From: m.from, To: []string{"p@y"}, Raw: []byte{byte(i)}, Created: now, NextAttempt: now.Add(m.at * time.Second)})
	}
	if _, err := s.Append(ctx, store.Batch{Outbox: msgs}); err != nil {
		t.Fatal(err)
	}
	ids := func(ms []store.Message) (out []string) {
		for _, m := range ms {
			out = append(out, m.ID)
		}
		return out
	}
	at := now.Add(5 * time.Second)
	for _, c := range []struct {
		from string
		max  int
		want []string
	}{
		{"a@x", 0, []string{"a1", "a2", "a3"}},
		{"a@x", 2, []string{"a1", "a2"}},
		{"b@x", 1, []string{"b1"}},
		{"A@x", 0, []string{"A0"}}, // exactly as queued
		{"c@x", 0, nil},
	} {
		got, err := s.DueFrom(ctx, at, c.max, c.from)
		if err != nil {
			t.Fatal(err)
		}
		if g := ids(got); !slices.Equal(g, c.want) {
			t.Errorf("DueFrom(%s, max %d) = %v, want %v", c.from, c.max, g, c.want)
		}
	}
	if err := s.MarkSent(ctx, "a1", at); err != nil {
		t.Fatal(err)
	}
	got, err := s.DueFrom(ctx, at, 0, "a@x")
	if err != nil {
		t.Fatal(err)
	}
	if g := ids(got); !slices.Equal(g, []string{"a2", "a3"}) {
		t.Errorf("after a1 was sent, DueFrom = %v", g)
	}
}
