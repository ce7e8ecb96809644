package intake

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/emersion/go-imap/v2"

	"github.com/umpire-pbem/umpire/mail/config"
	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/store"
)

// tlsIntake reads an umpire.yaml whose imap section points at srv through
// the real parser (so ca_file is read as a referee's would be). extra is
// added to the imap section as it is.
func tlsIntake(t *testing.T, srv *mailtest.IMAP, mode, password, extra string, r *recorder) *Intake {
	t.Helper()
	host, port, err := net.SplitHostPort(srv.Addr)
	if err != nil {
		t.Fatal(err)
	}
	src := fmt.Sprintf(`imap:
  host: %s
  port: %s
  tls: %s
  user: %s
  password: %s
%ssmtp: {host: 127.0.0.1, tls: plain}
from: {address: umpire@example.org}
`, host, port, mode, srv.User, password, extra)
	file := filepath.Join(t.TempDir(), "umpire.yaml")
	if err := os.WriteFile(file, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := config.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	in := newIntake(t, srv, store.NewMemory(), r)
	in.IMAP = c.IMAP
	return in
}

func caFile(ca *mailtest.CA) string { return "  ca_file: " + ca.File + "\n" }

// TestTLS reads mail over implicit TLS and over STARTTLS, trusting the
// test's CA through ca_file. The server refuses to log in before TLS, so a
// success means the password went encrypted.
func TestTLS(t *testing.T) {
	ca := mailtest.NewCA(t)
	for _, mode := range []string{config.TLSImplicit, config.TLSStartTLS} {
		t.Run(mode, func(t *testing.T) {
			srv := mailtest.StartIMAPTLS(t, ca.TLS(t, mode, "127.0.0.1"))
			srv.Deliver(testMail(1, false), testMail(2, true))
			r := &recorder{}
			conn := dial(t, tlsIntake(t, srv, mode, srv.Password, caFile(ca), r))
			if got, err := conn.Cycle(context.Background()); err != nil || got != (Stats{Fetched: 2, Processed: 1, Rejected: 1}) {
				t.Fatalf("cycle: %+v %v", got, err)
			}
			if !slices.Equal(r.got(), []int{1, 2}) || len(srv.Folder("INBOX")) != 0 {
				t.Errorf("handled %v, inbox %+v", r.got(), srv.Folder("INBOX"))
			}
		})
	}
}

func TestWrongPassword(t *testing.T) {
	ca := mailtest.NewCA(t)
	srv := mailtest.StartIMAPTLS(t, ca.TLS(t, config.TLSStartTLS, "127.0.0.1"))
	in := tlsIntake(t, srv, config.TLSStartTLS, "not-the-password", caFile(ca), &recorder{})
	conn, err := in.Dial(context.Background())
	if err == nil {
		conn.Close()
		t.Fatal("logged in with a wrong password")
	}
	var ie *imap.Error
	if !errors.As(err, &ie) || ie.Type != imap.StatusResponseTypeNo || ie.Code != imap.ResponseCodeAuthenticationFailed {
		t.Errorf("want NO [AUTHENTICATIONFAILED], got %T %v", err, err)
	}
	if want := "imap: logging in to " + srv.Addr + " as umpire: "; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %q, want %q…", err, want)
	}
}

// TestCertificateChecks: a certificate for another host, or from a CA not
// trusted, is refused before logging in; skipping verification accepts it.
func TestCertificateChecks(t *testing.T) {
	ca := mailtest.NewCA(t)
	other := mailtest.NewCA(t)
	cases := []struct {
		name, mode, host, extra string
		check                   func(error) bool
	}{
		{"wrong host implicit", config.TLSImplicit, "mail.example.org", caFile(ca), isHostnameError},
		{"wrong host starttls", config.TLSStartTLS, "mail.example.org", caFile(ca), isHostnameError},
		{"unknown CA starttls", config.TLSStartTLS, "127.0.0.1", caFile(other), isUnknownAuthority},
		{"system roots implicit", config.TLSImplicit, "127.0.0.1", "", isUnknownAuthority},
		{"skip verify", config.TLSStartTLS, "mail.example.org", "  insecure_skip_verify: true\n", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := mailtest.StartIMAPTLS(t, ca.TLS(t, c.mode, c.host))
			in := tlsIntake(t, srv, c.mode, srv.Password, c.extra, &recorder{})
			conn, err := in.Dial(context.Background())
			if c.check == nil {
				if err != nil {
					t.Fatal(err)
				}
				conn.Close()
				return
			}
			if err == nil {
				conn.Close()
				t.Fatal("the certificate was accepted")
			}
			if !c.check(err) {
				t.Errorf("got %v", err)
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

// TestStartTLSNotOffered: a server without STARTTLS is not logged in to in
// clear when starttls is configured.
func TestStartTLSNotOffered(t *testing.T) {
	srv := mailtest.StartIMAP(t) // plain, LOGIN allowed in clear
	in := newIntake(t, srv, store.NewMemory(), &recorder{})
	in.IMAP.TLS = config.TLSStartTLS
	conn, err := in.Dial(context.Background())
	if err == nil {
		conn.Close()
		t.Fatal("logged in without TLS")
	}
	if !strings.Contains(err.Error(), "STARTTLS") {
		t.Errorf("error %v", err)
	}
}
