package extract

import (
	"fmt"
	"strings"
	"unicode"
)

// Stable error codes carried by Error.Code. They may be logged, counted and
// matched on; their spelling never changes.
const (
	// CodeHTMLOnly: the mail has an HTML body and no plain-text body or
	// YAML attachment.
	CodeHTMLOnly = "html-only"
	// CodeNoOrders: nothing that could be orders was left after stripping
	// quotes, signature and chat.
	CodeNoOrders = "no-orders"
	// CodeTooLarge: the whole mail is over Limits.MaxMessage, or the orders
	// text (body or attachment) is over Limits.MaxBytes.
	CodeTooLarge = "too-large"
	// CodeMalformed: the mail's header or MIME structure cannot be read.
	CodeMalformed = "malformed"
	// CodeAmbiguous: more than one .yaml/.yml attachment.
	CodeAmbiguous = "ambiguous-attachments"
	// CodeBadCharset: the text declares a character set that is unknown, or
	// its bytes are not valid in the declared character set.
	CodeBadCharset = "bad-charset"
	// CodeNotText: the orders contain binary data (control characters).
	CodeNotText = "not-text"
	// CodeNoSender: the mail has no usable From (or Sender) address.
	CodeNoSender = "no-sender"
	// CodeTwoBlocks: the text holds two or more separate blocks of orders
	// (each a YAML mapping with envelope keys, with other text between),
	// and the referee does not guess which one is meant.
	CodeTwoBlocks = "several-blocks"
)

// Error is a permanent failure to extract orders from a mail. Retrying the
// same mail gives the same Error.
type Error struct {
	// Code is one of the Code* constants.
	Code string
	// Msg is written for the player: plain words that say what was wrong
	// and how to send the orders so that they are read.
	Msg string
	// Err is the underlying cause for the operator's log; it may be nil and
	// is never shown to the player.
	Err error
}

// Error returns the code, the player's message and the cause, for logs.
func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("extract: %s: %s (%v)", e.Code, e.Msg, e.Err)
	}
	return fmt.Sprintf("extract: %s: %s", e.Code, e.Msg)
}

// Unwrap returns the underlying cause, if any.
func (e *Error) Unwrap() error { return e.Err }

const howToSend = "Put your orders as plain YAML text in the body of the mail " +
	"(optionally between two lines that are exactly ---), or attach them as a single .yaml file."

func errHTMLOnly() *Error {
	return &Error{Code: CodeHTMLOnly, Msg: "Your mail has only an HTML (formatted) body, which the referee does not read. " +
		"Please switch your mail program to plain text for this message " +
		"(Thunderbird: Options > Delivery Format > Plain Text Only; Gmail: the three dots > Plain text mode; " +
		"Apple Mail: Format > Make Plain Text), or attach your orders as a .yaml file."}
}

func errNoOrders(why string) *Error {
	return &Error{Code: CodeNoOrders, Msg: "I found no orders in your mail" + why + ". " + howToSend}
}

func errTooLarge(what string, limit int64) *Error {
	return &Error{Code: CodeTooLarge, Msg: fmt.Sprintf("%s is larger than the %s the referee accepts. "+
		"Send only your orders, without pictures or other attachments, and do not quote long earlier mails.",
		what, humanBytes(limit))}
}

func errMalformed(what string, cause error) *Error {
	return &Error{Code: CodeMalformed, Msg: "Your mail could not be read: " + what + ". " +
		"Please send it again as an ordinary plain-text mail; if it keeps failing, attach your orders as a .yaml file.",
		Err: cause}
}

func errAmbiguous(names []string) *Error {
	return &Error{Code: CodeAmbiguous, Msg: fmt.Sprintf("Your mail has %d YAML attachments (%s) and I cannot tell which one holds your orders. "+
		"Please send one mail with a single .yaml attachment.", len(names), safe(joinNames(names)))}
}

func errBadCharset(where, charset string, cause error) *Error {
	return &Error{Code: CodeBadCharset, Msg: fmt.Sprintf("The text of %s says it is written in the character set %q, but it cannot be read as such. "+
		"Please set your mail program (or text editor) to use UTF-8 and send it again.", where, safe(charset)), Err: cause}
}

func errNotText(where string) *Error {
	return &Error{Code: CodeNotText, Msg: "The orders in " + where + " contain binary data, not text. " +
		"Save your orders as plain text (UTF-8) and send them in the mail body or as a .yaml attachment."}
}

func errNoSender(cause error) *Error {
	return &Error{Code: CodeNoSender, Msg: "Your mail has no readable From address, so the referee cannot tell who sent it. " +
		"Please send it from your usual mail program.", Err: cause}
}

func errTwoBlocks(lines []int) *Error {
	at := make([]string, len(lines))
	for i, l := range lines {
		at[i] = fmt.Sprint(l)
	}
	where := strings.Join(at[:len(at)-1], ", ") + " and " + at[len(at)-1]
	n := "two"
	if len(lines) > 2 {
		n = fmt.Sprint(len(lines))
	}
	return &Error{Code: CodeTwoBlocks, Msg: fmt.Sprintf("%s blocks of orders were found, at lines %s; send one. "+
		"Delete the block you do not mean (or put the one you mean between two lines that are exactly ---) and send the mail again.", upper(n), where)}
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	default:
		return fmt.Sprintf("%d bytes", n)
	}
}

func joinNames(names []string) string {
	s := ""
	for i, n := range names {
		if i > 0 {
			s += ", "
		}
		s += n
	}
	return s
}

// safe makes a value taken from the mail (a charset, an encoding, a file
// name) fit to quote in a player's message: valid UTF-8, no control
// characters, at most 60 characters.
func safe(s string) string {
	s = strings.ToValidUTF8(s, "?")
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, s)
	if r := []rune(s); len(r) > 60 {
		s = string(r[:60]) + "..."
	}
	return s
}
