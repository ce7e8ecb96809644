package postgres_test

import (
	"slices"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/store"
)

func ids(ms []store.Message) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.ID)
	}
	return out
}

// DueFrom is Due restricted to one envelope sender, in Due's order.
func TestDueFrom(t *testing.T) {
	s := open(t)
	ctx := t.Context()
	t0 := time.Date(2025, 5, 1, 10, 0, 0, 0, time.UTC)
	msg := func(id, from string, next time.Time) store.Message {
		return store.Message{ID: id, From: from, To: []string{"p@example.org"}, Raw: []byte(id), Created: t0, NextAttempt: next}
	}
	if _, err := s.Append(ctx, store.Batch{Outbox: []store.Message{
		msg("a3", "a@x", t0.Add(3*time.Second)), msg("b1", "b@x", t0.Add(time.Second)),
		msg("a1", "a@x", t0.Add(time.Second)), msg("a0", "a@x", time.Time{}), msg("a2", "a@x", t0.Add(time.Second)),
	}}); err != nil {
		t.Fatal(err)
	}
	got := func(now time.Time, max int, from string) []string {
		ms, err := s.DueFrom(ctx, now, max, from)
		if err != nil {
			t.Fatal(err)
		}
		return ids(ms)
	}
	if ids := got(t0.Add(time.Hour), 0, "a@x"); !slices.Equal(ids, []string{"a0", "a1", "a2", "a3"}) {
		t.Fatalf("DueFrom(a) = %v", ids)
	}
	if ids := got(t0.Add(time.Hour), 2, "a@x"); !slices.Equal(ids, []string{"a0", "a1"}) {
		t.Fatalf("DueFrom(a, 2) = %v", ids)
	}
	if ids := got(t0.Add(2*time.Second), 0, "b@x"); !slices.Equal(ids, []string{"b1"}) {
		t.Fatalf("DueFrom(b) = %v", ids)
	}
	if err := s.MarkSent(ctx, "a1", t0); err != nil {
		t.Fatal(err)
	}
	if ids := got(t0.Add(time.Hour), 0, "a@x"); !slices.Equal(ids, []string{"a0", "a2", "a3"}) {
		t.Fatalf("DueFrom(a) after a1 was sent = %v", ids)
	}
	if ids := got(t0.Add(time.Hour), 0, "c@x"); len(ids) != 0 {
		t.Fatalf("DueFrom(c) = %v", ids)
	}
}

// Message times keep every time.Time exactly, beyond UnixNano's years.
func TestMessageTimesExact(t *testing.T) {
	s := open(t)
	ctx := t.Context()
	far := time.Date(9000, 1, 2, 3, 4, 5, 6, time.UTC)
	early := time.Date(1, 1, 1, 0, 0, 0, 1, time.UTC)
	if _, err := s.Append(ctx, store.Batch{Outbox: []store.Message{{ID: "m", Created: early, NextAttempt: far}}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Retry(ctx, "m", far.Add(time.Nanosecond), "later"); err != nil {
		t.Fatal(err)
	}
	ms, err := s.Messages(ctx, "")
	if err != nil || len(ms) != 1 || !ms[0].Created.Equal(early) || !ms[0].NextAttempt.Equal(far.Add(time.Nanosecond)) {
		t.Fatalf("messages: %+v, %v", ms, err)
	}
}
