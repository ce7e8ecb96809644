// Package backend opens the store a spec names: a bbolt file in a data
// directory ("bolt:DIR", or a plain directory) or a PostgreSQL database
// ("postgres://…"), and copies a whole data set from one store into
// another, verified (Copy).
//
// It is what the command line and the daemon share, so that every part of
// umpire reads a spec the same way. It must never print or log a password:
// a spec's String is redacted, a password inside a URL is refused (it
// would end up in logs and in ps), and TLS to a PostgreSQL server that is
// not on this machine is verified unless the configuration says otherwise.
// Like package store, it knows nothing of games.
package backend

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Kind is the kind of store a spec names.
type Kind string

const (
	KindBolt     Kind = "bolt"     // a bbolt file, DIR/umpire.db
	KindPostgres Kind = "postgres" // a PostgreSQL database
)

// TLS modes for PostgreSQL, as libpq's sslmode names them. allow and
// prefer are not offered: both fall back to plain text.
const (
	TLSDisable    = "disable"     // no encryption: allowed to a loopback host or a local socket only
	TLSRequire    = "require"     // encrypted; the server's certificate is not checked
	TLSVerifyCA   = "verify-ca"   // encrypted; the certificate is signed by a trusted CA, any name
	TLSVerifyFull = "verify-full" // encrypted; trusted CA and the host's name (default off loopback)
)

// DataFile is the name of the bbolt file in a data directory.
const DataFile = "umpire.db"

// MaxCABytes is the most read of a CA file.
const MaxCABytes = 1 << 20

// Spec is a choice of store: where it is, and for PostgreSQL how to
// authenticate and encrypt. The zero TLS is the default: verify-full, or
// disable for a loopback host or a local socket (or the URL's sslmode).
type Spec struct {
	// Where is "bolt:DIR", a directory (the bbolt file DIR/umpire.db), or
	// a postgres:// or postgresql:// URL without a password.
	Where    string
	Password string // PostgreSQL's, from a file or the environment; never printed
	TLS      string // one of the TLS modes, or "" for the default
	CAFile   string // PEM certificates to trust instead of the system's (verify-ca, verify-full)
	// Roots are the certificates of CAFile when the caller read them
	// already (the configuration does, to report a bad file at its line).
	Roots *x509.CertPool
}

// SpecError is a spec that cannot be used. Field is the part it is about
// ("url", "tls", "ca_file"), for a configuration file to point at.
type SpecError struct {
	Field string
	Msg   string
}

func (e *SpecError) Error() string { return e.Msg }

func specErr(field, format string, args ...any) error {
	return &SpecError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

var schemeRE = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*://`)

// Bolt returns the spec of the bbolt file in data directory dir.
func Bolt(dir string) Spec { return Spec{Where: "bolt:" + dir} }

// Kind says which kind of store s names; Check says whether it is usable.
func (s Spec) Kind() Kind {
	w := strings.ToLower(s.Where)
	if strings.HasPrefix(w, "postgres://") || strings.HasPrefix(w, "postgresql://") {
		return KindPostgres
	}
	return KindBolt
}

// Dir returns the data directory of a bbolt spec.
func (s Spec) Dir() string { return strings.TrimPrefix(s.Where, "bolt:") }

// Path returns the bbolt file of a bbolt spec.
func (s Spec) Path() string { return filepath.Join(s.Dir(), DataFile) }

// String names the store for messages and logs, never with a password.
func (s Spec) String() string {
	if s.Kind() == KindBolt {
		return s.Path()
	}
	u, err := url.Parse(s.Where)
	if err != nil {
		return "(a PostgreSQL URL that does not parse)"
	}
	return u.Redacted()
}

// Check returns a *SpecError if s cannot be used: an empty spec, a URL of
// another kind of database, a URL that does not parse or holds a
// password, an unknown TLS mode, plain text to a remote host, or a CA
// file where no certificate is checked. It reads no file.
func (s Spec) Check() error {
	_, _, err := s.resolve(false)
	return err
}

// resolve checks s and, for PostgreSQL, returns the URL to hand to the
// driver (its sslmode set to the mode chosen) and the TLS configuration
// (nil for disable). With roots it reads CAFile if Roots is nil.
func (s Spec) resolve(readCA bool) (string, *tls.Config, error) {
	if strings.TrimSpace(s.Where) == "" || s.Where == "bolt:" {
		return "", nil, specErr("url", "the store is empty: give a data directory, bolt:DIR, or a postgres:// URL")
	}
	if s.Kind() == KindBolt {
		if schemeRE.MatchString(s.Where) {
			shown := "(a URL that does not parse)"
			if u, err := url.Parse(s.Where); err == nil {
				shown = u.Redacted()
			}
			return "", nil, specErr("url", "%q is not a store umpire knows: give a data directory, bolt:DIR, or a postgres://USER@HOST/DATABASE URL", shown)
		}
		if s.Password != "" || s.TLS != "" || s.CAFile != "" || s.Roots != nil {
			return "", nil, specErr("url", "a password, tls and ca_file are for PostgreSQL; a bbolt file (%s) takes none", s.Path())
		}
		return "", nil, nil
	}
	u, err := url.Parse(s.Where)
	if err != nil {
		return "", nil, specErr("url", "the PostgreSQL URL does not parse: write postgres://USER@HOST[:PORT]/DATABASE")
	}
	if _, ok := u.User.Password(); ok {
		return "", nil, specErr("url", "the PostgreSQL URL holds a password, which would end up in logs and in ps: take it out of the URL and give it with password_file: or password_env: (on the command line, --store-password-file)")
	}
	q := u.Query()
	if q.Has("password") {
		return "", nil, specErr("url", "the PostgreSQL URL holds a password (password=), which would end up in logs and in ps: give it with password_file: or password_env: (on the command line, --store-password-file)")
	}
	mode := s.TLS
	if sm := q.Get("sslmode"); sm != "" {
		if mode != "" && mode != sm {
			return "", nil, specErr("tls", "tls: %s, but the URL says sslmode=%s: give one of them", mode, sm)
		}
		mode = sm
	}
	local := localHost(u)
	if mode == "" {
		mode = TLSVerifyFull
		if local {
			mode = TLSDisable
		}
	}
	caFile := s.CAFile
	if rc := q.Get("sslrootcert"); rc != "" {
		if caFile != "" && caFile != rc {
			return "", nil, specErr("ca_file", "ca_file: %s, but the URL says sslrootcert=%s: give one of them", caFile, rc)
		}
		caFile = rc
	}
	hasCA := caFile != "" || s.Roots != nil
	switch mode {
	case TLSDisable:
		if !local {
			return "", nil, specErr("tls", "tls: disable (plain text) is allowed only to a loopback host or a local socket, not %s: use verify-full (the default), verify-ca or require", u.Hostname())
		}
		if hasCA {
			return "", nil, specErr("ca_file", "ca_file: a plain connection (tls: disable) has no certificate to check: use verify-full or verify-ca, or drop ca_file")
		}
	case TLSRequire:
		if hasCA {
			return "", nil, specErr("ca_file", "ca_file: tls: require does not check the certificate, so ca_file would be ignored: use verify-full or verify-ca")
		}
	case TLSVerifyCA, TLSVerifyFull:
	case "allow", "prefer":
		return "", nil, specErr("tls", "tls: %s may fall back to plain text: use verify-full, verify-ca or require (or disable on loopback)", mode)
	default:
		return "", nil, specErr("tls", "tls: %q is not one of disable, require, verify-ca, verify-full", mode)
	}
	q.Set("sslmode", mode)
	q.Del("sslrootcert")
	u.RawQuery = q.Encode()
	if !readCA || mode == TLSDisable {
		return u.String(), nil, nil
	}
	roots := s.Roots
	if roots == nil && caFile != "" {
		if roots, err = ReadCA(caFile); err != nil {
			return "", nil, specErr("ca_file", "ca_file: %v", err)
		}
	}
	return u.String(), tlsConfig(mode, u.Hostname(), roots), nil
}

// localHost reports whether every host of u is a loopback name or address
// or a Unix socket directory (none at all is libpq's local socket).
func localHost(u *url.URL) bool {
	hosts := strings.Split(u.Host, ",")
	if h := u.Query().Get("host"); h != "" {
		hosts = strings.Split(h, ",")
	}
	for _, h := range hosts {
		if h == "" || strings.HasPrefix(h, "/") {
			continue
		}
		if hh, _, err := net.SplitHostPort(h); err == nil {
			h = hh
		}
		h = strings.Trim(h, "[]")
		if strings.EqualFold(h, "localhost") {
			continue
		}
		if ip := net.ParseIP(h); ip == nil || !ip.IsLoopback() {
			return false
		}
	}
	return true
}

// tlsConfig is the client side of mode: require checks nothing, verify-ca
// the chain to roots (the system's when nil), verify-full the host's name
// as well.
func tlsConfig(mode, host string, roots *x509.CertPool) *tls.Config {
	switch mode {
	case TLSRequire:
		return &tls.Config{InsecureSkipVerify: true}
	case TLSVerifyCA:
		return &tls.Config{
			InsecureSkipVerify: true, // the chain is checked below, without the name
			VerifyConnection: func(cs tls.ConnectionState) error {
				if len(cs.PeerCertificates) == 0 {
					return errors.New("the server sent no certificate")
				}
				inter := x509.NewCertPool()
				for _, c := range cs.PeerCertificates[1:] {
					inter.AddCert(c)
				}
				_, err := cs.PeerCertificates[0].Verify(x509.VerifyOptions{Roots: roots, Intermediates: inter})
				return err
			},
		}
	}
	return &tls.Config{ServerName: host, RootCAs: roots}
}

// ReadCA reads a PEM file of certificates to trust, up to MaxCABytes.
func ReadCA(file string) (*x509.CertPool, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxCABytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if len(b) > MaxCABytes {
		return nil, fmt.Errorf("%s is larger than %d bytes, the most read of a CA file", file, MaxCABytes)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(b) {
		return nil, fmt.Errorf("%s holds no PEM certificate (-----BEGIN CERTIFICATE-----)", file)
	}
	return pool, nil
}
