package game

import (
	"github.com/umpire-pbem/umpire/adjudicator"
)

// Replay and Verify read every turn.adjudicated payload whole (rolls,
// report), and json.Unmarshal of them was the largest part of Verify and a
// good part of Replay. decodeAdjudicated reads them with the strict
// scanner of fastjson.go, under the same rule: whatever it is not sure to
// read exactly as json.Unmarshal would (besides what fields gives up on: a
// key seen twice in one object, a null inside an array, a member of the
// wrong kind) is handed to json.Unmarshal.

var adjudicatedKeys = []string{"k", "chain", "index", "seed", "requests", "events", "rolls", "report", "sealed", "state_hash", "ruleset_version"}

var rollKeys = []string{"n", "label", "dice", "faces", "total", "outcome", "to", "sealed"}

var lineKeys = []string{"text", "to"}

// decodeAdjudicated is json.Unmarshal(p, adj) into a zero Adjudicated,
// faster.
func decodeAdjudicated(p []byte, adj *Adjudicated) error {
	return decodeAdjudicatedFor(p, adj, true)
}

// decodeAdjudicatedFor is decodeAdjudicated, leaving adj.Report empty
// (but checked as json.Unmarshal checks it) unless report is set: Verify
// does not read the report.
func decodeAdjudicatedFor(p []byte, adj *Adjudicated, report bool) error {
	return strictOr(p, adj, func(out *Adjudicated) bool { return fastAdjudicated(p, out, report) })
}

func fastAdjudicated(p []byte, out *Adjudicated, report bool) bool {
	var seen uint32
	return fields(p, adjudicatedKeys, func(k string, v jsonValue) bool {
		if !once(&seen, adjudicatedKeys, k) {
			return false
		}
		if v.kind == '0' {
			return true // null leaves the field as it is
		}
		var ok bool
		switch k {
		case "k":
			out.K, ok = v.intField()
		case "chain":
			out.Chain, ok = v.intField()
		case "index":
			out.Index, ok = v.intField()
		case "events":
			out.Events, ok = v.intField()
		case "seed":
			out.Seed, ok = v.str()
		case "sealed":
			out.Sealed, ok = v.str()
		case "state_hash":
			out.StateHash, ok = v.str()
		case "ruleset_version":
			out.RulesetVersion, ok = v.str()
		case "requests":
			out.Requests, ok = stringArray(v)
		case "rolls":
			out.Rolls, ok = rolls(v)
		case "report":
			if report {
				out.Report, ok = lines(v)
			} else {
				ok = linesValid(v)
			}
		}
		return ok
	})
}

// once marks key k of keys as seen and reports whether it was not before.
func once(seen *uint32, keys []string, k string) bool {
	for i, w := range keys {
		if w == k {
			bit := uint32(1) << i
			if *seen&bit != 0 {
				return false
			}
			*seen |= bit
			return true
		}
	}
	return false
}

// intField is a plain integer that fits an int.
func (v jsonValue) intField() (int, bool) {
	n, ok := v.int()
	return int(n), ok && int64(int(n)) == n
}

// elements calls f with each element of v, an array the scanner already
// checked; a null element makes it give up.
func elements(v jsonValue, f func(e jsonValue) bool) bool {
	if v.kind != '[' {
		return false
	}
	s := scanner{p: v.raw, i: 1}
	s.space()
	if s.byte(']') {
		return true
	}
	for {
		s.space()
		start := s.i
		kind, ok := s.value(0)
		if !ok || kind == '0' || !f(jsonValue{kind: kind, raw: v.raw[start:s.i]}) {
			return false
		}
		s.space()
		if s.byte(',') {
			continue
		}
		return s.byte(']')
	}
}

// stringArray reads an array of strings (a non-nil slice, empty for []).
func stringArray(v jsonValue) ([]string, bool) {
	out := []string{}
	ok := elements(v, func(e jsonValue) bool {
		s, ok := e.str()
		out = append(out, s)
		return ok
	})
	return out, ok
}

func audience(v jsonValue) (adjudicator.Audience, bool) {
	s, ok := stringArray(v)
	out := make(adjudicator.Audience, len(s))
	for i, x := range s {
		out[i] = adjudicator.Side(x)
	}
	return out, ok
}

func ints(v jsonValue) ([]int, bool) {
	out := []int{}
	ok := elements(v, func(e jsonValue) bool {
		n, ok := e.intField()
		out = append(out, n)
		return ok
	})
	return out, ok
}

func rolls(v jsonValue) ([]*adjudicator.Roll, bool) {
	out := []*adjudicator.Roll{}
	ok := elements(v, func(e jsonValue) bool {
		r := &adjudicator.Roll{}
		out = append(out, r)
		var seen uint32
		return e.kind == '{' && fields(e.raw, rollKeys, func(k string, v jsonValue) bool {
			if !once(&seen, rollKeys, k) {
				return false
			}
			if v.kind == '0' {
				return true
			}
			var ok bool
			switch k {
			case "n":
				r.N, ok = v.intField()
			case "total":
				r.Total, ok = v.intField()
			case "label":
				r.Label, ok = v.str()
			case "dice":
				r.Dice, ok = v.str()
			case "outcome":
				r.Outcome, ok = v.str()
			case "faces":
				r.Faces, ok = ints(v)
			case "to":
				r.To, ok = audience(v)
			case "sealed":
				r.Sealed, ok = v.bool()
			}
			return ok
		})
	})
	return out, ok
}

func lines(v jsonValue) ([]adjudicator.Line, bool) {
	out := []adjudicator.Line{}
	ok := elements(v, func(e jsonValue) bool {
		var l adjudicator.Line
		var seen uint32
		ok := e.kind == '{' && fields(e.raw, lineKeys, func(k string, v jsonValue) bool {
			if !once(&seen, lineKeys, k) {
				return false
			}
			if v.kind == '0' {
				return true
			}
			var ok bool
			switch k {
			case "text":
				l.Text, ok = v.str()
			case "to":
				l.To, ok = audience(v)
			}
			return ok
		})
		out = append(out, l)
		return ok
	})
	return out, ok
}

// adjCheck is what a checking fold reads of a turn.adjudicated payload.
type adjCheck struct {
	K         int    `json:"k"`
	Events    int    `json:"events"`
	StateHash string `json:"state_hash"`
}

// adjudicationCheck is json.Unmarshal of p into an adjCheck, faster.
func adjudicationCheck(p []byte) (adjCheck, error) {
	var a adjCheck
	err := strictOr(p, &a, func(out *adjCheck) bool {
		return fields(p, []string{"k", "events", "state_hash"}, func(k string, v jsonValue) bool {
			if v.kind == '0' {
				return true
			}
			var ok bool
			switch k {
			case "k":
				out.K, ok = v.intField()
			case "events":
				out.Events, ok = v.intField()
			case "state_hash":
				out.StateHash, ok = v.str()
			}
			return ok
		})
	})
	return a, err
}

// decodeAccepted is json.Unmarshal(p, oa) into a zero OrdersAccepted,
// faster (a replay reads every pending text's record whole).
func decodeAccepted(p []byte, oa *OrdersAccepted) error {
	return strictOr(p, oa, func(out *OrdersAccepted) bool { return scanAccepted(p, out) })
}

// scanAccepted reads p into out with the strict scanner; false when it
// cannot be sure.
func scanAccepted(p []byte, out *OrdersAccepted) bool {
	return fields(p, ordersFoldKeys, func(k string, v jsonValue) bool {
		if v.kind == '0' {
			return true
		}
		var str *string
		var flag *bool
		switch k {
		case "request":
			str = &out.Request
		case "side":
			str = (*string)(&out.Side)
		case "seat":
			str = (*string)(&out.Seat)
		case "by":
			str = &out.By
		case "parts":
			return false // a team's answer: rare, left to json.Unmarshal
		case "kind":
			str = &out.Kind
		case "phase":
			str = &out.Phase
		case "text":
			str = &out.Text
		case "digest":
			str = &out.Digest
		case "orders":
			str = &out.Orders
		case "normalized":
			str = &out.Normalized
		case "via":
			str = &out.Via
		case "message_id":
			str = &out.MessageID
		case "sealed":
			str = &out.Sealed
		case "seal_key":
			str = &out.SealKey
		case "secret_removed":
			flag = &out.SecretRemoved
		case "replaces":
			flag = &out.Replaces
		case "ahead":
			flag = &out.Ahead
		case "queued":
			flag = &out.Queued
		case "queue_done":
			flag = &out.QueueDone
		case "turn":
			var ok bool
			out.Turn, ok = v.intField()
			return ok
		case "queue_index":
			var ok bool
			out.QueueIndex, ok = v.intField()
			return ok
		case "queue_of":
			var ok bool
			out.QueueOf, ok = v.uint()
			return ok
		}
		var ok bool
		if str != nil {
			*str, ok = v.str()
		} else {
			*flag, ok = v.bool()
		}
		return ok
	})
}

// decodeOpening is json.Unmarshal(p, op) into a zero OrdersOpening, faster
// for an opening without a "then:" queue.
func decodeOpening(p []byte, op *OrdersOpening) error {
	return strictOr(p, op, func(out *OrdersOpening) bool {
		return fields(p, []string{"salt", "text", "digest", "orders", "normalized", "queue"}, func(k string, v jsonValue) bool {
			if v.kind == '0' {
				return true
			}
			var ok bool
			switch k {
			case "salt":
				out.Salt, ok = v.str()
			case "text":
				out.Text, ok = v.str()
			case "digest":
				out.Digest, ok = v.str()
			case "orders":
				out.Orders, ok = v.str()
			case "normalized":
				out.Normalized, ok = v.str()
			case "queue":
				out.Queue, ok = []Queued{}, string(v.raw) == "[]"
			}
			return ok
		})
	})
}

// linesValid reports whether v decodes as []adjudicator.Line without an
// error, when the scanner already checked it: every string the scanner
// accepts decodes, so only the kinds of the values matter.
func linesValid(v jsonValue) bool {
	return elements(v, func(e jsonValue) bool {
		return e.kind == '{' && fields(e.raw, lineKeys, func(k string, v jsonValue) bool {
			switch {
			case v.kind == '0':
				return true
			case k == "text":
				return v.kind == '"'
			}
			return elements(v, func(e jsonValue) bool { return e.kind == '"' })
		})
	})
}
