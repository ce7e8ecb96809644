package daemon

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/umpire-pbem/umpire/mail/config"
	"github.com/umpire-pbem/umpire/store"
)

// Several daemons on one store. A store that several processes share
// (store/postgres) implements store.Leases; then a daemon does each of its
// three kinds of work only while it holds that work's lease, and stands by
// for it otherwise:
//
//   - "intake <user>@<host:port>/<folder>": reading that mailbox;
//   - "send <address>": sending the outbox's mail whose From is address
//     (the sender asks the store for those only, store.DueFrom);
//   - "clock": running every game's clock (deadlines, reminders, pruning).
//
// A holder renews each lease every third of its term. When a renewal fails
// (an error, or another holder has it) the work stops at once: its context
// is cancelled and the mail in hand is finished or fails on its own, the
// store's marks and expected versions keep it from being recorded twice.
// A standby asks for the lease every third of the term too, and gets it
// once the holder's term has run out (the holder died or hung), or at once
// when the holder released it on a clean shutdown.
//
// A store of one process (bbolt, memory) has no leases: the daemon does
// all three kinds of work all the time, as it always did.

// DefaultLeaseTTL is the term of a daemon's leases when Daemon.LeaseTTL is
// not set: a standby takes over within about a term and a third of the
// active daemon's death.
const DefaultLeaseTTL = 15 * time.Second

// The names of the leases: one per mailbox, one per sending address, one
// for the clocks.
func intakeLease(c config.IMAP) string {
	return "intake " + c.User + "@" + c.Addr() + "/" + c.Folders.Inbox
}

func sendLease(from string) string { return "send " + from }

const clockLease = "clock"

// holderName names this daemon in the leases and the logs:
// hostname/pid/random, so that two daemons of one process differ too.
func holderName() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "unknown-host"
	}
	var b [4]byte
	rand.Read(b[:])
	return fmt.Sprintf("%s/%d/%s", host, os.Getpid(), hex.EncodeToString(b[:]))
}

// leaser runs work under leases of one store, for one holder.
type leaser struct {
	leases store.Leases
	holder string
	ttl    time.Duration
	log    *slog.Logger
}

// every is how often a lease is renewed, and asked for by a standby.
func (l *leaser) every() time.Duration { return max(l.ttl/3, time.Millisecond) }

// hold runs work whenever it holds the lease name, until ctx ends: it asks
// for the lease every third of the term, runs work with a context of its
// own while it holds it, and stops work (cancels that context and waits
// for it to return) as soon as a renewal fails. When ctx ends it waits
// for work to return and releases the lease, so that a standby need not
// wait for the term to run out. role names the work in the logs.
func (l *leaser) hold(ctx context.Context, role, name string, work func(context.Context)) {
	log := l.log.With("role", role, "lease", name)
	last := ""       // the other holder last seen
	failing := false // the last ask failed (said once, not every time)
	for ctx.Err() == nil {
		held, other, err := l.ask(ctx, name)
		if err == nil {
			failing = false
		}
		switch {
		case err != nil:
			if ctx.Err() != nil {
				return
			}
			if !failing {
				log.Warn("asking for a lease failed; standing by, will ask again until the store answers", "every", l.every(), "err", err)
			}
			failing = true
		case !held:
			if other != last {
				log.Info("standing by: another daemon holds the lease", "holder", other)
			}
			last = other
		default:
			log.Info("lease taken: this daemon does the work now", "holder", l.holder, "previous", orNone(last))
			last = l.run(ctx, log, name, work)
			if ctx.Err() != nil {
				return
			}
		}
		if !sleep(ctx, l.every()) {
			return
		}
	}
}

// ask takes or renews the lease; a store that does not answer within a
// third of the term counts as a failure, so that a holder cut off from
// the store stops its work well before its term runs out.
func (l *leaser) ask(ctx context.Context, name string) (bool, string, error) {
	actx, cancel := context.WithTimeout(ctx, l.every())
	defer cancel()
	return l.leases.Lease(actx, name, l.holder, l.ttl)
}

// run runs work while the lease is held, renewing it; it returns, once
// work has returned, the holder that took the lease over ("" when it was
// lost to an error or ctx ended).
func (l *leaser) run(ctx context.Context, log *slog.Logger, name string, work func(context.Context)) string {
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	done := make(chan struct{})
	go func() { defer close(done); work(wctx) }()
	// finish waits for work and gives the lease back: after a shutdown,
	// or when work returned by itself (then hold asks for the lease again
	// like any standby).
	finish := func() string {
		<-done
		l.release(ctx, log, name)
		return ""
	}
	t := time.NewTicker(l.every())
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return finish()
		case <-done:
			return finish()
		case <-t.C:
		}
		held, other, err := l.ask(ctx, name)
		if held {
			continue
		}
		if ctx.Err() != nil {
			return finish() // a shutdown, not a loss
		}
		stop()
		if err != nil {
			log.Info("lease lost: renewing it failed; this daemon stops the work and stands by", "err", err)
		} else {
			log.Info("lease lost: another daemon took it over; this daemon stops the work and stands by", "holder", other)
		}
		<-done
		log.Debug("work stopped after the lease was lost")
		return other
	}
}

// release gives the lease up after a clean stop; a failure only makes a
// standby wait for the term.
func (l *leaser) release(ctx context.Context, log *slog.Logger, name string) {
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), l.every())
	defer cancel()
	if err := l.leases.Release(rctx, name, l.holder); err != nil {
		log.Warn("releasing a lease failed; a standby takes it over when its term runs out", "term", l.ttl, "err", err)
		return
	}
	log.Info("lease released", "holder", l.holder)
}

func orNone(s string) string {
	if s == "" {
		return "(none seen)"
	}
	return s
}
