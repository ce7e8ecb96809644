package store

import "time"

// The rules of rules.go, for a store implemented outside this package
// (store/postgres): a third store follows exactly the rules of the other
// two, so it calls the same code rather than a copy of it. Nothing else
// should need these.

// CheckBatches returns an ErrInvalid error if the batches of one AppendAll
// can never be written: one breaks the rules of a batch, or two name the
// same game. It needs no state, so it runs before any transaction starts.
func CheckBatches(bs []Batch) error { return checkBatches(bs) }

// CheckVersion applies Batch.Expected: exists and version are the game's
// as stored (or as the call's earlier batches left it).
func CheckVersion(b *Batch, exists bool, version uint64) error {
	return checkVersion(b, exists, version)
}

// CallKeys are the marks and message IDs the earlier batches of one
// AppendAll write, so that a later batch repeating one is refused as if the
// earlier batch were stored already. The zero value is ready to use.
type CallKeys struct{ k callKeys }

// Check returns a *DuplicateError for a mark or message ID of b that is
// repeated within b, written by an earlier batch of the call, or stored
// (as the two lookups say).
func (c *CallKeys) Check(b *Batch, markStored, messageStored func(string) bool) error {
	return c.k.check(b, markStored, messageStored)
}

// Add records b's marks and message IDs for the batches after it.
func (c *CallKeys) Add(b *Batch) { c.k.add(b) }

// ChainEvents turns a batch's events into stored events following prev at
// version: sequence numbers, times cut to UTC nanoseconds, hashes.
func ChainEvents(events []NewEvent, version uint64, prev Hash) []Event {
	return chainEvents(events, version, prev)
}

// EventTime is the time an event stored as unixNano reads back as.
func EventTime(unixNano int64) time.Time { return eventTime(unixNano) }

// Queued is m as the outbox keeps it when first queued: Pending, no
// attempts, times in UTC, slices copied.
func Queued(m Message) Message { return queued(m) }

// MarkSentRule, MarkRetryRule and MarkFailedRule move a message as
// MarkSent, Retry and Fail do (each counts one attempt); the last two
// refuse a pruned message with ErrPruned.
func MarkSentRule(m *Message, at time.Time) { markSent(m, at) }

func MarkRetryRule(m *Message, next time.Time, reason string) error {
	return markRetry(m, next, reason)
}

func MarkFailedRule(m *Message, reason string) error { return markFailed(m, reason) }

// Prunable reports whether PruneSent drops the body of a message with
// this status, SentAt and Pruned flag.
func Prunable(status MessageStatus, sentAt time.Time, pruned bool, before time.Time) bool {
	return prunable(status, sentAt, pruned, before)
}

// PruneRule drops m's body, marks it Pruned, and says how many bytes it had.
func PruneRule(m *Message) int64 { return prune(m) }

// NormTime is t as the store keeps it: UTC, no monotonic reading; the zero
// time stays zero.
func NormTime(t time.Time) time.Time { return normTime(t) }

// DueNano is the sortable form of a NextAttempt: UnixNano, clamped, so
// that a zero NextAttempt sorts first ("at once").
func DueNano(t time.Time) int64 { return dueNano(t) }

// CheckKey returns an error if k is not a valid key (empty, or over
// MaxKeyLen bytes).
func CheckKey(k string) error { return checkKey(k) }
