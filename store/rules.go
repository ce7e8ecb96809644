package store

import (
	"encoding/binary"
	"fmt"
	"math"
	"time"
)

// The rules both implementations share, kept in one place so that the bolt
// and memory stores cannot drift apart.

// MaxKeyLen is the longest game id, mark, message ID, secret name or meta key
// in bytes. Bolt refuses keys over 32 KiB and the outbox index keys carry a
// time and a length prefix, so the limit sits well below that.
const MaxKeyLen = 1024

// Event times are stored as UnixNano, which only covers these years.
var (
	minEventTime = time.Unix(0, math.MinInt64)
	maxEventTime = time.Unix(0, math.MaxInt64)
)

// checkBatch returns an ErrInvalid error if b can never be written. It needs
// no state, so it runs before any transaction starts.
func checkBatch(b *Batch) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w for game %q: %s", ErrInvalid, b.Game, fmt.Sprintf(format, args...))
	}
	if b.Game == "" && (len(b.Events) > 0 || len(b.Secrets) > 0 || b.Expected > 0) {
		return bad("events, secrets and an expected version need a game id")
	}
	if len(b.Game) > MaxKeyLen {
		return bad("game id is %d bytes, more than %d", len(b.Game), MaxKeyLen)
	}
	for i, e := range b.Events {
		switch {
		case e.Type == "":
			return bad("event %d has no type", i)
		case e.Schema < 1:
			return bad("event %d (%s) has schema %d; schemas count from 1", i, e.Type, e.Schema)
		case e.Time.IsZero():
			return bad("event %d (%s) has no time", i, e.Type)
		case e.Time.Before(minEventTime) || e.Time.After(maxEventTime):
			return bad("event %d (%s) has time %v, outside the years 1678 to 2262", i, e.Type, e.Time)
		}
	}
	for i, m := range b.Outbox {
		if err := checkKey(m.ID); err != nil {
			return bad("outbox message %d: ID %v", i, err)
		}
	}
	for _, k := range b.Marks {
		if err := checkKey(k); err != nil {
			return bad("mark %q: %v", k, err)
		}
	}
	for k := range b.Secrets {
		if err := checkKey(k); err != nil {
			return bad("secret name %q: %v", k, err)
		}
	}
	for k := range b.Meta {
		if err := checkKey(k); err != nil {
			return bad("meta key %q: %v", k, err)
		}
	}
	return nil
}

func checkKey(k string) error {
	if k == "" {
		return fmt.Errorf("is empty")
	}
	if len(k) > MaxKeyLen {
		return fmt.Errorf("is %d bytes, more than %d", len(k), MaxKeyLen)
	}
	return nil
}

// checkVersion applies Batch.Expected: a batch for a game that does not
// exist yet passes only with Expected 0, and a batch without a game never
// conflicts (checkBatch refused Expected > 0 there).
func checkVersion(b *Batch, exists bool, version uint64) error {
	if b.Game == "" || (!exists && b.Expected == 0) || version == b.Expected {
		return nil
	}
	return &ConflictError{Game: b.Game, Expected: b.Expected, Actual: version}
}

// checkDuplicates finds a mark or message ID that is repeated within b or
// already stored (as told by the two lookups).
func checkDuplicates(b *Batch, markExists, messageExists func(string) bool) error {
	if len(b.Marks) > 0 {
		seen := make(map[string]bool, len(b.Marks))
		for _, k := range b.Marks {
			if seen[k] || markExists(k) {
				return &DuplicateError{Kind: "mark", Key: k}
			}
			seen[k] = true
		}
	}
	if len(b.Outbox) > 0 {
		seen := make(map[string]bool, len(b.Outbox))
		for _, m := range b.Outbox {
			if seen[m.ID] || messageExists(m.ID) {
				return &DuplicateError{Kind: "message", Key: m.ID}
			}
			seen[m.ID] = true
		}
	}
	return nil
}

// chainEvents turns the batch's events into stored events following prev
// at version. Times are cut to what the encoding keeps (UnixNano, UTC) before
// hashing, so what Append returns equals what a later read returns.
func chainEvents(events []NewEvent, version uint64, prev Hash) []Event {
	if len(events) == 0 {
		return nil
	}
	out := make([]Event, len(events))
	for i, ne := range events {
		e := &out[i]
		e.Seq = version + uint64(i) + 1
		e.Type = ne.Type
		e.Schema = ne.Schema
		e.Time = eventTime(ne.Time.UnixNano())
		e.Actor = ne.Actor
		e.Payload = cloneBytes(ne.Payload)
		e.Prev = prev
		e.Hash = ChainHash(prev, e.Seq, e.NewEvent)
		prev = e.Hash
	}
	return out
}

func eventTime(unixNano int64) time.Time { return time.Unix(0, unixNano).UTC() }

// queued is m as the outbox keeps it when first queued: Pending, no attempts,
// times in UTC without a monotonic reading, slices copied.
func queued(m Message) Message {
	m.To = cloneStrings(m.To)
	m.Raw = cloneBytes(m.Raw)
	m.Created = normTime(m.Created)
	m.NextAttempt = normTime(m.NextAttempt)
	m.Status = Pending
	m.Attempts = 0
	m.LastError = ""
	m.SentAt = time.Time{}
	m.Pruned = false
	return m
}

// The outbox moves. Every call counts as one delivery attempt. They work from
// any status so that the referee can, say, retry a Failed message after fixing
// an address.

func markSent(m *Message, at time.Time) {
	m.Status = Sent
	m.Attempts++
	m.SentAt = normTime(at)
	m.LastError = ""
}

func markRetry(m *Message, next time.Time, reason string) error {
	if m.Pruned {
		return fmt.Errorf("%w: outbox message %q was sent on %s and cannot be sent again", ErrPruned, m.ID, m.SentAt.Format(time.RFC3339))
	}
	m.Status = Pending
	m.Attempts++
	m.NextAttempt = normTime(next)
	m.LastError = reason
	return nil
}

func markFailed(m *Message, reason string) error {
	if m.Pruned {
		return fmt.Errorf("%w: outbox message %q was sent on %s", ErrPruned, m.ID, m.SentAt.Format(time.RFC3339))
	}
	m.Status = Failed
	m.Attempts++
	m.LastError = reason
	return nil
}

// PruneChunk is the most messages PruneSent rewrites in one transaction.
const PruneChunk = 500

// prunable reports whether PruneSent drops m's body. A Sent message without
// a body that is not marked yet (one copied by umpire recover) is marked,
// freeing nothing.
func prunable(status MessageStatus, sentAt time.Time, pruned bool, before time.Time) bool {
	return status == Sent && !pruned && sentAt.Before(before)
}

// prune drops m's body and says how many bytes it had.
func prune(m *Message) int64 {
	n := int64(len(m.Raw))
	m.Raw = nil
	m.Pruned = true
	return n
}

func normTime(t time.Time) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	return t.Round(0).UTC()
}

// dueNano orders outbox messages by NextAttempt. Times beyond what UnixNano
// covers are clamped, so a zero NextAttempt means "at once".
func dueNano(t time.Time) int64 {
	switch {
	case t.Before(minEventTime):
		return math.MinInt64
	case t.After(maxEventTime):
		return math.MaxInt64
	}
	return t.UnixNano()
}

// dueKey is the bolt key of the pending index: a sortable NextAttempt followed
// by the ID, so that byte order is (NextAttempt, ID) order.
func dueKey(t time.Time, id string) []byte {
	k := make([]byte, 8, 8+len(id))
	binary.BigEndian.PutUint64(k, uint64(dueNano(t))^(1<<63))
	return append(k, id...)
}

func cloneBytes(p []byte) []byte {
	if len(p) == 0 {
		return nil
	}
	return append([]byte(nil), p...)
}

func cloneStrings(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return append([]string(nil), s...)
}

func cloneMessage(m *Message) Message {
	c := *m
	c.To = cloneStrings(m.To)
	c.Raw = cloneBytes(m.Raw)
	return c
}

func cloneEvent(e *Event) Event {
	c := *e
	c.Payload = cloneBytes(e.Payload)
	return c
}
