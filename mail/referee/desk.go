// Package referee decides what to do with one mail that reached the
// referee's mailbox: extract the orders, make sure the mail was not handled
// before, find the game and side it is for, check that the sender is that
// side's registered player, record the orders (adjudicating when a turn is
// complete) and queue every reply — acknowledgement, results to each
// player with their own view, or the errors — in the SAME store
// transaction as the events and the intake mark.
//
// It also answers the referee's commands (new game, show, resend, outbox,
// retry) mailed from the referee's address.
//
// Mail from strangers gets no reply at all (no backscatter); it is only
// marked, so it is never looked at twice. This package never talks to a
// mail server: intake fetches and files mail, send delivers the outbox.
package referee

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/mail/compose"
	"github.com/umpire-pbem/umpire/mail/extract"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
	"github.com/umpire-pbem/umpire/templates"
)

// Desk handles mail for one referee mailbox.
type Desk struct {
	Games     *games.Service
	Templates *templates.Set
	From      compose.Address // the sender of every reply
	// Referee is the address that may mail referee commands ("" for none;
	// a game's own referee address may also mail show and resend).
	Referee string
	// RefereeSecret, when set, must be given as "secret:" in every command.
	RefereeSecret string
	Limits        extract.Limits
	Log           *slog.Logger
	// PrepareAddresses runs before a game is created by mail, with the
	// players' addresses; what it returns is added to the referee's reply.
	// The local hub uses it to open a mailbox for each player.
	PrepareAddresses func(ctx context.Context, addrs []string) (string, error)
	// Rulesets lists the rulesets of this umpire, for new-campaign and
	// new-tournament to find theirs (nil: they need a "ruleset:" line).
	Rulesets func() []adjudicator.Ruleset
	// SecretGuesses is how many wrong secrets one address, or one side of
	// a game, may send within SecretWindow; then guessing is paused for
	// SecretWindow (see throttle.go). 0 means DefaultSecretGuesses (5), a
	// negative number no limit.
	SecretGuesses int
	// SecretWindow is the rolling window of SecretGuesses and the length
	// of a pause; 0 means DefaultSecretWindow (1h).
	SecretWindow time.Duration

	guessMu sync.Mutex // serialises changes to the counts of wrong secrets
}

// Folder says where a handled mail goes.
type Folder int

const (
	Processed Folder = iota // orders or a command were accepted
	Rejected                // anything else, answered or not
)

func (f Folder) String() string {
	if f == Processed {
		return "processed"
	}
	return "rejected"
}

// Outcome is what Handle did with a mail.
type Outcome struct {
	Folder    Folder
	MessageID string
	From      string
	Game      string
	Side      string
	Replies   int    // mails queued
	Again     bool   // the mail had been handled before: nothing new was done
	Reason    string // a short word for the log: accepted, stranger, bad-orders, ...
}

// Handle decides about one raw mail and commits everything it causes in one
// transaction. An error means nothing was recorded and the mail should be
// handled again later (the store failed); every problem with the mail
// itself is an Outcome, never an error.
func (d *Desk) Handle(ctx context.Context, raw []byte) (Outcome, error) {
	m, xerr := extract.Extract(raw, d.Limits)
	id := ""
	if m != nil {
		id = m.MessageID
	}
	if id == "" || strings.HasPrefix(id, "sha256:") && len(id) == len("sha256:") {
		sum := sha256.Sum256(raw)
		id = "sha256:" + hex.EncodeToString(sum[:])
	}
	h := &handling{d: d, raw: raw, m: m, id: id, mark: markKey("msgid:", id), rejMark: markKey("rejected:", id)}
	if m != nil {
		h.out.From = m.From
	}
	h.out.MessageID = id
	if done, err := h.handledBefore(ctx); done || err != nil {
		return h.out, err
	}
	var err error
	switch {
	case xerr != nil:
		err = h.unreadable(ctx, xerr)
	case isUnlock(m.Orders) && d.mayCommand(ctx, m.From):
		err = h.unlock(ctx) // throttle.go
	case isPress(m.Orders):
		err = h.press(ctx) // press.go
	case isAsk(m.Orders):
		err = h.ask(ctx) // history.go: help, status, history, results, map, export
	case hasCommand(m.Orders) && d.mayCommand(ctx, m.From):
		err = h.command(ctx)
	case hasCommand(m.Orders):
		err = h.ask(ctx) // a referee's command from a player: refused (history.go)
	default:
		err = h.orders(ctx)
	}
	if errors.Is(err, store.ErrDuplicate) {
		// Another handler recorded this very mail meanwhile.
		h.out = Outcome{MessageID: id, From: h.out.From}
		_, err = h.handledBefore(ctx)
	}
	return h.out, err
}

// handling is the state of one Handle call.
type handling struct {
	d       *Desk
	raw     []byte
	m       *extract.Mail // nil when even the header was unreadable
	id      string
	mark    string
	rejMark string
	out     Outcome
	// meta and extra are written with a rejection: the counts of wrong
	// secrets and the notices of a pause (throttle.go).
	meta  map[string][]byte
	extra []store.Message
	// marked says the intake mark was written with what the mail asked
	// for (a referee's action on a game): the reply must not write it again.
	marked bool
}

// markKey keeps intake marks within the store's key limit.
func markKey(prefix, id string) string {
	if len(id) <= 512 {
		return prefix + id
	}
	sum := sha256.Sum256([]byte(id))
	return prefix + "sha256:" + hex.EncodeToString(sum[:])
}

func (h *handling) handledBefore(ctx context.Context) (bool, error) {
	st := h.d.Games.Store
	seen, err := st.Marked(ctx, h.mark)
	if err != nil || !seen {
		return false, err
	}
	rej, err := st.Marked(ctx, h.rejMark)
	if err != nil {
		return false, err
	}
	h.out.Again = true
	h.out.Reason = "seen-before"
	if rej {
		h.out.Folder = Rejected
	}
	return true, nil
}

// reject records the mail as rejected, with the replies given (none for a
// stranger), in one transaction.
func (h *handling) reject(ctx context.Context, reason string, replies []store.Message) error {
	b := store.Batch{Marks: []string{h.mark, h.rejMark}, Outbox: append(replies, h.extra...), Meta: h.meta}
	if _, err := h.d.Games.Store.Append(ctx, b); err != nil {
		return err
	}
	h.out.Folder = Rejected
	h.out.Reason = reason
	h.out.Replies = len(b.Outbox)
	return nil
}

func (d *Desk) now() time.Time {
	if d.Games.Now != nil {
		return d.Games.Now().UTC()
	}
	return time.Now().UTC()
}

func (d *Desk) domain() string { return compose.Domain(d.From.Address) }

func (d *Desk) log() *slog.Logger {
	if d.Log != nil {
		return d.Log
	}
	return slog.Default()
}

// mayCommand reports whether addr may mail referee commands: the
// configured referee, or the referee of some game.
func (d *Desk) mayCommand(ctx context.Context, addr string) bool {
	if d.isReferee(addr) {
		return true
	}
	ids, err := d.Games.Store.Games(ctx)
	if err != nil {
		return false
	}
	for _, id := range ids {
		if g, err := d.Games.Load(ctx, id); err == nil && sameAddress(g.Created.Referee, addr) {
			return true
		}
	}
	return false
}

func (d *Desk) isReferee(addr string) bool {
	return d.Referee != "" && sameAddress(addr, d.Referee)
}

// sameAddress compares mail addresses case-insensitively.
func sameAddress(a, b string) bool {
	return a != "" && strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b))
}

// errBuild marks a failure to build a reply (a broken template): umpire's
// fault, the same at every try.
var errBuild = errors.New("building a reply")

func buildErr(err error) error { return fmt.Errorf("%w: %v", errBuild, err) }
