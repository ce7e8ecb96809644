package mailtest

import (
	"bytes"
	"crypto/tls"
	"errors"
	"io"
	"log"
	"net"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"github.com/umpire-pbem/umpire/mail/config"
)

// Received is one mail the sink accepted.
type Received struct {
	From      string
	To        []string
	Raw       []byte
	MessageID string // without brackets
	Auth      string // the SASL mechanism the client logged in with ("" for none)
	TLS       bool   // whether the session was encrypted
}

// Sink is an SMTP server that keeps every mail it accepts.
type Sink struct {
	Addr string

	mu      sync.Mutex
	mails   []Received
	refuse  []*smtp.SMTPError // answers to the next DATA commands, in turn
	changed chan struct{}     // closed at the next mail or session change
	srv     *smtp.Server
	opened  int                         // sessions so far
	open    map[*sinkSession]*smtp.Conn // sessions not yet ended
}

// Logins are accepted for any user with this password.
const SinkPassword = "sink-secret"

// StartSink starts an SMTP sink on a loopback port. It accepts AUTH PLAIN
// and LOGIN with any user and SinkPassword, and mail without AUTH too.
func StartSink(t testing.TB) *Sink { return StartSinkAt(t, "127.0.0.1:0") }

// StartSinkAt is StartSink on a given address.
func StartSinkAt(t testing.TB, addr string) *Sink { return startSink(t, addr, nil) }

// StartSinkTLS is StartSink speaking TLS as tl says: with implicit TLS
// from the first byte, with starttls offering STARTTLS. It refuses AUTH on
// an unencrypted connection.
func StartSinkTLS(t testing.TB, tl TLS) *Sink { return startSink(t, "127.0.0.1:0", &tl) }

func startSink(t testing.TB, addr string, tl *TLS) *Sink {
	t.Helper()
	s := &Sink{changed: make(chan struct{}), open: map[*sinkSession]*smtp.Conn{}}
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		_, encrypted := c.TLSConnectionState()
		ss := &sinkSession{s: s, tls: encrypted}
		s.mu.Lock()
		defer s.mu.Unlock()
		s.opened++
		s.open[ss] = c
		s.changedLocked()
		return ss, nil
	}))
	srv.Domain = "sink.test"
	srv.AllowInsecureAuth = tl == nil
	srv.ErrorLog = log.New(io.Discard, "", 0)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	if tl != nil {
		switch tl.Mode {
		case config.TLSImplicit:
			ln = tls.NewListener(ln, tl.Server)
		case config.TLSStartTLS:
			srv.TLSConfig = tl.Server
		default:
			ln.Close()
			t.Fatalf("mailtest: TLS mode %q", tl.Mode)
		}
	}
	s.Addr = ln.Addr().String()
	s.srv = srv
	go srv.Serve(ln)
	// Closing the listener too stops Serve even when Close came first.
	t.Cleanup(func() { srv.Close(); ln.Close() })
	return s
}

// Refuse makes the next DATA commands fail with these errors, one each.
func (s *Sink) Refuse(errs ...*smtp.SMTPError) {
	s.mu.Lock()
	s.refuse = append(s.refuse, errs...)
	s.mu.Unlock()
}

// Temporary and Permanent are typical refusals.
var (
	Temporary = &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try again later"}
	Permanent = &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "no such user"}
)

// Mails returns a copy of what was received so far.
func (s *Sink) Mails() []Received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Received(nil), s.mails...)
}

// WaitFor waits until at least n mails arrived or the bounded wait ends,
// and returns what arrived.
func (s *Sink) WaitFor(t testing.TB, n int, within time.Duration) []Received {
	t.Helper()
	deadline := time.After(within)
	for {
		s.mu.Lock()
		got, ch := len(s.mails), s.changed
		s.mu.Unlock()
		if got >= n {
			return s.Mails()
		}
		select {
		case <-ch:
		case <-deadline:
			t.Fatalf("the SMTP sink received %d mails, want %d", got, n)
		}
	}
}

// Sessions returns how many SMTP sessions were opened so far and how many
// are still open.
func (s *Sink) Sessions() (opened, open int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.opened, len(s.open)
}

// WaitOpen waits until at most n sessions are open, or the bounded wait
// ends.
func (s *Sink) WaitOpen(t testing.TB, n int, within time.Duration) {
	t.Helper()
	deadline := time.After(within)
	for {
		s.mu.Lock()
		got, ch := len(s.open), s.changed
		s.mu.Unlock()
		if got <= n {
			return
		}
		select {
		case <-ch:
		case <-deadline:
			t.Fatalf("the SMTP sink has %d sessions open, want at most %d", got, n)
		}
	}
}

// DropSessions cuts the connection of every open session, as a server
// does at its idle timeout or when it restarts.
func (s *Sink) DropSessions() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.open {
		c.Conn().Close()
	}
}

func (s *Sink) changedLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

var msgIDRE = regexp.MustCompile(`(?im)^Message-Id:\s*<([^>]+)>`)

type sinkSession struct {
	s    *Sink
	tls  bool
	auth string
	from string
	to   []string
}

func (ss *sinkSession) AuthMechanisms() []string { return []string{sasl.Plain, sasl.Login} }

func (ss *sinkSession) Auth(mech string) (sasl.Server, error) {
	check := func(username, password string) error {
		if password != SinkPassword {
			return smtp.ErrAuthFailed
		}
		ss.auth = mech
		return nil
	}
	switch mech {
	case sasl.Plain:
		return sasl.NewPlainServer(func(identity, username, password string) error { return check(username, password) }), nil
	case sasl.Login:
		return &loginServer{check: check}, nil
	}
	return nil, smtp.ErrAuthUnknownMechanism
}

// loginServer is the server side of SASL LOGIN, which go-sasl lacks: the
// user name (as the initial response or after a "Username:" challenge),
// then the password after "Password:".
type loginServer struct {
	check    func(username, password string) error
	user     []byte
	haveUser bool
	done     bool
}

func (l *loginServer) Next(response []byte) ([]byte, bool, error) {
	switch {
	case l.done:
		return nil, false, errors.New("sasl login: the exchange is over")
	case !l.haveUser && response == nil:
		return []byte("Username:"), false, nil
	case !l.haveUser:
		l.user, l.haveUser = response, true
		return []byte("Password:"), false, nil
	}
	l.done = true
	return nil, true, l.check(string(l.user), string(response))
}

func (ss *sinkSession) Mail(from string, _ *smtp.MailOptions) error { ss.from = from; return nil }
func (ss *sinkSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	ss.to = append(ss.to, to)
	return nil
}

func (ss *sinkSession) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s := ss.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.refuse) > 0 {
		e := s.refuse[0]
		s.refuse = s.refuse[1:]
		return e
	}
	id := ""
	if m := msgIDRE.FindSubmatch(raw); m != nil {
		id = string(m[1])
	}
	s.mails = append(s.mails, Received{From: ss.from, To: append([]string(nil), ss.to...), Raw: bytes.Clone(raw), MessageID: id, Auth: ss.auth, TLS: ss.tls})
	s.changedLocked()
	return nil
}

func (ss *sinkSession) Reset() { ss.from, ss.to = "", nil }

func (ss *sinkSession) Logout() error {
	s := ss.s
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.open, ss)
	s.changedLocked()
	return nil
}
