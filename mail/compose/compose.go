// Package compose builds the RFC 5322 messages umpire sends, with
// go-message's mail writer: From with a display name, a subject that
// starts with the game's "[umpire GAME]" and says what the mail is, the
// machine-readable X-Umpire-* headers (game, kind, turn, what is due,
// deadline), and a Message-ID derived from what the mail is (game, event,
// kind, recipient) so that building the same mail again after a crash
// gives the same ID — which is what lets the outbox refuse a duplicate.
//
// It only builds bytes: it never sends, never reads the store, never
// renders templates.
package compose

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/emersion/go-message/mail"

	"github.com/umpire-pbem/umpire/store"
)

// Address is a mailbox with an optional display name.
type Address struct {
	Name    string
	Address string
}

// Mail is one message to build.
type Mail struct {
	From       Address
	To         Address
	Subject    string
	ID         string   // the Message-ID without brackets (see MessageID)
	InReplyTo  string   // the Message-ID this answers, without brackets
	References []string // the thread, oldest first, without brackets
	Date       time.Time
	Game       string // the game it belongs to, for the outbox and X-Umpire-Game; "" for none
	Body       string // plain text, UTF-8
	// What the mail is, for programs (the X-Umpire-* headers).
	Kind     string    // X-Umpire-Kind: one of the Kind* constants; "" leaves the header out
	Turn     int       // X-Umpire-Turn; 0 (unknown) leaves it out
	Due      []string  // X-Umpire-Due: the ids of the requests due from the recipient; none says "none"
	Deadline time.Time // X-Umpire-Deadline (RFC 3339, UTC): the recipient's deadline; zero leaves it out
	// Attachments follow the text (the board picture of a results mail).
	Attachments []Attachment
}

// The kinds of mail, as X-Umpire-Kind says them.
const (
	KindWelcome  = "welcome"  // a player's first mail of a game, with the secret
	KindAccepted = "accepted" // orders (or press) recorded
	KindRejected = "rejected" // a mail refused: nothing was recorded
	KindResults  = "results"  // an adjudication, as the recipient may read it
	KindReminder = "reminder" // a deadline is near and the recipient's answer is not in
	KindLate     = "late"     // a deadline passed
	KindNotice   = "notice"   // something happened to the game (paused, moved, ended, ...)
	KindAnswer   = "answer"   // the answer to a player's command (status, history, ...)
	KindPress    = "press"    // a press message between sides
	KindObserver = "observer" // results for an observer
	KindReferee  = "referee"  // the answer to a referee's command, or word for the referee
)

// Attachment is a file sent with a mail.
type Attachment struct {
	Name        string // the file name the player sees
	ContentType string // e.g. image/png
	Data        []byte
}

// Build returns the mail as an outbox message (status pending).
func Build(m Mail) (store.Message, error) {
	if m.ID == "" || m.To.Address == "" || m.From.Address == "" {
		return store.Message{}, fmt.Errorf("compose: a mail needs an ID, a From and a To")
	}
	var h mail.Header
	h.SetAddressList("From", []*mail.Address{{Name: m.From.Name, Address: m.From.Address}})
	h.SetAddressList("To", []*mail.Address{{Name: m.To.Name, Address: m.To.Address}})
	h.Set("Subject", encodeText(m.Subject))
	h.SetDate(m.Date)
	h.SetMessageID(m.ID)
	if m.InReplyTo != "" {
		h.SetMsgIDList("In-Reply-To", []string{m.InReplyTo})
	}
	if refs := dedupe(m.References); len(refs) > 0 {
		h.SetMsgIDList("References", refs)
	}
	h.Set("Auto-Submitted", "auto-replied")
	h.Set("X-Umpire-Game", m.Game)
	if m.Kind != "" {
		h.Set("X-Umpire-Kind", m.Kind)
		if m.Turn > 0 {
			h.Set("X-Umpire-Turn", strconv.Itoa(m.Turn))
		}
		due := "none"
		if ids := dedupe(m.Due); len(ids) > 0 {
			due = strings.Join(ids, " ")
		}
		h.Set("X-Umpire-Due", due)
		if !m.Deadline.IsZero() {
			h.Set("X-Umpire-Deadline", m.Deadline.UTC().Format(time.RFC3339))
		}
	}
	var b bytes.Buffer
	body := strings.ReplaceAll(m.Body, "\r\n", "\n")
	body = strings.ReplaceAll(body, "\n", "\r\n")
	if len(m.Attachments) == 0 {
		h.Set("Content-Type", "text/plain; charset=utf-8")
		w, err := mail.CreateSingleInlineWriter(&b, h)
		if err != nil {
			return store.Message{}, fmt.Errorf("compose: %w", err)
		}
		if _, err := w.Write([]byte(body)); err != nil {
			return store.Message{}, fmt.Errorf("compose: %w", err)
		}
		if err := w.Close(); err != nil {
			return store.Message{}, fmt.Errorf("compose: %w", err)
		}
	} else if err := writeMixed(&b, h, body, m.Attachments); err != nil {
		return store.Message{}, fmt.Errorf("compose: %w", err)
	}
	return store.Message{ID: m.ID, Game: m.Game, From: m.From.Address, To: []string{m.To.Address},
		Raw: b.Bytes(), Created: m.Date, Status: store.Pending}, nil
}

func dedupe(ids []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, id := range ids {
		if id != "" && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// MessageID returns a stable Message-ID (without brackets) for the mail
// that parts describe, e.g. MessageID("example.org", game, "results", "12",
// recipient). The same parts always give the same ID; the game id is kept
// readable in it.
func MessageID(domain, game string, parts ...string) string {
	h := sha256.New()
	h.Write([]byte(game))
	for _, p := range parts {
		h.Write([]byte{0})
		h.Write([]byte(p))
	}
	sum := hex.EncodeToString(h.Sum(nil))[:32]
	prefix := "umpire"
	if game != "" {
		prefix += "." + game
	}
	return prefix + "." + sum + "@" + domain
}

// ThreadRoot is the Message-ID every mail of a game refers to first, so
// that mail programs thread a game's mails together.
func ThreadRoot(domain, game string) string { return "umpire." + game + ".thread@" + domain }

// MaxSubject is the most runes a subject has, prefix included; a longer
// one is cut and ends in "...".
const MaxSubject = 120

// Subject is the subject of a mail of game: "[umpire GAME] " (players
// filter on it) and text, which says what the mail is. Line breaks and
// other control characters become spaces, runs of spaces one, and the
// whole is cut to MaxSubject runes. With no game it is text alone. The
// mails of a game stay in one thread by their References, not by their
// subjects (ThreadRoot).
func Subject(game, text string) string {
	s := strings.Join(strings.FieldsFunc(text, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }), " ")
	if game != "" {
		s = "[umpire " + game + "] " + s
	}
	if utf8.RuneCountInString(s) <= MaxSubject {
		return s
	}
	r := []rune(s)[:MaxSubject-3]
	return strings.TrimRight(string(r), " ,;:-") + "..."
}

// encodeText is an unstructured header value as RFC 2047 wants it: the
// ASCII words as they are, each run of words with other characters as one
// encoded word (UTF-8, Q encoding). So "[umpire GAME]" always stays
// readable in the raw header, for filters that do not decode.
func encodeText(s string) string {
	words := strings.Split(s, " ")
	var out, run []string
	flush := func() {
		if len(run) > 0 {
			out = append(out, qEncode(strings.Join(run, " ")))
			run = nil
		}
	}
	for _, w := range words {
		if plainWord(w) {
			flush()
			out = append(out, w)
		} else {
			run = append(run, w)
		}
	}
	flush()
	return strings.Join(out, " ")
}

// qEncode is s as RFC 2047 encoded words (UTF-8, Q encoding), each at
// most 75 characters, a character never split between two.
func qEncode(s string) string {
	const open, close, most = "=?utf-8?q?", "?=", 75
	var words []string
	var w strings.Builder
	for _, r := range s {
		var c string
		switch {
		case r == ' ':
			c = "_"
		case r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("!*+-/", r)):
			c = string(r)
		default:
			var b [utf8.UTFMax]byte
			for _, x := range b[:utf8.EncodeRune(b[:], r)] {
				c += fmt.Sprintf("=%02X", x)
			}
		}
		if w.Len() > 0 && len(open)+w.Len()+len(c)+len(close) > most {
			words = append(words, open+w.String()+close)
			w.Reset()
		}
		w.WriteString(c)
	}
	if w.Len() > 0 {
		words = append(words, open+w.String()+close)
	}
	return strings.Join(words, " ")
}

// plainWord reports whether w may stand in a header as it is: printable
// ASCII that cannot be taken for an encoded word.
func plainWord(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < 0x20 || w[i] > 0x7e {
			return false
		}
	}
	return !strings.Contains(w, "=?")
}

// Domain returns the domain part of an address, "localhost" if none.
func Domain(addr string) string {
	if i := strings.LastIndexByte(addr, '@'); i >= 0 && i+1 < len(addr) {
		return strings.ToLower(addr[i+1:])
	}
	return "localhost"
}

// writeMixed writes a multipart/mixed mail: the text first, inline, then
// each attachment.
func writeMixed(b *bytes.Buffer, h mail.Header, body string, atts []Attachment) error {
	w, err := mail.CreateWriter(b, h)
	if err != nil {
		return err
	}
	var th mail.InlineHeader
	th.Set("Content-Type", "text/plain; charset=utf-8")
	tw, err := w.CreateSingleInline(th)
	if err != nil {
		return err
	}
	if _, err := tw.Write([]byte(body)); err != nil {
		return err
	}
	if err := tw.Close(); err != nil {
		return err
	}
	for _, a := range atts {
		var ah mail.AttachmentHeader
		ah.Set("Content-Type", a.ContentType)
		ah.SetFilename(a.Name)
		aw, err := w.CreateAttachment(ah)
		if err != nil {
			return err
		}
		if _, err := aw.Write(a.Data); err != nil {
			return err
		}
		if err := aw.Close(); err != nil {
			return err
		}
	}
	return w.Close()
}
