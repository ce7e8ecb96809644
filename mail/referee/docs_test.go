package referee_test

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/umpire-pbem/umpire/mail/referee"
)

var update = flag.Bool("update", false, "rewrite the list of commands in docs/mail.md from referee.MailCommands")

const (
	docsFile   = "../../docs/mail.md"
	docsBegin  = "<!-- commands:begin -->"
	docsEnd    = "<!-- commands:end -->"
	updateHint = "go test ./mail/referee -run TestDocsCommands -update"
)

// commandsSection is the list of commands in docs/mail.md, made from
// referee.MailCommands: the same source as the help mail.
func commandsSection() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n<!-- Made from MailCommands in mail/referee/help.go by\n     %s\n     Change the table there, not this list. -->\n", docsBegin, updateHint)
	for _, c := range referee.MailCommands {
		first, n := utf8.DecodeRuneInString(c.Summary)
		fmt.Fprintf(&b, "\n#### `%s`\n\n%c%s. Who: %s. Fields: %s.\n\n```yaml\n%s```\n", c.Name, unicode.ToUpper(first), c.Summary[n:], c.Who, c.Fields, c.Example)
	}
	b.WriteString(docsEnd)
	return b.String()
}

// TestDocsCommands: docs/mail.md lists exactly the commands of the help
// mail, with the same words and examples. With -update it rewrites the
// list.
func TestDocsCommands(t *testing.T) {
	b, err := os.ReadFile(docsFile)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i, j := strings.Index(doc, docsBegin), strings.Index(doc, docsEnd)
	if i < 0 || j < i {
		t.Fatalf("%s has no %s … %s section", docsFile, docsBegin, docsEnd)
	}
	want := commandsSection()
	got := doc[i : j+len(docsEnd)]
	if got == want {
		return
	}
	if *update {
		if err := os.WriteFile(docsFile, []byte(doc[:i]+want+doc[j+len(docsEnd):]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("the list of commands in %s is stale: run\n\t%s", docsFile, updateHint)
}

// switchCases lists the string constants of the cases of every switch in
// function fn of file.
func switchCases(t *testing.T, file, fn string) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Name.Name != fn {
			continue
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			sw, ok := n.(*ast.SwitchStmt)
			if !ok || sw.Tag == nil {
				return true
			}
			for _, s := range sw.Body.List {
				for _, e := range s.(*ast.CaseClause).List {
					if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
						v, _ := strconv.Unquote(lit.Value)
						out = append(out, v)
					}
				}
			}
			return true
		})
	}
	if len(out) == 0 {
		t.Fatalf("%s: no switch with string cases in %s", file, fn)
	}
	return out
}

// TestEveryCommandIsListed: the help mail and the docs list every command
// the code answers, and no other: the referee's (command.go's switch, and
// unlock), the players' (history.go's switch, and help).
func TestEveryCommandIsListed(t *testing.T) {
	code := append(switchCases(t, "command.go", "command"), "unlock")
	code = append(code, switchCases(t, "history.go", "ask")...)
	code = append(code, "help", "press") // press: press.go, routed by desk.go
	slices.Sort(code)
	listed := slices.Clone(referee.Commands)
	slices.Sort(listed)
	if !slices.Equal(slices.Compact(code), listed) {
		t.Errorf("the code answers %v,\nMailCommands (help.go) lists %v", code, listed)
	}
	for _, c := range referee.MailCommands {
		if c.Name == "" || c.Who == "" || c.Fields == "" || c.Summary == "" || !strings.HasPrefix(c.Example, "command: "+c.Name+"\n") {
			t.Errorf("command %q is not fully described: %+v", c.Name, c)
		}
	}
}
