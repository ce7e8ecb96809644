package referee_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// codeDirs are the packages whose error codes a player's or referee's
// reply can show (or the daemon's log, for mail/extract).
var codeDirs = []string{"adjudicator", "adjudicator/yamlx", "adjudicator/game", "adjudicator/dragonrage", "adjudicator/glory", "adjudicator/dragonnoir", "adjudicator/dragonnoir/conquete", "adjudicator/pause", "mail/extract", "mail/referee"}

// codeDocs are where the codes are listed for players.
var codeDocs = []string{"docs/orders/dragon-rage.md", "docs/orders/dragons-of-glory.md", "docs/orders/dragon-noir.md", "docs/orders/la-conquete.md", "docs/mail.md"}

var codeConstRe = regexp.MustCompile(`^[cC]ode[A-Z]`)

// definedCodes returns every error code the Go files of dirs define, with
// where: constants named code…/Code… with a string value, the code argument
// of Errorf and Rejection calls, and Code: fields, when written as literals.
func definedCodes(t *testing.T, root string, dirs []string) map[string]string {
	t.Helper()
	codes := map[string]string{}
	fset := token.NewFileSet()
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(root, dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, name, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			add := func(e ast.Expr) {
				if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
					if s, err := strconv.Unquote(lit.Value); err == nil {
						if _, seen := codes[s]; !seen {
							codes[s] = fset.Position(lit.Pos()).String()
						}
					}
				}
			}
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.GenDecl:
					if n.Tok != token.CONST {
						return true
					}
					for _, s := range n.Specs {
						vs := s.(*ast.ValueSpec)
						for i, id := range vs.Names {
							if codeConstRe.MatchString(id.Name) && i < len(vs.Values) {
								add(vs.Values[i])
							}
						}
					}
				case *ast.CallExpr:
					switch fun := callName(n.Fun); fun {
					case "Errorf":
						if len(n.Args) > 1 {
							add(n.Args[1])
						}
					case "Rejection":
						if len(n.Args) > 0 {
							add(n.Args[0])
						}
					}
				case *ast.KeyValueExpr:
					if id, ok := n.Key.(*ast.Ident); ok && id.Name == "Code" {
						add(n.Value)
					}
				}
				return true
			})
		}
	}
	return codes
}

// callName is the name of the function called, "" for fmt's (whose
// second argument is no code).
func callName(fun ast.Expr) string {
	switch f := fun.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		if x, ok := f.X.(*ast.Ident); ok && x.Name == "fmt" {
			return ""
		}
		return f.Sel.Name
	}
	return ""
}

var docCodeRowRe = regexp.MustCompile("(?m)^\\| *(`[a-z0-9-]+`(?:, *`[a-z0-9-]+`)*) *\\|")

// TestCodesInDocs: every error code the code defines is listed in the
// docs, spelled as the mails show it, and every code a docs table of
// codes lists exists, so that the two cannot drift apart again. Codes are
// stable API: when this fails, fix the docs, not the code.
func TestCodesInDocs(t *testing.T) {
	const root = "../.."
	codes := definedCodes(t, root, codeDirs)
	if len(codes) < 30 {
		t.Fatalf("found only %d codes; is the scan broken? %v", len(codes), codes)
	}
	var docs strings.Builder
	var listed []string
	for _, name := range codeDocs {
		b, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		docs.Write(b)
		for _, sec := range codeSections(string(b)) {
			for _, m := range docCodeRowRe.FindAllStringSubmatch(sec, -1) {
				for _, c := range strings.Split(m[1], ",") {
					listed = append(listed, strings.Trim(strings.TrimSpace(c), "`"))
				}
			}
		}
	}
	for code, where := range codes {
		if !strings.Contains(docs.String(), "`"+code+"`") {
			t.Errorf("code %q (%s) is in none of %s", code, where, strings.Join(codeDocs, ", "))
		}
	}
	if len(listed) == 0 {
		t.Fatal("no table of codes found in the docs")
	}
	for _, c := range listed {
		if _, ok := codes[c]; !ok {
			t.Errorf("the docs list the code %q, which the code never uses", c)
		}
	}
	// The test can fail: a code missing from the docs is seen.
	if _, ok := definedCodes(t, root, []string{"adjudicator/yamlx"})["yaml-syntax"]; !ok || slices.Contains(listed, "syntax") {
		t.Error("the scan misses yaml-syntax, or the docs still say syntax")
	}
}

// codeSections returns the parts of a doc that hold tables of codes: from
// a heading with "Refusals" or "codes" in it to the next heading of the
// same or a higher level.
func codeSections(doc string) []string {
	var out []string
	lines := strings.Split(doc, "\n")
	for i, l := range lines {
		level := len(l) - len(strings.TrimLeft(l, "#"))
		if level == 0 || !(strings.Contains(l, "Refusals") || strings.Contains(strings.ToLower(l), "error codes")) {
			continue
		}
		j := i + 1
		for j < len(lines) {
			if lv := len(lines[j]) - len(strings.TrimLeft(lines[j], "#")); lv > 0 && lv <= level && strings.HasPrefix(lines[j][lv:], " ") {
				break
			}
			j++
		}
		out = append(out, strings.Join(lines[i:j], "\n"))
	}
	return out
}
