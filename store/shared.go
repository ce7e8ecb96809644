package store

import (
	"context"
	"time"
)

// The capabilities of a store that several processes share (store/postgres):
// none is part of Store, because a bbolt file has one process at a time.

// Leases is implemented by a store that several daemons share. A lease is a
// named, exclusive right with a term, such as "the intake of mailbox M":
// one holder has it at a time, renews it before its term runs out, and
// loses it to another holder only once the term has run out (a holder that
// died, hung or lost the network). Terms are measured by the store's own
// clock, so the holders' clocks do not matter.
type Leases interface {
	// Lease takes the lease name for holder for ttl from now, or renews it
	// when holder has it already. When another holder has it and its term
	// has not run out, it returns held false and that holder's name.
	Lease(ctx context.Context, name, holder string, ttl time.Duration) (held bool, other string, err error)
	// Release gives the lease up at once if holder has it (a clean
	// shutdown, so that a standby need not wait for the term); otherwise
	// it does nothing.
	Release(ctx context.Context, name, holder string) error
}

// DueFrom is implemented by a store that several daemons share, each with
// its own mailbox and mail server: a daemon sends only the mail it queued,
// whose envelope sender is its own address.
type DueFrom interface {
	// DueFrom is Due restricted to the messages whose From is from.
	DueFrom(ctx context.Context, now time.Time, max int, from string) ([]Message, error)
}

// Item is one record of a whole store, as Dump reads it and Load writes it:
// exactly one of its parts is set.
type Item struct {
	Event   *Event   // an event of Event's game (Game names it), in log order
	Game    string   // the game of Event or Secret
	Secret  *KV      // a game's private value
	Mark    string   // an intake mark
	Meta    *KV      // a global value
	Message *Message // an outbox message, with its status, attempts and times
}

// KV is a named value.
type KV struct {
	Key   string
	Value []byte
}

// Dumper is implemented by a store that `umpire store copy` can read whole.
type Dumper interface {
	// Dump calls fn for every record: each game's events in order (games
	// in lexical order) and its secrets, then the marks, the meta values
	// and the outbox messages in the order they were queued. It stops at
	// fn's first error and returns it. Snapshots, a cache, are not dumped.
	Dump(ctx context.Context, fn func(Item) error) error
}

// Loader is implemented by a store that `umpire store copy` can write.
type Loader interface {
	// Load writes items as they are, in one transaction per call: events
	// keep their hashes (each must follow its game's last event, and Load
	// checks the chain: ErrCorrupt otherwise), messages keep their status,
	// attempts and times. Marks and message IDs already present are
	// ErrDuplicate, as in Append. A copy calls it with items in Dump's
	// order, a few thousand at a time, into an empty store.
	Load(ctx context.Context, items []Item) error
}
