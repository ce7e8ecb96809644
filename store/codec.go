package store

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Stored event format, version 1 (all integers big-endian unless varint):
//
//	byte     format version, 1
//	uint64   seq
//	uvarint  len(type), type
//	varint   schema
//	int64    time, UnixNano
//	uvarint  len(actor), actor
//	uvarint  len(payload), payload
//	[32]byte prev
//	[32]byte hash
//
// A hand-rolled format rather than JSON because replaying a game decodes
// every event it ever had; this one decodes with three small allocations.
// Changing it means a new version byte and keeping the old decoder: files in
// testdata/v1 hold events in this format and must keep decoding.
const eventFormatV1 = 1

// The smallest version-1 record: empty strings and payload.
const minEventLenV1 = 1 + 8 + 1 + 1 + 8 + 1 + 1 + 32 + 32

func encodedEventLen(e *Event) int {
	n := 1 + 8 + 8 + 32 + 32
	n += uvarintLen(uint64(len(e.Type))) + len(e.Type)
	n += varintLen(int64(e.Schema))
	n += uvarintLen(uint64(len(e.Actor))) + len(e.Actor)
	n += uvarintLen(uint64(len(e.Payload))) + len(e.Payload)
	return n
}

// varintLen is the length binary.AppendVarint gives x (zig-zag encoded).
func varintLen(x int64) int {
	ux := uint64(x) << 1
	if x < 0 {
		ux = ^ux
	}
	return uvarintLen(ux)
}

func uvarintLen(x uint64) int {
	n := 1
	for x >= 0x80 {
		x >>= 7
		n++
	}
	return n
}

// encodeEvent returns e in format version 1, in a buffer of its own (bolt
// needs values to stay untouched until the transaction commits).
func encodeEvent(e *Event) []byte {
	b := make([]byte, 0, encodedEventLen(e))
	b = append(b, eventFormatV1)
	b = binary.BigEndian.AppendUint64(b, e.Seq)
	b = binary.AppendUvarint(b, uint64(len(e.Type)))
	b = append(b, e.Type...)
	b = binary.AppendVarint(b, int64(e.Schema))
	b = binary.BigEndian.AppendUint64(b, uint64(e.Time.UnixNano()))
	b = binary.AppendUvarint(b, uint64(len(e.Actor)))
	b = append(b, e.Actor...)
	b = binary.AppendUvarint(b, uint64(len(e.Payload)))
	b = append(b, e.Payload...)
	b = append(b, e.Prev[:]...)
	b = append(b, e.Hash[:]...)
	return b
}

var errShort = errors.New("record ends early")

// decodeEvent decodes a stored event. It copies everything out of p, which
// may be bolt's memory map. Type and actor strings come from in, if given,
// because a game repeats a handful of them thousands of times.
func decodeEvent(p []byte, in interner) (Event, error) {
	var e Event
	if len(p) < minEventLenV1 {
		return e, fmt.Errorf("%w: event record of %d bytes is too short", ErrCorrupt, len(p))
	}
	if p[0] != eventFormatV1 {
		return e, fmt.Errorf("%w: event record has format %d; this umpire reads format %d", ErrCorrupt, p[0], eventFormatV1)
	}
	d := decoder{p: p[1:]}
	e.Seq = d.uint64()
	e.Type = in.string(d.bytes())
	schema := d.varint()
	e.Time = eventTime(int64(d.uint64()))
	e.Actor = in.string(d.bytes())
	e.Payload = cloneBytes(d.bytes())
	copy(e.Prev[:], d.next(32))
	copy(e.Hash[:], d.next(32))
	if d.err != nil {
		return Event{}, fmt.Errorf("%w: event record: %v", ErrCorrupt, d.err)
	}
	if len(d.p) != 0 {
		return Event{}, fmt.Errorf("%w: event record has %d bytes too many", ErrCorrupt, len(d.p))
	}
	if int64(int(schema)) != schema {
		return Event{}, fmt.Errorf("%w: event record has schema %d", ErrCorrupt, schema)
	}
	e.Schema = int(schema)
	return e, nil
}

// storedHash returns the hash at the end of a stored event without decoding
// the rest: Append needs only the last event's hash to chain onto.
func storedHash(p []byte) (Hash, error) {
	var h Hash
	if len(p) < minEventLenV1 || p[0] != eventFormatV1 {
		return h, fmt.Errorf("%w: last event record of %d bytes does not decode", ErrCorrupt, len(p))
	}
	copy(h[:], p[len(p)-32:])
	return h, nil
}

// decoder reads fields from p; after the first failure every read returns
// zero values and err says why.
type decoder struct {
	p   []byte
	err error
}

func (d *decoder) next(n int) []byte {
	if d.err != nil {
		return nil
	}
	if n < 0 || n > len(d.p) {
		d.err = errShort
		d.p = nil
		return nil
	}
	b := d.p[:n:n]
	d.p = d.p[n:]
	return b
}

func (d *decoder) uint64() uint64 {
	b := d.next(8)
	if b == nil {
		return 0
	}
	return binary.BigEndian.Uint64(b)
}

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	x, n := binary.Uvarint(d.p)
	if n <= 0 {
		d.err = errors.New("bad length")
		d.p = nil
		return 0
	}
	d.p = d.p[n:]
	return x
}

func (d *decoder) varint() int64 {
	if d.err != nil {
		return 0
	}
	x, n := binary.Varint(d.p)
	if n <= 0 {
		d.err = errors.New("bad varint")
		d.p = nil
		return 0
	}
	d.p = d.p[n:]
	return x
}

func (d *decoder) bytes() []byte {
	n := d.uvarint()
	if n > uint64(len(d.p)) {
		if d.err == nil {
			d.err = errShort
			d.p = nil
		}
		return nil
	}
	return d.next(int(n))
}

// interner hands out one string per distinct byte sequence. It is bounded so
// that a log of unique actors cannot make it grow without limit; a nil
// interner just allocates.
type interner map[string]string

const internMax = 1024

func (in interner) string(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if in == nil {
		return string(b)
	}
	if s, ok := in[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(in) < internMax {
		in[s] = s
	}
	return s
}
