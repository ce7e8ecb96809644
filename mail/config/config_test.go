package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
