package postgres_test

import (
	"errors"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/postgres"
)

func lease(t *testing.T, l store.Leases, name, holder string, ttl time.Duration) (bool, string) {
	t.Helper()
	held, other, err := l.Lease(t.Context(), name, holder, ttl)
	if err != nil {
		t.Fatalf("Lease(%s, %s): %v", name, holder, err)
	}
	return held, other
}

func TestLeases(t *testing.T) {
	ss := twoStores(t)
	a, b := ss[0], ss[1]
	const long = time.Hour

	if held, other := lease(t, a, "intake", "daemon-a", long); !held || other != "" {
		t.Fatalf("first take: held %v, other %q", held, other)
	}
	if held, _ := lease(t, a, "intake", "daemon-a", long); !held {
		t.Fatal("the holder could not renew")
	}
	if held, other := lease(t, b, "intake", "daemon-b", long); held || other != "daemon-a" {
		t.Fatalf("another holder took a live lease: held %v, other %q", held, other)
	}
	// Another name is another lease.
	if held, _ := lease(t, b, "sender", "daemon-b", long); !held {
		t.Fatal("a free lease was refused")
	}

	// Release by someone else does nothing; by the holder frees it.
	if err := b.Release(t.Context(), "intake", "daemon-b"); err != nil {
		t.Fatal(err)
	}
	if held, _ := lease(t, b, "intake", "daemon-b", long); held {
		t.Fatal("a release by another holder freed the lease")
	}
	if err := a.Release(t.Context(), "intake", "daemon-a"); err != nil {
		t.Fatal(err)
	}
	if held, _ := lease(t, b, "intake", "daemon-b", long); !held {
		t.Fatal("a released lease could not be taken")
	}

	// A lease whose term ran out (on the server's clock) is taken over.
	// Nothing here waits for a duration: it asks until the term has run
	// out, within a generous deadline.
	if held, _ := lease(t, a, "short", "daemon-a", time.Millisecond); !held {
		t.Fatal("a free lease was refused")
	}
	deadline := time.Now().Add(time.Minute)
	for {
		held, other := lease(t, b, "short", "daemon-b", long)
		if held {
			break
		}
		if other != "daemon-a" {
			t.Fatalf("lease refused for holder %q", other)
		}
		if time.Now().After(deadline) {
			t.Fatal("a lease of 1ms was still held after a minute")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if held, other := lease(t, a, "short", "daemon-a", long); held || other != "daemon-b" {
		t.Fatalf("the old holder took back a lease taken over: held %v, other %q", held, other)
	}

	if _, _, err := a.Lease(t.Context(), "", "daemon-a", long); !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("a lease without a name: %v", err)
	}
	if _, _, err := a.Lease(t.Context(), "x", "daemon-a", 0); !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("a lease without a term: %v", err)
	}
}

// Many holders racing for one free lease: exactly one gets it, the others
// are told who.
func TestLeaseRace(t *testing.T) {
	ss := twoStores(t)
	for round := range 5 {
		name := string(rune('a' + round))
		holders := make([]string, 6)
		others := make([]string, 6)
		errs := race(ss, 6, func(s *postgres.Store, r int) error {
			var err error
			var held bool
			held, others[r], err = s.Lease(t.Context(), name, string(rune('A'+r)), time.Hour)
			if held {
				holders[r] = string(rune('A' + r))
			}
			return err
		})
		winner := ""
		for r, err := range errs {
			if err != nil {
				t.Fatalf("round %d, holder %d: %v", round, r, err)
			}
			if holders[r] != "" {
				if winner != "" {
					t.Fatalf("round %d: %s and %s both hold the lease", round, winner, holders[r])
				}
				winner = holders[r]
			}
		}
		if winner == "" {
			t.Fatalf("round %d: nobody got a free lease", round)
		}
		for r := range others {
			if holders[r] == "" && others[r] != winner {
				t.Fatalf("round %d: holder %d was told %q holds it, not %q", round, r, others[r], winner)
			}
		}
	}
}
