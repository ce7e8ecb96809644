// Package config reads umpire.yaml, the mail daemon's configuration:
// where the referee's mailbox is (IMAP), how mail goes out (SMTP), who the
// referee is, where the data lives (the data directory, or a PostgreSQL
// database: store:), and the limits on what players send.
//
// Reading is strict: an unknown key, a value of the wrong kind or a setting
// that is unsafe (a password sent in clear to a remote server) is an error
// naming the file, line and column. Passwords come inline, from a file or
// from an environment variable, and are never printed: Secret hides itself
// from fmt and log/slog. Every file is read up to a limit (MaxConfigBytes,
// MaxSecretBytes, MaxCABytes), so a device or a FIFO fails at once; the
// referee's and the daemon's addresses must each be one bare address
// (mail/address).
package config

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"time"
)

// TLS modes for IMAP and SMTP.
const (
	TLSImplicit = "implicit" // TLS from the first byte (IMAPS 993, SMTPS 465)
	TLSStartTLS = "starttls" // plain connection upgraded with STARTTLS (143, 587)
	TLSPlain    = "plain"    // no encryption: allowed on a loopback address only
)

// SMTP authentication mechanisms.
const (
	AuthPlain = "plain"
	AuthLogin = "login"
	AuthNone  = "none"
)

// Config is the whole of umpire.yaml.
type Config struct {
	Data      string  `yaml:"data"`      // the data directory (umpire.db); default ./umpire-data
	Store     Store   `yaml:"store"`     // where the games are, when not in the data directory's umpire.db
	Templates string  `yaml:"templates"` // a directory of templates overriding the built-in ones
	IMAP      IMAP    `yaml:"imap"`
	SMTP      SMTP    `yaml:"smtp"`
	From      From    `yaml:"from"`
	Referee   Referee `yaml:"referee"`
	Limits    Limits  `yaml:"limits"`
	Outbox    Outbox  `yaml:"outbox"`
	// LeaseTTL is the term of the daemon's leases when several daemons
	// share a PostgreSQL store (docs/hosting.md); default 15s, from 3s to
	// 10m. A bbolt file, used by one daemon at a time, ignores it.
	LeaseTTL Duration `yaml:"lease_ttl"`
	Log      LogLevel `yaml:"log"` // debug, info (default), warn, error

	File string `yaml:"-"` // the file it was read from
}

// Server is what IMAP and SMTP have in common.
type Server struct {
	Host     string `yaml:"host"`
	Port     int    `yaml:"port"`
	TLS      string `yaml:"tls"` // implicit, starttls or plain
	User     string `yaml:"user"`
	Password Secret `yaml:",inline"`
	// InsecureSkipVerify accepts any certificate: for a test server only.
	InsecureSkipVerify bool `yaml:"insecure_skip_verify"`
	// CAFile is a PEM file of the certificates to trust for this server
	// instead of the system's roots: a private CA, or a self-hosted
	// server's self-signed certificate.
	CAFile string `yaml:"ca_file"`

	// Roots is what CAFile holds, read when the file was loaded (or set in
	// code); nil means the system's roots.
	Roots *x509.CertPool `yaml:"-"`
}

// Addr is host:port.
func (s Server) Addr() string { return net.JoinHostPort(s.Host, strconv.Itoa(s.Port)) }

// TLSConfig is the client side TLS configuration for the server: its
// certificate must be valid for Host and signed by Roots (the system's
// roots when nil), unless InsecureSkipVerify.
func (s Server) TLSConfig() *tls.Config {
	return &tls.Config{ServerName: s.Host, RootCAs: s.Roots, InsecureSkipVerify: s.InsecureSkipVerify}
}

// IMAP is the referee's mailbox.
type IMAP struct {
	Server  `yaml:",inline"`
	Folders Folders  `yaml:"folders"`
	Poll    Duration `yaml:"poll"` // how often to look for mail even when IDLE is on; default 1m
	Idle    *bool    `yaml:"idle"` // use IDLE when the server offers it; default true
	// Workers is how many mails of different games are handled at the
	// same time at most; default 0, the number of processors; 1 handles
	// one mail at a time.
	Workers int `yaml:"workers"`
}

// UseIdle reports whether IDLE is wanted.
func (i IMAP) UseIdle() bool { return i.Idle == nil || *i.Idle }

// Folders are the mailboxes the daemon uses; it creates the missing ones.
type Folders struct {
	Inbox     string `yaml:"inbox"`     // where orders arrive; default INBOX
	Processed string `yaml:"processed"` // accepted mail goes here; default umpire-processed
	Rejected  string `yaml:"rejected"`  // everything not accepted; default umpire-rejected
}

// SMTP is how mail goes out.
type SMTP struct {
	Server `yaml:",inline"`
	Auth   string `yaml:"auth"` // plain (default when a user is set), login or none
}

// From is the sender of every mail umpire sends.
type From struct {
	Address string `yaml:"address"`
	Name    string `yaml:"name"` // display name; default "Umpire"
}

// Referee is who may mail referee commands.
type Referee struct {
	Address string `yaml:"address"`
	// When one of these is set, the referee's commands must also carry the
	// secret ("secret: ..."): a From address alone is easy to forge.
	SecretInline string `yaml:"secret"`
	SecretFile   string `yaml:"secret_file"`
	SecretEnv    string `yaml:"secret_env"`

	Secret Secret `yaml:"-"` // resolved from the three above
}

// Limits bound what the daemon accepts from a mail.
type Limits struct {
	Message Size `yaml:"message"` // the whole mail; default 10 MiB
	Orders  Size `yaml:"orders"`  // the orders text; default 256 KiB
	// SecretGuesses wrong secrets from one address or for one side within
	// SecretWindow pause its order mails for SecretWindow; default 5 in 1h.
	SecretGuesses int      `yaml:"secret_guesses"`
	SecretWindow  Duration `yaml:"secret_window"`
}

// Outbox says how long the data file keeps the text of mail once it was
// sent. The mails that carry pictures are most of a data file's size; the
// game's record is its event log, which is never pruned, and a sent mail's
// ID, recipients and time are kept (so it is never sent twice).
type Outbox struct {
	// KeepSent is how long a sent mail's text is kept; default 720h (30
	// days), at least 24h.
	KeepSent Duration `yaml:"keep_sent"`
	// KeepAll keeps every sent mail's text for ever (the data file then
	// grows by the mails' size).
	KeepAll bool `yaml:"keep_all"`
}

// Secret is a password or other secret, given inline (password:), in a file
// (password_file:) or in an environment variable (password_env:). It never
// prints its value.
type Secret struct {
	Inline string `yaml:"password"`
	File   string `yaml:"password_file"`
	Env    string `yaml:"password_env"`

	value string
}

// Value returns the secret, as resolved when the file was read.
func (s Secret) Value() string { return s.value }

// Set gives the secret a value directly (for configurations built in code).
func (s *Secret) Set(v string) { s.value = v }

// IsSet reports whether the secret has a value.
func (s Secret) IsSet() bool { return s.value != "" }

func (s Secret) String() string {
	if s.value == "" {
		return "(none)"
	}
	return "(hidden)"
}

// GoString hides the secret from %#v too.
func (s Secret) GoString() string { return s.String() }

// LogValue hides the secret from log/slog.
func (s Secret) LogValue() slog.Value { return slog.StringValue(s.String()) }

// Duration is a time.Duration written as "30s", "5m", "1h".
type Duration time.Duration

// Size is a number of bytes, written as 1048576, "512KiB", "10MiB" or "1GiB".
type Size int64

// LogLevel is a log/slog level name.
type LogLevel string

// Level returns the slog level; info when unset.
func (l LogLevel) Level() slog.Level {
	switch l {
	case "debug":
		return slog.LevelDebug
	case "warn":
		return slog.LevelWarn
	case "error":
		return slog.LevelError
	}
	return slog.LevelInfo
}

// Error is a problem in the configuration file, at a place in it.
type Error struct {
	File         string
	Line, Column int
	Msg          string
}

func (e *Error) Error() string {
	switch {
	case e.Line > 0 && e.Column > 0:
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
	case e.Line > 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}
