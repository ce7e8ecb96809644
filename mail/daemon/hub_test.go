package daemon_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"github.com/umpire-pbem/umpire/mail/daemon"
	"github.com/umpire-pbem/umpire/mail/hub"
	"github.com/umpire-pbem/umpire/mail/mailtest"
)

// submit sends a mail through the hub's SMTP submission port, as a mail
// program would.
func submit(t *testing.T, addr, user, password, from, to, body string) {
	t.Helper()
	c, err := smtp.Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Auth(sasl.NewPlainClient("", user, password)); err != nil {
		t.Fatal(err)
	}
	msg := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: umpire\r\nMessage-ID: <%d.%s>\r\n\r\n%s", from, to, time.Now().UnixNano(), from, strings.ReplaceAll(body, "\n", "\r\n"))
	if err := c.SendMail(from, []string{to}, strings.NewReader(msg)); err != nil {
		t.Fatal(err)
	}
}

// waitMail waits until the user's INBOX holds a mail containing want.
func waitMail(t *testing.T, imapAddr, user, password, want string) []byte {
	t.Helper()
	c := mailtest.Login(t, imapAddr, user, password)
	defer c.Close()
	var found []byte
	waitFor(t, user+" to get a mail with "+want, func() bool {
		for _, m := range mailtest.List(t, c, "INBOX") {
			flat := bytes.ReplaceAll(m.Raw, []byte("=\r\n"), nil)
			if bytes.Contains(flat, []byte(want)) {
				found = flat
				return true
			}
		}
		return false
	})
	return found
}

// testHub is the hub configuration of these tests: loopback, any free
// ports, and cheap password hashing (every login hashes the password;
// only a test binary may ask for fewer iterations).
func testHub() hub.Config {
	return hub.Config{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", HashIterations: 1000}
}

// TestLocalHubHashesAtFullStrength: the hub "umpire serve" starts (through
// StartLocalHub, which takes no hub configuration) hashes passwords with
// the full count, whatever the tests ask of StartLocalHubWith.
func TestLocalHubHashesAtFullStrength(t *testing.T) {
	data := t.TempDir()
	l, err := daemon.StartLocalHub(t.Context(), data, "127.0.0.1:0", "127.0.0.1:0", quietLog())
	if err != nil {
		t.Fatal(err)
	}
	l.Hub.Close()
	raw, err := os.ReadFile(filepath.Join(data, "hub", "hub.json"))
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Users []struct{ Name, Password string }
	}
	if err := json.Unmarshal(raw, &st); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("pbkdf2-sha256$%d$", hub.DefaultHashIterations)
	if len(st.Users) != 2 {
		t.Fatalf("%d users in hub.json, want the daemon and the referee:\n%s", len(st.Users), raw)
	}
	for _, u := range st.Users {
		if !strings.HasPrefix(u.Password, want) {
			t.Errorf("user %s: hash %.30s…, want %s…", u.Name, u.Password, want)
		}
	}
}

var hubPasswordRE = regexp.MustCompile(`(\w+)@umpire\.local: user \w+, password ([a-z0-9-]+)`)

// TestLocalHub plays the opening of a game the way a club would on one
// machine: the referee and the players use the hub with mail programs.
func TestLocalHub(t *testing.T) {
	data := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// As umpire serve does: the hub outlives the daemon, which logs out first.
	l, err := daemon.StartLocalHubWith(context.WithoutCancel(ctx), data, testHub(), quietLog())
	if err != nil {
		t.Fatal(err)
	}
	defer l.Hub.Close()
	refPW := l.NewPasswords[daemon.HubRefereeUser]
	if refPW == "" {
		t.Fatal("no password for the referee")
	}
	cfg := l.Config
	cfg.IMAP.Poll = 1e8
	d := &daemon.Daemon{Config: cfg, Rules: lookup, Log: quietLog(), PrepareAddresses: l.PrepareAddresses, SendPoll: 50 * time.Millisecond}
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()

	imapAddr, smtpAddr := l.Hub.Addrs()
	submit(t, smtpAddr, "referee", refPW, "referee@umpire.local", "umpire@umpire.local",
		"command: new\nid: club-1\nruleset: race\nscenario: sprint\nplayers:\n  red: alice@umpire.local\n  blue: bob@umpire.local\n")
	reply := waitMail(t, imapAddr, "referee", refPW, "Game club-1 created")
	pws := map[string]string{}
	for _, m := range hubPasswordRE.FindAllSubmatch(reply, -1) {
		pws[string(m[1])] = string(m[2])
	}
	if len(pws) != 2 {
		t.Fatalf("the referee's reply gives %d passwords:\n%s", len(pws), reply)
	}
	welcome := waitMail(t, imapAddr, "alice", pws["alice"], "Your secret is:")
	secret := secretRE.FindSubmatch(welcome)[1]
	submit(t, smtpAddr, "alice", pws["alice"], "alice@umpire.local", "umpire@umpire.local",
		fmt.Sprintf("game: club-1\nside: red\nsecret: %s\nturn: 1\nphase: bid\norders:\n  bid: 2\n", secret))
	waitMail(t, imapAddr, "alice", pws["alice"], "Orders received for game club-1, side red")
	// Bob sends his bid to the referee's own mailbox: the referee gets it,
	// and Bob a hint with the address umpire reads.
	submit(t, smtpAddr, "bob", pws["bob"], "bob@umpire.local", "referee@umpire.local",
		"Hello referee, my bid:\n\ngame: club-1\nside: blue\nsecret: xyz\nturn: 1\nphase: bid\norders:\n  bid: 1\n")
	waitMail(t, imapAddr, "referee", refPW, "Hello referee, my bid")
	hint := waitMail(t, imapAddr, "bob", pws["bob"], "the referee's own mailbox")
	if !bytes.Contains(hint, []byte("umpire@umpire.local")) || !bytes.Contains(hint, []byte("orders for game club-1")) {
		t.Errorf("the hint does not give umpire's address:\n%s", hint)
	}

	cancel()
	select {
	case <-done:
	case <-time.After(stuck):
		buf := make([]byte, 1<<20)
		t.Fatalf("the daemon did not stop:\n%s", buf[:runtime.Stack(buf, true)])
	}
}

// TestShutdownAnyTime stops the daemon at various moments, each known from
// its log: before it starts, as it starts to log in, once logged in (in
// IDLE or polling), when a mail is handled (the sender is being woken), and
// once a reply is sent. Each time it must return.
func TestShutdownAnyTime(t *testing.T) {
	imapSrv := mailtest.StartIMAP(t)
	sink := mailtest.StartSink(t)
	for _, at := range []string{"", "umpire serve started", "IMAP connected", "mail handled", "mail sent"} {
		cfg := testConfig(imapSrv.Addr, imapSrv.User, imapSrv.Password, sink.Addr, t.TempDir())
		raw, _ := orderMail(refereeAddr, "command: outbox\n")
		imapSrv.Deliver(raw)
		ctx, cancel := context.WithCancel(context.Background())
		logs := newLogWatch()
		reached := make(chan struct{})
		var once sync.Once
		logs.On(at, func() { once.Do(func() { close(reached); cancel() }) })
		if at == "" {
			once.Do(func() { close(reached); cancel() })
		}
		d := &daemon.Daemon{Config: cfg, Rules: lookup, Log: logs.logger(), SendPoll: 50 * time.Millisecond}
		done := make(chan error, 1)
		go func() { done <- d.Run(ctx) }()
		select {
		case <-reached:
		case <-time.After(stuck):
			t.Fatalf("the daemon never logged %q", at)
		}
		select {
		case <-done:
		case <-time.After(stuck):
			buf := make([]byte, 1<<20)
			t.Fatalf("the daemon did not stop at %q:\n%s", at, buf[:runtime.Stack(buf, true)])
		}
		cancel()
	}
}
