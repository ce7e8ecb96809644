package send_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/mail/config"
	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/mail/send"
	"github.com/umpire-pbem/umpire/store"
)

func sender(t *testing.T, addr string, st store.Store, clock *time.Time) *send.Sender {
	i := strings.LastIndexByte(addr, ':')
	var port int
	fmt.Sscan(addr[i+1:], &port)
	var c config.SMTP
	c.Server = config.Server{Host: addr[:i], Port: port, TLS: config.TLSPlain, User: "umpire"}
	c.Password.Set(mailtest.SinkPassword)
	c.Auth = config.AuthPlain
	return &send.Sender{SMTP: c, Store: st, Now: func() time.Time { return *clock }, Backoff: time.Minute, MaxBackoff: time.Hour}
}

func queue(t *testing.T, st store.Store, ids ...string) {
	var msgs []store.Message
	for _, id := range ids {
		msgs = append(msgs, store.Message{ID: id, From: "umpire@example.org", To: []string{"p@example.org"},
			Raw: []byte("From: umpire@example.org\r\nTo: p@example.org\r\nMessage-ID: <" + id + ">\r\nSubject: x\r\n\r\nhello\r\n")})
	}
	if _, err := st.Append(context.Background(), store.Batch{Outbox: msgs}); err != nil {
		t.Fatal(err)
	}
}

func status(t *testing.T, st store.Store) map[string]store.Message {
	msgs, err := st.Messages(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]store.Message{}
	for _, m := range msgs {
		out[m.ID] = m
	}
	return out
}

func TestTemporaryAndPermanent(t *testing.T) {
	sink := mailtest.StartSink(t)
	st := store.NewMemory()
	clock := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	s := sender(t, sink.Addr, st, &clock)
	queue(t, st, "a@x", "b@x", "c@x")
	sink.Refuse(mailtest.Temporary, mailtest.Permanent)
	ctx := context.Background()
	got, err := s.Drain(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got.Sent != 1 || got.Retried != 1 || got.Failed != 1 {
		t.Fatalf("first drain: %+v", got)
	}
	m := status(t, st)
	if m["a@x"].Status != store.Pending || !m["a@x"].NextAttempt.After(clock.Add(59*time.Second)) || m["b@x"].Status != store.Failed || m["c@x"].Status != store.Sent {
		t.Fatalf("after the first drain: %+v", m)
	}
	// Not due yet: nothing happens.
	if got, _ := s.Drain(ctx); got != (send.Stats{}) {
		t.Fatalf("drain before the backoff: %+v", got)
	}
	clock = clock.Add(2 * time.Minute)
	if got, _ := s.Drain(ctx); got.Sent != 1 {
		t.Fatalf("drain after the backoff: %+v", got)
	}
	ids := map[string]int{}
	for _, r := range sink.Mails() {
		ids[r.MessageID]++
	}
	if ids["a@x"] != 1 || ids["c@x"] != 1 || ids["b@x"] != 0 {
		t.Errorf("the sink got %v", ids)
	}
}

func TestServerDownIsTemporary(t *testing.T) {
	st := store.NewMemory()
	clock := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	s := sender(t, "127.0.0.1:1", st, &clock)
	queue(t, st, "a@x")
	if got, err := s.Drain(context.Background()); err != nil || got.Retried != 1 {
		t.Fatalf("%+v %v", got, err)
	}
	if m := status(t, st)["a@x"]; m.Status != store.Pending || m.Attempts != 1 || m.LastError == "" {
		t.Fatalf("%+v", m)
	}
}

// TestSessionKeptBetweenDrains: two drains in a row go over one SMTP
// session (one login); the mails arrive once each.
func TestSessionKeptBetweenDrains(t *testing.T) {
	sink := mailtest.StartSink(t)
	st := store.NewMemory()
	clock := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	s := sender(t, sink.Addr, st, &clock)
	defer s.Close()
	for _, id := range []string{"a@x", "b@x", "c@x"} {
		queue(t, st, id)
		if got, err := s.Drain(t.Context()); err != nil || got.Sent != 1 {
			t.Fatalf("drain for %s: %+v %v", id, got, err)
		}
	}
	if opened, open := sink.Sessions(); opened != 1 || open != 1 {
		t.Errorf("%d sessions opened, %d open; want one, kept open", opened, open)
	}
	if n := len(sink.Mails()); n != 3 {
		t.Errorf("the sink got %d mails, want 3", n)
	}
	s.Close()
	sink.WaitOpen(t, 0, time.Minute)
}

// TestSessionGoneIsRedialled: when the server dropped the kept session
// (its idle timeout, a restart), the next drain notices before sending and
// dials anew: the mail goes out at once, with no retry recorded.
func TestSessionGoneIsRedialled(t *testing.T) {
	sink := mailtest.StartSink(t)
	st := store.NewMemory()
	clock := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	s := sender(t, sink.Addr, st, &clock)
	defer s.Close()
	queue(t, st, "a@x")
	if got, err := s.Drain(t.Context()); err != nil || got.Sent != 1 {
		t.Fatalf("%+v %v", got, err)
	}
	sink.DropSessions()
	sink.WaitOpen(t, 0, time.Minute)
	queue(t, st, "b@x")
	if got, err := s.Drain(t.Context()); err != nil || got != (send.Stats{Sent: 1}) {
		t.Fatalf("drain after the session was dropped: %+v %v", got, err)
	}
	// b@x went out on its first attempt, as a@x did.
	if m := status(t, st); m["b@x"].Status != store.Sent || m["b@x"].Attempts != m["a@x"].Attempts || m["b@x"].LastError != "" {
		t.Errorf("b@x: %s, %d attempts, error %q", m["b@x"].Status, m["b@x"].Attempts, m["b@x"].LastError)
	}
	if opened, _ := sink.Sessions(); opened != 2 {
		t.Errorf("%d sessions opened, want 2", opened)
	}
}

// TestSessionEnds: a kept session ends when its idle time passes, when the
// drain's context ends, and at once when reuse is off.
func TestSessionEnds(t *testing.T) {
	for _, c := range []struct {
		name string
		idle time.Duration
		stop bool // cancel the drain's context afterwards
	}{
		{"idle", time.Nanosecond, false},
		{"context", time.Hour, true},
		{"off", -1, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			sink := mailtest.StartSink(t)
			st := store.NewMemory()
			clock := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
			s := sender(t, sink.Addr, st, &clock)
			s.Idle = c.idle
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			queue(t, st, "a@x")
			if got, err := s.Drain(ctx); err != nil || got.Sent != 1 {
				t.Fatalf("%+v %v", got, err)
			}
			if c.stop {
				cancel()
			}
			sink.WaitOpen(t, 0, time.Minute)
			// The sender still works afterwards.
			queue(t, st, "b@x")
			if got, err := s.Drain(t.Context()); err != nil || got.Sent != 1 {
				t.Fatalf("drain after the session ended: %+v %v", got, err)
			}
			s.Close()
			if opened, _ := sink.Sessions(); opened != 2 {
				t.Errorf("%d sessions opened, want 2", opened)
			}
		})
	}
}

// TestMaxPerSession: a session carries at most MaxPerSession messages;
// the next ones go over a new one, and nothing is sent twice.
func TestMaxPerSession(t *testing.T) {
	sink := mailtest.StartSink(t)
	st := store.NewMemory()
	clock := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	s := sender(t, sink.Addr, st, &clock)
	s.MaxPerSession = 2
	defer s.Close()
	queue(t, st, "a@x", "b@x", "c@x", "d@x", "e@x")
	if got, err := s.Drain(t.Context()); err != nil || got.Sent != 5 {
		t.Fatalf("%+v %v", got, err)
	}
	if opened, _ := sink.Sessions(); opened != 3 {
		t.Errorf("%d sessions for 5 mails at 2 a session, want 3", opened)
	}
	ids := map[string]int{}
	for _, r := range sink.Mails() {
		ids[r.MessageID]++
	}
	if len(ids) != 5 {
		t.Errorf("the sink got %v", ids)
	}
	for id, n := range ids {
		if n != 1 {
			t.Errorf("%s received %d times", id, n)
		}
	}
}

// TestKeptSessionAfterFailures: temporary and permanent refusals on a kept
// session are recorded as before, and the session (or a new one) carries
// the next drain.
func TestKeptSessionAfterFailures(t *testing.T) {
	sink := mailtest.StartSink(t)
	st := store.NewMemory()
	clock := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	s := sender(t, sink.Addr, st, &clock)
	defer s.Close()
	queue(t, st, "a@x")
	s.Drain(t.Context())
	queue(t, st, "b@x", "c@x", "d@x")
	sink.Refuse(mailtest.Permanent, mailtest.Temporary)
	got, err := s.Drain(t.Context())
	if err != nil || got != (send.Stats{Sent: 1, Retried: 1, Failed: 1}) {
		t.Fatalf("%+v %v", got, err)
	}
	m := status(t, st)
	if m["b@x"].Status != store.Failed || m["c@x"].Status != store.Pending || m["c@x"].Attempts != 1 || m["d@x"].Status != store.Sent {
		t.Fatalf("%+v", m)
	}
	clock = clock.Add(2 * time.Minute)
	if got, err := s.Drain(t.Context()); err != nil || got.Sent != 1 {
		t.Fatalf("drain after the backoff: %+v %v", got, err)
	}
}

// countingStore counts the messages Due hands out at once.
type countingStore struct {
	store.Store
	most int
}

func (c *countingStore) Due(ctx context.Context, now time.Time, n int) ([]store.Message, error) {
	ms, err := c.Store.Due(ctx, now, n)
	c.most = max(c.most, len(ms))
	return ms, err
}

// TestDrainInBatches: a backlog larger than DrainBatch is sent in one
// drain, never more than DrainBatch messages held at a time; a message
// with no text is refused, not sent empty; and a server that cannot be
// reached is tried once per drain, the rest waiting for the next.
func TestDrainInBatches(t *testing.T) {
	sink := mailtest.StartSink(t)
	mem := store.NewMemory()
	st := &countingStore{Store: mem}
	clock := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	s := sender(t, sink.Addr, st, &clock)
	var ids []string
	for i := range 3*send.DrainBatch + 5 {
		ids = append(ids, fmt.Sprintf("m%02d@x", i))
	}
	queue(t, mem, ids...)
	if _, err := mem.Append(context.Background(), store.Batch{Outbox: []store.Message{{ID: "empty@x", From: "umpire@example.org", To: []string{"p@example.org"}}}}); err != nil {
		t.Fatal(err)
	}
	got, err := s.Drain(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got.Sent != len(ids) || got.Failed != 1 {
		t.Fatalf("drain: %+v, want %d sent and the empty one refused", got, len(ids))
	}
	if st.most > send.DrainBatch {
		t.Errorf("the drain held %d messages at once, want at most %d", st.most, send.DrainBatch)
	}
	if m := status(t, mem)["empty@x"]; m.Status != store.Failed {
		t.Errorf("the empty message is %s, want failed", m.Status)
	}
	s.Close()

	// The server is gone: one try, every message retried later.
	queue(t, mem, "late1@x", "late2@x", "late3@x")
	s.SMTP.Port = 1 // nothing listens there
	got, err = s.Drain(context.Background())
	if err != nil || got.Retried != 3 || got.Sent != 0 {
		t.Fatalf("drain with the server down: %+v, %v; want 3 retried", got, err)
	}
}
