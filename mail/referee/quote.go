package referee

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
	"github.com/umpire-pbem/umpire/templates"
)

// The bounds of what a rejection quotes back: a few lines around each
// error, never the whole mail (which may be a 200 KB attachment).
const (
	maxListed     = 10   // errors listed; the rest are counted ("and N more")
	maxQuoteRunes = 200  // one quoted line, in characters …
	maxQuoteBytes = 400  // … and in bytes (the mail is quoted-printable)
	maxMsgRunes   = 300  // one error message
	maxMsgBytes   = 600  //
	quoteBudget   = 4096 // bytes of messages and quoted lines in one reply, over all errors
	maxNotes      = 10   // extraction notes
	hiddenText    = "(hidden)"
)

// quoter quotes a player's orders text back to them, bounded, with every
// secret hidden.
type quoter struct {
	lines  []string        // the orders text, one entry a line
	masked map[int]string  // 0-based line → what to show instead
	values map[string]bool // the values of secret lines, to hide in messages too
	offset int             // line n of the text is line n+offset of the mail
}

func newQuoter(orders []byte, offset int) *quoter {
	text := strings.TrimSuffix(string(orders), "\n")
	q := &quoter{masked: map[int]string{}, values: map[string]bool{}, offset: offset}
	if text != "" {
		q.lines = strings.Split(text, "\n")
	}
	q.maskSecrets()
	return q
}

// secretKey finds a mapping key that names a secret: "secret:" (any case,
// quoted or not, in a list item or a flow mapping) or a likely misspelling
// of it ("secert:"), whose value the player meant as their secret.
var (
	secretAnywhere = regexp.MustCompile(`(?i)secret["']?\s*:`)
	leadingKey     = regexp.MustCompile(`^(\s*(?:-\s+)*)["']?([A-Za-z_][A-Za-z0-9_ -]{0,39}?)["']?\s*:(?:\s|$)`)
)

// maskSecrets hides the value of every line that gives a secret, and the
// more-indented lines that continue it.
func (q *quoter) maskSecrets() {
	for i := 0; i < len(q.lines); i++ {
		l := q.lines[i]
		var keyEnd int // the value starts after this byte
		var indent int
		if m := leadingKey.FindStringSubmatchIndex(l); m != nil && isSecretKey(l[m[4]:m[5]]) {
			keyEnd = strings.IndexByte(l[m[4]:], ':') + m[4] + 1
			indent = m[3] - m[2] // the key's column: list dashes count as indentation
		} else if loc := secretAnywhere.FindStringIndex(l); loc != nil {
			keyEnd = loc[1]
			indent = len(l) - len(strings.TrimLeft(l, " \t"))
		} else {
			continue
		}
		q.keepValue(l[keyEnd:])
		q.masked[i] = strings.TrimRight(l[:keyEnd], " \t") + " " + hiddenText
		// A value continued on more-indented lines (a block or multi-line scalar).
		for j := i + 1; j < len(q.lines); j++ {
			c := q.lines[j]
			body := strings.TrimLeft(c, " \t")
			if body == "" {
				continue
			}
			if len(c)-len(body) <= indent {
				break
			}
			q.keepValue(body)
			q.masked[j] = c[:len(c)-len(body)] + hiddenText
			i = j
		}
	}
}

// isSecretKey: "secret" itself, a key containing it, or a near misspelling.
func isSecretKey(k string) bool {
	k = strings.ToLower(strings.TrimSpace(k))
	return strings.Contains(k, "secret") || yamlx.Nearest(k, []string{"secret"}) != ""
}

// keepValue remembers a secret's value as written, to hide it wherever an
// error message repeats it.
func (q *quoter) keepValue(v string) {
	if i := strings.Index(v, " #"); i >= 0 {
		v = v[:i]
	}
	v = strings.TrimSpace(v)
	v = strings.TrimRight(v, ",}")
	v = strings.TrimSpace(v)
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		v = v[1 : len(v)-1]
	}
	if v != "" && v != "|" && v != ">" && len(v) <= 4096 {
		q.values[v] = true
	}
}

// line is line n (1-based, in the orders text) as it may be quoted.
func (q *quoter) line(n int) string {
	if s, ok := q.masked[n-1]; ok {
		return cut(s, maxQuoteRunes, maxQuoteBytes)
	}
	return cut(strings.TrimRight(q.lines[n-1], " \t\r"), maxQuoteRunes, maxQuoteBytes)
}

// hide replaces the secrets given in the text wherever s repeats them.
func (q *quoter) hide(s string) string {
	for v := range q.values {
		if len(v) >= 4 {
			s = strings.ReplaceAll(s, v, hiddenText)
			continue
		}
		for _, quote := range []string{`"`, `'`, "`"} {
			s = strings.ReplaceAll(s, quote+v+quote, quote+hiddenText+quote)
		}
	}
	return s
}

// errorLines turns list into what a rejection shows: at most maxListed
// errors and about quoteBudget bytes, each with its line and the lines
// around it; the number left out is returned.
func (q *quoter) errorLines(list adjudicator.OrderErrors) ([]templates.ErrorLine, int) {
	var out []templates.ErrorLine
	used := 0
	for i, e := range list {
		el := templates.ErrorLine{Column: e.Column, Code: cut(e.Code, 60, 60), Msg: cut(q.hide(e.Msg), maxMsgRunes, maxMsgBytes)}
		size := len(el.Msg)
		if e.Line > 0 {
			el.Line = e.Line + q.offset
			if e.Line <= len(q.lines) {
				el.Text = q.line(e.Line)
				for n := max(1, e.Line-1); n <= min(len(q.lines), e.Line+1); n++ {
					ql := templates.QuotedLine{Line: n + q.offset, Text: q.line(n), Error: n == e.Line}
					el.Quote = append(el.Quote, ql)
					size += len(ql.Text)
				}
			}
		}
		if len(out) == maxListed || len(out) > 0 && used+size > quoteBudget {
			return out, len(list) - i
		}
		used += size
		out = append(out, el)
	}
	return out, 0
}

// cut shortens s to about runes characters and at most bytes bytes,
// marking the cut with " …", and makes it valid UTF-8.
func cut(s string, runes, bytes int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) <= bytes && utf8.RuneCountInString(s) <= runes {
		return s
	}
	const mark = " …"
	end, n := 0, 0
	for i, r := range s {
		size := utf8.RuneLen(r)
		if n == runes-1 || i+size > bytes-len(mark) {
			break
		}
		end = i + size
		n++
	}
	return strings.TrimRight(s[:end], " \t") + mark
}

// boundedNotes cuts every note and keeps at most maxNotes.
func boundedNotes(notes []string) []string {
	var out []string
	for i, n := range notes {
		if i == maxNotes {
			return append(out, fmt.Sprintf("and %d more notes", len(notes)-i))
		}
		out = append(out, cut(n, maxQuoteRunes, maxQuoteBytes))
	}
	return out
}
