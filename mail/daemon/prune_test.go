package daemon_test

import (
	"context"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/mail/daemon"
	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/store"
)

// TestPruneSentMail: the daemon drops the text of mail sent longer ago
// than outbox.keep_sent, keeps what was sent since and every mail not yet
// sent, and keeps everything with outbox.keep_all.
func TestPruneSentMail(t *testing.T) {
	now := time.Date(2027, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, keepAll := range []bool{false, true} {
		imapSrv := mailtest.StartIMAP(t)
		sink := mailtest.StartSink(t)
		st := store.NewMemory()
		ctx := context.Background()
		var msgs []store.Message
		for _, id := range []string{"old@x", "recent@x", "waiting@x"} {
			msgs = append(msgs, store.Message{ID: id, From: "umpire@example.org", To: []string{"p@example.org"},
				Raw:         []byte("From: umpire@example.org\r\nTo: p@example.org\r\nMessage-ID: <" + id + ">\r\nSubject: x\r\n\r\nhello\r\n"),
				NextAttempt: now.Add(time.Hour)}) // not due while the test runs
		}
		if _, err := st.Append(ctx, store.Batch{Outbox: msgs}); err != nil {
			t.Fatal(err)
		}
		if err := st.MarkSent(ctx, "old@x", now.Add(-40*24*time.Hour)); err != nil {
			t.Fatal(err)
		}
		if err := st.MarkSent(ctx, "recent@x", now.Add(-10*24*time.Hour)); err != nil {
			t.Fatal(err)
		}
		cfg := testConfig(imapSrv.Addr, imapSrv.User, imapSrv.Password, sink.Addr, t.TempDir())
		cfg.Outbox.KeepAll = keepAll
		w := newLogWatch()
		r := startDaemonLog(t, cfg, st, w.logger(), func(d *daemon.Daemon) { d.Now = func() time.Time { return now } })
		if keepAll {
			w.Wait(t, "old sent mail checked", 1)
		} else {
			w.Wait(t, "dropped the text of old sent mail", 1)
		}
		r.stop()
		got := map[string]store.Message{}
		all, _ := st.Messages(ctx, "")
		for _, m := range all {
			got[m.ID] = m
		}
		if old := got["old@x"]; old.Pruned == keepAll || (len(old.Raw) == 0) == keepAll {
			t.Errorf("keep_all=%v: the mail sent 40 days ago: pruned=%v, %d bytes", keepAll, old.Pruned, len(old.Raw))
		}
		for _, id := range []string{"recent@x", "waiting@x"} {
			if m := got[id]; m.Pruned || len(m.Raw) == 0 {
				t.Errorf("keep_all=%v: %s lost its text", keepAll, id)
			}
		}
	}
}
