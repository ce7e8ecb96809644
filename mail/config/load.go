package config

import (
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
	"github.com/umpire-pbem/umpire/mail/address"
	"github.com/umpire-pbem/umpire/mail/extract"
)

// Defaults.
const (
	DefaultData = "umpire-data"
	DefaultPoll = Duration(time.Minute)
	// DefaultSecretGuesses and DefaultSecretWindow: 5 wrong secrets within
	// an hour pause guessing for an hour (mail/referee's throttle).
	DefaultSecretGuesses = 5
	DefaultSecretWindow  = Duration(time.Hour)
	// DefaultKeepSent is how long a sent mail's text is kept.
	DefaultKeepSent = Duration(30 * 24 * time.Hour)
	// DefaultLeaseTTL is the term of a daemon's leases on a shared store.
	DefaultLeaseTTL     = Duration(15 * time.Second)
	DefaultMessageLimit = Size(extract.DefaultMaxMessage) // 10 MiB
	DefaultOrdersLimit  = Size(extract.DefaultMaxBytes)   // 256 KiB, also the command line's limit
	DefaultName         = "Umpire"
)

// The most read of each file: a read above the limit fails, naming the
// file and the limit, whatever the file is (a device or a FIFO too).
const (
	MaxConfigBytes = yamlx.MaxBytes // umpire.yaml: what the YAML parser accepts
	MaxSecretBytes = 64 << 10       // a password_file or secret_file
	MaxCABytes     = 1 << 20        // a ca_file of PEM certificates
)

// Load reads and checks the configuration file at path.
func Load(path string) (*Config, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	defer f.Close()
	src, err := yamlx.ReadAll(f, MaxConfigBytes, "", "configuration files")
	if err != nil {
		return nil, &Error{File: path, Msg: err.Error()}
	}
	return Parse(path, src)
}

// readFile reads a file that the configuration names, up to max bytes.
func (v *validator) readFile(file string, max int64, what string) ([]byte, error) {
	f, err := os.Open(v.path(file))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return yamlx.ReadAll(f, max, file, what)
}

// Parse reads and checks a configuration text; file names it in errors and
// relative paths in it are taken from the file's directory.
func Parse(file string, src []byte) (*Config, error) {
	root, err := yamlx.Parse(src)
	if err != nil {
		return nil, positioned(file, err)
	}
	var c Config
	if err := yamlx.Decode(root, &c); err != nil {
		return nil, positioned(file, err)
	}
	c.File = file
	v := &validator{file: file, root: root, dir: filepath.Dir(file)}
	v.check(&c)
	if v.err != nil {
		return nil, v.err
	}
	return &c, nil
}

func positioned(file string, err error) error {
	var ye *yamlx.Error
	if errors.As(err, &ye) {
		return &Error{File: file, Line: ye.Line, Column: ye.Column, Msg: ye.Msg}
	}
	return &Error{File: file, Msg: err.Error()}
}

type validator struct {
	file string
	root *yaml.Node
	dir  string
	err  error
}

// node returns the node of the value at path (or of the deepest key found).
func (v *validator) node(path ...string) *yaml.Node {
	n := v.root
	for _, k := range path {
		if n == nil || n.Kind != yaml.MappingNode {
			return n
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == k {
				next = n.Content[i+1]
			}
		}
		if next == nil {
			return n
		}
		n = next
	}
	return n
}

func (v *validator) fail(path string, format string, args ...any) {
	if v.err != nil {
		return
	}
	e := &Error{File: v.file, Msg: fmt.Sprintf(format, args...)}
	if n := v.node(strings.Split(path, ".")...); n != nil {
		e.Line, e.Column = n.Line, n.Column
	}
	v.err = e
}

func (v *validator) check(c *Config) {
	if c.Data == "" {
		c.Data = DefaultData
	}
	c.Data = v.path(c.Data)
	v.store(&c.Store)
	if c.Templates != "" {
		c.Templates = v.path(c.Templates)
		if st, err := os.Stat(c.Templates); err != nil || !st.IsDir() {
			v.fail("templates", "templates: %s is not a directory", c.Templates)
		}
	}
	v.server("imap", &c.IMAP.Server, 993, 143)
	v.server("smtp", &c.SMTP.Server, 465, 587)
	if c.IMAP.User == "" {
		v.fail("imap", "imap: give the user name of the referee's mailbox (user: ...)")
	}
	if !c.IMAP.Password.IsSet() {
		v.fail("imap", "imap: give the password (password:, password_file: or password_env:)")
	}
	f := &c.IMAP.Folders
	if f.Inbox == "" {
		f.Inbox = "INBOX"
	}
	if f.Processed == "" {
		f.Processed = "umpire-processed"
	}
	if f.Rejected == "" {
		f.Rejected = "umpire-rejected"
	}
	if f.Processed == f.Inbox || f.Rejected == f.Inbox || f.Processed == f.Rejected {
		v.fail("imap.folders", "imap.folders: inbox, processed and rejected must be three different folders")
	}
	if c.IMAP.Poll == 0 {
		c.IMAP.Poll = DefaultPoll
	}
	if c.IMAP.Poll < Duration(time.Second) {
		v.fail("imap.poll", "imap.poll: poll at most once a second (e.g. poll: 30s)")
	}
	switch c.SMTP.Auth {
	case "":
		c.SMTP.Auth = AuthPlain
		if c.SMTP.User == "" {
			c.SMTP.Auth = AuthNone
		}
	case AuthPlain, AuthLogin, AuthNone:
	default:
		v.fail("smtp.auth", "smtp.auth: %q is not one of plain, login, none", c.SMTP.Auth)
	}
	if c.SMTP.Auth != AuthNone && (c.SMTP.User == "" || !c.SMTP.Password.IsSet()) {
		v.fail("smtp", "smtp: auth %s needs a user and a password (or set auth: none)", c.SMTP.Auth)
	}
	if c.From.Address == "" {
		v.fail("from.address", "from.address: give the address mail is sent from, e.g. referee@example.org")
	} else if err := address.Check(c.From.Address); err != nil {
		v.fail("from.address", "from.address: %v", err)
	}
	if c.From.Name == "" {
		c.From.Name = DefaultName
	}
	if c.Referee.Address != "" {
		if err := address.Check(c.Referee.Address); err != nil {
			v.fail("referee.address", "referee.address: %v", err)
		}
	}
	sec, ok := v.secret("referee", c.Referee.SecretInline, c.Referee.SecretFile, c.Referee.SecretEnv, "secret")
	if ok {
		c.Referee.Secret.Set(sec)
	}
	if c.Limits.Message == 0 {
		c.Limits.Message = DefaultMessageLimit
	}
	if c.Limits.Orders == 0 {
		c.Limits.Orders = DefaultOrdersLimit
	}
	if c.Limits.Orders > c.Limits.Message {
		v.fail("limits.orders", "limits.orders is larger than limits.message")
	}
	if c.Limits.SecretGuesses == 0 {
		c.Limits.SecretGuesses = DefaultSecretGuesses
	}
	if c.Limits.SecretGuesses < 1 || c.Limits.SecretGuesses > 1000 {
		v.fail("limits.secret_guesses", "limits.secret_guesses: give a number from 1 to 1000 (default %d)", DefaultSecretGuesses)
	}
	if c.Limits.SecretWindow == 0 {
		c.Limits.SecretWindow = DefaultSecretWindow
	}
	if c.Limits.SecretWindow < Duration(time.Minute) || c.Limits.SecretWindow > Duration(30*24*time.Hour) {
		v.fail("limits.secret_window", "limits.secret_window: give a duration from 1m to 720h (default 1h)")
	}
	if c.IMAP.Workers < 0 || c.IMAP.Workers > 64 {
		v.fail("imap.workers", "imap.workers: give a number from 1 to 64, or leave it out for the number of processors")
	}
	if c.Outbox.KeepSent == 0 {
		c.Outbox.KeepSent = DefaultKeepSent
	}
	if c.Outbox.KeepSent < Duration(24*time.Hour) {
		v.fail("outbox.keep_sent", "outbox.keep_sent: give a duration of at least 24h (default 720h, 30 days); to keep every sent mail, say keep_all: true")
	}
	if c.LeaseTTL == 0 {
		c.LeaseTTL = DefaultLeaseTTL
	}
	if c.LeaseTTL < Duration(3*time.Second) || c.LeaseTTL > Duration(10*time.Minute) {
		v.fail("lease_ttl", "lease_ttl: give a duration from 3s to 10m (default 15s): a standby takes over about a term after the active daemon died")
	}
	switch c.Log {
	case "", "debug", "info", "warn", "error":
	default:
		v.fail("log", "log: %q is not one of debug, info, warn, error", c.Log)
	}
}

func (v *validator) server(key string, s *Server, implicitPort, starttlsPort int) {
	if s.Host == "" {
		v.fail(key, "%s: give the server's host name (host: ...)", key)
		return
	}
	switch s.TLS {
	case "":
		s.TLS = TLSImplicit
	case TLSImplicit, TLSStartTLS:
	case TLSPlain:
		if !IsLoopback(s.Host) {
			v.fail(key+".tls", "%s.tls: plain (unencrypted) connections are allowed only to a loopback address, not %s: use implicit or starttls", key, s.Host)
		}
	default:
		v.fail(key+".tls", "%s.tls: %q is not one of implicit, starttls, plain", key, s.TLS)
	}
	if s.CAFile != "" {
		switch {
		case s.TLS == TLSPlain:
			v.fail(key+".ca_file", "%s.ca_file: a plain connection has no certificate to check: use implicit or starttls, or drop ca_file", key)
		case s.InsecureSkipVerify:
			v.fail(key+".ca_file", "%s.ca_file: insecure_skip_verify accepts any certificate, so ca_file would be ignored: give one or the other", key)
		default:
			s.Roots = v.certPool(key+".ca_file", s.CAFile)
		}
	}
	if s.Port == 0 {
		s.Port = implicitPort
		if s.TLS != TLSImplicit {
			s.Port = starttlsPort
		}
	}
	if s.Port < 1 || s.Port > 65535 {
		v.fail(key+".port", "%s.port: %d is not a TCP port", key, s.Port)
	}
	if val, ok := v.secret(key, s.Password.Inline, s.Password.File, s.Password.Env, "password"); ok {
		s.Password.Set(val)
	}
}

// certPool reads a PEM file of certificates to trust.
func (v *validator) certPool(key, file string) *x509.CertPool {
	b, err := v.readFile(file, MaxCABytes, "CA files")
	if err != nil {
		v.fail(key, "%s: %v", key, err)
		return nil
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(b) {
		v.fail(key, "%s: %s holds no PEM certificate (-----BEGIN CERTIFICATE-----)", key, file)
		return nil
	}
	return pool
}

// secret resolves one of an inline value, a file and an environment variable.
func (v *validator) secret(key, inline, file, env, word string) (string, bool) {
	n := 0
	for _, x := range []string{inline, file, env} {
		if x != "" {
			n++
		}
	}
	switch {
	case n == 0:
		return "", false
	case n > 1:
		v.fail(key, "%s: give only one of %s, %s_file and %s_env", key, word, word, word)
		return "", false
	case inline != "":
		return inline, true
	case file != "":
		b, err := v.readFile(file, MaxSecretBytes, word+" files")
		if err != nil {
			v.fail(key+"."+word+"_file", "%s.%s_file: %v", key, word, err)
			return "", false
		}
		s := strings.TrimRight(string(b), "\r\n")
		if s == "" {
			v.fail(key+"."+word+"_file", "%s.%s_file: %s is empty", key, word, file)
		}
		return s, s != ""
	default:
		s, ok := os.LookupEnv(env)
		if !ok || s == "" {
			v.fail(key+"."+word+"_env", "%s.%s_env: the environment variable %s is not set", key, word, env)
			return "", false
		}
		return s, true
	}
}

func (v *validator) path(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(v.dir, p)
}

// IsLoopback reports whether host is a loopback name or address.
func IsLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// UnmarshalYAML reads "30s", "5m", "1h30m".
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	t, err := time.ParseDuration(n.Value)
	if n.Kind != yaml.ScalarNode || err != nil || t < 0 {
		return &yamlx.Error{Line: n.Line, Column: n.Column, Code: yamlx.CodeType,
			Msg: fmt.Sprintf("%q is not a duration: write e.g. 30s, 5m or 1h", n.Value)}
	}
	*d = Duration(t)
	return nil
}

var sizeRE = regexp.MustCompile(`^(\d+)\s*(B|KiB|MiB|GiB|KB|MB|GB)?$`)

// UnmarshalYAML reads 1048576, "512KiB", "10MiB".
func (s *Size) UnmarshalYAML(n *yaml.Node) error {
	m := sizeRE.FindStringSubmatch(strings.TrimSpace(n.Value))
	bad := &yamlx.Error{Line: n.Line, Column: n.Column, Code: yamlx.CodeType,
		Msg: fmt.Sprintf("%q is not a size: write e.g. 262144, 256KiB or 10MiB", n.Value)}
	if n.Kind != yaml.ScalarNode || m == nil {
		return bad
	}
	x, err := strconv.ParseInt(m[1], 10, 64)
	if err != nil {
		return bad
	}
	mult := map[string]int64{"": 1, "B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "KB": 1000, "MB": 1000 * 1000, "GB": 1000 * 1000 * 1000}[m[2]]
	if x > (1<<40)/mult {
		return bad
	}
	*s = Size(x * mult)
	return nil
}

// D returns the duration.
func (d Duration) D() time.Duration { return time.Duration(d) }
