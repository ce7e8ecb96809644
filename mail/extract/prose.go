package extract

import (
	"fmt"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

// EnvelopeKeys are the top-level keys by which orders (and commands) are
// recognised among the prose of a mail.
var EnvelopeKeys = []string{"game", "side", "turn", "phase", "orders", "secret", "then", "command"}

var (
	envelopeRe = regexp.MustCompile(`^(` + strings.Join(EnvelopeKeys, "|") + `)[ \t]*:([ \t]|$)`)
	// A top-level "key:" line as orders have them: one word, no spaces,
	// so that "Here are my orders:" stays prose.
	keyLineRe = regexp.MustCompile(`^("[^"]*"|'[^']*'|[A-Za-z0-9_.-]+)[ \t]*:([ \t]|$)`)
)

// yamlShaped says whether line may belong to a YAML mapping of orders: a
// blank or indented line, a comment, a list item, or a one-word key.
// Greetings, "Thanks", "Sent from my iPhone" and signatures are not. It
// looks at the line alone, so that cutting the orders out again gives the
// same cut.
func yamlShaped(l string) bool {
	switch {
	case blank(l), l[0] == ' ', l[0] == '\t', l[0] == '#':
		return true
	case l == "-", strings.HasPrefix(l, "- "), strings.HasPrefix(l, "-\t"):
		return true
	}
	return keyLineRe.MatchString(l)
}

// continues says whether a line can only continue YAML above it.
func continues(l string) bool {
	return !blank(l) && (l[0] == ' ' || l[0] == '\t' || l == "-" || strings.HasPrefix(l, "- ") || strings.HasPrefix(l, "-\t"))
}

type block struct {
	a, b int // lines[a:b], first and last non-blank
	env  bool
}

// mappingKeys returns the top-level keys of lines[a:b] if it parses as one
// YAML mapping, and false otherwise.
func mappingKeys(lines []string, a, b int) ([]string, bool) {
	n, err := yamlx.Parse([]byte(strings.Join(lines[a:b], "\n") + "\n"))
	if err != nil || n.Kind != yaml.MappingNode {
		return nil, false
	}
	keys := make([]string, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		keys = append(keys, n.Content[i].Value)
	}
	return keys, true
}

// findOrders narrows lines[start:end] to the orders when prose surrounds
// them: a greeting before, "Thanks" or "Sent from my iPhone" or a signature
// without its "-- " line after. Text that is one YAML mapping is kept whole,
// as is text without any envelope key (the order parser explains it). Only
// lines before the first and after the last line of YAML are dropped, never
// one in between: a prose line in the middle stays, and the parser points
// at it. When two separate blocks of orders are found, each a mapping on
// its own and saying the same key, it refuses to guess.
func findOrders(lines []string, start, end int) (int, int, []string, error) {
	if _, ok := mappingKeys(lines, start, end); start >= end || ok {
		return start, end, nil, nil
	}
	var blocks []block
	for i := start; i < end; {
		if blank(lines[i]) || !yamlShaped(lines[i]) {
			i++
			continue
		}
		bl := block{a: i}
		for i < end && yamlShaped(lines[i]) {
			if envelopeRe.MatchString(lines[i]) {
				bl.env = true
			}
			if !blank(lines[i]) {
				bl.b = i + 1
			}
			i++
		}
		blocks = append(blocks, bl)
	}
	first, last := -1, -1
	var whole []int // starts of the blocks that are a mapping on their own
	seen := map[string]bool{}
	twice := false
	for k, bl := range blocks {
		if !bl.env {
			continue
		}
		if first < 0 {
			first = k
		}
		last = k
		if keys, ok := mappingKeys(lines, bl.a, bl.b); ok {
			whole = append(whole, bl.a+1)
			for _, key := range keys {
				twice = twice || seen[key]
				seen[key] = true
			}
		}
	}
	if first < 0 {
		return start, end, nil, nil
	}
	// Two mappings that both say, say, "game:" are two mails' worth of
	// orders; two that share no key are one envelope split by a line of
	// prose, which the parser will point at.
	if twice {
		return 0, 0, nil, errTwoBlocks(whole)
	}
	a, b := blocks[first].a, blocks[last].b
	// YAML that begins indented, or a later block that begins indented,
	// belongs to lines that are not shaped like YAML (a key without its
	// colon, say): keep those, so that the parser points at them.
	if continues(lines[a]) {
		a = start
	}
	for _, bl := range blocks[last+1:] {
		if continues(lines[bl.a]) {
			b = end
		}
	}
	var notes []string
	if n := countNonBlank(lines[start:a]); n > 0 {
		notes = append(notes, fmt.Sprintf("ignored %s of text before your orders (%s)", nLines(n), lineRange(start, a)))
	}
	if n := countNonBlank(lines[b:end]); n > 0 {
		notes = append(notes, fmt.Sprintf("ignored %s of text after your orders (%s)", nLines(n), lineRange(b, end)))
	}
	return a, b, notes, nil
}

// lineRange names lines[a:b] 1-based: "line 3" or "lines 3-5".
func lineRange(a, b int) string {
	if b-a == 1 {
		return fmt.Sprintf("line %d", a+1)
	}
	return fmt.Sprintf("lines %d-%d", a+1, b)
}
