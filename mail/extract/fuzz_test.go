package extract

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

var knownCodes = []string{CodeHTMLOnly, CodeNoOrders, CodeTooLarge, CodeMalformed,
	CodeAmbiguous, CodeBadCharset, CodeNotText, CodeNoSender, CodeTwoBlocks}

// FuzzExtract feeds arbitrary bytes to extract (without Extract's recover, so
// that a panic fails) and checks the invariants every result must keep. The
// committed corpus is in testdata/fuzz/FuzzExtract; the table tests' mails
// are added as seeds too.
func FuzzExtract(f *testing.F) {
	for _, c := range okCases() {
		f.Add(c.raw)
	}
	for _, c := range errCases() {
		if len(c.raw) < 64<<10 {
			f.Add(c.raw)
		}
	}
	lim := Limits{MaxBytes: 4 << 10, MaxMessage: 64 << 10}
	f.Fuzz(func(t *testing.T, raw []byte) {
		m, err := extract(raw, lim)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is %T, not *Error", err, err)
			}
			if !slices.Contains(knownCodes, e.Code) || e.Msg == "" {
				t.Fatalf("bad error %#v", e)
			}
			if !utf8.ValidString(e.Msg) || strings.ContainsFunc(e.Msg, unicode.IsControl) {
				t.Fatalf("player message not clean text: %q", e.Msg)
			}
			if m != nil && m.Orders != nil {
				t.Fatalf("Orders set with error %v", err)
			}
			return
		}
		if m == nil || len(m.Orders) == 0 {
			t.Fatalf("success without orders: %+v", m)
		}
		if int64(len(m.Orders)) > lim.MaxBytes {
			t.Fatalf("orders of %d bytes over the %d limit", len(m.Orders), lim.MaxBytes)
		}
		if !utf8.Valid(m.Orders) {
			t.Fatalf("orders not UTF-8: %q", m.Orders)
		}
		if m.LineOffset < 0 {
			t.Fatalf("LineOffset %d", m.LineOffset)
		}
		if bytes.ContainsRune(m.Orders, '\r') || !bytes.HasSuffix(m.Orders, []byte("\n")) {
			t.Fatalf("orders line ends wrong: %q", m.Orders)
		}
		if m.MessageID == "" || m.From == "" {
			t.Fatalf("header fields missing: %+v", m)
		}
		if m.Source != SourceBody && m.Source != SourceFenced && !strings.HasPrefix(m.Source, SourceAttachmentPrefix) {
			t.Fatalf("Source %q", m.Source)
		}

		// Round trip: orders taken from a body, mailed again as a plain
		// UTF-8 body (bare, or fenced after some chat), come back the same
		// with the offset of the wrapping.
		if strings.HasPrefix(m.Source, SourceAttachmentPrefix) {
			return
		}
		if len(m.Orders) > int(lim.MaxBytes)-64 {
			return
		}
		hdr := "From: p@example.com\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
		var again string
		var offset int
		if m.Source == SourceBody {
			again, offset = hdr+"\n"+string(m.Orders), 1
		} else {
			again, offset = hdr+"chat\n---\n"+string(m.Orders)+"---\n", 2
		}
		m2, err := extract([]byte(again), lim)
		if err != nil {
			t.Fatalf("round trip of %q: %v", m.Orders, err)
		}
		if !bytes.Equal(m2.Orders, m.Orders) || m2.LineOffset != offset || m2.Source != m.Source {
			t.Fatalf("round trip of %q gave %q offset %d source %s", m.Orders, m2.Orders, m2.LineOffset, m2.Source)
		}
	})
}
