package config

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const good = `data: ./data
imap:
  host: imap.example.org
  user: referee@example.org
  password_env: UMPIRE_TEST_IMAP_PW
  folders: {processed: done}
  poll: 30s
smtp:
  host: smtp.example.org
  port: 587
  tls: starttls
  user: referee@example.org
  password_file: smtp.pw
from: {address: referee@example.org, name: The Umpire}
referee: {address: me@example.org}
limits: {message: 5MiB, orders: 64KiB}
`

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "smtp.pw"), []byte("s3cret\n"), 0o600)
	t.Setenv("UMPIRE_TEST_IMAP_PW", "imap-pw")
	c, err := Parse(filepath.Join(dir, "umpire.yaml"), []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if c.IMAP.Port != 993 || c.IMAP.TLS != TLSImplicit || c.IMAP.Password.Value() != "imap-pw" || c.IMAP.Folders.Processed != "done" || c.IMAP.Folders.Inbox != "INBOX" {
		t.Errorf("imap: %+v", c.IMAP)
	}
	if c.SMTP.Password.Value() != "s3cret" || c.SMTP.Auth != AuthPlain || c.Limits.Message != 5<<20 || c.Limits.Orders != 64<<10 {
		t.Errorf("smtp/limits: %+v %+v", c.SMTP, c.Limits)
	}
	if c.Data != filepath.Join(dir, "data") || !c.IMAP.UseIdle() {
		t.Errorf("data %s", c.Data)
	}
	// Secrets never print.
	for _, s := range []string{fmt.Sprint(c.IMAP), fmt.Sprintf("%+v", c.SMTP), fmt.Sprintf("%#v", c.SMTP.Password)} {
		if strings.Contains(s, "imap-pw") || strings.Contains(s, "s3cret") {
			t.Errorf("a secret printed: %s", s)
		}
	}
}

func TestErrors(t *testing.T) {
	t.Setenv("UMPIRE_TEST_IMAP_PW", "x")
	cases := []struct{ edit, want string }{
		{"  poll: 30s\n", "umpire.yaml:7:3: unknown field \"pol\""},
		{"  tls: starttls\n", "umpire.yaml:11:8: smtp.tls: \"startls\" is not one of"},
		{"  host: smtp.example.org\n", "umpire.yaml:10:8: smtp.tls: plain (unencrypted) connections are allowed only to a loopback address"},
		{"limits: {message: 5MiB, orders: 64KiB}\n", "umpire.yaml:16:19: \"5 parsecs\" is not a size"},
	}
	repl := []string{"  pol: 30s\n", "  tls: startls\n", "  host: smtp.example.org\n  tls: plain\n", "limits: {message: 5 parsecs, orders: 64KiB}\n"}
	for i, c := range cases {
		src := strings.Replace(good, c.edit, repl[i], 1)
		src = strings.Replace(src, "  tls: starttls\n", map[bool]string{true: "", false: "  tls: starttls\n"}[i == 2], 1)
		src = strings.Replace(src, "password_file: smtp.pw", "password: inline", 1)
		_, err := Parse("umpire.yaml", []byte(src))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("case %d: got %v\nwant %s…", i, err, c.want)
		}
	}
	if _, err := Parse("umpire.yaml", []byte("imap:\n  host: localhost\n  tls: plain\n  user: u\n  password: p\nsmtp: {host: 127.0.0.1, tls: plain}\nfrom: {address: a@b}\n")); err != nil {
		t.Errorf("plain to loopback: %v", err)
	}
	if _, err := Parse("umpire.yaml", []byte("a: &x 1\nb: *x\n")); err == nil || !strings.Contains(err.Error(), "anchors") {
		t.Errorf("alias: %v", err)
	}
}

func TestPlainOnlyToLoopback(t *testing.T) {
	for _, host := range []string{"imap.example.org", "192.168.1.10", "0.0.0.0", "::", "localhost.example.org", "127.0.0.1.example.org"} {
		for _, key := range []string{"imap", "smtp"} {
			imapHost, smtpHost := "127.0.0.1", "127.0.0.1"
			if key == "imap" {
				imapHost = host
			} else {
				smtpHost = host
			}
			src := fmt.Sprintf("imap: {host: %q, tls: plain, user: u, password: p}\nsmtp: {host: %q, tls: plain}\nfrom: {address: a@b}\n", imapHost, smtpHost)
			_, err := Parse("umpire.yaml", []byte(src))
			if err == nil || !strings.Contains(err.Error(), key+".tls: plain (unencrypted) connections are allowed only to a loopback address") {
				t.Errorf("%s plain to %s: %v", key, host, err)
			}
		}
	}
	for _, host := range []string{"localhost", "LOCALHOST", "127.0.0.1", "127.1.2.3", "::1"} {
		src := fmt.Sprintf("imap: {host: %q, tls: plain, user: u, password: p}\nsmtp: {host: %q, tls: plain}\nfrom: {address: a@b}\n", host, host)
		if _, err := Parse("umpire.yaml", []byte(src)); err != nil {
			t.Errorf("plain to %s: %v", host, err)
		}
	}
}

// selfSigned makes a self-signed CA certificate, PEM encoded.
func selfSigned(t *testing.T) (*x509.Certificate, []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "imap.example.org"}, DNSNames: []string{"imap.example.org"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}

func TestCAFile(t *testing.T) {
	dir := t.TempDir()
	cert, pemData := selfSigned(t)
	os.WriteFile(filepath.Join(dir, "ca.pem"), pemData, 0o600)
	os.WriteFile(filepath.Join(dir, "junk.pem"), []byte("not a certificate\n"), 0o600)
	src := "imap:\n  host: imap.example.org\n  user: u\n  password: p\n  ca_file: ca.pem\nsmtp:\n  host: smtp.example.org\n  tls: starttls\n%sfrom: {address: a@b}\n"
	c, err := Parse(filepath.Join(dir, "umpire.yaml"), []byte(fmt.Sprintf(src, "")))
	if err != nil {
		t.Fatal(err)
	}
	if c.IMAP.CAFile != "ca.pem" || c.IMAP.Roots == nil || c.SMTP.Roots != nil {
		t.Fatalf("imap %+v, smtp %+v", c.IMAP.Server, c.SMTP.Server)
	}
	// The pool holds the certificate: it verifies.
	if _, err := cert.Verify(x509.VerifyOptions{Roots: c.IMAP.Roots, DNSName: "imap.example.org"}); err != nil {
		t.Errorf("verifying with the ca_file pool: %v", err)
	}
	tc := c.IMAP.TLSConfig()
	if tc.RootCAs != c.IMAP.Roots || tc.ServerName != "imap.example.org" || tc.InsecureSkipVerify {
		t.Errorf("TLS config %+v", tc)
	}
	if tc := c.SMTP.TLSConfig(); tc.RootCAs != nil || tc.ServerName != "smtp.example.org" {
		t.Errorf("smtp TLS config %+v", tc)
	}

	bad := []struct{ smtp, want string }{
		{"  ca_file: missing.pem\n", ":9:12: smtp.ca_file: open " + filepath.Join(dir, "missing.pem")},
		{"  ca_file: junk.pem\n", ":9:12: smtp.ca_file: junk.pem holds no PEM certificate"},
		{"  ca_file: ca.pem\n  insecure_skip_verify: true\n", ":9:12: smtp.ca_file: insecure_skip_verify accepts any certificate"},
		{"  ca_file: [ca.pem]\n", ":9: cannot unmarshal"},
		{"  ca_fil: ca.pem\n", ":9:3: unknown field \"ca_fil\""},
	}
	file := filepath.Join(dir, "umpire.yaml")
	for _, b := range bad {
		_, err := Parse(file, []byte(fmt.Sprintf(src, b.smtp)))
		if err == nil || !strings.HasPrefix(err.Error(), file+b.want) {
			t.Errorf("%q: got %v\nwant %s…", b.smtp, err, b.want)
		}
	}
	plain := "imap: {host: 127.0.0.1, tls: plain, user: u, password: p, ca_file: ca.pem}\nsmtp: {host: 127.0.0.1, tls: plain}\nfrom: {address: a@b}\n"
	if _, err := Parse(filepath.Join(dir, "umpire.yaml"), []byte(plain)); err == nil || !strings.Contains(err.Error(), "imap.ca_file: a plain connection has no certificate to check") {
		t.Errorf("ca_file with plain: %v", err)
	}
}

func TestSecretGuessLimits(t *testing.T) {
	t.Setenv("UMPIRE_TEST_IMAP_PW", "x")
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "smtp.pw"), []byte("s3cret\n"), 0o600)
	c, err := Parse(filepath.Join(dir, "umpire.yaml"), []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if c.Limits.SecretGuesses != DefaultSecretGuesses || c.Limits.SecretWindow != DefaultSecretWindow {
		t.Errorf("defaults: %+v", c.Limits)
	}
	src := strings.Replace(good, "limits: {message: 5MiB, orders: 64KiB}\n", "limits: {message: 5MiB, orders: 64KiB, secret_guesses: 3, secret_window: 10m}\n", 1)
	if c, err := Parse(filepath.Join(dir, "umpire.yaml"), []byte(src)); err != nil || c.Limits.SecretGuesses != 3 || c.Limits.SecretWindow.D() != 10*time.Minute {
		t.Errorf("set: %+v %v", c, err)
	}
	src = strings.Replace(good, "limits: {message: 5MiB, orders: 64KiB}\n", "limits: {message: 5MiB, orders: 64KiB, secret_guesses: 5000}\n", 1)
	if _, err := Parse(filepath.Join(dir, "umpire.yaml"), []byte(src)); err == nil || !strings.Contains(err.Error(), "limits.secret_guesses") {
		t.Errorf("too many guesses allowed: %v", err)
	}
}

func TestOutboxAndWorkers(t *testing.T) {
	t.Setenv("UMPIRE_TEST_IMAP_PW", "x")
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "smtp.pw"), []byte("s3cret\n"), 0o600)
	file := filepath.Join(dir, "umpire.yaml")
	c, err := Parse(file, []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if c.Outbox.KeepSent != DefaultKeepSent || c.Outbox.KeepAll || c.IMAP.Workers != 0 {
		t.Errorf("defaults: outbox %+v, workers %d", c.Outbox, c.IMAP.Workers)
	}
	src := strings.Replace(good, "limits: {message: 5MiB, orders: 64KiB}\n", "limits: {message: 5MiB, orders: 64KiB}\noutbox: {keep_sent: 2160h}\n", 1)
	if c, err := Parse(file, []byte(src)); err != nil || c.Outbox.KeepSent.D() != 90*24*time.Hour {
		t.Errorf("keep_sent: 2160h: %+v %v", c, err)
	}
	src = strings.Replace(good, "limits: {message: 5MiB, orders: 64KiB}\n", "limits: {message: 5MiB, orders: 64KiB}\noutbox: {keep_sent: 1h}\n", 1)
	if _, err := Parse(file, []byte(src)); err == nil || !strings.Contains(err.Error(), "outbox.keep_sent") {
		t.Errorf("keep_sent: 1h accepted: %v", err)
	}
	if c.LeaseTTL != DefaultLeaseTTL {
		t.Errorf("lease_ttl default: %v", c.LeaseTTL.D())
	}
	lease := func(v string) string {
		return strings.Replace(good, "limits: {message: 5MiB, orders: 64KiB}\n", "limits: {message: 5MiB, orders: 64KiB}\nlease_ttl: "+v+"\n", 1)
	}
	if c, err := Parse(file, []byte(lease("30s"))); err != nil || c.LeaseTTL.D() != 30*time.Second {
		t.Errorf("lease_ttl: 30s: %+v %v", c, err)
	}
	for _, v := range []string{"1s", "1h"} {
		if _, err := Parse(file, []byte(lease(v))); err == nil || !strings.Contains(err.Error(), "lease_ttl: give a duration from 3s to 10m") {
			t.Errorf("lease_ttl: %s accepted: %v", v, err)
		}
	}
	src = strings.Replace(good, "limits: {message: 5MiB, orders: 64KiB}\n", "limits: {message: 5MiB, orders: 64KiB}\noutbox: {keep_all: true}\n", 1)
	if c, err := Parse(file, []byte(src)); err != nil || !c.Outbox.KeepAll {
		t.Errorf("keep_all: %+v %v", c, err)
	}
	if c, err := Parse(file, []byte(strings.Replace(good, "  poll: 30s\n", "  poll: 30s\n  workers: 3\n", 1))); err != nil || c.IMAP.Workers != 3 {
		t.Errorf("workers: 3: %+v %v", c, err)
	}
	if _, err := Parse(file, []byte(strings.Replace(good, "  poll: 30s\n", "  poll: 30s\n  workers: 500\n", 1))); err == nil || !strings.Contains(err.Error(), "imap.workers") {
		t.Errorf("workers: 500 accepted: %v", err)
	}
}
