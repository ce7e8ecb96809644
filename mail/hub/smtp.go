package hub

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/mail"
	"strings"
	"time"

	"github.com/emersion/go-message/textproto"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

func (h *Hub) newSMTPServer() *smtp.Server {
	s := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		return &smtpSession{h: h, remote: c.Conn().RemoteAddr().String()}, nil
	}))
	s.Domain = h.cfg.Domain
	s.AllowInsecureAuth = true // loopback or LAN, no TLS: see the package doc
	s.MaxMessageBytes = h.cfg.MaxMessageBytes
	s.MaxRecipients = 100
	s.ReadTimeout = 5 * time.Minute
	s.WriteTimeout = time.Minute
	s.ErrorLog = h.cfg.Logger
	return s
}

// smtpSession is one SMTP submission connection: AUTH first, then mail
// from the authenticated user to users of the hub.
type smtpSession struct {
	h      *Hub
	remote string
	user   string // after AUTH
	from   string
	rcpts  []string // user names
}

var _ smtp.AuthSession = (*smtpSession)(nil)

func smtpErr(code int, enh smtp.EnhancedCode, msg string) *smtp.SMTPError {
	return &smtp.SMTPError{Code: code, EnhancedCode: enh, Message: msg}
}

func (s *smtpSession) AuthMechanisms() []string { return []string{sasl.Plain, sasl.Login} }

func (s *smtpSession) Auth(mech string) (sasl.Server, error) {
	login := func(username, password string) error {
		u, err := s.h.authenticate(username, password)
		if err != nil {
			return smtp.ErrAuthFailed
		}
		s.user = u.name
		return nil
	}
	switch mech {
	case sasl.Plain:
		return sasl.NewPlainServer(func(identity, username, password string) error {
			if identity != "" && identity != username {
				return smtp.ErrAuthFailed
			}
			return login(username, password)
		}), nil
	case sasl.Login:
		return &loginServer{check: login}, nil
	}
	return nil, smtp.ErrAuthUnknownMechanism
}

func (s *smtpSession) address() string { return s.h.Address(s.user) }

func (s *smtpSession) Mail(from string, opts *smtp.MailOptions) error {
	if s.user == "" {
		return smtp.ErrAuthRequired
	}
	// The referee trusts From to tell players apart, so a user may send only
	// as themself (the empty reverse path of a bounce is fine too).
	if from != "" && !strings.EqualFold(from, s.address()) {
		return smtpErr(553, smtp.EnhancedCode{5, 7, 1}, fmt.Sprintf("you are logged in as %s and may only send as that address, not %s", s.address(), from))
	}
	s.from = from
	return nil
}

func (s *smtpSession) Rcpt(to string, opts *smtp.RcptOptions) error {
	if s.user == "" {
		return smtp.ErrAuthRequired
	}
	i := strings.LastIndexByte(to, '@')
	if i < 0 || !strings.EqualFold(to[i+1:], s.h.cfg.Domain) {
		return smtpErr(550, smtp.EnhancedCode{5, 7, 1}, fmt.Sprintf("%s: this hub does not relay; it delivers only to addresses @%s", to, s.h.cfg.Domain))
	}
	name, err := normalizeUser(to[:i])
	if err != nil || !s.h.HasUser(name) {
		return smtpErr(550, smtp.EnhancedCode{5, 1, 1}, fmt.Sprintf("%s: no such user on this hub (the hub's operator can add one)", to))
	}
	s.rcpts = append(s.rcpts, name)
	return nil
}

func (s *smtpSession) Data(r io.Reader) error {
	if s.user == "" {
		return smtp.ErrAuthRequired
	}
	body, err := io.ReadAll(r)
	if err != nil {
		return err // the server turns a too-large message into 552
	}
	if err := checkHeaderFrom(body, s.address()); err != nil {
		return err
	}
	trace := fmt.Sprintf("Return-Path: <%s>\r\nReceived: from %s by %s (umpire hub) with ESMTPA id %s;\r\n\t%s\r\n",
		s.from, s.remote, s.h.cfg.Domain, randomHex(8), time.Now().Format(time.RFC1123Z))
	raw := append([]byte(trace), body...)
	if int64(len(raw)) > s.h.cfg.MaxMessageBytes {
		return smtp.ErrDataTooLarge
	}
	h := s.h
	var delivered []string
	err = func() error {
		h.mu.Lock()
		defer h.mu.Unlock()
		seen := map[string]bool{}
		for _, name := range s.rcpts {
			if seen[name] {
				continue
			}
			seen[name] = true
			if err := h.deliverLocked(name, raw); err != nil {
				h.cfg.Logger.Printf("hub: SMTP delivery to %s: %v", name, err)
				return smtpErr(451, smtp.EnhancedCode{4, 3, 0}, "the hub could not store the message; try again later")
			}
			delivered = append(delivered, name)
		}
		return nil
	}()
	if err != nil {
		return err
	}
	if h.cfg.Delivered != nil {
		for _, name := range delivered {
			h.cfg.Delivered(name, raw)
		}
	}
	return nil
}

// checkHeaderFrom refuses a message whose From header is not the sender's
// own address.
func checkHeaderFrom(raw []byte, addr string) error {
	hdr, err := textproto.ReadHeader(bufio.NewReader(bytes.NewReader(raw)))
	if err != nil {
		return smtpErr(554, smtp.EnhancedCode{5, 6, 0}, "the message header cannot be read")
	}
	from := hdr.Get("From")
	if from == "" {
		return smtpErr(554, smtp.EnhancedCode{5, 6, 0}, "the message has no From header")
	}
	list, err := mail.ParseAddressList(from)
	if err != nil || len(list) != 1 || !strings.EqualFold(list[0].Address, addr) {
		return smtpErr(553, smtp.EnhancedCode{5, 7, 1}, fmt.Sprintf("the From header must be your own address, %s", addr))
	}
	return nil
}

func (s *smtpSession) Reset() {
	s.from = ""
	s.rcpts = nil
}

func (s *smtpSession) Logout() error { return nil }

// loginServer is the server side of the obsolete but widespread SASL LOGIN
// mechanism (go-sasl has only the client): it asks for the user name, then
// the password.
type loginServer struct {
	check    func(username, password string) error
	step     int
	username string
}

func (l *loginServer) Next(response []byte) (challenge []byte, done bool, err error) {
	switch l.step {
	case 0:
		l.step++
		if response == nil {
			return []byte("Username:"), false, nil
		}
		// An initial response carries the user name.
		l.username = string(response)
		l.step++
		return []byte("Password:"), false, nil
	case 1:
		l.username = string(response)
		l.step++
		return []byte("Password:"), false, nil
	case 2:
		l.step++
		return nil, true, l.check(l.username, string(response))
	}
	return nil, false, errors.New("unexpected client response")
}
