package daemon_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
	startDaemon(t, testConfig(imapAddr, "umpire", "secret", smtpAddr, data), st)
	time.Sleep(100 * time.Millisecond) // a few failed attempts; the daemon must stay up

	imapSrv := mailtest.StartIMAPAt(t, imapAddr)
	raw, id := orderMail(refereeAddr, "command: outbox\n")
	imapSrv.Deliver(raw)
	waitFor(t, "the command to be handled", 20*time.Second, func() bool { return marked(t, st, id) })

	time.Sleep(100 * time.Millisecond) // the reply fails to go out at least once
	sink := mailtest.StartSinkAt(t, smtpAddr)
	got := sink.WaitFor(t, 1, 30*time.Second)
	if !strings.Contains(string(got[0].Raw), "Done: outbox") {
		t.Errorf("reply:\n%s", got[0].Raw)
	}
}
