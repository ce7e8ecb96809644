// Package compose builds the RFC 5322 messages umpire sends, with
// go-message's mail writer: From with a display name, a stable subject per
// game, and a Message-ID derived from what the mail is (game, event,
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
	"strings"
	"time"

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
	Game       string // the game it belongs to, for the outbox; "" for none
	Body       string // plain text, UTF-8
	// Attachments follow the text (the board picture of a results mail).
	Attachments []Attachment
}

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
	h.SetSubject(m.Subject)
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

// Subject is the subject of every mail of a game: the same for all, so
// that mail programs keep a game's mails together.
func Subject(game string) string { return "[umpire " + game + "] game " + game }

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
