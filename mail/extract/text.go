package extract

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/emersion/go-message/charset"
)

// choose picks the orders among what the walker found and fills m.
func (w *walker) choose(m *Mail) error {
	if len(w.yaml) > 1 {
		return errAmbiguous(w.yamlNames)
	}
	notes := w.notes
	if len(w.yaml) == 1 {
		p := w.yaml[0]
		where := "the attachment " + p.name
		text, cnotes, err := toUTF8(p.data, p.charset, where)
		if err != nil {
			return err
		}
		lines := splitLines(text)
		start, end := trimBlank(lines, 0, len(lines))
		if start < end {
			if w.body != nil {
				notes = append(notes, fmt.Sprintf("read your orders from the attachment %s; the text of the mail was not read", p.name))
			}
			return w.fill(m, lines, start, end, SourceAttachmentPrefix+p.name, where, append(notes, cnotes...))
		}
		notes = append(notes, fmt.Sprintf("the attachment %s was empty, so the text of the mail was read instead", p.name))
	}
	if w.body == nil {
		if w.html {
			return errHTMLOnly()
		}
		return errNoOrders("")
	}
	text, cnotes, err := toUTF8(w.body.data, w.body.charset, "your mail")
	if err != nil {
		return err
	}
	notes = append(notes, cnotes...)
	b := cleanBody(text, w.body.flowed, w.body.delsp)
	notes = append(notes, b.notes...)
	if b.start >= b.end {
		if b.fenced {
			return errNoOrders(" (nothing between the --- lines)")
		}
		if b.stripped {
			return errNoOrders(" (only quoted text or a signature)")
		}
		return errNoOrders("")
	}
	source := SourceBody
	if b.fenced {
		source = SourceFenced
	}
	start, end, pnotes, err := findOrders(b.lines, b.start, b.end)
	if err != nil {
		return err
	}
	notes = append(notes, pnotes...)
	return w.fill(m, b.lines, start, end, source, "your mail", notes)
}

func (w *walker) fill(m *Mail, lines []string, start, end int, source, where string, notes []string) error {
	orders := strings.Join(lines[start:end], "\n") + "\n"
	if err := checkText(orders, where); err != nil {
		return err
	}
	if int64(len(orders)) > w.lim.MaxBytes {
		// Possible after charset conversion, which can grow the text.
		return errTooLarge(upper(where), w.lim.MaxBytes)
	}
	m.Orders = []byte(orders)
	m.Source = source
	m.LineOffset = start
	m.Notes = notes
	return nil
}

// toUTF8 converts decoded part data to UTF-8 text.
func toUTF8(data []byte, cs, where string) (string, []string, error) {
	switch {
	case bytes.HasPrefix(data, []byte("\xef\xbb\xbf")):
		data, cs = data[3:], "utf-8"
	case bytes.HasPrefix(data, []byte("\xff\xfe")):
		data, cs = data[2:], "utf-16le"
	case bytes.HasPrefix(data, []byte("\xfe\xff")):
		data, cs = data[2:], "utf-16be"
	}
	switch cs {
	case "utf-8", "utf8":
		if !utf8.Valid(data) {
			return "", nil, errBadCharset(where, cs, nil)
		}
		return string(data), nil, nil
	case "", "us-ascii", "ascii":
		if utf8.Valid(data) {
			return string(data), nil, nil
		}
		if bytes.IndexByte(data, 0) >= 0 {
			return "", nil, errNotText(where)
		}
		// Undeclared (or falsely declared ASCII) 8-bit text: in mail that
		// is nearly always Windows-1252 or its subset ISO-8859-1.
		s, err := convert(data, "windows-1252")
		if err != nil {
			return "", nil, errBadCharset(where, "windows-1252", err)
		}
		return s, []string{fmt.Sprintf("%s did not say which character set it uses; it was read as Windows-1252 (Western European)", upper(where))}, nil
	}
	s, err := convert(data, cs)
	if err != nil {
		return "", nil, errBadCharset(where, cs, err)
	}
	return s, nil, nil
}

func convert(data []byte, cs string) (string, error) {
	r, err := charset.Reader(cs, bytes.NewReader(data))
	if err != nil {
		return "", err
	}
	out, err := io.ReadAll(r)
	if err != nil {
		return "", err
	}
	if !utf8.Valid(out) {
		return "", fmt.Errorf("charset %q: decoder produced invalid UTF-8", cs)
	}
	return string(out), nil
}

// checkText refuses characters that YAML does not allow in a stream and that
// only appear when binary data was sent as text.
func checkText(s, where string) error {
	for _, r := range s {
		switch {
		case r == '\t' || r == '\n':
		case r < 0x20 || r == 0x7f:
			return errNotText(where)
		case r >= 0x80 && r <= 0x9f && r != 0x85:
			return errNotText(where)
		case r == 0xfffe || r == 0xffff:
			return errNotText(where)
		}
	}
	return nil
}

// splitLines splits text into lines, accepting CRLF, LF and lone CR line
// ends. A final line end does not start another line.
func splitLines(text string) []string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	text = strings.TrimSuffix(text, "\n")
	if text == "" {
		return nil
	}
	return strings.Split(text, "\n")
}

func blank(s string) bool { return strings.TrimSpace(s) == "" }

func trimBlank(lines []string, start, end int) (int, int) {
	for start < end && blank(lines[start]) {
		start++
	}
	for end > start && blank(lines[end-1]) {
		end--
	}
	return start, end
}

// body is a mail body cut down to the orders: lines[start:end].
type body struct {
	lines      []string
	start, end int
	fenced     bool
	stripped   bool // quotes or a signature were removed
	notes      []string
}

var (
	// An attribution line before a quote, in a few languages. It may be
	// wrapped over up to three lines (Gmail wraps long ones).
	attributionRe = regexp.MustCompile(`(?i)^(on|le|am|el|il|op|em|den|w dniu|dne)\s.*\s` +
		`(wrote|a\s+écrit|schrieb|escribió|ha\s+scritto|schreef|escreveu|skrev|napisał|napsal)` +
		`(\s[^:]*)?[\s\x{00a0}\x{202f}]*:$`)
	// Outlook's separator before the quoted earlier mail.
	originalRe  = regexp.MustCompile(`(?i)^\s*-{2,}\s*(original message|message d'origine|ursprüngliche nachricht|mensaje original|messaggio originale)\s*-{2,}\s*$`)
	underlineRe = regexp.MustCompile(`^_{10,}\s*$`)
)

// cleanBody strips from a text body what is not orders. Removed lines inside
// the kept region are blanked, never deleted, so that the line numbers of the
// orders stay those of the mail.
func cleanBody(text string, flowed, delsp bool) body {
	var b body
	lines := splitLines(text)
	if flowed {
		lines = unflow(lines, delsp)
	}

	// Some clients turn runs of spaces into non-breaking ones, which YAML
	// would not take as indentation.
	nbsp := make([]bool, len(lines))
	for i, l := range lines {
		if strings.ContainsRune(l, '\u00a0') {
			lines[i] = strings.ReplaceAll(l, "\u00a0", " ")
			nbsp[i] = true
		}
	}

	// A signature, or Outlook's unquoted copy of the earlier mail, ends the
	// text.
	for i, l := range lines {
		sig := strings.TrimRight(l, " \t") == "--"
		orig := originalRe.MatchString(l) || (underlineRe.MatchString(l) && nextStartsWith(lines[i+1:], "From:"))
		if !sig && !orig {
			continue
		}
		if n := countNonBlank(lines[i+1:]); n > 0 || orig {
			if sig {
				b.notes = append(b.notes, fmt.Sprintf("removed your signature (%s after the -- line)", nLines(n)))
			} else {
				b.notes = append(b.notes, fmt.Sprintf("removed the earlier mail quoted from line %d on", i+1))
			}
			b.stripped = true
		}
		lines = lines[:i]
		break
	}

	// Quoted lines and their attribution line.
	quoted := make([]bool, len(lines))
	nq := 0
	for i, l := range lines {
		if strings.HasPrefix(l, ">") {
			quoted[i] = true
			nq++
		}
	}
	attrib := 0
	for i := range lines {
		if !quoted[i] || (i > 0 && quoted[i-1]) {
			continue
		}
		j := i - 1
		for j >= 0 && blank(lines[j]) && !quoted[j] {
			j--
		}
		for k := 0; k < 3 && j-k >= 0; k++ {
			if quoted[j-k] || blank(lines[j-k]) {
				break
			}
			parts := make([]string, 0, k+1)
			for _, l := range lines[j-k : j+1] {
				parts = append(parts, strings.TrimSpace(l))
			}
			if attributionRe.MatchString(strings.Join(parts, " ")) {
				for x := j - k; x <= j; x++ {
					lines[x] = ""
				}
				attrib++
				break
			}
		}
	}
	for i := range lines {
		if quoted[i] {
			lines[i] = ""
		}
	}
	if nq > 0 {
		b.notes = append(b.notes, fmt.Sprintf("removed %s of quoted text (starting with >)", nLines(nq)))
		b.stripped = true
	}
	if attrib > 0 {
		b.stripped = true
	}

	start, end := 0, len(lines)
	for i, l := range lines {
		if strings.TrimRight(l, " \t") != "---" {
			continue
		}
		b.fenced = true
		if n := countNonBlank(lines[:i]); n > 0 {
			b.notes = append(b.notes, fmt.Sprintf("ignored %s of text before the --- line", nLines(n)))
		}
		start, end = i+1, len(lines)
		for j := i + 1; j < len(lines); j++ {
			if t := strings.TrimRight(lines[j], " \t"); t == "---" || t == "..." {
				end = j
				if n := countNonBlank(lines[j+1:]); n > 0 {
					b.notes = append(b.notes, fmt.Sprintf("ignored %s of text after the closing %s line", nLines(n), t))
				}
				break
			}
		}
		break
	}
	b.lines = lines
	b.start, b.end = trimBlank(lines, start, end)
	if slices.Contains(nbsp[b.start:b.end], true) {
		b.notes = append(b.notes, "replaced non-breaking spaces in your orders with ordinary spaces")
	}
	return b
}

// nLines says "1 line" or "n lines".
func nLines(n int) string {
	if n == 1 {
		return "1 line"
	}
	return fmt.Sprintf("%d lines", n)
}

func countNonBlank(lines []string) int {
	n := 0
	for _, l := range lines {
		if !blank(l) {
			n++
		}
	}
	return n
}

func nextStartsWith(lines []string, prefix string) bool {
	for _, l := range lines {
		if blank(l) {
			continue
		}
		return strings.HasPrefix(strings.TrimSpace(l), prefix)
	}
	return false
}

// unflow undoes RFC 3676 format=flowed: it removes space-stuffing and joins
// soft-broken lines (ending in a space) with the next line of the same quote
// depth, giving back the lines the player typed.
func unflow(lines []string, delsp bool) []string {
	out := make([]string, 0, len(lines))
	var cur strings.Builder
	curDepth, open := 0, false
	flush := func() {
		prefix := ""
		if curDepth > 0 {
			prefix = strings.Repeat(">", curDepth) + " "
		}
		out = append(out, prefix+cur.String())
		cur.Reset()
		open = false
	}
	for _, l := range lines {
		depth := 0
		for depth < len(l) && l[depth] == '>' {
			depth++
		}
		content := strings.TrimPrefix(l[depth:], " ")
		if open && depth != curDepth {
			flush()
		}
		if !open {
			curDepth = depth
		}
		cur.WriteString(content)
		if content != "-- " && strings.HasSuffix(content, " ") {
			if delsp {
				s := cur.String()
				cur.Reset()
				cur.WriteString(s[:len(s)-1])
			}
			open = true
			continue
		}
		flush()
	}
	if open {
		flush()
	}
	return out
}
