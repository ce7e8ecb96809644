package config_test

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/binary"
	"encoding/pem"
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/mail/config"
)

// FuzzParse feeds arbitrary text to the configuration loader, as an
// operator's editor might: it must never panic, and every error must be a
// *config.Error that names the file and, when the text has any content, the
// line and column to fix. The seeds are the configurations of docs/mail.md
// and of the table tests; the corpus Go finds is in testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	dir := f.TempDir()
	file := filepath.Join(dir, "umpire.yaml")
	// What the seeds name: files in the configuration's directory and
	// variables in the environment.
	for name, content := range map[string][]byte{
		"imap.pw": []byte("imap-secret\n"), "smtp.pw": []byte("s3cret\n"), "referee.secret": []byte("ref\n"),
		"empty.pw": nil, "my-ca.pem": caPEM(f), "not-a-ca.pem": []byte("hello\n"),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), content, 0o600); err != nil {
			f.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "my-templates"), 0o700); err != nil {
		f.Fatal(err)
	}
	f.Setenv("UMPIRE_SMTP_PASSWORD", "smtp-env")
	f.Setenv("UMPIRE_REFEREE_SECRET", "ref-env")
	f.Setenv("UMPIRE_TEST_IMAP_PW", "imap-env")

	for _, s := range docConfigs(f) {
		f.Add([]byte(s))
	}
	for _, s := range []string{
		testConfig,
		"imap:\n  host: localhost\n  tls: plain\n  user: u\n  password: p\nsmtp: {host: 127.0.0.1, tls: plain}\nfrom: {address: a@b}\n",
		"imap: {host: \"::1\", tls: plain, user: u, password: p}\nsmtp: {host: \"::1\", tls: plain}\nfrom: {address: a@b}\n",
		"imap: {host: imap.example.org, tls: starttls, ca_file: not-a-ca.pem, user: u, password_file: empty.pw}\nsmtp: {host: smtp.example.org, insecure_skip_verify: true}\nfrom: {address: a@b}\n",
		"a: &x 1\nb: *x\n",
		"limits: {message: 5 parsecs, orders: 64KiB}\n",
		"imap:\n  poll: 500ms\n  pol: 30s\n",
		"", "\n", "# only a comment\n", "---\n", "[1, 2]\n", "imap: [\n", "\t", "\xff\xfe",
	} {
		f.Add([]byte(s))
	}

	f.Fuzz(func(t *testing.T, src []byte) {
		if readsOutside(src, dir) {
			t.Skip("names a file outside the test's directory")
		}
		c, err := config.Parse(file, src)
		if err == nil {
			if c == nil || c.File != file {
				t.Fatalf("Parse accepted the text but returned %+v", c)
			}
			if c.IMAP.Port < 1 || c.IMAP.Port > 65535 || c.SMTP.Port < 1 || c.SMTP.Port > 65535 {
				t.Fatalf("accepted ports %d and %d", c.IMAP.Port, c.SMTP.Port)
			}
			if c.IMAP.Host == "" || c.From.Address == "" || !c.IMAP.Password.IsSet() {
				t.Fatalf("accepted without a host, sender or password: %+v", c)
			}
			return
		}
		var ce *config.Error
		if !errors.As(err, &ce) {
			t.Fatalf("error %v is %T, not *config.Error", err, err)
		}
		if ce.File != file || ce.Msg == "" {
			t.Fatalf("error %#v does not name the file or say what is wrong", ce)
		}
		if !strings.HasPrefix(err.Error(), file+":") {
			t.Fatalf("error %q does not start with the file name", err)
		}
		// At most the line after the last one: yaml.v3 puts the null of an
		// empty document ("---") there, which is the end of the text.
		if lines := yamlLines(src); ce.Line < 0 || ce.Column < 0 || ce.Line > lines+1 {
			t.Fatalf("error %q is at line %d, column %d of a %d-line text", err, ce.Line, ce.Column, lines)
		}
		if ce.Line == 0 && hasContent(src) {
			t.Fatalf("error %q has no position", err)
		}
	})
}

// testConfig is config_test.go's example, with its files and variables.
const testConfig = `data: ./data
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

// docConfigs returns the configurations shown in docs/mail.md, their
// files moved into the test's directory.
func docConfigs(f *testing.F) []string {
	doc, err := os.ReadFile("../../docs/mail.md")
	if err != nil {
		f.Fatal(err)
	}
	var out []string
	for _, m := range regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllSubmatch(doc, -1) {
		if s := string(m[1]); strings.Contains(s, "imap:") {
			out = append(out, strings.ReplaceAll(s, "/etc/umpire/", ""))
		}
	}
	if len(out) == 0 {
		f.Fatal("no configuration in docs/mail.md")
	}
	return out
}

// yamlLines counts the lines of src as YAML does: CR LF, CR, LF, NEL, LS
// and PS each end one.
func yamlLines(src []byte) int {
	src = fromUTF16(src)
	n := 1
	for i := 0; i < len(src); i++ {
		switch {
		case src[i] == '\r' && i+1 < len(src) && src[i+1] == '\n':
			i++
			n++
		case src[i] == '\r' || src[i] == '\n':
			n++
		case bytes.HasPrefix(src[i:], []byte("\u0085")) || bytes.HasPrefix(src[i:], []byte("\u2028")) || bytes.HasPrefix(src[i:], []byte("\u2029")):
			n++
		}
	}
	return n
}

// fromUTF16 returns the text as UTF-8 when it starts with a UTF-16 byte
// order mark, as yaml.v3 reads it; a text without one is returned as it is.
// Lines are counted on what the parser saw: in UTF-16 a line separator
// (U+2028) is the bytes "( " or " (", which no byte scan would notice.
func fromUTF16(src []byte) []byte {
	var order binary.ByteOrder
	switch {
	case bytes.HasPrefix(src, []byte{0xff, 0xfe}):
		order = binary.LittleEndian
	case bytes.HasPrefix(src, []byte{0xfe, 0xff}):
		order = binary.BigEndian
	default:
		return src
	}
	units := make([]uint16, 0, len(src)/2)
	for i := 2; i+1 < len(src); i += 2 {
		units = append(units, order.Uint16(src[i:]))
	}
	return []byte(string(utf16.Decode(units)))
}

// hasContent reports whether the text has anything besides blanks and
// comments, i.e. a place an error could point at.
func hasContent(src []byte) bool {
	var n yaml.Node
	if yaml.Unmarshal(src, &n) != nil {
		return true // a syntax error has a place
	}
	return len(n.Content) > 0 && !(n.Content[0].Kind == yaml.ScalarNode && n.Content[0].Tag == "!!null")
}

// readsOutside reports whether some value of the text, taken as a path
// from dir, leaves it: the loader reads the files a configuration names,
// and a fuzzer must not make it read a device or a system file.
func readsOutside(src []byte, dir string) bool {
	var n yaml.Node
	if yaml.Unmarshal(src, &n) != nil {
		return false // refused before any file is read
	}
	outside := false
	var walk func(*yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Kind == yaml.ScalarNode && n.Value != "" {
			p := n.Value
			if !filepath.IsAbs(p) {
				p = filepath.Join(dir, p)
			}
			if rel, err := filepath.Rel(dir, p); err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
				outside = true
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(&n)
	return outside
}

// caPEM makes a self-signed CA certificate, PEM encoded.
func caPEM(f *testing.F) []byte {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		f.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "fuzz CA"},
		NotBefore: time.Unix(0, 0), NotAfter: time.Unix(1<<33, 0), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		f.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}
