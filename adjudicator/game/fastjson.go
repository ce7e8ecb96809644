package game

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// A fold decodes a field or two of most payloads it reads, and
// json.Unmarshal of every payload was most of what loading a long game
// cost. fields reads the top-level members of a JSON object itself: it
// checks the whole payload as strictly as json.Unmarshal does, hands the
// members named in want to set, and skips the rest. Whatever it is not sure
// to read exactly as json.Unmarshal into a struct would (a key in another
// case or with escapes, a number that is not a plain integer, a string
// with escapes or bytes that are not UTF-8, a value of the wrong kind) makes
// it give up (ok false), and the caller calls json.Unmarshal: the fast path
// decides nothing the slow one would decide otherwise.

// jsonValue is one member's value: its kind and its bytes.
type jsonValue struct {
	kind byte   // '"' string, 'n' number, 't' true, 'f' false, '0' null, '{' object, '[' array
	raw  []byte // the value as it stands in the payload
}

// str is a string value as json.Unmarshal reads it; ok is false for
// anything else (null is not a string here: the caller treats it before)
// and for bytes that are not UTF-8 (json.Unmarshal replaces them).
func (v jsonValue) str() (string, bool) {
	if v.kind != '"' {
		return "", false
	}
	in := v.raw[1 : len(v.raw)-1]
	if !utf8.Valid(in) {
		return "", false
	}
	esc := bytes.IndexByte(in, '\\')
	if esc < 0 {
		return string(in), true
	}
	// The scanner checked the escapes; those of one ASCII byte are
	// replaced here (the bytes around them are UTF-8, so the result is
	// what json.Unmarshal gives), \u escapes are left to json.Unmarshal.
	out := make([]byte, esc, len(in))
	copy(out, in)
	for i := esc; i < len(in); i++ {
		c := in[i]
		if c != '\\' {
			out = append(out, c)
			continue
		}
		i++
		switch in[i] {
		case '"', '\\', '/':
			c = in[i]
		case 'b':
			c = '\b'
		case 'f':
			c = '\f'
		case 'n':
			c = '\n'
		case 'r':
			c = '\r'
		case 't':
			c = '\t'
		default:
			var s string
			if json.Unmarshal(v.raw, &s) != nil {
				return "", false
			}
			return s, true
		}
		out = append(out, c)
	}
	return string(out), true
}

// int is a plain integer value.
func (v jsonValue) int() (int64, bool) {
	if v.kind != 'n' {
		return 0, false
	}
	n, err := strconv.ParseInt(string(v.raw), 10, 64)
	return n, err == nil
}

// bool is true or false.
func (v jsonValue) bool() (bool, bool) {
	switch v.kind {
	case 't':
		return true, true
	case 'f':
		return false, true
	}
	return false, false
}

// fields scans payload, a JSON object, calling set for each member whose key
// is one of want (exactly: json.Unmarshal would also take another case).
// set returns false to give up. A null member is passed on too: json leaves
// the field as it was.
func fields(payload []byte, want []string, set func(key string, v jsonValue) bool) bool {
	s := scanner{p: payload}
	s.space()
	if !s.byte('{') {
		return false
	}
	s.space()
	if s.peek() == '}' {
		s.i++
	} else {
		for {
			s.space()
			k, ok := s.key()
			if !ok {
				return false
			}
			s.space()
			if !s.byte(':') {
				return false
			}
			s.space()
			start := s.i
			kind, ok := s.value(0)
			if !ok {
				return false
			}
			wanted := false
			for _, w := range want {
				if w == k {
					wanted = true
					break
				}
				if strings.EqualFold(w, k) {
					return false // json.Unmarshal would take it too
				}
			}
			if wanted && !set(k, jsonValue{kind: kind, raw: payload[start:s.i]}) {
				return false
			}
			s.space()
			if s.byte(',') {
				continue
			}
			if s.byte('}') {
				break
			}
			return false
		}
	}
	s.space()
	return s.i == len(s.p)
}

type scanner struct {
	p []byte
	i int
}

func (s *scanner) peek() byte {
	if s.i < len(s.p) {
		return s.p[s.i]
	}
	return 0
}

func (s *scanner) byte(c byte) bool {
	if s.peek() == c && s.i < len(s.p) {
		s.i++
		return true
	}
	return false
}

func (s *scanner) space() {
	for s.i < len(s.p) {
		switch s.p[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// key reads a member's key, which must be plain ASCII without escapes
// (json.Unmarshal folds cases, Unicode ones included, which is left to it).
func (s *scanner) key() (string, bool) {
	if !s.byte('"') {
		return "", false
	}
	start := s.i
	for s.i < len(s.p) {
		c := s.p[s.i]
		switch {
		case c == '"':
			k := string(s.p[start:s.i])
			s.i++
			return k, true
		case c < 0x20 || c >= 0x80 || c == '\\':
			return "", false
		}
		s.i++
	}
	return "", false
}

// value checks one value and returns its kind.
func (s *scanner) value(depth int) (byte, bool) {
	if depth > 1000 {
		return 0, false
	}
	switch c := s.peek(); {
	case c == '"':
		return '"', s.string()
	case c == '{':
		s.i++
		s.space()
		if s.byte('}') {
			return '{', true
		}
		for {
			s.space()
			if !s.string() {
				return 0, false
			}
			s.space()
			if !s.byte(':') {
				return 0, false
			}
			s.space()
			if _, ok := s.value(depth + 1); !ok {
				return 0, false
			}
			s.space()
			if s.byte(',') {
				continue
			}
			return '{', s.byte('}')
		}
	case c == '[':
		s.i++
		s.space()
		if s.byte(']') {
			return '[', true
		}
		for {
			s.space()
			if _, ok := s.value(depth + 1); !ok {
				return 0, false
			}
			s.space()
			if s.byte(',') {
				continue
			}
			return '[', s.byte(']')
		}
	case c == '-' || c >= '0' && c <= '9':
		return 'n', s.number()
	case c == 't':
		return 't', s.literal("true")
	case c == 'f':
		return 'f', s.literal("false")
	case c == 'n':
		return '0', s.literal("null")
	}
	return 0, false
}

func (s *scanner) literal(l string) bool {
	if len(s.p)-s.i >= len(l) && string(s.p[s.i:s.i+len(l)]) == l {
		s.i += len(l)
		return true
	}
	return false
}

// string checks a string: no control characters, only JSON's escapes.
// Bytes that are not UTF-8 are allowed, as json.Unmarshal allows them.
func (s *scanner) string() bool {
	if !s.byte('"') {
		return false
	}
	for s.i < len(s.p) {
		c := s.p[s.i]
		switch {
		case c == '"':
			s.i++
			return true
		case c < 0x20:
			return false
		case c == '\\':
			s.i++
			switch s.peek() {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				s.i++
			case 'u':
				s.i++
				for range 4 {
					if !isHex(s.peek()) {
						return false
					}
					s.i++
				}
			default:
				return false
			}
		default:
			s.i++
		}
	}
	return false
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// number checks JSON's number grammar.
func (s *scanner) number() bool {
	digits := func() int {
		n := 0
		for s.i < len(s.p) && s.p[s.i] >= '0' && s.p[s.i] <= '9' {
			s.i++
			n++
		}
		return n
	}
	s.byte('-')
	if s.byte('0') {
		if c := s.peek(); c >= '0' && c <= '9' {
			return false
		}
	} else if digits() == 0 {
		return false
	}
	if s.byte('.') && digits() == 0 {
		return false
	}
	if s.byte('e') || s.byte('E') {
		if !s.byte('+') {
			s.byte('-')
		}
		if digits() == 0 {
			return false
		}
	}
	return true
}

// ordersFold is what a fold reads of an orders.accepted payload.
type ordersFold struct {
	Request    string           `json:"request"`
	Side       adjudicator.Side `json:"side"`
	Digest     string           `json:"digest"`
	Sealed     string           `json:"sealed"`
	Ahead      bool             `json:"ahead"`
	Queued     bool             `json:"queued"`
	QueueIndex int              `json:"queue_index"`
	QueueDone  bool             `json:"queue_done"`
	Turn       int              `json:"turn"`
	Phase      string           `json:"phase"`
	Parts      []string         `json:"parts"`
	SealKey    string           `json:"seal_key"`
	// whole: the payload would decode as an OrdersAccepted too (every
	// member of the right kind), known when the fast path read it.
	whole bool
}

var ordersFoldKeys = []string{"request", "side", "digest", "sealed", "ahead", "queued", "queue_index", "queue_done", "turn", "phase", "parts", "seal_key",
	// the other members of OrdersAccepted, skipped, but named so that
	// a key in another case is left to json.Unmarshal
	"kind", "text", "secret_removed", "orders", "normalized", "via", "message_id", "replaces", "queue_of", "seat", "by"}

// decode is json.Unmarshal(p, oa), faster.
func (oa *ordersFold) decode(p []byte) error {
	return strictOr(p, oa, func(out *ordersFold) bool {
		out.whole = true
		return fields(p, ordersFoldKeys, func(k string, v jsonValue) bool {
			if v.kind == '0' {
				return true // null leaves the field as it is
			}
			switch k {
			case "parts":
				return false // a team's answer: rare, left to json.Unmarshal
			case "kind", "text", "orders", "normalized", "via", "message_id", "seat", "by":
				out.whole = out.whole && v.kind == '"'
			case "secret_removed", "replaces":
				out.whole = out.whole && (v.kind == 't' || v.kind == 'f')
			case "queue_of":
				_, err := strconv.ParseUint(string(v.raw), 10, 64)
				out.whole = out.whole && v.kind == 'n' && err == nil
			}
			var str *string
			var flag *bool
			var num *int
			switch k {
			case "request":
				str = &out.Request
			case "side":
				str = (*string)(&out.Side)
			case "digest":
				str = &out.Digest
			case "sealed":
				str = &out.Sealed
			case "phase":
				str = &out.Phase
			case "seal_key":
				str = &out.SealKey
			case "ahead":
				flag = &out.Ahead
			case "queued":
				flag = &out.Queued
			case "queue_done":
				flag = &out.QueueDone
			case "queue_index":
				num = &out.QueueIndex
			case "turn":
				num = &out.Turn
			default:
				return true // a member the fold does not read
			}
			var ok bool
			switch {
			case str != nil:
				*str, ok = v.str()
			case flag != nil:
				*flag, ok = v.bool()
			default:
				var n int64
				n, ok = v.int()
				*num = int(n)
				ok = ok && int64(*num) == n
			}
			return ok
		})
	})
}

// openingDigest reads the digest of an OrdersOpening, as
// json.Unmarshal would; ok is false when it cannot be sure (then the
// caller decodes the opening whole).
func openingDigest(p []byte) (digest string, ok bool) {
	ok = fields(p, []string{"salt", "text", "digest", "orders", "normalized", "queue"}, func(k string, v jsonValue) bool {
		switch {
		case v.kind == '0':
			return true
		case k == "queue":
			return v.kind == '[' && string(v.raw) == "[]"
		case k == "digest":
			var ok bool
			digest, ok = v.str()
			return ok
		}
		return v.kind == '"'
	})
	return digest, ok
}

// strictOr is how every decoder of this file keeps json.Unmarshal's
// answer: scan reads p into a zero T with the strict scanner and says
// whether it is sure; when it is not, *dst is zeroed and json.Unmarshal
// decodes p into it, as if there were no scanner.
func strictOr[T any](p []byte, dst *T, scan func(out *T) bool) error {
	var out T
	if scan(&out) {
		*dst = out
		return nil
	}
	*dst = *new(T)
	return json.Unmarshal(p, dst)
}

// decodeRevealed is json.Unmarshal of a sealed.revealed payload into a
// zero Revealed, faster.
func decodeRevealed(p []byte, rv *Revealed) error {
	return strictOr(p, rv, func(out *Revealed) bool {
		return fields(p, []string{"of", "commitment", "opening"}, func(k string, v jsonValue) bool {
			if v.kind == '0' {
				return true
			}
			var ok bool
			switch k {
			case "of":
				out.Of, ok = v.uint()
			case "commitment":
				out.Commitment, ok = v.str()
			case "opening":
				out.Opening, ok = v.str()
			}
			return ok
		})
	})
}

// uint is a plain unsigned integer value.
func (v jsonValue) uint() (uint64, bool) {
	if v.kind != 'n' {
		return 0, false
	}
	n, err := strconv.ParseUint(string(v.raw), 10, 64)
	return n, err == nil
}

// sealedOf is the "sealed" member of a payload, as json.Unmarshal into a
// struct of that one field reads it.
func sealedOf(p []byte) (string, error) {
	var sealed string
	ok := fields(p, []string{"sealed"}, func(_ string, v jsonValue) bool {
		if v.kind == '0' {
			return true
		}
		var ok bool
		sealed, ok = v.str()
		return ok
	})
	if ok {
		return sealed, nil
	}
	var x struct {
		Sealed string `json:"sealed"`
	}
	err := json.Unmarshal(p, &x)
	return x.Sealed, err
}
