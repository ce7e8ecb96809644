package extract

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"mime"
	"net/mail"
	"regexp"
	"strings"
	"time"

	"github.com/emersion/go-message/charset"
	"github.com/emersion/go-message/textproto"
)

// Default limits, used for zero fields of Limits.
const (
	DefaultMaxBytes   = 256 << 10 // orders text, after decoding
	DefaultMaxMessage = 10 << 20  // whole raw message
)

// Limits bounds the work Extract does. Zero (or negative) fields take the
// defaults.
type Limits struct {
	// MaxBytes is the largest orders text accepted: the decoded body or
	// attachment that holds the orders. Default DefaultMaxBytes.
	MaxBytes int64
	// MaxMessage is the largest raw mail accepted; it is checked before any
	// MIME parsing. Default DefaultMaxMessage.
	MaxMessage int64
}

func (l Limits) withDefaults() Limits {
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultMaxBytes
	}
	if l.MaxMessage <= 0 {
		l.MaxMessage = DefaultMaxMessage
	}
	return l
}

// Source values of Mail.Source other than attachments.
const (
	// SourceBody: the orders are the whole (stripped) text body.
	SourceBody = "body"
	// SourceFenced: the orders are the lines after a "---" line of the body.
	SourceFenced = "fenced"
	// SourceAttachmentPrefix prefixes the file name of the attachment that
	// held the orders: "attachment:orders.yaml".
	SourceAttachmentPrefix = "attachment:"
)

// Mail is what one player's mail says, as far as the referee cares.
type Mail struct {
	// MessageID is the Message-ID without angle brackets; when the mail has
	// none, "sha256:" followed by the hex SHA-256 of the raw bytes, so that
	// the same mail fetched twice is still recognised.
	MessageID string
	// From is the sender's address (no display name) with the domain
	// lower-cased; the local part is kept as sent.
	From string
	// Subject is the decoded Subject header.
	Subject string
	// InReplyTo is the first message ID of In-Reply-To, without brackets.
	InReplyTo string
	// References are the message IDs of References, without brackets.
	References []string
	// Date is the Date header, zero if absent or unreadable. It is what the
	// sender's machine claimed and is informational only: never use it for
	// deadlines.
	Date time.Time

	// Orders is the YAML text, valid UTF-8 with "\n" line ends, ending with
	// one "\n". Nil when Extract returns an error.
	Orders []byte
	// Source says where the orders came from: SourceBody, SourceFenced or
	// SourceAttachmentPrefix+file name.
	Source string
	// LineOffset is the number of lines, in the text as the player sees it
	// (the decoded body or the attachment), before the first line of
	// Orders: line n of Orders is line n+LineOffset of that text.
	LineOffset int
	// Notes tell, in plain words, what was stripped or assumed, so the
	// referee's answer can say so.
	Notes []string
}

// Extract reads one raw mail and returns its orders.
//
// On failure the error is an *Error. When the header could be read, the
// returned Mail is non-nil even on error, with the header fields (MessageID,
// From, Subject, ...) filled and Orders nil, so the daemon can still answer
// the sender and remember the mail. Extract never panics.
func Extract(raw []byte, lim Limits) (m *Mail, err error) {
	defer func() {
		// A safety net only: the fuzz test runs extract without it, so a
		// panic here is a bug to fix, not a feature.
		if r := recover(); r != nil {
			err = errMalformed("its structure confused the reader", fmt.Errorf("panic: %v", r))
		}
	}()
	return extract(raw, lim)
}

func extract(raw []byte, lim Limits) (*Mail, error) {
	lim = lim.withDefaults()

	if int64(len(raw)) > lim.MaxMessage {
		// Read only the header, to be able to answer; never the body.
		m, _, _ := readHeader(raw[:min(len(raw), maxHeaderBytes)])
		if m == nil {
			m = &Mail{}
		}
		if m.MessageID == "" || strings.HasPrefix(m.MessageID, "sha256:") {
			m.MessageID = hashID(raw)
		}
		return m, errTooLarge("Your mail", lim.MaxMessage)
	}

	m, h, err := readHeader(raw)
	if err != nil {
		return m, err
	}
	if strings.HasPrefix(m.MessageID, "sha256:") {
		m.MessageID = hashID(raw)
	}

	body := raw[h.bodyStart:]
	w := &walker{lim: lim}
	if err := w.walk(h.header, bytes.NewReader(body), 0); err != nil {
		return m, err
	}
	if err := w.choose(m); err != nil {
		return m, err
	}
	return m, nil
}

const maxHeaderBytes = 1 << 20

type parsedHeader struct {
	header    textproto.Header
	bodyStart int
}

// readHeader parses the top-level header. It returns a Mail with the header
// fields filled whenever the header is readable.
func readHeader(raw []byte) (*Mail, parsedHeader, error) {
	if len(raw) > maxHeaderBytes {
		// A header over 1 MiB is abuse; read only that much to find out.
		if end := headerEnd(raw[:maxHeaderBytes]); end < 0 {
			return nil, parsedHeader{}, errMalformed("its header is too long", nil)
		}
	}
	r := bytes.NewReader(raw)
	br := bufio.NewReader(r)
	h, err := textproto.ReadHeader(br)
	if err != nil {
		return nil, parsedHeader{}, errMalformed("its header is damaged", err)
	}
	// What bufio pulled from r but did not hand to ReadHeader is the start
	// of the body.
	start := len(raw) - r.Len() - br.Buffered()
	m := &Mail{}
	m.MessageID = firstID(h.Get("Message-Id"))
	if m.MessageID == "" {
		m.MessageID = "sha256:"
	}
	m.InReplyTo = firstID(h.Get("In-Reply-To"))
	m.References = allIDs(h.Get("References"))
	m.Subject = decodeWords(h.Get("Subject"))
	if d := strings.TrimSpace(h.Get("Date")); d != "" {
		if t, err := mail.ParseDate(d); err == nil {
			m.Date = t
		}
	}
	from, ferr := senderAddress(h)
	m.From = from
	if ferr != nil {
		return m, parsedHeader{}, errNoSender(ferr)
	}
	return m, parsedHeader{header: h, bodyStart: start}, nil
}

func headerEnd(b []byte) int {
	if i := bytes.Index(b, []byte("\r\n\r\n")); i >= 0 {
		return i
	}
	return bytes.Index(b, []byte("\n\n"))
}

func hashID(raw []byte) string {
	sum := sha256.Sum256(raw)
	return "sha256:" + hex.EncodeToString(sum[:])
}

var wordDecoder = &mime.WordDecoder{CharsetReader: charset.Reader}

func decodeWords(s string) string {
	s = strings.TrimSpace(s)
	if d, err := wordDecoder.DecodeHeader(s); err == nil {
		return d
	}
	return s
}

var idRe = regexp.MustCompile(`<([^<>\s]+)>`)

func firstID(s string) string {
	if ids := allIDs(s); len(ids) > 0 {
		return ids[0]
	}
	return ""
}

// allIDs returns the message IDs in a Message-ID, In-Reply-To or References
// field. Bracketless IDs (seen from broken software) are taken whole.
func allIDs(s string) []string {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil
	}
	var ids []string
	for _, m := range idRe.FindAllStringSubmatch(s, -1) {
		ids = append(ids, m[1])
	}
	if len(ids) == 0 && !strings.ContainsAny(s, " \t<>") {
		ids = append(ids, s)
	}
	return ids
}

var addrParser = &mail.AddressParser{WordDecoder: wordDecoder}

var looseAddrRe = regexp.MustCompile(`[^\s<>"(),;:]+@[^\s<>"(),;:]+`)

// senderAddress returns the From address (or Sender, if From is unusable)
// with the domain lower-cased.
func senderAddress(h textproto.Header) (string, error) {
	var firstErr error
	for _, key := range []string{"From", "Sender"} {
		v := strings.TrimSpace(h.Get(key))
		if v == "" {
			continue
		}
		list, err := addrParser.ParseList(v)
		if err == nil && len(list) > 0 {
			return normAddr(list[0].Address), nil
		}
		if err == nil {
			err = fmt.Errorf("%s: no address", key)
		}
		if firstErr == nil {
			firstErr = fmt.Errorf("%s: %w", key, err)
		}
		// Broken display names are common; an address in it is enough.
		if a := looseAddrRe.FindString(v); a != "" {
			return normAddr(a), nil
		}
	}
	if firstErr == nil {
		firstErr = fmt.Errorf("no From header")
	}
	return "", firstErr
}

func normAddr(a string) string {
	i := strings.LastIndexByte(a, '@')
	if i < 0 {
		return a
	}
	return a[:i] + "@" + strings.ToLower(a[i+1:])
}
