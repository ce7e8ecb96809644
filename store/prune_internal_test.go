package store

import (
	"bytes"
	"reflect"
	"testing"
	"time"
)

// TestWithoutRaw: cutting the body out of a stored message gives what
// decoding all of it gives, but the body, whose length it tells, even when
// other fields look like the body's key.
func TestWithoutRaw(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
	trick := `x","raw":"QUJD","y`
	for _, m := range []Message{
		{ID: "plain@umpire", Raw: []byte("Subject: hi\r\n\r\nbody\r\n"), Status: Sent, SentAt: at},
		{ID: trick, Game: trick, From: trick, To: []string{trick, `"raw"`}, Raw: []byte(trick), LastError: trick, Status: Sent, Attempts: 3, Created: at, NextAttempt: at, SentAt: at},
		{ID: "no-body", Status: Sent, SentAt: at},
		{ID: "pruned", Status: Sent, SentAt: at, Pruned: true},
		{ID: "pending", Raw: bytes.Repeat([]byte{0xff, 0, '"'}, 1000), Status: Pending},
		{ID: "one", Raw: []byte{'"'}}, {ID: "two", Raw: []byte("ab")}, {ID: "three", Raw: []byte("abc")}, {ID: "four", Raw: []byte("abcd")},
	} {
		p, err := encodeMessage(7, &m)
		if err != nil {
			t.Fatal(err)
		}
		rest, n := withoutRaw(p)
		if n != int64(len(m.Raw)) {
			t.Errorf("%q: body of %d bytes, said %d", m.ID, len(m.Raw), n)
		}
		if bytes.Contains(rest, []byte(`"raw"`)) && !bytes.Contains(rest, []byte(`\"raw\"`)) {
			t.Errorf("%q: the body is still there: %s", m.ID, rest)
		}
		seq, got, err := decodeMessage(rest)
		if err != nil {
			t.Fatalf("%q: %s does not decode: %v", m.ID, rest, err)
		}
		_, want, _ := decodeMessage(p)
		want.Raw = nil
		if seq != 7 || !reflect.DeepEqual(got, want) {
			t.Errorf("%q without its body:\n got %+v\nwant %+v", m.ID, got, want)
		}
	}
	// What json.Marshal does not write is read whole.
	for _, p := range []string{`{"v":1,"n":1,"id":"x","status":"sent"}`, `{"v":1,"raw" : "QUJD","id":"x"}`, `{"v":1,"id":"x","raw":"QUJD`} {
		if rest, n := withoutRaw([]byte(p)); string(rest) != p || n != 0 {
			t.Errorf("withoutRaw(%s) = %s, %d; want it unchanged", p, rest, n)
		}
	}
}
