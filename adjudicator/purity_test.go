package adjudicator_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestPurity is a statement of policy, like Go's own deps_test.go: the
// engine decides from its inputs alone. Nothing under adjudicator/ may reach
// the network, the file system, the mail or the store, read the clock or use
// the global random source. Dice come in through a Roller, time on the
// submission, files through an fs.FS.
func TestPurity(t *testing.T) {
	problems, n := checkPurity(t, ".")
	for _, p := range problems {
		t.Error(p)
	}
	if n < 5 {
		t.Fatalf("only %d engine files checked: is the walk broken?", n)
	}
}

// TestPurityCatches proves the check can fail: a fixture that breaks every
// rule must be reported for each.
func TestPurityCatches(t *testing.T) {
	problems, _ := checkPurity(t, "testdata/impure")
	all := strings.Join(problems, "\n")
	for _, want := range []string{`"os"`, `"math/rand"`, `"crypto/rand"`, "/store\"", "time.Now", "time.Since"} {
		if !strings.Contains(all, want) {
			t.Errorf("the purity check missed %s; it found:\n%s", want, all)
		}
	}
}

func checkPurity(t *testing.T, root string) (problems []string, files int) {
	t.Helper()
	banned := map[string]string{
		"net":         "network access",
		"net/http":    "network access",
		"net/mail":    "mail handling belongs in mail/",
		"net/smtp":    "mail handling belongs in mail/",
		"os":          "file system and environment access",
		"os/exec":     "running programs",
		"os/signal":   "process control",
		"syscall":     "system calls",
		"io/ioutil":   "file system access",
		"math/rand":   "the global random source (dice come through a Roller)",
		"crypto/rand": "drawing secrets (the caller draws them)",
		"unsafe":      "unsafe memory access",
	}
	const module = "github.com/umpire-pbem/umpire/"
	for _, p := range []string{"store", "mail", "templates", "cmd"} {
		banned[module+p] = "the engine must not depend on " + p + "/"
	}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			return err
		}
		files++
		for _, imp := range f.Imports {
			ip, _ := strconv.Unquote(imp.Path.Value)
			for b, why := range banned {
				if ip == b || strings.HasPrefix(ip, b+"/") && strings.HasPrefix(b, module) || ip == "math/rand/v2" && b == "math/rand" {
					problems = append(problems, fmt.Sprintf("%s imports %q: %s", path, ip, why))
				}
			}
		}
		full, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(full, func(node ast.Node) bool {
			sel, ok := node.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == "time" && (sel.Sel.Name == "Now" || sel.Sel.Name == "Since" || sel.Sel.Name == "Until" || sel.Sel.Name == "Sleep" || sel.Sel.Name == "After" || sel.Sel.Name == "Tick" || sel.Sel.Name == "NewTimer" || sel.Sel.Name == "NewTicker") {
				problems = append(problems, fmt.Sprintf("%s: calls time.%s: time must come in on the submission", fset.Position(sel.Pos()), sel.Sel.Name))
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return problems, files
}
