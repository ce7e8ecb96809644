package daemon_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/store"
)

// playByMail plays a whole game through deliver (which puts a mail in the
// referee's inbox) and returns the number of player mails sent.
func playByMail(t *testing.T, st store.Store, sink *mailtest.Sink, deliver func([]byte), gameID string) int {
	t.Helper()
	deliver(newGameMail(gameID))
	mails := sink.WaitFor(t, 3, stuck)
	secrets := secretsFrom(t, mails)
	if len(secrets) != 2 {
		t.Fatalf("welcome mails carry %d secrets, want 2", len(secrets))
	}
	sent := 0
	for round := 0; round < 60; round++ {
		g := loadGame(t, st, gameID)
		due := g.Due()
		if len(due) == 0 {
			return sent
		}
		for _, r := range due {
			if _, ok := g.Answered(r.ID); ok {
				continue
			}
			raw, id := orderMail(addrOf(r.Side), nextOrders(g, r, secrets[addrOf(r.Side)]))
			deliver(raw)
			sent++
			waitFor(t, "the daemon to handle "+id, func() bool { return marked(t, st, id) })
		}
	}
	t.Fatal("the game did not end in 60 rounds")
	return 0
}

func TestWholeGameByMail(t *testing.T) {
	imapSrv := mailtest.StartIMAP(t)
	sink := mailtest.StartSink(t)
	data := t.TempDir()
	st, err := store.Open(filepath.Join(data, "umpire.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cfg := testConfig(imapSrv.Addr, imapSrv.User, imapSrv.Password, sink.Addr, data)
	d := startDaemon(t, cfg, st)

	n := playByMail(t, st, sink, func(raw []byte) { imapSrv.Deliver(raw) }, "race-mail")
	// A stranger's mail and a known player's broken mail.
	stranger, sid := orderMail("someone@elsewhere.example", "game: race-mail\nside: red\n")
	broken, bid := orderMail(redAddr, "game: race-mail\nside: red\nturn: [\n")
	imapSrv.Deliver(stranger, broken)
	waitFor(t, "both handled", func() bool { return marked(t, st, sid) && marked(t, st, bid) })

	msgs, err := st.Messages(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "every reply to be sent", func() bool {
		msgs, _ = st.Messages(context.Background(), "")
		for _, m := range msgs {
			if m.Status != store.Sent {
				return false
			}
		}
		return true
	})
	got := sink.WaitFor(t, len(msgs), stuck)
	ids := map[string]bool{}
	for _, m := range got {
		ids[m.MessageID] = true
		if strings.Contains(string(m.Raw), "someone@elsewhere") {
			t.Errorf("a reply went to the stranger:\n%s", m.Raw)
		}
	}
	for _, m := range msgs {
		if !ids[m.ID] {
			t.Errorf("outbox message %s never reached the sink", m.ID)
		}
	}
	d.stop()
	if in := imapSrv.Folder("INBOX"); len(in) != 0 {
		t.Errorf("%d mails left in the inbox", len(in))
	}
	if p := imapSrv.Folder("umpire-processed"); len(p) != n+1 {
		t.Errorf("%d mails in processed, want %d", len(p), n+1)
	}
	if r := imapSrv.Folder("umpire-rejected"); len(r) != 2 {
		t.Errorf("%d mails in rejected, want 2", len(r))
	}
	g := loadGame(t, st, "race-mail")
	if !g.Over() {
		t.Error("the game is not over")
	}
	t.Logf("%d player mails, %d replies, %d events", n, len(msgs), g.Version)
}
