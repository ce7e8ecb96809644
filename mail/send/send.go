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

// Drain sends every due message, oldest first, over one SMTP connection
// (reconnecting after a failed one). It returns when none is due, or with
// a store error. SMTP problems never stop it: they are recorded per
// message.
func (s *Sender) Drain(ctx context.Context) (Stats, error) {
	var st Stats
	due, err := s.Store.Due(ctx, s.now())
	if err != nil || len(due) == 0 {
		return st, err
	}
	var c *smtp.Client
	defer func() {
		if c != nil {
			c.Quit()
			c.Close()
		}
	}()
	for _, m := range due {
		if ctx.Err() != nil {
			return st, nil
		}
		if c == nil {
			c, err = s.dial()
			if err != nil {
				// The server is down: every message waits for the next round.
				if rerr := s.retry(ctx, m, err, &st); rerr != nil {
					return st, rerr
				}
				continue
			}
		}
		err := s.sendOne(c, m)
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
			if c.Reset() != nil {
				c.Close()
				c = nil
			}
			continue
		}
		if rerr := s.retry(ctx, m, err, &st); rerr != nil {
			return st, rerr
		}
		c.Close()
		c = nil
	}
	return st, nil
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
