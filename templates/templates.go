// Package templates holds the texts of every mail umpire sends — welcome,
// acknowledgement, rejection, results, referee replies — as text/template
// files embedded in the binary. A club can override any of them by putting
// a file of the same name in a directory (Overlay): the words players read
// are data, not code.
//
// The data each template receives is one of the types in data.go; their
// fields are the documented vocabulary of the templates. This package only
// renders: it never sends mail, reads games or touches the store.
package templates

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/template"

	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

//go:embed *.tmpl
var builtin embed.FS

// The template names, one file each (NAME.tmpl).
const (
	Welcome  = "welcome"
	Ack      = "ack"
	Rejected = "rejected"
	Results  = "results"
	Decision = "decision-needed"
	Referee  = "referee"
	Paused   = "paused"   // an order mail refused unread: guessing the secret is paused
	Lockout  = "lockout"  // the notice to a side's player and the referee that a pause began
	Reminder = "reminder" // a deadline comes near and the side has not answered
	Late     = "late"     // a deadline passed with no answer (to every player and the referee)
	Notice   = "notice"   // the referee paused, resumed or extended the game, or umpire moved a deadline (to all)
	Common   = "common"   // shared definitions ("due-list")

	// The answers to the commands players (and the referee) mail to ask
	// about a game (mail/referee/history.go).
	AskHelp    = "ask-help"    // every command, with an example mail each
	AskStatus  = "ask-status"  // what is due, by when, the score
	AskHistory = "ask-history" // the list of adjudications
	AskResults = "ask-results" // one adjudication in full
	AskMap     = "ask-map"     // the board, as text (and a picture)
	AskExport  = "ask-export"  // the audit bundle, attached
	AskRefused = "ask-refused" // a command that was not answered, and why

	// Observers and press (mail/referee/observers.go, press.go).
	Observing       = "observing"        // to an observer the referee added or removed
	ObserverResults = "observer-results" // adjudications as every side reads them, to an observer
	Press           = "press"            // a press message delivered to a side (or the referee's copy)
	PressSent       = "press-sent"       // the sender's acknowledgement of a press message

	// A setup due from the recipient: its zones, units and orders to fill
	// in, included in the welcome and results mails (mail/referee/command.go).
	SetupDue = "setup-due"
)

// Names lists every template a Set must have.
var Names = []string{Common, Welcome, Ack, Rejected, Results, Decision, Referee, Paused, Lockout, Reminder, Late, Notice,
	AskHelp, AskStatus, AskHistory, AskResults, AskMap, AskExport, AskRefused,
	Observing, ObserverResults, Press, PressSent, SetupDue}

// Set is a parsed collection of templates. It is safe for concurrent use.
type Set struct {
	t   *template.Template
	dir string // the overlay directory, "" for none
}

var funcs = template.FuncMap{
	"indent": func(n int, s string) string {
		pad := strings.Repeat(" ", n)
		s = strings.TrimRight(s, "\n")
		if s == "" {
			return ""
		}
		return pad + strings.ReplaceAll(s, "\n", "\n"+pad)
	},
	"join": func(sep string, s []string) string { return strings.Join(s, sep) },
	// pass reports whether normalised orders say nothing (a pass):
	// they are shown as "pass", not as an empty YAML value.
	"pass": func(normalized string) bool {
		switch strings.TrimSpace(normalized) {
		case "", "{}", "[]", "null":
			return true
		}
		return false
	},
	"plural": func(n int, one, many string) string {
		if n == 1 {
			return one
		}
		return many
	},
}

// Default returns the built-in templates.
func Default() *Set {
	s, err := parse(builtin, nil)
	if err != nil {
		panic("templates: the built-in templates do not parse: " + err.Error())
	}
	return s
}

// Overlay returns the built-in templates with every NAME.tmpl file of dir
// put in place of the built-in file of the same name. Files that are not
// templates of this set are an error, so that a misspelt override does not
// go unnoticed. An empty dir means the built-in templates alone.
func Overlay(dir string) (*Set, error) {
	if dir == "" {
		return Default(), nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("templates: %w", err)
	}
	over := map[string]string{}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".tmpl") {
			continue
		}
		base := strings.TrimSuffix(name, ".tmpl")
		if !known(base) {
			return nil, fmt.Errorf("templates: %s: no template is called %q (the names are %s)", filepath.Join(dir, name), base, strings.Join(Names, ", "))
		}
		b, err := readCapped(filepath.Join(dir, name))
		if err != nil {
			return nil, fmt.Errorf("templates: %w", err)
		}
		over[base] = string(b)
	}
	s, err := parse(builtin, over)
	if err != nil {
		return nil, fmt.Errorf("templates: %s: %w", dir, err)
	}
	s.dir = dir
	return s, nil
}

func known(name string) bool {
	for _, n := range Names {
		if n == name {
			return true
		}
	}
	return false
}

func parse(fsys fs.FS, over map[string]string) (*Set, error) {
	root := template.New("").Funcs(funcs).Option("missingkey=error")
	names := append([]string(nil), Names...)
	sort.Strings(names)
	for _, n := range names {
		src, ok := over[n]
		if !ok {
			b, err := fs.ReadFile(fsys, n+".tmpl")
			if err != nil {
				return nil, err
			}
			src = string(b)
		}
		if _, err := root.New(n).Parse(src); err != nil {
			return nil, err
		}
	}
	return &Set{t: root}, nil
}

// Dir is the overlay directory, "" for the built-in templates alone.
func (s *Set) Dir() string { return s.dir }

// Render executes template name with data and returns the text, with line
// ends normalised to "\n", trailing blanks trimmed and one final newline.
func (s *Set) Render(name string, data any) (string, error) {
	var b bytes.Buffer
	if err := s.t.ExecuteTemplate(&b, name, data); err != nil {
		return "", fmt.Errorf("templates: %w", err)
	}
	lines := strings.Split(strings.ReplaceAll(b.String(), "\r\n", "\n"), "\n")
	out := make([]string, 0, len(lines))
	blank := 0
	for _, l := range lines {
		l = strings.TrimRight(l, " \t")
		if l == "" {
			blank++
			if blank > 1 || len(out) == 0 {
				continue // at most one blank line in a row, none at the top
			}
		} else {
			blank = 0
		}
		out = append(out, l)
	}
	return strings.TrimRight(strings.Join(out, "\n"), "\n") + "\n", nil
}

// MaxTemplateBytes bounds a template file read from the templates directory.
const MaxTemplateBytes = 256 << 10

func readCapped(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return yamlx.ReadAll(f, MaxTemplateBytes, path, "template files")
}
