package send

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emersion/go-smtp"

	"github.com/umpire-pbem/umpire/mail/config"
	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/store"
)

// tlsConfig reads an umpire.yaml whose smtp section points at addr, through
// the real parser (so ca_file is read as a referee's would be), and returns
// the SMTP part. extra is added to the smtp section as it is.
func tlsConfig(t *testing.T, addr, mode, auth, password, extra string) config.SMTP {
	t.Helper()
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatal(err)
	}
	src := fmt.Sprintf(`imap: {host: 127.0.0.1, tls: plain, user: u, password: p}
smtp:
  host: %s
  port: %s
  tls: %s
  auth: %s
  user: umpire
  password: %s
%sfrom: {address: umpire@example.org}
`, host, port, mode, auth, password, extra)
	file := filepath.Join(t.TempDir(), "umpire.yaml")
	if err := os.WriteFile(file, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := config.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	return c.SMTP
}

func caFile(ca *mailtest.CA) string { return "  ca_file: " + ca.File + "\n" }

func oneMessage(t *testing.T, st store.Store, id string) {
	t.Helper()
	m := store.Message{ID: id, From: "umpire@example.org", To: []string{"p@example.org"},
		Raw: []byte("From: umpire@example.org\r\nTo: p@example.org\r\nMessage-ID: <" + id + ">\r\nSubject: x\r\n\r\nhello\r\n")}
	if _, err := st.Append(context.Background(), store.Batch{Outbox: []store.Message{m}}); err != nil {
		t.Fatal(err)
	}
}

func messageStatus(t *testing.T, st store.Store, id string) store.Message {
	t.Helper()
	msgs, err := st.Messages(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range msgs {
		if m.ID == id {
			return m
		}
	}
	t.Fatalf("no message %s in the outbox", id)
	return store.Message{}
}

// TestTLSAndAuth sends a mail over implicit TLS and over STARTTLS, logging
// in with AUTH PLAIN and with AUTH LOGIN, trusting the test's CA through
// ca_file. The sink refuses AUTH on an unencrypted connection, so a
// success means the password went encrypted.
func TestTLSAndAuth(t *testing.T) {
	ca := mailtest.NewCA(t)
	for _, mode := range []string{config.TLSImplicit, config.TLSStartTLS} {
		for _, auth := range []string{config.AuthPlain, config.AuthLogin} {
			t.Run(mode+"/"+auth, func(t *testing.T) {
				sink := mailtest.StartSinkTLS(t, ca.TLS(t, mode, "127.0.0.1"))
				st := store.NewMemory()
				s := &Sender{SMTP: tlsConfig(t, sink.Addr, mode, auth, mailtest.SinkPassword, caFile(ca)), Store: st}
				oneMessage(t, st, "a@x")
				got, err := s.Drain(context.Background())
				if err != nil || got != (Stats{Sent: 1}) {
					t.Fatalf("drain: %+v %v (last error %q)", got, err, messageStatus(t, st, "a@x").LastError)
				}
				mails := sink.Mails()
				if len(mails) != 1 || mails[0].MessageID != "a@x" || !mails[0].TLS || mails[0].Auth != strings.ToUpper(auth) {
					t.Fatalf("the sink got %+v", mails)
				}
				if m := messageStatus(t, st, "a@x"); m.Status != store.Sent {
					t.Errorf("message: %+v", m)
				}
			})
		}
	}
}

// TestWrongPassword: the server's 535 is a permanent error that says what
// was refused; the message is not failed for it (it is not the message's
// fault) but waits, with the reason recorded, for the password to be fixed.
func TestWrongPassword(t *testing.T) {
	ca := mailtest.NewCA(t)
	for _, auth := range []string{config.AuthPlain, config.AuthLogin} {
		t.Run(auth, func(t *testing.T) {
			sink := mailtest.StartSinkTLS(t, ca.TLS(t, config.TLSStartTLS, "127.0.0.1"))
			st := store.NewMemory()
			s := &Sender{SMTP: tlsConfig(t, sink.Addr, config.TLSStartTLS, auth, "not-the-password", caFile(ca)), Store: st}
			c, err := s.dial()
			if err == nil {
				c.Close()
				t.Fatal("logged in with a wrong password")
			}
			var se *smtp.SMTPError
			if !errors.As(err, &se) || se.Code != 535 || !Permanent(err) {
				t.Fatalf("want a permanent 535, got %T %v", err, err)
			}
			want := "smtp: logging in to " + sink.Addr + " as umpire: "
			if !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "Authentication failed") {
				t.Errorf("error %q, want %q…Authentication failed", err, want)
			}
			oneMessage(t, st, "a@x")
			if got, err := s.Drain(context.Background()); err != nil || got != (Stats{Retried: 1}) {
				t.Fatalf("drain: %+v %v", got, err)
			}
			if m := messageStatus(t, st, "a@x"); m.Status != store.Pending || !strings.Contains(m.LastError, "535") {
				t.Errorf("message: %+v", m)
			}
			if n := len(sink.Mails()); n != 0 {
				t.Errorf("the sink got %d mails", n)
			}
		})
	}
}

// TestCertificateChecks: a certificate for another host, or from a CA not
// trusted, is refused (and nothing is sent, no password given); skipping
// verification accepts it.
func TestCertificateChecks(t *testing.T) {
	ca := mailtest.NewCA(t)
	other := mailtest.NewCA(t)
	cases := []struct {
		name, mode, host, extra string
		check                   func(error) bool
	}{
		{"wrong host implicit", config.TLSImplicit, "mail.example.org", caFile(ca), isHostnameError},
		{"wrong host starttls", config.TLSStartTLS, "mail.example.org", caFile(ca), isHostnameError},
		{"unknown CA implicit", config.TLSImplicit, "127.0.0.1", caFile(other), isUnknownAuthority},
		{"system roots starttls", config.TLSStartTLS, "127.0.0.1", "", isUnknownAuthority},
		{"skip verify", config.TLSImplicit, "mail.example.org", "  insecure_skip_verify: true\n", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sink := mailtest.StartSinkTLS(t, ca.TLS(t, c.mode, c.host))
			st := store.NewMemory()
			s := &Sender{SMTP: tlsConfig(t, sink.Addr, c.mode, config.AuthPlain, mailtest.SinkPassword, c.extra), Store: st}
			cl, err := s.dial()
			if c.check == nil {
				if err != nil {
					t.Fatal(err)
				}
				cl.Close()
				return
			}
			if err == nil {
				cl.Close()
				t.Fatal("the certificate was accepted")
			}
			if !c.check(err) || Permanent(err) {
				t.Fatalf("got %v", err)
			}
			oneMessage(t, st, "a@x")
			if got, err := s.Drain(context.Background()); err != nil || got != (Stats{Retried: 1}) {
				t.Fatalf("drain: %+v %v", got, err)
			}
			if n := len(sink.Mails()); n != 0 {
				t.Errorf("the sink got %d mails", n)
			}
		})
	}
}

func isHostnameError(err error) bool {
	var he x509.HostnameError
	return errors.As(err, &he)
}

func isUnknownAuthority(err error) bool {
	var ue x509.UnknownAuthorityError
	return errors.As(err, &ue)
}

// TestStartTLSNotOffered: a server that does not offer STARTTLS is not
// talked to in clear when starttls is configured.
func TestStartTLSNotOffered(t *testing.T) {
	sink := mailtest.StartSink(t) // plain, AUTH allowed in clear
	s := &Sender{SMTP: tlsConfig(t, sink.Addr, config.TLSStartTLS, config.AuthPlain, mailtest.SinkPassword, "")}
	c, err := s.dial()
	if err == nil {
		c.Close()
		t.Fatal("connected without TLS")
	}
	if !strings.Contains(err.Error(), "STARTTLS") {
		t.Errorf("error %v", err)
	}
}

// TestLoginOverPlain: AUTH LOGIN against the plain loopback sink too (the
// hub and the tests use plain).
func TestLoginOverPlain(t *testing.T) {
	sink := mailtest.StartSink(t)
	st := store.NewMemory()
	s := &Sender{SMTP: tlsConfig(t, sink.Addr, config.TLSPlain, config.AuthLogin, mailtest.SinkPassword, ""), Store: st}
	oneMessage(t, st, "a@x")
	if got, err := s.Drain(context.Background()); err != nil || got.Sent != 1 {
		t.Fatalf("drain: %+v %v (%s)", got, err, messageStatus(t, st, "a@x").LastError)
	}
	if m := sink.Mails(); len(m) != 1 || m[0].Auth != "LOGIN" || m[0].TLS {
		t.Errorf("the sink got %+v", m)
	}
}
