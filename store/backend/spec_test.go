package backend

import (
	"crypto/tls"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSpecKinds(t *testing.T) {
	for _, c := range []struct {
		where string
		kind  Kind
		path  string
	}{
		{"data", KindBolt, "data/umpire.db"},
		{"bolt:/srv/umpire", KindBolt, "/srv/umpire/umpire.db"},
		{"./a:b", KindBolt, "a:b/umpire.db"},
		{"postgres://umpire@db.example.org/umpire", KindPostgres, ""},
		{"PostgreSQL://umpire@db.example.org/umpire", KindPostgres, ""},
	} {
		s := Spec{Where: c.where}
		if s.Kind() != c.kind {
			t.Errorf("%s: kind %s, want %s", c.where, s.Kind(), c.kind)
		}
		if c.path != "" && s.Path() != c.path {
			t.Errorf("%s: path %s, want %s", c.where, s.Path(), c.path)
		}
	}
}

// resolved is the URL and TLS configuration s resolves to, or the error.
func resolved(t *testing.T, s Spec) (url.Values, *tls.Config, error) {
	t.Helper()
	u, tc, err := s.resolve(true)
	if err != nil {
		return nil, nil, err
	}
	pu, perr := url.Parse(u)
	if perr != nil {
		t.Fatalf("resolve gave %q: %v", u, perr)
	}
	return pu.Query(), tc, nil
}

// TestTLSModes: verify-full off loopback by default, disable on loopback
// or a socket, the URL's sslmode honoured, the modes mapped to TLS
// configurations as libpq's sslmode does.
func TestTLSModes(t *testing.T) {
	for _, c := range []struct {
		spec Spec
		mode string
	}{
		{Spec{Where: "postgres://u@db.example.org/umpire"}, TLSVerifyFull},
		{Spec{Where: "postgres://u@127.0.0.1:5432/umpire"}, TLSDisable},
		{Spec{Where: "postgres://u@localhost/umpire"}, TLSDisable},
		{Spec{Where: "postgres://u@[::1]:5432/umpire"}, TLSDisable},
		{Spec{Where: "postgres:///umpire?host=/var/run/postgresql"}, TLSDisable},
		{Spec{Where: "postgres://u@127.0.0.1/umpire", TLS: TLSRequire}, TLSRequire},
		{Spec{Where: "postgres://u@db.example.org/umpire?sslmode=require"}, TLSRequire},
		{Spec{Where: "postgres://u@db.example.org/umpire", TLS: TLSVerifyCA}, TLSVerifyCA},
		{Spec{Where: "postgres://u@db1.example.org,127.0.0.1/umpire"}, TLSVerifyFull},
	} {
		q, tc, err := resolved(t, c.spec)
		if err != nil {
			t.Errorf("%s tls %q: %v", c.spec.Where, c.spec.TLS, err)
			continue
		}
		if q.Get("sslmode") != c.mode {
			t.Errorf("%s tls %q: sslmode %q, want %q", c.spec.Where, c.spec.TLS, q.Get("sslmode"), c.mode)
		}
		switch c.mode {
		case TLSDisable:
			if tc != nil {
				t.Errorf("%s: a TLS configuration for disable", c.spec.Where)
			}
		case TLSRequire:
			if tc == nil || !tc.InsecureSkipVerify || tc.VerifyConnection != nil {
				t.Errorf("%s: require gave %+v", c.spec.Where, tc)
			}
		case TLSVerifyCA:
			if tc == nil || tc.VerifyConnection == nil {
				t.Errorf("%s: verify-ca checks no chain", c.spec.Where)
			}
		case TLSVerifyFull:
			if tc == nil || tc.InsecureSkipVerify || tc.ServerName == "" {
				t.Errorf("%s: verify-full gave %+v", c.spec.Where, tc)
			}
		}
	}
}

func TestSpecRefused(t *testing.T) {
	dir := t.TempDir()
	notPEM := filepath.Join(dir, "ca.pem")
	os.WriteFile(notPEM, []byte("not a certificate"), 0o600)
	for _, c := range []struct {
		spec        Spec
		field, want string
	}{
		{Spec{}, "url", "the store is empty"},
		{Spec{Where: "bolt:"}, "url", "the store is empty"},
		{Spec{Where: "mysql://u@h/db"}, "url", "not a store umpire knows"},
		{Spec{Where: "postgres://u:hunter2@db.example.org/umpire"}, "url", "holds a password"},
		{Spec{Where: "postgres://u@db.example.org/umpire?password=hunter2"}, "url", "holds a password"},
		{Spec{Where: "postgres://u@db.example.org/umpire", TLS: TLSDisable}, "tls", "allowed only to a loopback host"},
		{Spec{Where: "postgres://u@db.example.org/umpire?sslmode=prefer"}, "tls", "may fall back to plain text"},
		{Spec{Where: "postgres://u@db.example.org/umpire", TLS: "on"}, "tls", `"on" is not one of`},
		{Spec{Where: "postgres://u@db.example.org/umpire?sslmode=require", TLS: TLSVerifyFull}, "tls", "give one of them"},
		{Spec{Where: "postgres://u@db.example.org/umpire", TLS: TLSRequire, CAFile: notPEM}, "ca_file", "would be ignored"},
		{Spec{Where: "postgres://u@127.0.0.1/umpire", CAFile: notPEM}, "ca_file", "has no certificate to check"},
		{Spec{Where: "postgres://u@db.example.org/umpire", CAFile: notPEM}, "ca_file", "holds no PEM certificate"},
		{Spec{Where: "postgres://u@db.example.org/umpire", CAFile: filepath.Join(dir, "none.pem")}, "ca_file", "no such file"},
		{Spec{Where: "bolt:data", Password: "x"}, "url", "a bbolt file"},
	} {
		_, _, err := resolved(t, c.spec)
		var se *SpecError
		if !errors.As(err, &se) || se.Field != c.field || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want a SpecError on %s saying %q", c.spec, err, c.field, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "hunter2") {
			t.Errorf("the error shows the password: %v", err)
		}
	}
}

func TestSpecStringHidesPassword(t *testing.T) {
	s := Spec{Where: "postgres://u:hunter2@db.example.org/umpire", Password: "also-secret"}
	if str := s.String(); strings.Contains(str, "hunter2") || strings.Contains(str, "also-secret") || !strings.Contains(str, "db.example.org") {
		t.Errorf("String() = %s", str)
	}
	if s := Bolt("data").String(); s != filepath.Join("data", DataFile) {
		t.Errorf("Bolt(data).String() = %s", s)
	}
}
