package store

import (
	"context"
	"fmt"
	"time"
)

// SharedMemory is a Memory store that behaves as a store several daemons
// share: it implements Leases and DueFrom as store/postgres does, so that
// the daemon's leases (who reads a mailbox, who sends, who runs the
// clocks) can be tested in one process, fast, without a database. Memory
// itself implements neither: a test that wants the shared path says so by
// using this type.
//
// It is for tests: its leases live in the process, so two processes never
// share them.
type SharedMemory struct {
	*Memory
	// Now is the clock that measures the leases' terms (the store's own
	// clock, as a database server's is); time.Now when nil. A test sets
	// it to make a term run out without waiting. It must be set before
	// the store is used and never changed after.
	Now func() time.Time

	leases map[string]lease // guarded by Memory.mu
}

// lease is one held lease: who holds it and until when (by the store's clock).
type lease struct {
	holder string
	until  time.Time
}

var (
	_ Store   = (*SharedMemory)(nil)
	_ Leases  = (*SharedMemory)(nil)
	_ DueFrom = (*SharedMemory)(nil)
)

// NewSharedMemory returns an empty shared memory store on the real clock.
func NewSharedMemory() *SharedMemory {
	return &SharedMemory{Memory: NewMemory(), leases: make(map[string]lease)}
}

func (s *SharedMemory) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// Lease implements Leases. A term that has run out (now not before its
// end) is free for anyone; holder renewing its own lease always succeeds.
// An empty name or holder, or a ttl that is not positive, is ErrInvalid.
func (s *SharedMemory) Lease(ctx context.Context, name, holder string, ttl time.Duration) (bool, string, error) {
	if name == "" || holder == "" || ttl <= 0 {
		return false, "", fmt.Errorf("%w: lease %q for holder %q with term %v: a lease needs a name, a holder and a positive term", ErrInvalid, name, holder, ttl)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.enter(ctx); err != nil {
		return false, "", err
	}
	now := s.now()
	if l, ok := s.leases[name]; ok && l.holder != holder && now.Before(l.until) {
		return false, l.holder, nil
	}
	s.leases[name] = lease{holder: holder, until: now.Add(ttl)}
	return true, "", nil
}

// Release implements Leases.
func (s *SharedMemory) Release(ctx context.Context, name, holder string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.enter(ctx); err != nil {
		return err
	}
	if l, ok := s.leases[name]; ok && l.holder == holder {
		delete(s.leases, name)
	}
	return nil
}

// DueFrom implements DueFrom: Due's messages, in Due's order, whose From
// is exactly from, at most max of them (all for max <= 0).
func (s *SharedMemory) DueFrom(ctx context.Context, now time.Time, max int, from string) ([]Message, error) {
	all, err := s.Due(ctx, now, 0)
	if err != nil {
		return nil, err
	}
	var out []Message
	for _, m := range all {
		if m.From != from {
			continue
		}
		out = append(out, m)
		if max > 0 && len(out) == max {
			break
		}
	}
	return out, nil
}
