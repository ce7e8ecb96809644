// Package daemon wires the mail daemon together: the store, the referee
// desk, the IMAP intake loop (IDLE where offered, polling always) and the
// outbox sender loop, with backoff when a server is down and a graceful
// shutdown when the context ends: the mails in hand are finished and filed,
// the message being sent is recorded, then the store is closed. On a store
// that several daemons share, each of the three loops runs only while the
// daemon holds its lease, and stands by otherwise (lease.go).
//
// With no configuration it runs a local mail hub (package hub) and talks to
// it through exactly the same IMAP and SMTP code as to a real provider.
package daemon

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/mail/compose"
	"github.com/umpire-pbem/umpire/mail/config"
	"github.com/umpire-pbem/umpire/mail/extract"
	"github.com/umpire-pbem/umpire/mail/intake"
	"github.com/umpire-pbem/umpire/mail/referee"
	"github.com/umpire-pbem/umpire/mail/send"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
	"github.com/umpire-pbem/umpire/templates"
)

// Daemon is one running referee mailbox.
type Daemon struct {
	Config *config.Config
	Rules  game.Lookup
	// All lists the rulesets (for the mail commands that find a ruleset
	// by what it is, such as new-campaign). Optional.
	All func() []adjudicator.Ruleset
	Log *slog.Logger
	// Store is opened from Config.Data when nil; Run closes a store it
	// opened itself.
	Store store.Store
	// PrepareAddresses is given to the desk (see referee.Desk).
	PrepareAddresses func(ctx context.Context, addrs []string) (string, error)
	// Backoff after a server error: from MinBackoff (default 1s) doubling
	// to MaxBackoff (default 5 minutes).
	MinBackoff, MaxBackoff time.Duration
	// SendBackoff is the sender's first retry delay (default 1 minute).
	SendBackoff time.Duration
	// SendPoll is how often the sender looks for due mail when nothing
	// wakes it (default 15s).
	SendPoll time.Duration
	// ClockEvery is how often the games' clocks run: deadlines passed,
	// reminders (default 1 minute).
	ClockEvery time.Duration
	Now        func() time.Time
	// Handled, when set, is told about every mail handled (for metrics and
	// benchmarks); it must not block. Mails are handled concurrently, so
	// it may be called from several goroutines at once.
	Handled func(referee.Outcome)
	// Workers is how many mails are handled at the same time at most:
	// mails of different games and senders run concurrently, those that
	// share a game or a sender in arrival order (see package intake).
	// 0 means runtime.GOMAXPROCS(0); 1 handles one mail at a time.
	Workers int
	// LeaseTTL is the term of the daemon's leases on a store that several
	// daemons share (one that implements store.Leases; see lease.go):
	// each lease is renewed every third of it, and a standby takes over
	// within about a term and a third of the active daemon's death.
	// 0 means DefaultLeaseTTL. A store of one process ignores it.
	LeaseTTL time.Duration

	desk   *referee.Desk
	shared bool // the store is shared (store.Leases): work runs under leases
	store  store.Store
	kick   chan struct{}
}

// Run serves until ctx ends or the store fails to open.
func (d *Daemon) Run(ctx context.Context) error {
	cfg := d.Config
	log := d.log()
	st := d.Store
	if st == nil {
		b, err := store.Open(filepath.Join(cfg.Data, "umpire.db"))
		if err != nil {
			return err
		}
		st = b
		defer b.Close()
	}
	tmpl, err := templates.Overlay(cfg.Templates)
	if err != nil {
		return err
	}
	d.store = st
	svc := &games.Service{Store: st, Rules: d.Rules, Now: d.Now}
	if old, err := svc.Outdated(ctx); err != nil {
		return err
	} else if len(old) > 0 {
		return fmt.Errorf("the data file holds %d game(s) written by an older umpire whose log kept players' secrets (%s): stop here, back up %s, and run 'umpire upgrade --data %s' once (docs/trust.md)",
			len(old), strings.Join(old, ", "), filepath.Join(cfg.Data, "umpire.db"), cfg.Data)
	}
	d.desk = &referee.Desk{
		Games: svc, Templates: tmpl, Log: log,
		From:    compose.Address{Name: cfg.From.Name, Address: cfg.From.Address},
		Referee: cfg.Referee.Address, RefereeSecret: cfg.Referee.Secret.Value(),
		Limits:           extract.Limits{MaxBytes: int64(cfg.Limits.Orders), MaxMessage: int64(cfg.Limits.Message)},
		SecretGuesses:    cfg.Limits.SecretGuesses,
		SecretWindow:     cfg.Limits.SecretWindow.D(),
		PrepareAddresses: d.PrepareAddresses,
		Rulesets:         d.All,
	}
	d.desk.HookSeries() // the games a series reaches, and its standings, are mailed too
	d.kick = make(chan struct{}, 1)
	in := &intake.Intake{IMAP: cfg.IMAP, Store: st, Log: log, MaxSize: int64(cfg.Limits.Message), Handle: d.handle,
		Keys: d.desk.Keys, Workers: d.workers()}
	snd := &send.Sender{SMTP: cfg.SMTP, Store: st, Log: log, Now: d.Now, Backoff: d.SendBackoff, OnFail: d.tellReferee}
	intakeWork := func(ctx context.Context) { d.intakeLoop(ctx, in) }
	sendWork := func(ctx context.Context) { d.sendLoop(ctx, snd) }
	attrs := []any{"imap", cfg.IMAP.Addr(), "imap_user", cfg.IMAP.User, "imap_tls", cfg.IMAP.TLS,
		"smtp", cfg.SMTP.Addr(), "smtp_tls", cfg.SMTP.TLS, "from", cfg.From.Address, "referee", cfg.Referee.Address,
		"data", cfg.Data, "templates", tmpl.Dir()}
	var wg sync.WaitGroup
	wg.Add(3)
	if ls, ok := st.(store.Leases); ok {
		// A shared store: each kind of work under its lease (lease.go).
		l := &leaser{leases: ls, holder: holderName(), ttl: d.leaseTTL(), log: log}
		snd.From = cfg.From.Address
		d.shared = true
		log.Info("umpire serve started on a shared store; each kind of work waits for its lease",
			append(attrs, "holder", l.holder, "lease_ttl", l.ttl)...)
		go func() { defer wg.Done(); l.hold(ctx, "intake", intakeLease(cfg.IMAP), intakeWork) }()
		go func() { defer wg.Done(); l.hold(ctx, "send", sendLease(cfg.From.Address), sendWork) }()
		go func() { defer wg.Done(); l.hold(ctx, "clock", clockLease, d.clockLoop) }()
	} else {
		log.Info("umpire serve started", attrs...)
		go func() { defer wg.Done(); intakeWork(ctx) }()
		go func() { defer wg.Done(); sendWork(ctx) }()
		go func() { defer wg.Done(); d.clockLoop(ctx) }()
	}
	wg.Wait()
	log.Info("umpire serve stopped")
	return nil
}

func (d *Daemon) log() *slog.Logger {
	if d.Log != nil {
		return d.Log
	}
	return slog.Default()
}

// handle is the intake's handler: the desk, logged, and a nudge to the
// sender when replies were queued.
func (d *Daemon) handle(ctx context.Context, raw []byte) (referee.Folder, error) {
	start := time.Now()
	out, err := d.desk.Handle(ctx, raw)
	if err != nil {
		return 0, err
	}
	d.log().Info("mail handled", "message_id", out.MessageID, "from", out.From, "game", out.Game, "side", out.Side,
		"result", out.Reason, "folder", out.Folder.String(), "replies", out.Replies, "again", out.Again,
		"ms", time.Since(start).Milliseconds())
	if out.Replies > 0 {
		d.wake()
	}
	if d.Handled != nil {
		d.Handled(out)
	}
	return out.Folder, nil
}

func (d *Daemon) wake() {
	select {
	case d.kick <- struct{}{}:
	default:
	}
}

func (d *Daemon) backoff(cur time.Duration) time.Duration {
	lo, hi := d.MinBackoff, d.MaxBackoff
	if lo <= 0 {
		lo = time.Second
	}
	if hi <= 0 {
		hi = 5 * time.Minute
	}
	if cur < lo {
		return lo
	}
	return min(cur*2, hi)
}

func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

func (d *Daemon) intakeLoop(ctx context.Context, in *intake.Intake) {
	log := d.log()
	var wait time.Duration
	for ctx.Err() == nil {
		conn, err := in.Dial(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			wait = d.backoff(wait)
			if errors.Is(err, intake.ErrLogin) {
				log.Error("IMAP login refused: check imap.user and the password in the configuration; will try again", "in", wait, "err", err)
			} else {
				log.Warn("IMAP unavailable; will try again", "in", wait, "err", err)
			}
			if !sleep(ctx, wait) {
				return
			}
			continue
		}
		log.Debug("IMAP connected", "server", in.IMAP.Addr())
		wait = 0
		d.serveConn(ctx, conn)
		conn.Close()
		if ctx.Err() != nil {
			return
		}
		wait = d.backoff(wait)
		if !sleep(ctx, wait) {
			return
		}
	}
}

// serveConn runs cycles on one connection until it fails or ctx ends.
func (d *Daemon) serveConn(ctx context.Context, conn *intake.Conn) {
	log := d.log()
	for {
		st, err := conn.Cycle(ctx)
		if st.Fetched > 0 {
			log.Debug("intake cycle", "fetched", st.Fetched, "processed", st.Processed, "rejected", st.Rejected)
		}
		if err != nil {
			if ctx.Err() == nil {
				log.Warn("intake cycle failed; reconnecting", "err", err)
			}
			return
		}
		if ctx.Err() != nil {
			return
		}
		if _, err := conn.Wait(ctx, d.Config.IMAP.Poll.D()); err != nil {
			if ctx.Err() == nil {
				log.Warn("waiting for mail failed; reconnecting", "err", err)
			}
			return
		}
	}
}

func (d *Daemon) sendLoop(ctx context.Context, snd *send.Sender) {
	defer snd.Close() // the session kept between drains
	log := d.log()
	poll := d.SendPoll
	switch {
	case poll > 0:
	case d.shared:
		// Another daemon may have queued this one's mail (one read the
		// mailbox while this one held the send lease): its nudge cannot
		// reach this process, so look at the outbox often; DueFrom is
		// one indexed query.
		poll = 2 * time.Second
	default:
		poll = 15 * time.Second
	}
	var wait time.Duration
	for ctx.Err() == nil {
		_, err := snd.Drain(ctx)
		next := poll
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			wait = d.backoff(wait)
			next = wait
			log.Error("reading the outbox failed", "err", err)
		} else {
			wait = 0
		}
		t := time.NewTimer(next)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-d.kick:
		case <-t.C:
		}
		t.Stop()
	}
}

// clockLoop runs the games' clocks every ClockEvery, and wakes the sender
// when they queued mail.
func (d *Daemon) clockLoop(ctx context.Context) {
	every := d.ClockEvery
	if every <= 0 {
		every = time.Minute
	}
	t := time.NewTicker(every)
	defer t.Stop()
	var pruned time.Time
	for {
		if err := d.desk.Tick(ctx); err != nil && ctx.Err() == nil {
			d.log().Error("running the games' clocks failed", "err", err)
		}
		if now := d.clockNow(); now.Sub(pruned) >= 24*time.Hour {
			d.pruneSent(ctx, now)
			pruned = now
		}
		select {
		case d.kick <- struct{}{}:
		default:
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func (d *Daemon) leaseTTL() time.Duration {
	if d.LeaseTTL > 0 {
		return d.LeaseTTL
	}
	return DefaultLeaseTTL
}

// workers is Workers, else imap.workers of the configuration (0 there
// too: the intake's default, the number of processors).
func (d *Daemon) workers() int {
	if d.Workers != 0 {
		return d.Workers
	}
	return d.Config.IMAP.Workers
}

func (d *Daemon) clockNow() time.Time {
	if d.Now != nil {
		return d.Now()
	}
	return time.Now()
}

// pruneSent drops the text of the mail sent longer ago than
// outbox.keep_sent (30 days by default; never with outbox.keep_all): the
// pictures of old results are most of a data file. A sent mail's ID,
// recipients and time stay, so it is never sent twice.
func (d *Daemon) pruneSent(ctx context.Context, now time.Time) {
	o := d.Config.Outbox
	if o.KeepAll {
		d.log().Debug("old sent mail checked", "kept", "all (outbox.keep_all)")
		return
	}
	keep := o.KeepSent.D()
	if keep <= 0 {
		keep = config.DefaultKeepSent.D()
	}
	st, err := d.store.PruneSent(ctx, now.Add(-keep))
	switch {
	case err != nil && ctx.Err() == nil:
		d.log().Error("dropping the text of old sent mail failed; will try again tomorrow", "err", err)
	case st.Messages > 0:
		d.log().Info("dropped the text of old sent mail", "mails", st.Messages, "bytes", st.Bytes, "sent_before", now.Add(-keep).UTC().Format(time.RFC3339))
	default:
		d.log().Debug("old sent mail checked", "kept", "every mail sent since "+now.Add(-keep).UTC().Format(time.RFC3339))
	}
}

// tellReferee queues a notice to the referee about a mail refused for good
// (unless that mail was itself to the referee).
func (d *Daemon) tellReferee(ctx context.Context, m store.Message, reason string) {
	ref := d.Config.Referee.Address
	if ref == "" {
		return
	}
	for _, to := range m.To {
		if sameAddr(to, ref) {
			return
		}
	}
	body, err := d.desk.Templates.Render(templates.Referee, templates.RefereeData{Game: templates.Game{ID: m.Game}, Command: "delivery", OK: false,
		Text: fmt.Sprintf("A mail could not be delivered and will not be retried:\n  Message-ID: %s\n  to: %v\n  reason: %s\n\nMail \"command: retry\" to send it again once the address is fixed.", m.ID, m.To, reason)})
	if err != nil {
		d.log().Error("cannot tell the referee about a failed mail", "err", err)
		return
	}
	dom := compose.Domain(d.Config.From.Address)
	msg, err := compose.Build(compose.Mail{From: compose.Address{Name: d.Config.From.Name, Address: d.Config.From.Address}, To: compose.Address{Address: ref},
		Subject: compose.Subject(m.Game, "Delivery failed: a mail could not be delivered"), Kind: compose.KindReferee,
		ID: compose.MessageID(dom, m.Game, "failed", m.ID), Date: time.Now().UTC(), Game: m.Game, Body: body})
	if err == nil {
		_, err = d.desk.Games.Store.Append(ctx, store.Batch{Outbox: []store.Message{msg}})
	}
	if err != nil && !isDuplicate(err) {
		d.log().Error("cannot tell the referee about a failed mail", "err", err)
	}
}
