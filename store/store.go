// Package store is umpire's durable memory: an append-only, hash-chained event
// log per game, the outbox of messages waiting to be sent, the intake marks
// that stop a mail being handled twice, and the secrets (dice seeds, player
// secrets) that must never be exported.
//
// Everything that belongs together is written in one transaction: the events a
// submission causes, the mails it triggers and the mark that says the mail was
// handled. A conflicting or duplicate write fails with a typed error and writes
// nothing at all.
//
// The package knows nothing of games or rules: payloads are opaque bytes. It
// must never import the adjudicator, mail or templates packages.
package store

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"time"
)

// Hash is a SHA-256 digest.
type Hash [32]byte

// String returns the digest in lower-case hex.
func (h Hash) String() string { return fmt.Sprintf("%x", h[:]) }

// IsZero reports whether h is all zero bytes (the prev of a game's first event).
func (h Hash) IsZero() bool { return h == Hash{} }

// NewEvent is an event as the caller hands it to Append.
type NewEvent struct {
	Type    string    // stable type name, e.g. "game.created"; never a Go type name
	Schema  int       // version of the payload schema for Type, from 1
	Time    time.Time // when it was received, given by the caller
	Actor   string    // who caused it, e.g. "referee", "side:invader", "engine"
	Payload []byte    // the body, usually JSON; opaque to the store
}

// Event is one stored entry of a game's log.
type Event struct {
	Seq uint64 // position in the game's log, from 1
	NewEvent
	Prev Hash // Hash of the event before it; zero for Seq 1
	Hash Hash // ChainHash(Prev, this event)
}

// ChainHash computes the hash of event e chained onto prev. The encoding is
// fixed (version 1): changing it would break every existing game.
func ChainHash(prev Hash, seq uint64, e NewEvent) Hash {
	h := sha256.New()
	h.Write([]byte("umpire-event-v1\x00"))
	h.Write(prev[:])
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], seq)
	h.Write(b[:])
	writeBytes := func(p []byte) {
		binary.BigEndian.PutUint64(b[:], uint64(len(p)))
		h.Write(b[:])
		h.Write(p)
	}
	writeBytes([]byte(e.Type))
	binary.BigEndian.PutUint64(b[:], uint64(int64(e.Schema)))
	h.Write(b[:])
	binary.BigEndian.PutUint64(b[:], uint64(e.Time.UnixNano()))
	h.Write(b[:])
	writeBytes([]byte(e.Actor))
	writeBytes(e.Payload)
	var out Hash
	h.Sum(out[:0])
	return out
}

// MessageStatus is where an outbox message stands.
type MessageStatus string

const (
	Pending MessageStatus = "pending" // waiting to be sent (again)
	Sent    MessageStatus = "sent"    // handed to the SMTP server
	Failed  MessageStatus = "failed"  // permanently refused; the referee must look
)

// Message is one entry of the outbox: a complete mail ready to send.
type Message struct {
	ID          string    // unique and stable (the Message-ID without brackets)
	Game        string    // the game it belongs to, "" for none
	From        string    // envelope sender
	To          []string  // envelope recipients
	Raw         []byte    // the whole RFC 5322 message
	Created     time.Time // when it was put in the outbox
	Status      MessageStatus
	Attempts    int
	NextAttempt time.Time // not before this time
	LastError   string
	SentAt      time.Time // when MarkSent recorded it; zero until then
	// Pruned says that PruneSent dropped the body of this sent message:
	// Raw is nil, everything else is kept (the ID stays known, so queueing
	// it again is still ErrDuplicate). A pruned message cannot be retried.
	Pruned bool
}

// PruneStats is what PruneSent did.
type PruneStats struct {
	Messages int   // sent messages whose body was dropped
	Bytes    int64 // the bytes of those bodies (len(Raw)); bbolt stores them in base64, a third more
}

// Batch is everything one Append writes, atomically (or one game's part of
// an AppendAll).
type Batch struct {
	Game     string            // game id; the game is created by its first batch (Expected 0)
	Expected uint64            // the version (number of events) the caller last saw
	Events   []NewEvent        // appended in order
	Outbox   []Message         // queued as Pending with no attempts; an ID ever queued is ErrDuplicate
	Marks    []string          // intake marks; one already present is ErrDuplicate
	Secrets  map[string][]byte // private per-game values (never exported), set or replaced
	Meta     map[string][]byte // global key/values (e.g. IMAP UIDVALIDITY), set or replaced
}

// Errors returned by a Store. Test them with errors.Is; ConflictError and
// DuplicateError carry the details.
var (
	ErrConflict    = errors.New("store: version conflict")
	ErrDuplicate   = errors.New("store: already recorded")
	ErrUnknownGame = errors.New("store: unknown game")
	ErrNotFound    = errors.New("store: not found")
	ErrClosed      = errors.New("store: closed")
	// ErrInvalid: a batch breaks the rules (no game id, an event without a
	// type, schema or time, an empty key, a key over MaxKeyLen bytes).
	ErrInvalid = errors.New("store: invalid batch")
	// ErrCorrupt: stored bytes do not decode or a game's hash chain is broken.
	ErrCorrupt = errors.New("store: corrupt data")
	// ErrLocked: another process holds the data file.
	ErrLocked = errors.New("store: data file in use")
	// ErrReadOnly: a write to a store opened with OpenReadOnly.
	ErrReadOnly = errors.New("store: opened read-only")
	// ErrPruned: Retry or Fail of a message whose body PruneSent dropped.
	ErrPruned = errors.New("store: the message's body was pruned")
)

// ConflictError says that a game's log was not at the version the caller expected.
type ConflictError struct {
	Game             string
	Expected, Actual uint64
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("store: game %q is at version %d, not %d as expected", e.Game, e.Actual, e.Expected)
}

func (e *ConflictError) Unwrap() error { return ErrConflict }

// DuplicateError says that a mark or outbox message was already recorded.
type DuplicateError struct {
	Kind string // "mark" or "message"
	Key  string
}

func (e *DuplicateError) Error() string {
	return fmt.Sprintf("store: %s %q already recorded", e.Kind, e.Key)
}

func (e *DuplicateError) Unwrap() error { return ErrDuplicate }

// Store is the interface both implementations (bbolt and memory) satisfy; one
// conformance suite (package storetest) runs against both.
type Store interface {
	// Append writes b atomically and returns the stored events (times in UTC,
	// cut to nanoseconds since 1970, as they will be read back). It fails with
	// a *ConflictError if the game is not at b.Expected, and with a
	// *DuplicateError if a mark or message ID exists; then nothing is written.
	// A batch with no events may still write marks, outbox messages and meta
	// (Expected is then checked only if the game exists or Expected > 0);
	// such a batch does not create the game. A batch that can never be
	// written fails with ErrInvalid.
	Append(ctx context.Context, b Batch) ([]Event, error)
	// AppendAll writes several batches in one transaction: all of them or,
	// on any error, none. It is what a run of Appends in the same order
	// would do, made atomic (a crash leaves every batch or none), with one
	// rule more: a game may be named by one batch of a call only (a second
	// is ErrInvalid; batches without a game may be several). Each batch's
	// Expected is checked against its own game, and a batch with Expected 0
	// and events creates its game as Append does. A mark or message ID that
	// two batches of the call write is ErrDuplicate, as one written twice
	// within a batch is; a meta key that two batches set takes the later
	// one's value. The first batch, in order, that fails decides the error
	// (a *ConflictError names its game). It returns the stored events of
	// each batch at its index (nil for a batch without events). An empty
	// list writes nothing and returns nil. Append(ctx, b) is AppendAll(ctx,
	// []Batch{b}).
	AppendAll(ctx context.Context, bs []Batch) ([][]Event, error)
	// Events returns the game's events with Seq >= from (all for from <= 1).
	Events(ctx context.Context, game string, from uint64) ([]Event, error)
	// Scan calls fn for each event with Seq >= from, in order, without
	// loading the whole log; it stops at fn's first error and returns it.
	// fn may use the store, even append to the game being scanned; whether
	// the scan then sees the new events is not defined.
	Scan(ctx context.Context, game string, from uint64, fn func(Event) error) error
	// Version returns the number of events in the game's log; ErrUnknownGame if none.
	Version(ctx context.Context, game string) (uint64, error)
	// Games lists the game ids in lexical order.
	Games(ctx context.Context) ([]string, error)
	// Secret returns a game's private value; ErrNotFound if absent.
	Secret(ctx context.Context, game, name string) ([]byte, error)
	// Marked reports whether an intake mark exists.
	Marked(ctx context.Context, mark string) (bool, error)
	// Meta returns a global value; ErrNotFound if absent.
	Meta(ctx context.Context, key string) ([]byte, error)
	// MetaKeys lists the meta keys that start with prefix, in byte
	// order ("" lists them all): how a family of meta values kept under
	// one prefix, such as a library of module files, is enumerated.
	MetaKeys(ctx context.Context, prefix string) ([]string, error)
	// Due returns the Pending messages whose NextAttempt is not after now,
	// oldest first: by NextAttempt, then by ID. A zero NextAttempt is due at
	// once. max > 0 returns at most max of them (the first), so that a
	// sender holds a few mails in memory at a time, not a whole backlog of
	// pictures; max <= 0 returns them all.
	Due(ctx context.Context, now time.Time, max int) ([]Message, error)
	// Messages returns every outbox message of a game ("" for all), oldest
	// first: in the order they were queued.
	Messages(ctx context.Context, game string) ([]Message, error)
	// MarkSent, Retry and Fail move a message on; ErrNotFound if unknown.
	// Each counts one attempt and works from any status (so the referee can
	// retry a Failed message), except that Retry and Fail of a pruned
	// message fail with ErrPruned (it has no body left to send). MarkSent
	// records at in SentAt and clears LastError; Retry makes the message
	// Pending again from next.
	MarkSent(ctx context.Context, id string, at time.Time) error
	Retry(ctx context.Context, id string, next time.Time, reason string) error
	Fail(ctx context.Context, id string, reason string) error
	// PruneSent drops the body (Raw) of every Sent message whose SentAt is
	// before the given time and marks it Pruned; nothing else of it changes,
	// and Pending and Failed messages are never touched. It works in
	// transactions of at most PruneChunk messages, so a large outbox never
	// makes one large write; when ctx ends between them it returns what was
	// done so far with ctx's error. Pruning again prunes nothing more.
	PruneSent(ctx context.Context, before time.Time) (PruneStats, error)
	// Close releases the store; later calls fail with ErrClosed.
	Close() error
}

// checkBatches returns an ErrInvalid error if the batches of one AppendAll
// can never be written: one of them breaks the rules, or two name the same
// game. Like checkBatch it needs no state.
func checkBatches(bs []Batch) error {
	for i := range bs {
		if err := checkBatch(&bs[i]); err != nil {
			return err
		}
	}
	if len(bs) < 2 {
		return nil
	}
	at := make(map[string]int, len(bs))
	for i := range bs {
		g := bs[i].Game
		if g == "" {
			continue
		}
		if j, ok := at[g]; ok {
			return fmt.Errorf("%w: game %q is named by batches %d and %d of one call; a game takes one batch per call", ErrInvalid, g, j, i)
		}
		at[g] = i
	}
	return nil
}

// callKeys are the marks and message IDs that the earlier batches of one
// AppendAll write, so that a later batch repeating one is refused exactly as
// if the earlier batch had been stored already. For a call of one batch it
// stays empty and costs nothing.
type callKeys struct{ marks, msgs map[string]bool }

// check is checkDuplicates for b against what is stored (as the lookups
// tell) and what the call's earlier batches write.
func (c *callKeys) check(b *Batch, markStored, messageStored func(string) bool) error {
	return checkDuplicates(b,
		func(k string) bool { return c.marks[k] || markStored(k) },
		func(id string) bool { return c.msgs[id] || messageStored(id) })
}

// add records b's marks and message IDs for the batches after it.
func (c *callKeys) add(b *Batch) {
	if len(b.Marks) > 0 && c.marks == nil {
		c.marks = make(map[string]bool)
	}
	for _, k := range b.Marks {
		c.marks[k] = true
	}
	if len(b.Outbox) > 0 && c.msgs == nil {
		c.msgs = make(map[string]bool)
	}
	for _, m := range b.Outbox {
		c.msgs[m.ID] = true
	}
}
