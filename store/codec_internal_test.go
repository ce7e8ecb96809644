package store

import (
	"bytes"
	"encoding/hex"
	"errors"
	"testing"
	"time"
)

// goldenEvent pins format version 1 byte for byte: if encodeEvent changes,
// this fails, and old files would no longer decode. Bump the format byte
// and keep a decoder for version 1 instead.
func goldenEvent() (Event, string) {
	ne := NewEvent{
		Type:    "game.created",
		Schema:  2,
		Time:    time.Date(2025, 1, 2, 3, 4, 5, 6, time.UTC),
		Actor:   "referee",
		Payload: []byte(`{"a":1}`),
	}
	e := Event{Seq: 1, NewEvent: ne}
	e.Hash = ChainHash(e.Prev, 1, ne)
	return e, "01" + // format
		"0000000000000001" + // seq
		"0c" + hex.EncodeToString([]byte("game.created")) +
		"04" + // schema 2, zig-zag
		"1816c11eeef33206" + // time
		"07" + hex.EncodeToString([]byte("referee")) +
		"07" + hex.EncodeToString([]byte(`{"a":1}`)) +
		"0000000000000000000000000000000000000000000000000000000000000000" + // prev
		// ChainHash, pinned too: a change there breaks every stored game.
		"eb554772e6602985cf3282af157ac01b94b9c1a4ed9397ab9e11b358b6c1213a"
}

func TestEncodeGolden(t *testing.T) {
	e, want := goldenEvent()
	got := hex.EncodeToString(encodeEvent(&e))
	if got != want {
		t.Fatalf("encodeEvent:\n got %s\nwant %s", got, want)
	}
	if n := encodedEventLen(&e); n != len(want)/2 {
		t.Fatalf("encodedEventLen = %d, encoding has %d bytes", n, len(want)/2)
	}
}

func TestDecodeRoundTrip(t *testing.T) {
	for _, e := range []Event{
		func() Event { e, _ := goldenEvent(); return e }(),
		{Seq: 1 << 40, NewEvent: NewEvent{Type: "t", Schema: -3, Time: time.Unix(0, -5).UTC()}, Prev: Hash{1}, Hash: Hash{2}},
		{Seq: 7, NewEvent: NewEvent{Type: string(bytes.Repeat([]byte("x"), 300)), Schema: 1 << 40, Time: time.Unix(1, 0).UTC(), Actor: "ä", Payload: bytes.Repeat([]byte{0}, 70000)}},
	} {
		p := encodeEvent(&e)
		if len(p) != encodedEventLen(&e) {
			t.Fatalf("encodedEventLen = %d, encoding has %d bytes", encodedEventLen(&e), len(p))
		}
		got, err := decodeEvent(p, make(interner))
		if err != nil {
			t.Fatal(err)
		}
		if got.Seq != e.Seq || got.Type != e.Type || got.Schema != e.Schema || !got.Time.Equal(e.Time) ||
			got.Actor != e.Actor || !bytes.Equal(got.Payload, e.Payload) || got.Prev != e.Prev || got.Hash != e.Hash {
			t.Fatalf("round trip:\n got %+v\nwant %+v", got, e)
		}
		if h, err := storedHash(p); err != nil || h != e.Hash {
			t.Fatalf("storedHash = %s, %v; want %s", h, err, e.Hash)
		}
	}
}

func TestDecodeRejects(t *testing.T) {
	e, _ := goldenEvent()
	good := encodeEvent(&e)
	cases := map[string][]byte{
		"empty":         nil,
		"truncated":     good[:len(good)-1],
		"trailing":      append(append([]byte(nil), good...), 0),
		"format 2":      append([]byte{2}, good[1:]...),
		"long type len": func() []byte { p := bytes.Clone(good); p[9] = 0x7f; return p }(),
	}
	for name, p := range cases {
		if _, err := decodeEvent(p, nil); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: decodeEvent gave %v, want ErrCorrupt", name, err)
		}
	}
}

// FuzzDecodeEvent checks that no stored bytes, however damaged, make the
// decoder panic, and that what decodes re-encodes to the same bytes.
func FuzzDecodeEvent(f *testing.F) {
	e, _ := goldenEvent()
	f.Add(encodeEvent(&e))
	f.Add([]byte{1})
	f.Fuzz(func(t *testing.T, p []byte) {
		got, err := decodeEvent(p, make(interner))
		if err != nil {
			return
		}
		if again := encodeEvent(&got); !bytes.Equal(again, p) {
			// Varints have more than one encoding; only the canonical one
			// must round-trip.
			if _, err := decodeEvent(again, nil); err != nil {
				t.Fatalf("re-encoded event does not decode: %v", err)
			}
		}
	})
}
