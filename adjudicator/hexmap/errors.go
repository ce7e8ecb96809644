package hexmap

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

// Error is one problem in a map file, at a line and column.
type Error struct {
	File      string
	Line, Col int
	Msg       string
}

// Error writes "file:line:col: message".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
		if e.Col > 0 {
			fmt.Fprintf(&b, ":%d", e.Col)
		}
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Errors is every problem found in one map file.
type Errors []*Error

// Error writes one problem per line.
func (es Errors) Error() string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "\n")
}

// maxErrors caps how many problems one file reports.
const maxErrors = 25

type collector struct {
	file string
	errs Errors
}

func (c *collector) at(w word, format string, args ...any) {
	if len(c.errs) < maxErrors {
		c.errs = append(c.errs, &Error{File: c.file, Line: w.line, Col: w.col, Msg: fmt.Sprintf(format, args...)})
	}
}

func (c *collector) top(format string, args ...any) {
	c.at(word{}, format, args...)
}

func lineMsg(n *yaml.Node, msg string) string {
	return fmt.Sprintf("line %d: %s", n.Line, msg)
}
