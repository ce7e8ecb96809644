package daemon_test

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/store"
)

const dovecotBin = "/usr/sbin/dovecot"

// dovecot is a Dovecot started by a test, loopback only, no systemd.
type dovecot struct {
	dir  string
	addr string
}

// freePort returns a loopback TCP port that is free now, for a server a
// test starts later. It is taken below the range the system hands out by
// itself (ip_local_port_range): there, no connection or ":0" listener of
// the tests running meanwhile can take it before the test binds it.
func freePort(t *testing.T) int {
	const from = 10000
	below := 32768
	if b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range"); err == nil {
		fmt.Sscan(string(b), &below)
	}
	for range 100 {
		addr := "127.0.0.1:0"
		if below > from+1000 {
			addr = fmt.Sprintf("127.0.0.1:%d", from+rand.IntN(below-from))
		}
		ln, err := net.Listen("tcp", addr)
		if err == nil {
			defer ln.Close()
			return ln.Addr().(*net.TCPAddr).Port
		}
	}
	t.Fatal("no free loopback port")
	return 0
}

// startDovecot writes a config for one user, "umpire" (password
// "secret"), starts Dovecot on a free loopback port and stops it at the
// end of the test.
func startDovecot(t *testing.T) *dovecot {
	if _, err := os.Stat(dovecotBin); err != nil {
		t.Skip("Dovecot is not installed (" + dovecotBin + " is absent): install the Debian package dovecot-imapd to run this end-to-end test")
	}
	dir := t.TempDir()
	// Dovecot's auth process runs as the dovecot user: it must reach the
	// users file, and the mail user (nobody) must write the Maildirs.
	for _, d := range []string{dir, filepath.Dir(dir)} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	mailDir := filepath.Join(dir, "mail")
	if err := os.MkdirAll(mailDir, 0o755); err != nil {
		t.Fatal(err)
	}
	extra := ""
	mailUID := "nobody"
	mailGID := "nogroup"
	if os.Getuid() == 0 {
		nobody, err := user.Lookup("nobody")
		if err != nil {
			t.Skip("no nobody user: " + err.Error())
		}
		uid, _ := strconv.Atoi(nobody.Uid)
		gid, _ := strconv.Atoi(nobody.Gid)
		if err := os.Chown(mailDir, uid, gid); err != nil {
			t.Fatal(err)
		}
		if g, err := user.LookupGroupId(nobody.Gid); err == nil {
			mailGID = g.Name
		}
	} else {
		me, err := user.Current()
		if err != nil {
			t.Skip(err.Error())
		}
		mailUID, mailGID = me.Username, me.Username
		if g, err := user.LookupGroupId(me.Gid); err == nil {
			mailGID = g.Name
		}
		extra = fmt.Sprintf("default_internal_user = %[1]s\ndefault_internal_group = %[2]s\ndefault_login_user = %[1]s\nservice anvil {\n  chroot =\n}\nservice imap-login {\n  chroot =\n}\n", me.Username, mailGID)
	}
	port := freePort(t)
	conf := fmt.Sprintf(`base_dir = %[1]s/run
state_dir = %[1]s/state
instance_name = umpire-test-%[2]d
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
log_path = %[1]s/dovecot.log
mail_location = maildir:%[1]s/mail/%%u/Maildir
first_valid_uid = 0
auth_username_format = %%Ln
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%%u %[1]s/users
}
userdb {
  driver = static
  args = uid=%[3]s gid=%[4]s home=%[1]s/mail/%%u
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = %[2]d
  }
  inet_listener imaps {
    port = 0
  }
}
%[5]s`, dir, port, mailUID, mailGID, extra)
	if err := os.WriteFile(filepath.Join(dir, "dovecot.conf"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "users"), []byte("umpire:{PLAIN}secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Dovecot forks and its master keeps the standard output: give it a
	// file, not a pipe that exec would wait on.
	outFile, err := os.Create(filepath.Join(dir, "start.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer outFile.Close()
	cmd := exec.Command(dovecotBin, "-c", filepath.Join(dir, "dovecot.conf"))
	cmd.Stdout, cmd.Stderr = outFile, outFile
	if err := cmd.Run(); err != nil {
		out, _ := os.ReadFile(outFile.Name())
		t.Fatalf("starting Dovecot: %v\n%s", err, out)
	}
	d := &dovecot{dir: dir, addr: fmt.Sprintf("127.0.0.1:%d", port)}
	t.Cleanup(d.stop)
	waitFor(t, "Dovecot to listen", func() bool {
		c, err := net.Dial("tcp", d.addr)
		if err == nil {
			c.Close()
		}
		return err == nil
	})
	return d
}

func (d *dovecot) stop() {
	b, err := os.ReadFile(filepath.Join(d.dir, "run", "master.pid"))
	if err != nil {
		return
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		return
	}
	// Dovecot is not our child (it forks into the background), so its end
	// cannot be waited for: poll until it is gone, before the test's
	// directory is removed from under it.
	syscall.Kill(pid, syscall.SIGTERM)
	deadline := time.Now().Add(stuck)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			return
		}
		time.Sleep(25 * time.Millisecond)
	}
}

func (d *dovecot) log(t *testing.T) string {
	b, _ := os.ReadFile(filepath.Join(d.dir, "dovecot.log"))
	return string(b)
}

// TestDovecotWholeGame plays a full game of several turns by mail against
// a real Dovecot: the players' mails are APPENDed to the referee's INBOX,
// the daemon's replies are caught by an SMTP sink.
func TestDovecotWholeGame(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Dovecot")
	}
	dc := startDovecot(t)
	sink := mailtest.StartSink(t)
	data := t.TempDir()
	st, err := store.Open(filepath.Join(data, "umpire.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cfg := testConfig(dc.addr, "umpire", "secret", sink.Addr, data)
	cfg.IMAP.Poll = 2e8
	d := startDaemon(t, cfg, st)
	c := mailtest.Login(t, dc.addr, "umpire", "secret")
	defer c.Close()
	n := playByMail(t, st, sink, func(raw []byte) { mailtest.Append(t, c, "INBOX", raw) }, "race-dovecot")
	waitFor(t, "every reply sent", func() bool {
		msgs, _ := st.Messages(t.Context(), "")
		for _, m := range msgs {
			if m.Status != store.Sent {
				return false
			}
		}
		return true
	})
	d.stop()
	check := mailtest.Login(t, dc.addr, "umpire", "secret")
	defer check.Close()
	if in := mailtest.List(t, check, "INBOX"); len(in) != 0 {
		t.Errorf("%d mails left in the INBOX", len(in))
	}
	if p := mailtest.List(t, check, "umpire-processed"); len(p) != n+1 {
		t.Errorf("%d mails in umpire-processed, want %d\n%s", len(p), n+1, dc.log(t))
	}
	for _, m := range mailtest.List(t, check, "umpire-processed") {
		seen := false
		for _, f := range m.Flags {
			seen = seen || strings.EqualFold(string(f), `\Seen`)
		}
		if !seen {
			t.Errorf("processed mail %d is not flagged \\Seen", m.UID)
		}
	}
	if g := loadGame(t, st, "race-dovecot"); !g.Over() {
		t.Error("the game is not over")
	}
	t.Logf("Dovecot game: %d player mails, %d mails from the referee", n, len(sink.Mails()))
}
