package yamlx

import (
	"errors"
	"strings"
	"testing"
)

type order struct {
	Unit   string   `yaml:"unit"`
	Path   []string `yaml:"path"`
	Attack *struct {
		Target string `yaml:"target"`
	} `yaml:"attack"`
}

type doc struct {
	Turn   int     `yaml:"turn"`
	Orders []order `yaml:"orders"`
}

func TestErrors(t *testing.T) {
	cases := []struct {
		name, src string
		code      string
		line, col int
		msgHas    string
	}{
		{"unknown top field", "turn: 1\nordres: []\n", CodeUnknownField, 2, 1, `did you mean "orders"`},
		{"unknown nested field", "turn: 1\norders:\n  - unit: ORC-3\n    pth: [0101]\n", CodeUnknownField, 4, 5, `did you mean "path"`},
		{"unknown deep field", "orders:\n  - unit: ORC-3\n    attack:\n      traget: 1108\n", CodeUnknownField, 4, 7, `did you mean "target"`},
		{"alias", "turn: &a 1\norders: []\n", CodeAlias, 1, 7, "anchors and aliases"},
		{"alias bomb", "a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n", CodeAlias, 1, 4, "anchors"},
		{"syntax", "turn: 1\norders:\n  - unit: [\n", CodeSyntax, 0, 0, "not valid YAML"},
		{"bad type", "turn: three\n", CodeType, 1, 0, `"three" is a text, but a whole number is needed`},
		{"two documents", "turn: 1\n---\nturn: 2\n", CodeMultiDoc, 2, 1, "second YAML document"},
		{"empty", "", CodeEmpty, 1, 0, "empty"},
		{"too large", strings.Repeat("#", MaxBytes+1), CodeTooLarge, 0, 0, "at most"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var d doc
			err := Unmarshal([]byte(c.src), &d)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("got %v, want a *yamlx.Error", err)
			}
			if e.Code != c.code || (c.line != 0 && e.Line != c.line) || (c.col != 0 && e.Column != c.col) || !strings.Contains(e.Msg, c.msgHas) {
				t.Errorf("got %s [%s] at %d:%d; want [%s] at %d:%d containing %q", e.Msg, e.Code, e.Line, e.Column, c.code, c.line, c.col, c.msgHas)
			}
		})
	}
}

func TestDecodeOK(t *testing.T) {
	var d doc
	err := Unmarshal([]byte("turn: 2\norders:\n  - unit: ORC-3\n    path: [\"0101\", \"0102\"]\n    attack: {target: \"1108\"}\n"), &d)
	if err != nil {
		t.Fatal(err)
	}
	if d.Turn != 2 || d.Orders[0].Path[1] != "0102" || d.Orders[0].Attack.Target != "1108" {
		t.Errorf("decoded %+v", d)
	}
}

func TestInlineFields(t *testing.T) {
	type base struct {
		Game string `yaml:"game"`
	}
	type withInline struct {
		base `yaml:",inline"`
		Turn int `yaml:"turn"`
	}
	var v struct {
		Base withInline `yaml:"base"`
	}
	if err := Unmarshal([]byte("base:\n  game: g1\n  turn: 3\n"), &v); err != nil {
		t.Fatalf("inline field refused: %v", err)
	}
}

func TestNearest(t *testing.T) {
	ids := []string{"ORC-1", "ORC-2", "INF-3", "GIANT-2"}
	for in, want := range map[string]string{"orc-2": "ORC-2", "GAINT-2": "GIANT-2", "INF3": "INF-3", "DRAGON-1": ""} {
		if got := Nearest(in, ids); got != want {
			t.Errorf("Nearest(%q) = %q, want %q", in, got, want)
		}
	}
}
