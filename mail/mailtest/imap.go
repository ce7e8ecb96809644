package mailtest

import (
	"bytes"
	"crypto/tls"
	"io"
	"log"
	"net"
	"sort"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"

	"github.com/umpire-pbem/umpire/mail/config"
)

// IMAP is an in-process IMAP server with one user.
type IMAP struct {
	Addr     string
	User     string
	Password string

	t   testing.TB
	srv *imapserver.Server
	ln  net.Listener
	tls *TLS
}

// StartIMAP starts an in-memory IMAP server on a loopback port with the
// user "umpire" (password "secret") and an empty INBOX.
func StartIMAP(t testing.TB) *IMAP { return StartIMAPAt(t, "127.0.0.1:0") }

// StartIMAPAt is StartIMAP on a given address.
func StartIMAPAt(t testing.TB, addr string) *IMAP { return startIMAP(t, addr, nil) }

// StartIMAPTLS is StartIMAP speaking TLS as tl says. Logging in is refused
// until the connection is encrypted.
func StartIMAPTLS(t testing.TB, tl TLS) *IMAP { return startIMAP(t, "127.0.0.1:0", &tl) }

func startIMAP(t testing.TB, addr string, tl *TLS) *IMAP {
	t.Helper()
	mem := imapmemserver.New()
	u := imapmemserver.NewUser("umpire", "secret")
	if err := u.Create("INBOX", nil); err != nil {
		t.Fatal(err)
	}
	mem.AddUser(u)
	opts := &imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			return mem.NewSession(), nil, nil
		},
		Caps:         imap.CapSet{imap.CapIMAP4rev1: {}, imap.CapIdle: {}, imap.CapMove: {}, imap.CapUIDPlus: {}},
		InsecureAuth: tl == nil,
		Logger:       log.New(io.Discard, "", 0),
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	if tl != nil {
		switch tl.Mode {
		case config.TLSImplicit:
			ln = tls.NewListener(ln, tl.Server)
		case config.TLSStartTLS:
			opts.TLSConfig = tl.Server
		default:
			ln.Close()
			t.Fatalf("mailtest: TLS mode %q", tl.Mode)
		}
	}
	srv := imapserver.New(opts)
	go srv.Serve(ln)
	s := &IMAP{Addr: ln.Addr().String(), User: "umpire", Password: "secret", t: t, srv: srv, ln: ln, tls: tl}
	// Closing the listener too frees it even when Close came before Serve.
	t.Cleanup(func() { srv.Close(); ln.Close() })
	return s
}

// Client logs in as the server's user.
func (s *IMAP) Client() *imapclient.Client {
	s.t.Helper()
	if s.tls == nil {
		return Login(s.t, s.Addr, s.User, s.Password)
	}
	opts := &imapclient.Options{TLSConfig: s.tls.Client}
	var c *imapclient.Client
	var err error
	if s.tls.Mode == config.TLSImplicit {
		c, err = imapclient.DialTLS(s.Addr, opts)
	} else {
		c, err = imapclient.DialStartTLS(s.Addr, opts)
	}
	if err != nil {
		s.t.Fatal(err)
	}
	if err := c.Login(s.User, s.Password).Wait(); err != nil {
		c.Close()
		s.t.Fatal(err)
	}
	return c
}

// Login dials addr in plain text and logs in.
func Login(t testing.TB, addr, user, password string) *imapclient.Client {
	t.Helper()
	c, err := imapclient.DialInsecure(addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Login(user, password).Wait(); err != nil {
		c.Close()
		t.Fatal(err)
	}
	return c
}

// Append delivers raw into folder, as a mail server would.
func Append(t testing.TB, c *imapclient.Client, folder string, raw []byte) {
	t.Helper()
	cmd := c.Append(folder, int64(len(raw)), &imap.AppendOptions{Time: time.Now()})
	if _, err := cmd.Write(raw); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
}

// Deliver appends raw to the user's INBOX on a fresh connection.
func (s *IMAP) Deliver(raw ...[]byte) {
	s.t.Helper()
	c := s.Client()
	defer c.Close()
	for _, r := range raw {
		Append(s.t, c, "INBOX", r)
	}
}

// Message is a stored message as a test sees it.
type Message struct {
	UID   imap.UID
	Flags []imap.Flag
	Raw   []byte
}

// Folder lists a folder's messages (nil if it does not exist).
func (s *IMAP) Folder(name string) []Message {
	s.t.Helper()
	c := s.Client()
	defer c.Close()
	return List(s.t, c, name)
}

// List returns every message of folder, in UID order.
func List(t testing.TB, c *imapclient.Client, folder string) []Message {
	t.Helper()
	sel, err := c.Select(folder, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		return nil
	}
	if sel.NumMessages == 0 {
		return []Message{}
	}
	var set imap.SeqSet
	set.AddRange(1, sel.NumMessages)
	section := &imap.FetchItemBodySection{Peek: true}
	bufs, err := c.Fetch(set, &imap.FetchOptions{UID: true, Flags: true, BodySection: []*imap.FetchItemBodySection{section}}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	out := make([]Message, 0, len(bufs))
	for _, b := range bufs {
		out = append(out, Message{UID: b.UID, Flags: b.Flags, Raw: bytes.Clone(b.FindBodySection(section))})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].UID < out[j].UID })
	return out
}
