package daemon_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/store"
)

// TestServersComeLater starts the daemon while neither the IMAP nor the
// SMTP server is up: it keeps trying, and once they are up it reads the
// mail and delivers the reply.
func TestServersComeLater(t *testing.T) {
	imapAddr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	smtpAddr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	data := t.TempDir()
	st, err := store.Open(filepath.Join(data, "umpire.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	logs := newLogWatch()
	startDaemonLog(t, testConfig(imapAddr, "umpire", "secret", smtpAddr, data), st, logs.logger())
	logs.Wait(t, "IMAP unavailable; will try again", 3) // the daemon must stay up

	imapSrv := mailtest.StartIMAPAt(t, imapAddr)
	raw, id := orderMail(refereeAddr, "command: outbox\n")
	imapSrv.Deliver(raw)
	waitFor(t, "the command to be handled", func() bool { return marked(t, st, id) })

	waitFor(t, "the reply to fail to go out at least once", func() bool {
		msgs, err := st.Messages(t.Context(), "")
		if err != nil {
			t.Fatal(err)
		}
		return len(msgs) == 1 && msgs[0].Attempts > 0
	})
	sink := mailtest.StartSinkAt(t, smtpAddr)
	got := sink.WaitFor(t, 1, stuck)
	if !strings.Contains(string(got[0].Raw), "Done: outbox") {
		t.Errorf("reply:\n%s", got[0].Raw)
	}
}
