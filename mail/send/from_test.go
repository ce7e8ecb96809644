package send_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/store"
)

// queueFrom queues messages with the envelope sender from.
func queueFrom(t *testing.T, st store.Store, from string, ids ...string) {
	t.Helper()
	var msgs []store.Message
	for _, id := range ids {
		msgs = append(msgs, store.Message{ID: id, From: from, To: []string{"p@example.org"},
			Raw: []byte("From: " + from + "\r\nTo: p@example.org\r\nMessage-ID: <" + id + ">\r\nSubject: x\r\n\r\nhello\r\n")})
	}
	if _, err := st.Append(context.Background(), store.Batch{Outbox: msgs}); err != nil {
		t.Fatal(err)
	}
}

// TestFromOnSharedStore: on a shared store, a sender with a From sends
// only the messages queued with that From, however many of the others'
// come first; the others' sender sends the rest; nothing goes twice.
func TestFromOnSharedStore(t *testing.T) {
	sink := mailtest.StartSink(t)
	st := store.NewSharedMemory()
	defer st.Close()
	clock := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	var theirs []string
	for i := range 40 { // more than a drain's batch, all due before ours
		theirs = append(theirs, fmt.Sprintf("b%02d@x", i))
	}
	queueFrom(t, st, "umpire-b@example.org", theirs...)
	queueFrom(t, st, "umpire-a@example.org", "a1@x", "a2@x")
	a := sender(t, sink.Addr, st, &clock)
	a.From = "umpire-a@example.org"
	defer a.Close()
	got, err := a.Drain(context.Background())
	if err != nil || got.Sent != 2 {
		t.Fatalf("a's drain: %+v, %v; want its 2 mails sent", got, err)
	}
	for id, m := range status(t, st) {
		if mine := id[0] == 'a'; mine != (m.Status == store.Sent) {
			t.Errorf("after a's drain, %s (from %s) is %s", id, m.From, m.Status)
		}
	}
	b := sender(t, sink.Addr, st, &clock)
	b.From = "umpire-b@example.org"
	defer b.Close()
	if got, err := b.Drain(context.Background()); err != nil || got.Sent != len(theirs) {
		t.Fatalf("b's drain: %+v, %v; want its %d mails sent", got, err, len(theirs))
	}
	seen := map[string]int{}
	for _, r := range sink.Mails() {
		seen[r.MessageID]++
	}
	for id, m := range status(t, st) {
		if m.Status != store.Sent || seen[id] != 1 {
			t.Errorf("%s is %s and was delivered %d times, want sent once", id, m.Status, seen[id])
		}
	}
}

// TestFromOnOneProcessStore: a store of one process (no DueFrom) ignores
// From: the one daemon sends everything, as before.
func TestFromOnOneProcessStore(t *testing.T) {
	sink := mailtest.StartSink(t)
	st := store.NewMemory()
	defer st.Close()
	clock := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	queueFrom(t, st, "umpire-b@example.org", "b1@x")
	queueFrom(t, st, "umpire-a@example.org", "a1@x")
	s := sender(t, sink.Addr, st, &clock)
	s.From = "umpire-a@example.org"
	defer s.Close()
	if got, err := s.Drain(context.Background()); err != nil || got.Sent != 2 {
		t.Fatalf("drain: %+v, %v; want both mails sent", got, err)
	}
}
