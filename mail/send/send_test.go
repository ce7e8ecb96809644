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
