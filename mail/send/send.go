// Package send drains the outbox: it takes the messages that are due,
// hands each to the SMTP server, and records what happened — sent; a
// temporary failure (a 4xx reply, a network error) retried later with
// exponential backoff and jitter; or a permanent refusal (a 5xx reply),
// recorded as failed for the referee to see and logged.
//
// A message keeps its Message-ID on every attempt. If umpire dies after the
// server accepted a message but before MarkSent was recorded, the message is
// sent again after restart with the same Message-ID: the recipient may get
// it twice, recognisably the same mail. Nothing is ever lost.
//
// The SMTP session is kept open between drains for a short while (Idle,
// 30 seconds by default), so that a busy game does not log in to the
// server for every reply; a kept session is checked with NOOP before it is
// used again and dialled anew when that fails, is ended after
// MaxPerSession messages, and is closed when the drain's context ends.
// Reusing a session changes nothing of the above: a message is recorded as
// sent only after the server accepted it on whatever session carried it.
//
// It never builds mail and never reads the inbox.
package send

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/textproto"
	"sync"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"github.com/umpire-pbem/umpire/mail/config"
	"github.com/umpire-pbem/umpire/store"
)

// Hook, when set (by tests only), is called with "sending" after the SMTP
// server accepted a message and before it is recorded as sent. Tests use
// it to kill the process there. It is nil in production.
var Hook func(step string)

// Sender drains a store's outbox through an SMTP server.
type Sender struct {
	SMTP  config.SMTP
	Store store.Store
	Log   *slog.Logger
	Now   func() time.Time // the clock; time.Now when nil
	// Backoff is the wait after the first temporary failure (default 1
	// minute); it doubles with each attempt up to MaxBackoff (default 1
	// hour), with up to 20 % random jitter.
	Backoff, MaxBackoff time.Duration
	// OnFail is called after a message was recorded as failed for good.
	OnFail func(ctx context.Context, m store.Message, reason string)
	// Idle is how long the SMTP session stays open after a drain, for the
	// next one (default DefaultIdle; negative: closed after each drain).
	// MaxPerSession is how many messages one session carries before it is
	// ended and another dialled (default DefaultMaxPerSession).
	Idle          time.Duration
	MaxPerSession int
	// From, when set and the store is shared (it implements
	// store.DueFrom), restricts the sender to the messages whose envelope
	// sender is exactly From: on a store that several daemons share, each
	// sends the mail it queued through its own mail server, and no two
	// send the same message. On a store of one process it changes
	// nothing: every due message is sent.
	From string

	mu   sync.Mutex
	kept *session // open between drains, nil if none
}

// Defaults for a Sender's zero Idle and MaxPerSession: below the idle
// timeouts of common providers (a few minutes) and their per-connection
// message limits (some end a session after about a hundred).
const (
	DefaultIdle          = 30 * time.Second
	DefaultMaxPerSession = 100
)

// session is a logged-in SMTP connection and what it has carried.
type session struct {
	c    *smtp.Client
	sent int
	// Set while the session is kept between drains: what closes it when
	// idle too long or when the drain's context ends.
	timer   *time.Timer
	stopCtx func() bool
}

func (s *Sender) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *Sender) log() *slog.Logger {
	if s.Log != nil {
		return s.Log
	}
	return slog.Default()
}

// Stats counts what a Drain did.
type Stats struct {
	Sent, Retried, Failed int
}

// DrainBatch is how many due messages a drain holds in memory at a time:
// a backlog of results mails with their pictures is read a few at a time.
const DrainBatch = 16

// Drain sends every due message, oldest first, over one SMTP session:
// the one kept from the last drain if it still answers, else a new one
// (and a new one again after a failed one). It reads the due messages
// DrainBatch at a time. It returns when none is due, or with a store
// error. SMTP problems never stop it: they are recorded per message; when
// the server cannot be reached, the messages left wait for the next
// drain without another try. The session is kept for the next drain (see
// Idle).
func (s *Sender) Drain(ctx context.Context) (Stats, error) {
	var st Stats
	ss := s.take()
	defer func() { s.keep(ctx, ss) }()
	seen := map[string]bool{} // tried in this drain: a retry due at once waits for the next
	var down error            // the server could not be reached
	for batch := DrainBatch; ctx.Err() == nil; {
		due, err := s.due(ctx, batch)
		if err != nil {
			return st, err
		}
		var fresh []store.Message
		for _, m := range due {
			if !seen[m.ID] {
				fresh = append(fresh, m)
			}
		}
		if len(fresh) == 0 {
			if len(due) < batch {
				return st, nil
			}
			batch *= 2 // only messages tried already: look further
			continue
		}
		for _, m := range fresh {
			if ctx.Err() != nil {
				return st, nil
			}
			seen[m.ID] = true
			if down != nil {
				if err := s.retry(ctx, m, down, &st); err != nil {
					return st, err
				}
				continue
			}
			if len(m.Raw) == 0 {
				// Nothing to send (a body dropped by an older umpire's
				// retry of a pruned mail): refused, for the referee to see.
				if err := s.Store.Fail(ctx, m.ID, "the mail has no text to send (its body was pruned)"); err != nil && !errors.Is(err, store.ErrPruned) {
					return st, err
				}
				st.Failed++
				s.log().Error("mail without a body: not sent", "id", m.ID, "to", m.To, "game", m.Game)
				continue
			}
			if ss != nil && ss.sent >= s.maxPerSession() {
				ss.quit()
				ss = nil
			}
			if ss == nil {
				c, err := s.dial()
				if err != nil {
					down = err
					if rerr := s.retry(ctx, m, err, &st); rerr != nil {
						return st, rerr
					}
					continue
				}
				ss = &session{c: c}
			}
			err := s.sendOne(ss.c, m)
			ss.sent++
			if err == nil {
				if Hook != nil {
					Hook("sending")
				}
				if err := s.Store.MarkSent(context.WithoutCancel(ctx), m.ID, s.now()); err != nil {
					return st, err
				}
				st.Sent++
				s.log().Info("mail sent", "id", m.ID, "to", m.To, "game", m.Game)
				continue
			}
			if Permanent(err) {
				if ferr := s.Store.Fail(ctx, m.ID, err.Error()); ferr != nil {
					return st, ferr
				}
				st.Failed++
				s.log().Error("mail refused for good; the referee must look (umpire serve --outbox)", "id", m.ID, "to", m.To, "game", m.Game, "err", err)
				if s.OnFail != nil {
					s.OnFail(ctx, m, err.Error())
				}
				if ss.c.Reset() != nil {
					ss.c.Close()
					ss = nil
				}
				continue
			}
			if rerr := s.retry(ctx, m, err, &st); rerr != nil {
				return st, rerr
			}
			ss.c.Close()
			ss = nil
		}
	}
	return st, nil
}

// due reads at most max due messages, oldest first: only those From
// sends when the store is shared and From is set, else all.
func (s *Sender) due(ctx context.Context, max int) ([]store.Message, error) {
	if df, ok := s.Store.(store.DueFrom); ok && s.From != "" {
		return df.DueFrom(ctx, s.now(), max, s.From)
	}
	return s.Store.Due(ctx, s.now(), max)
}

func (s *Sender) maxPerSession() int {
	if s.MaxPerSession > 0 {
		return s.MaxPerSession
	}
	return DefaultMaxPerSession
}

// take returns the kept session if it still answers a NOOP, else nil.
func (s *Sender) take() *session {
	s.mu.Lock()
	ss := s.kept
	s.kept = nil
	s.mu.Unlock()
	if ss == nil {
		return nil
	}
	ss.timer.Stop()
	ss.stopCtx()
	// A server that went away answers at once (the connection is closed);
	// a silent one gets a short while, not the full command timeout.
	timeout := ss.c.CommandTimeout
	ss.c.CommandTimeout = 15 * time.Second
	err := ss.c.Noop()
	ss.c.CommandTimeout = timeout
	if err != nil {
		ss.c.Close()
		s.log().Debug("the kept SMTP session is gone; dialling anew", "err", err)
		return nil
	}
	return ss
}

// keep holds ss open for the next drain, until Idle passes or ctx ends;
// it ends it at once when ctx has ended or reuse is off.
func (s *Sender) keep(ctx context.Context, ss *session) {
	if ss == nil {
		return
	}
	idle := s.Idle
	if idle == 0 {
		idle = DefaultIdle
	}
	if idle < 0 || ctx.Err() != nil || ss.sent >= s.maxPerSession() {
		ss.quit()
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	end := func() { s.drop(ss) }
	ss.timer = time.AfterFunc(idle, end)
	ss.stopCtx = context.AfterFunc(ctx, end)
	s.kept = ss
}

// drop ends ss if it is still the kept session (take may have won).
func (s *Sender) drop(ss *session) {
	s.mu.Lock()
	if s.kept != ss {
		s.mu.Unlock()
		return
	}
	s.kept = nil
	s.mu.Unlock()
	ss.timer.Stop()
	ss.stopCtx()
	ss.quit()
}

// Close ends the session kept between drains, if any. The Sender may
// still be used: the next drain dials anew.
func (s *Sender) Close() {
	s.mu.Lock()
	ss := s.kept
	s.mu.Unlock()
	if ss != nil {
		s.drop(ss)
	}
}

// quit ends the session politely, or closes it.
func (ss *session) quit() {
	if ss.c.Quit() != nil {
		ss.c.Close()
	}
}

func (s *Sender) retry(ctx context.Context, m store.Message, cause error, st *Stats) error {
	wait := s.backoff(m.Attempts)
	if err := s.Store.Retry(ctx, m.ID, s.now().Add(wait), cause.Error()); err != nil {
		return err
	}
	st.Retried++
	var se *smtp.SMTPError
	if errors.As(cause, &se) && se.Code == 535 {
		s.log().Error("SMTP login refused: check smtp.user and the password in the configuration; mail not sent, will retry", "id", m.ID, "in", wait.Round(time.Second), "err", cause)
		return nil
	}
	s.log().Warn("mail not sent; will retry", "id", m.ID, "to", m.To, "attempt", m.Attempts+1, "in", wait.Round(time.Second), "err", cause)
	return nil
}

// backoff is the wait before attempt n+1 after n failed attempts.
func (s *Sender) backoff(n int) time.Duration {
	base, limit := s.Backoff, s.MaxBackoff
	if base <= 0 {
		base = time.Minute
	}
	if limit <= 0 {
		limit = time.Hour
	}
	d := base
	for i := 0; i < n && d < limit; i++ {
		d *= 2
	}
	d = min(d, limit)
	return d + time.Duration(rand.Int64N(int64(d)/5+1))
}

// Permanent reports whether an SMTP error means the message will never be
// accepted as it is (a 5xx reply). Network errors and 4xx replies are
// temporary.
func Permanent(err error) bool {
	var se *smtp.SMTPError
	if errors.As(err, &se) {
		return se.Code >= 500 && se.Code < 600
	}
	var te *textproto.Error
	if errors.As(err, &te) {
		return te.Code >= 500 && te.Code < 600
	}
	return false
}

func (s *Sender) dial() (*smtp.Client, error) {
	cfg := s.SMTP
	addr := cfg.Addr()
	tlsCfg := cfg.TLSConfig()
	var c *smtp.Client
	var err error
	switch cfg.TLS {
	case config.TLSPlain:
		c, err = smtp.Dial(addr)
	case config.TLSStartTLS:
		c, err = smtp.DialStartTLS(addr, tlsCfg)
	default:
		c, err = smtp.DialTLS(addr, tlsCfg)
	}
	if err != nil {
		return nil, fmt.Errorf("smtp: connecting to %s: %w", addr, err)
	}
	c.CommandTimeout = 2 * time.Minute
	c.SubmissionTimeout = 5 * time.Minute
	var auth sasl.Client
	switch cfg.Auth {
	case config.AuthPlain:
		auth = sasl.NewPlainClient("", cfg.User, cfg.Password.Value())
	case config.AuthLogin:
		auth = sasl.NewLoginClient(cfg.User, cfg.Password.Value())
	}
	if auth != nil {
		if err := c.Auth(auth); err != nil {
			c.Close()
			return nil, fmt.Errorf("smtp: logging in to %s as %s: %w", addr, cfg.User, err)
		}
	}
	return c, nil
}

func (s *Sender) sendOne(c *smtp.Client, m store.Message) error {
	if err := c.SendMail(m.From, m.To, bytes.NewReader(m.Raw)); err != nil {
		var ne net.Error
		if errors.As(err, &ne) {
			return fmt.Errorf("smtp: network: %w", err)
		}
		return err
	}
	return nil
}
