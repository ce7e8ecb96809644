package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const minimal = "imap: {host: 127.0.0.1, tls: plain, user: u, password: p}\nsmtp: {host: 127.0.0.1, tls: plain}\nfrom: {address: umpire@example.org}\n"

// TestAddressesAreChecked: from.address and referee.address must each be
// one bare address; the error gives the file, line and column.
func TestAddressesAreChecked(t *testing.T) {
	cases := []struct{ line, want string }{
		{"referee: {address: \"a@example.org, b@example.org\"}\n", `umpire.yaml:4:20: referee.address: "a@example.org, b@example.org" is not one mail address: it holds 2 addresses`},
		{"referee: {address: \"Me <me@example.org>\"}\n", `umpire.yaml:4:20: referee.address: "Me <me@example.org>" is not one mail address: give the bare address, "me@example.org"`},
		{"referee: {address: \"me@example.org\\r\\nBcc: x@example.org\"}\n", `umpire.yaml:4:20: referee.address: "me@example.org\r\nBcc: x@example.org" is not one mail address: it contains a line break`},
		{"referee: {address: me}\n", `umpire.yaml:4:20: referee.address: "me" is not one mail address`},
	}
	for _, c := range cases {
		_, err := Parse("umpire.yaml", []byte(minimal+c.line))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: got %v\nwant %s…", c.line, err, c.want)
		}
	}
	from := strings.Replace(minimal, "from: {address: umpire@example.org}", "from: {address: \"Umpire <umpire@example.org>\"}", 1)
	if _, err := Parse("umpire.yaml", []byte(from)); err == nil || !strings.HasPrefix(err.Error(), `umpire.yaml:3:17: from.address: "Umpire <umpire@example.org>" is not one mail address`) {
		t.Errorf("from with a display name: %v", err)
	}
	noFrom := strings.Replace(minimal, "from: {address: umpire@example.org}\n", "", 1)
	if _, err := Parse("umpire.yaml", []byte(noFrom)); err == nil || !strings.Contains(err.Error(), "from.address: give the address mail is sent from") {
		t.Errorf("no from: %v", err)
	}
	if _, err := Parse("umpire.yaml", []byte(minimal+"referee: {address: me@example.org}\n")); err != nil {
		t.Errorf("a good referee address: %v", err)
	}
}

// TestReadsAreBounded: the configuration file and the files it names are
// read up to a limit, and an endless file (/dev/zero) fails at once with
// the file and the limit named.
func TestReadsAreBounded(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero here")
	}
	if _, err := Load("/dev/zero"); err == nil || err.Error() != "/dev/zero: larger than the 1 MiB limit for configuration files" {
		t.Errorf("Load(/dev/zero): %v", err)
	}
	dir := t.TempDir()
	for _, c := range []struct{ conf, want string }{
		{"imap: {host: 127.0.0.1, tls: plain, user: u, password_file: /dev/zero}\nsmtp: {host: 127.0.0.1, tls: plain}\nfrom: {address: a@b}\n",
			"umpire.yaml:1:61: imap.password_file: /dev/zero: larger than the 64 KiB limit for password files"},
		{minimal + "referee: {address: r@b, secret_file: /dev/zero}\n",
			"umpire.yaml:4:38: referee.secret_file: /dev/zero: larger than the 64 KiB limit for secret files"},
		{"imap: {host: imap.example.org, user: u, password: p, ca_file: /dev/zero}\nsmtp: {host: 127.0.0.1, tls: plain}\nfrom: {address: a@b}\n",
			"umpire.yaml:1:63: imap.ca_file: /dev/zero: larger than the 1 MiB limit for CA files"},
	} {
		file := filepath.Join(dir, "umpire.yaml")
		if err := os.WriteFile(file, []byte(c.conf), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := Load(file)
		if err == nil || err.Error() != filepath.Join(dir, c.want) {
			t.Errorf("got %v\nwant %s", err, filepath.Join(dir, c.want))
		}
	}
	// A configuration just over the limit is refused before it is parsed.
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, []byte("# "+strings.Repeat("x", MaxConfigBytes)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(big); err == nil || !strings.Contains(err.Error(), "big.yaml: larger than the 1 MiB limit") {
		t.Errorf("a big configuration: %v", err)
	}
}
