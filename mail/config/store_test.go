package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/store/backend"
)

// loopback is a configuration with loopback mail servers, to which a
// store: section is added.
const loopback = "imap: {host: 127.0.0.1, tls: plain, user: u, password: p}\nsmtp: {host: 127.0.0.1, tls: plain}\nfrom: {address: a@b}\n"

func TestStoreSection(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "umpire.yaml")
	os.WriteFile(filepath.Join(dir, "db.pw"), []byte("hunter2\n"), 0o600)
	_, pemData := selfSigned(t)
	os.WriteFile(filepath.Join(dir, "ca.pem"), pemData, 0o600)
	t.Setenv("UMPIRE_TEST_DB_PW", "from-env")
	cases := []struct {
		src  string
		want backend.Spec
	}{
		{"", backend.Bolt(filepath.Join(dir, DefaultData))},
		{"data: d\n", backend.Bolt(filepath.Join(dir, "d"))},
		{"store: games\n", backend.Spec{Where: "bolt:" + filepath.Join(dir, "games")}},
		{"store: bolt:/srv/umpire\n", backend.Spec{Where: "bolt:/srv/umpire"}},
		{"store: postgres://umpire@db.example.org/umpire\n", backend.Spec{Where: "postgres://umpire@db.example.org/umpire"}},
		{"store:\n  url: postgres://umpire@db.example.org/umpire\n  password_file: db.pw\n  tls: verify-ca\n",
			backend.Spec{Where: "postgres://umpire@db.example.org/umpire", Password: "hunter2", TLS: "verify-ca"}},
		{"store: {url: 'postgresql://umpire@127.0.0.1:5432/umpire', password_env: UMPIRE_TEST_DB_PW}\n",
			backend.Spec{Where: "postgresql://umpire@127.0.0.1:5432/umpire", Password: "from-env"}},
		{"store: {url: 'postgres://umpire@db.example.org/umpire', password: inline-pw, ca_file: ca.pem}\n",
			backend.Spec{Where: "postgres://umpire@db.example.org/umpire", Password: "inline-pw", CAFile: "ca.pem"}},
	}
	for _, c := range cases {
		cfg, err := Parse(file, []byte(loopback+c.src))
		if err != nil {
			t.Errorf("%q: %v", c.src, err)
			continue
		}
		got := cfg.Spec()
		roots := got.Roots
		got.Roots = nil
		if got != c.want {
			t.Errorf("%q: spec %+v, want %+v", c.src, got, c.want)
		}
		if (roots != nil) != (c.want.CAFile != "") {
			t.Errorf("%q: roots %v", c.src, roots)
		}
		for _, s := range []string{fmt.Sprint(cfg.Store), fmt.Sprintf("%+v", cfg.Store), fmt.Sprintf("%#v", cfg.Store.Password), got.String()} {
			if strings.Contains(s, "hunter2") || strings.Contains(s, "from-env") || strings.Contains(s, "inline-pw") {
				t.Errorf("a password printed: %s", s)
			}
		}
	}
}

// TestStoreErrors: each mistake is reported at its line and says how to
// fix it.
func TestStoreErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "umpire.yaml")
	os.WriteFile(filepath.Join(dir, "junk.pem"), []byte("junk\n"), 0o600)
	// loopback is three lines: store: is line 4.
	for _, c := range []struct{ src, want string }{
		{"store: postgres://umpire:hunter2@db.example.org/umpire\n", ":4:8: store: the PostgreSQL URL holds a password, which would end up in logs and in ps: take it out of the URL and give it with password_file: or password_env:"},
		{"store:\n  url: postgres://umpire:hunter2@db.example.org/umpire\n", ":5:8: store.url: the PostgreSQL URL holds a password"},
		{"store:\n  url: postgres://u@db.example.org/umpire\n  tls: disable\n", ":6:8: store.tls: disable (plain text) is allowed only to a loopback host or a local socket, not db.example.org: use verify-full (the default)"},
		{"store:\n  url: postgres://u@db.example.org/umpire\n  tls: prefer\n", ":6:8: store.tls: prefer may fall back to plain text"},
		{"store:\n  url: postgres://u@db.example.org/umpire\n  tls: yes\n", ":6:8: store.tls: \"yes\" is not one of disable, require, verify-ca, verify-full"},
		{"store:\n  url: postgres://u@db.example.org/umpire\n  tls: require\n  ca_file: junk.pem\n", ":7:12: store.ca_file: tls: require does not check the certificate"},
		{"store:\n  url: postgres://u@db.example.org/umpire\n  ca_file: junk.pem\n", ":6:12: store.ca_file: junk.pem holds no PEM certificate"},
		{"store:\n  url: postgres://u@db.example.org/umpire\n  password: a\n  password_env: B\n", ":5:3: store: give only one of password, password_file and password_env"},
		{"store:\n  url: postgres://u@db.example.org/umpire\n  password_env: UMPIRE_TEST_NO_SUCH_VAR\n", ":6:17: store.password_env: the environment variable UMPIRE_TEST_NO_SUCH_VAR is not set"},
		{"store:\n  password_file: db.pw\n", ":5:3: store: give url:"},
		{"store:\n  url: postgres://u@db.example.org/umpire\n  sslmode: require\n", ":6:3: unknown field \"sslmode\""},
		{"store: [postgres://u@db.example.org/umpire]\n", ":4:8: store: give a postgres:// URL or a directory"},
		{"store: mysql://u@db.example.org/umpire\n", ":4:8: store: \"mysql://u@db.example.org/umpire\" is not a store umpire knows"},
		{"store: {url: data, password: p}\n", ":4:14: store.url: a password, tls and ca_file are for PostgreSQL"},
	} {
		_, err := Parse(file, []byte(loopback+c.src))
		if err == nil || !strings.HasPrefix(err.Error(), file+c.want) {
			t.Errorf("%q:\n got %v\nwant %s%s…", c.src, err, file, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "hunter2") {
			t.Errorf("%q: the error shows the password: %v", c.src, err)
		}
	}
}
