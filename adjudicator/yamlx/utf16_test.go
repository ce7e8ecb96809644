package yamlx_test

import (
	"errors"
	"testing"
	"unicode/utf16"

	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

func utf16le(s string) []byte {
	b := []byte{0xff, 0xfe}
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return b
}

// TestUTF16: a text saved as UTF-16 (a byte order mark first) is read as
// yaml.v3 reads it, and errors name the lines of that text — a tab on its
// second line is reported there, not where the raw bytes hold a newline
// byte; an odd number of bytes is refused with what to do.
func TestUTF16(t *testing.T) {
	n, err := yamlx.Parse(utf16le("a: 1\nb: héllo\n"))
	if err != nil || n.Kind == 0 {
		t.Fatalf("UTF-16 text refused: %v", err)
	}
	_, err = yamlx.Parse(utf16le("a:\n\tb: 1\n"))
	var e *yamlx.Error
	if !errors.As(err, &e) || e.Code != yamlx.CodeTab || e.Line != 2 {
		t.Fatalf("tab on line 2 of a UTF-16 text: %v", err)
	}
	// The bytes of "\n\n\t" after the mark are one UTF-16 character, not
	// three lines: the old byte scan blamed a tab on line 3 of a one-line text.
	_, err = yamlx.Parse([]byte("\xff\xfe\n\n\t00"))
	if !errors.As(err, &e) || e.Line != 1 {
		t.Fatalf("odd-length UTF-16: %v", err)
	}
}
