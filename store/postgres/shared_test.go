package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/postgres"
)

// Two Store values on one schema stand for two daemons sharing a database:
// what one process's mutex cannot guard, the server's locks must.

func twoStores(t *testing.T) [2]*postgres.Store {
	url := migrated(t)
	return [2]*postgres.Store{openURL(t, url), openURL(t, url)}
}

func event(i int) store.NewEvent {
	return store.NewEvent{Type: "test.event", Schema: 1, Time: time.Unix(1700000000, int64(i)), Actor: "side:a", Payload: fmt.Appendf(nil, `{"i":%d}`, i)}
}

// race runs fn(r) for r in [0, n) at once, half of them on each store, and
// returns their errors.
func race(ss [2]*postgres.Store, n int, fn func(s *postgres.Store, r int) error) []error {
	var wg sync.WaitGroup
	start := make(chan struct{})
	errs := make([]error, n)
	for r := range n {
		wg.Go(func() {
			<-start
			errs[r] = fn(ss[r%2], r)
		})
	}
	close(start)
	wg.Wait()
	return errs
}

func TestSharedOneWinnerPerVersion(t *testing.T) {
	ss := twoStores(t)
	ctx := t.Context()
	for v := range uint64(8) {
		errs := race(ss, 6, func(s *postgres.Store, r int) error {
			_, err := s.Append(ctx, store.Batch{Game: "g", Expected: v, Events: []store.NewEvent{event(int(v)*10 + r)}, Marks: []string{fmt.Sprint("m-", v, "-", r)}})
			return err
		})
		wins := 0
		for r, err := range errs {
			var ce *store.ConflictError
			switch {
			case err == nil:
				wins++
			case errors.As(err, &ce) && ce.Game == "g" && ce.Expected == v && ce.Actual == v+1:
				if ok, _ := ss[0].Marked(ctx, fmt.Sprint("m-", v, "-", r)); ok {
					t.Fatalf("version %d: loser %d's mark was written", v, r)
				}
			default:
				t.Fatalf("version %d, racer %d: %v (want nil or a *ConflictError at %d)", v, r, err, v+1)
			}
		}
		if wins != 1 {
			t.Fatalf("version %d: %d appends won, want exactly 1", v, wins)
		}
	}
	if err := store.Verify(ctx, ss[1], "g"); err != nil {
		t.Fatal(err)
	}
}

// A game created by two writers at once: one creates it, the others get a
// *ConflictError, never the server's unique violation.
func TestSharedRacingCreation(t *testing.T) {
	ss := twoStores(t)
	ctx := t.Context()
	for round := range 10 {
		game := fmt.Sprint("new-", round)
		errs := race(ss, 6, func(s *postgres.Store, r int) error {
			bs := []store.Batch{{Game: game, Events: []store.NewEvent{event(r)}, Secrets: map[string][]byte{"seed": {byte(r)}}}}
			if r%3 == 2 { // and some create it within an AppendAll of two new games
				bs = append(bs, store.Batch{Game: fmt.Sprint("own-", round, "-", r), Events: []store.NewEvent{event(r)}})
			}
			_, err := s.AppendAll(ctx, bs)
			return err
		})
		wins := -1
		for r, err := range errs {
			var ce *store.ConflictError
			switch {
			case err == nil:
				if wins >= 0 {
					t.Fatalf("round %d: racers %d and %d both created %s", round, wins, r, game)
				}
				wins = r
			case errors.As(err, &ce) && ce.Game == game && ce.Expected == 0 && ce.Actual == 1:
				if r%3 == 2 {
					if _, err := ss[0].Version(ctx, fmt.Sprint("own-", round, "-", r)); !errors.Is(err, store.ErrUnknownGame) {
						t.Fatalf("round %d: loser %d's other game was created: %v", round, r, err)
					}
				}
			default:
				t.Fatalf("round %d, racer %d: %v (want nil or a *ConflictError at 1)", round, r, err)
			}
		}
		if wins < 0 {
			t.Fatalf("round %d: nobody created %s", round, game)
		}
		if v, err := ss[1].Secret(ctx, game, "seed"); err != nil || len(v) != 1 || int(v[0]) != wins {
			t.Fatalf("round %d: secret %v, %v; want the winner's (%d)", round, v, err, wins)
		}
	}
}

// The same mark or message ID written by two transactions at once: one
// writes it, the others get a *DuplicateError naming it.
func TestSharedRacingDuplicates(t *testing.T) {
	ss := twoStores(t)
	ctx := t.Context()
	for round := range 10 {
		kind := []string{"mark", "message"}[round%2]
		k := fmt.Sprint("dup-", round)
		errs := race(ss, 6, func(s *postgres.Store, r int) error {
			// Each racer writes its own game, so that only the key is
			// contended, and other keys, so that the order is exercised.
			b := store.Batch{Game: fmt.Sprint("game-", round, "-", r), Events: []store.NewEvent{event(r)},
				Marks: []string{fmt.Sprint("own-", round, "-", r)}}
			m := store.Message{Game: b.Game, From: "u@example.org", To: []string{"p@example.org"}, Raw: []byte("x"), Created: time.Unix(1, 0)}
			if kind == "mark" {
				b.Marks = append(b.Marks, k)
			} else {
				m.ID = k
				b.Outbox = append(b.Outbox, m)
			}
			m.ID = fmt.Sprint("msg-", round, "-", r)
			b.Outbox = append(b.Outbox, m)
			_, err := s.Append(ctx, b)
			return err
		})
		wins := 0
		for r, err := range errs {
			var de *store.DuplicateError
			switch {
			case err == nil:
				wins++
			case errors.As(err, &de) && de.Kind == kind && de.Key == k:
				if _, err := ss[0].Version(ctx, fmt.Sprint("game-", round, "-", r)); !errors.Is(err, store.ErrUnknownGame) {
					t.Fatalf("round %d: loser %d's game was written: %v", round, r, err)
				}
			default:
				t.Fatalf("round %d, racer %d: %v (want nil or a *DuplicateError for %s %s)", round, r, err, kind, k)
			}
		}
		if wins != 1 {
			t.Fatalf("round %d: %d writers of %s %s won, want exactly 1", round, wins, kind, k)
		}
	}
}

// AppendAll over the same games in opposite orders, from two stores:
// every call either writes or conflicts, and no deadlock surfaces.
func TestSharedAppendAllOppositeOrders(t *testing.T) {
	ss := twoStores(t)
	games := []string{"a", "b", "c", "d"}
	const writers, each = 4, 12
	errs := race(ss, writers, func(s *postgres.Store, w int) error {
		ctx := context.Background()
		order := games
		if w%2 == 1 {
			order = []string{"d", "c", "b", "a"}
		}
		for done := 0; done < each; {
			bs := make([]store.Batch, len(order))
			for i, g := range order {
				v, err := s.Version(ctx, g)
				if err != nil && !errors.Is(err, store.ErrUnknownGame) {
					return err
				}
				bs[i] = store.Batch{Game: g, Expected: v, Events: []store.NewEvent{event(w*1000 + done)}, Meta: map[string][]byte{"last": {byte(w)}}}
			}
			_, err := s.AppendAll(ctx, bs)
			if errors.Is(err, store.ErrConflict) {
				continue
			}
			if err != nil {
				return fmt.Errorf("writer %d: %w", w, err)
			}
			done++
		}
		return nil
	})
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, g := range games {
		if v, err := ss[0].Version(t.Context(), g); err != nil || v != writers*each {
			t.Fatalf("game %s at %d, %v; want %d", g, v, err, writers*each)
		}
		if err := store.Verify(t.Context(), ss[1], g); err != nil {
			t.Fatal(err)
		}
	}
}
