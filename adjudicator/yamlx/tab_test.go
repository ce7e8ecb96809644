package yamlx

import (
	"errors"
	"strconv"
	"testing"
)

// A tab in the indentation is named as such, at its own line, wherever the
// parser stumbles over it.
func TestTabIndentation(t *testing.T) {
	cases := []struct {
		name, src string
		line, col int
	}{
		{"list under a key", "game: x\norders:\n\t- unit: a\n", 3, 1},
		{"top-level key", "game: x\nside: y\n\tturn: 1\n", 3, 1},
		{"nested key", "a:\n  b: 1\n\tc: 2\n", 3, 1},
		{"after spaces", "a:\n  - x: 1\n  \t  y: 2\n", 3, 3},
		{"fourth line", "game: x\nside: y\norders:\n\t- unit: a\n    move: b\n", 4, 1},
		{"block scalar", "a: |\n  \tfoo\nb: 1\n", 2, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(c.src))
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Parse: %v, want *Error", err)
			}
			if e.Code != CodeTab || e.Line != c.line || e.Column != c.col {
				t.Fatalf("got %s [%s] at %d:%d, want %s at %d:%d", e, e.Code, e.Line, e.Column, CodeTab, c.line, c.col)
			}
			want := "indented with a tab; YAML needs spaces: replace the tab with spaces"
			if got := e.Error(); got != "line "+strconv.Itoa(c.line)+", column "+strconv.Itoa(c.col)+": this line is "+want {
				t.Errorf("Error() = %q", got)
			}
		})
	}
	// Tabs elsewhere are no concern of this check.
	for _, ok := range []string{"a: \"x\\ty\"\n", "a: 1 # a\tcomment\n", "a: |\n  x\ty\n"} {
		if _, err := Parse([]byte(ok)); err != nil {
			t.Errorf("Parse(%q): %v", ok, err)
		}
	}
	// A syntax error with no tab in sight stays a syntax error.
	if _, err := Parse([]byte("a: [\n")); err == nil || err.(*Error).Code != CodeSyntax {
		t.Errorf("got %v, want %s", err, CodeSyntax)
	}
}
