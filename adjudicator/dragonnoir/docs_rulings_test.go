package dragonnoir_test

import (
	"os"
	"path"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir"
	"github.com/umpire-pbem/umpire/adjudicator/script/scripttest"
)

const rulingsDoc = "../../docs/rulings/dragon-noir.md"

// TestRulingsDoc: docs/rulings/dragon-noir.md gives every option of the
// ruleset with its values and default, and a table row ruling every
// ambiguity (AMB-n) the code or a rule case names.
func TestRulingsDoc(t *testing.T) {
	doc := readFile(t, rulingsDoc)
	used := map[string]string{}
	scripttest.NamedAMBs(t, used, ".", os.DirFS("."), func(p string, isDir bool) bool {
		if isDir {
			return p != "conquete" && p != "negotiation" // the campaign and its Negotiation markers rule their own (their docs are la-conquete's)
		}
		return (strings.HasSuffix(p, ".go") || strings.HasPrefix(p, "testdata") && strings.HasSuffix(p, ".yaml")) &&
			!strings.HasPrefix(p, "docs_") && !strings.HasPrefix(p, path.Join("testdata", "games"))
	})
	scripttest.RulingsDoc(t, rulingsDoc, doc, dragonnoir.Ruleset.Info().Options, used, 20, " in the package")
}
