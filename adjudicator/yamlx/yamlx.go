// Package yamlx decodes the YAML that people write by hand — orders, game
// scripts, module data — strictly and with messages that say where to look.
//
// Every error carries a line and column counted from the first line of the
// YAML text it was given; callers that found the YAML inside something larger
// (a mail) add their own offset. Unknown fields are errors, with the nearest
// known field suggested. Anchors and aliases are refused outright: nobody needs
// them to write orders, and refusing them closes the "billion laughs" door.
//
// ReadAll and LimitReader bound what is read before it is parsed: every
// caller that reads a file or a stream of people's text goes through them.
//
// The package is pure: no I/O of its own (ReadAll reads only the reader it
// is given), no clock.
package yamlx

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"

	"gopkg.in/yaml.v3"
)

// Error is a problem at a place in a YAML text.
type Error struct {
	Line, Column int    // 1-based; 0 when unknown
	Code         string // stable code, e.g. "yaml-syntax", "unknown-field"
	Msg          string // what is wrong and how to fix it
}

func (e *Error) Error() string {
	switch {
	case e.Line > 0 && e.Column > 0:
		return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
	case e.Line > 0:
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return e.Msg
}

// Errorf returns an *Error positioned at node n.
func Errorf(n *yaml.Node, code, format string, args ...any) *Error {
	e := &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
	if n != nil {
		e.Line, e.Column = n.Line, n.Column
	}
	return e
}

// Codes used by this package.
const (
	CodeSyntax       = "yaml-syntax"
	CodeUnknownField = "unknown-field"
	CodeAlias        = "yaml-alias"
	CodeType         = "bad-value"
	CodeEmpty        = "empty"
	CodeTooLarge     = "too-large"
	CodeMultiDoc     = "several-documents"
	// CodeTab: a line is indented with a tab, which YAML does not allow.
	CodeTab = "yaml-tab"
)

// MaxBytes is the largest text Parse accepts.
const MaxBytes = 1 << 20

// Parse parses src as one YAML document and returns its root node (the
// mapping, sequence or scalar under the document node). It refuses anchors,
// aliases, several documents and texts over MaxBytes.
func Parse(src []byte) (*yaml.Node, error) {
	if len(src) > MaxBytes {
		return nil, &Error{Code: CodeTooLarge, Msg: fmt.Sprintf("the text is %d bytes; at most %d are accepted", len(src), MaxBytes)}
	}
	src, err := fromUTF16(src)
	if err != nil {
		return nil, err
	}
	dec := yaml.NewDecoder(bytes.NewReader(src))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if err.Error() == "EOF" {
			return nil, &Error{Line: 1, Code: CodeEmpty, Msg: "the text is empty: nothing to read"}
		}
		return nil, syntaxError(src, err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, &Error{Line: extra.Line, Column: extra.Column, Code: CodeMultiDoc,
			Msg: "a second YAML document starts here (after a \"---\" line); send one document only"}
	} else if err.Error() != "EOF" {
		return nil, syntaxError(src, err)
	}
	if err := refuseAliases(&doc); err != nil {
		return nil, err
	}
	if doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 {
		return doc.Content[0], nil
	}
	return &doc, nil
}

var lineRE = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// syntaxError explains a parse error of src. A tab in the indentation is
// named as such, since yaml.v3's words for it ("found character that cannot
// start any token") do not say what to do.
func syntaxError(src []byte, err error) *Error {
	msg := err.Error()
	m := lineRE.FindStringSubmatch(msg)
	n := 1
	if m != nil {
		n, _ = strconv.Atoi(m[1])
	}
	if e := tabError(src, n); e != nil {
		return e
	}
	if m != nil {
		return &Error{Line: n, Code: CodeSyntax, Msg: "this is not valid YAML: " + m[2] + " (check the indentation and that every \"key: value\" has its colon and a space)"}
	}
	// yaml.v3 counts lines from 0 and names none when the problem is on
	// line 0: the first line.
	return &Error{Line: 1, Code: CodeSyntax, Msg: "this is not valid YAML: " + strings.TrimPrefix(msg, "yaml: ")}
}

// tabError returns a CodeTab error for the line of src the parser named
// (1-based), or the one after it (yaml.v3 often names the line before the
// tab), or else the first line, if that line has a tab in its indentation.
// It returns nil when no line is indented with a tab.
func tabError(src []byte, line int) *Error {
	lines := strings.Split(string(src), "\n")
	col := func(i int) int { // 1-based column of a tab in the indentation of line i (0-based), or 0
		if i < 0 || i >= len(lines) {
			return 0
		}
		l := strings.TrimRight(lines[i], "\r")
		if strings.TrimSpace(l) == "" {
			return 0
		}
		for j, r := range l {
			switch r {
			case '\t':
				return j + 1
			case ' ':
			default:
				return 0
			}
		}
		return 0
	}
	at := -1
	for _, i := range []int{line - 1, line} {
		if col(i) > 0 {
			at = i
			break
		}
	}
	for i := 0; at < 0 && i < len(lines); i++ {
		if col(i) > 0 {
			at = i
		}
	}
	if at < 0 {
		return nil
	}
	return &Error{Line: at + 1, Column: col(at), Code: CodeTab,
		Msg: "this line is indented with a tab; YAML needs spaces: replace the tab with spaces"}
}

func refuseAliases(n *yaml.Node) error {
	if n.Kind == yaml.AliasNode || n.Anchor != "" {
		return &Error{Line: n.Line, Column: n.Column, Code: CodeAlias,
			Msg: "YAML anchors and aliases (&name, *name) are not accepted here; write the value out in full"}
	}
	for _, c := range n.Content {
		if err := refuseAliases(c); err != nil {
			return err
		}
	}
	return nil
}

// Decode decodes node n into v strictly: every mapping key must name a field
// of the target struct (yaml tags, inline structs followed), and every value
// must fit its field's type. The first problem found is returned as an *Error.
func Decode(n *yaml.Node, v any) error {
	if err := checkKnown(n, reflect.TypeOf(v)); err != nil {
		return err
	}
	if err := n.Decode(v); err != nil {
		return typeError(n, err)
	}
	return nil
}

// Unmarshal is Parse followed by Decode.
func Unmarshal(src []byte, v any) error {
	n, err := Parse(src)
	if err != nil {
		return err
	}
	return Decode(n, v)
}

var typeLineRE = regexp.MustCompile(`line (\d+): (.*)`)

func typeError(n *yaml.Node, err error) error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		first := te.Errors[0]
		if m := typeLineRE.FindStringSubmatch(first); m != nil {
			line, _ := strconv.Atoi(m[1])
			return &Error{Line: line, Code: CodeType, Msg: humaniseType(m[2])}
		}
		return &Error{Line: n.Line, Code: CodeType, Msg: humaniseType(first)}
	}
	return &Error{Line: n.Line, Column: n.Column, Code: CodeType, Msg: err.Error()}
}

var unmarshalRE = regexp.MustCompile("cannot unmarshal !!(\\w+) `(.*)` into (.*)$")

func humaniseType(s string) string {
	m := unmarshalRE.FindStringSubmatch(s)
	if m == nil {
		return s
	}
	want := m[3]
	switch {
	case strings.HasPrefix(want, "int"), strings.HasPrefix(want, "uint"):
		want = "a whole number"
	case want == "bool":
		want = "true or false"
	case want == "string":
		want = "a text"
	case strings.HasPrefix(want, "[]"):
		want = "a list"
	case strings.HasPrefix(want, "map"), strings.Contains(want, "."):
		want = "a mapping (key: value lines)"
	}
	kind := map[string]string{"str": "text", "int": "number", "seq": "list", "map": "mapping", "bool": "true/false", "float": "number"}[m[1]]
	if kind == "" {
		kind = m[1]
	}
	return fmt.Sprintf("%q is a %s, but %s is needed here", m[2], kind, want)
}

// checkKnown walks n against type t and reports the first mapping key that
// has no field to go to.
func checkKnown(n *yaml.Node, t reflect.Type) error {
	if n == nil || t == nil {
		return nil
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if n.Kind == yaml.DocumentNode {
		for _, c := range n.Content {
			if err := checkKnown(c, t); err != nil {
				return err
			}
		}
		return nil
	}
	if t == nodeType || reflect.PointerTo(t).Implements(unmarshalerType) || t.Implements(unmarshalerType) {
		return nil // the type checks itself
	}
	switch t.Kind() {
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			return nil // Decode reports the type mismatch
		}
		fields := structFields(t)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, val := n.Content[i], n.Content[i+1]
			ft, ok := fields[k.Value]
			if !ok {
				names := make([]string, 0, len(fields))
				for name := range fields {
					names = append(names, name)
				}
				return UnknownField(k, k.Value, names)
			}
			if err := checkKnown(val, ft); err != nil {
				return err
			}
		}
	case reflect.Slice, reflect.Array:
		if n.Kind == yaml.SequenceNode {
			for _, c := range n.Content {
				if err := checkKnown(c, t.Elem()); err != nil {
					return err
				}
			}
		}
	case reflect.Map:
		if n.Kind == yaml.MappingNode {
			for i := 1; i < len(n.Content); i += 2 {
				if err := checkKnown(n.Content[i], t.Elem()); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

var nodeType = reflect.TypeOf(yaml.Node{})

var unmarshalerType = reflect.TypeOf((*yaml.Unmarshaler)(nil)).Elem()

// structFields maps each YAML key of struct type t to its field type,
// following ",inline" fields.
func structFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() && !f.Anonymous {
			continue
		}
		tag := f.Tag.Get("yaml")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if strings.Contains(opts, "inline") {
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				for k, v := range structFields(ft) {
					out[k] = v
				}
			}
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		out[name] = f.Type
	}
	return out
}

// UnknownField returns the error for key at node k that is none of known,
// suggesting the nearest one.
func UnknownField(k *yaml.Node, key string, known []string) *Error {
	sort.Strings(known)
	msg := fmt.Sprintf("unknown field %q", key)
	if s := Nearest(key, known); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	} else if len(known) > 0 && len(known) <= 12 {
		msg += "; the fields here are: " + strings.Join(known, ", ")
	}
	return Errorf(k, CodeUnknownField, "%s", msg)
}

// Nearest returns the candidate closest to s by edit distance (case
// insensitive), or "" when none is close enough to be a likely typo.
func Nearest(s string, candidates []string) string {
	best, bestD := "", 1<<30
	ls := strings.ToLower(s)
	for _, c := range candidates {
		d := editDistance(ls, strings.ToLower(c))
		if d < bestD || (d == bestD && c < best) {
			best, bestD = c, d
		}
	}
	limit := 2
	if len(s) > 6 {
		limit = 3
	}
	if bestD <= limit && bestD < len(s) {
		return best
	}
	return ""
}

func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// Key returns the key node of field name in mapping n, to point an error
// at; n itself when there is no such field.
func Key(n *yaml.Node, name string) *yaml.Node {
	if n != nil && n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == name {
				return n.Content[i]
			}
		}
	}
	return n
}

// Value returns the value node of field name in mapping n, or nil.
func Value(n *yaml.Node, name string) *yaml.Node {
	if n != nil && n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == name {
				return n.Content[i+1]
			}
		}
	}
	return nil
}

// fromUTF16 turns a text that starts with a UTF-16 byte order mark into
// UTF-8, as yaml.v3 would read it, so that every line and column this
// package reports (tabs included) counts the lines the parser saw; other
// texts are returned as they are. An odd number of bytes cannot be UTF-16.
func fromUTF16(src []byte) ([]byte, error) {
	var order binary.ByteOrder
	switch {
	case bytes.HasPrefix(src, []byte{0xff, 0xfe}):
		order = binary.LittleEndian
	case bytes.HasPrefix(src, []byte{0xfe, 0xff}):
		order = binary.BigEndian
	default:
		return src, nil
	}
	if len(src)%2 != 0 {
		return nil, &Error{Line: 1, Code: CodeSyntax, Msg: "the text starts as UTF-16 but has an odd number of bytes: save it as UTF-8"}
	}
	units := make([]uint16, 0, len(src)/2-1)
	for i := 2; i+1 < len(src); i += 2 {
		units = append(units, order.Uint16(src[i:]))
	}
	return []byte(string(utf16.Decode(units))), nil
}
