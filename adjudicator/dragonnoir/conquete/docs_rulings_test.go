package conquete_test

import (
	"os"
	"path"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir/conquete"
	"github.com/umpire-pbem/umpire/adjudicator/script/scripttest"
)

const rulingsDoc = "../../../docs/rulings/la-conquete.md"

// TestRulingsDoc: docs/rulings/la-conquete.md gives every option of the
// campaign with its values and default, and a table row ruling every
// ambiguity (AMB-n) that the campaign's code, module or rule cases name,
// and those of its Negotiation markers (package negotiation).
func TestRulingsDoc(t *testing.T) {
	b, err := os.ReadFile(rulingsDoc)
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]string{}
	for _, dir := range []string{".", "../negotiation"} {
		scripttest.NamedAMBs(t, used, dir, os.DirFS(dir), func(p string, isDir bool) bool {
			return isDir || !strings.HasPrefix(path.Base(p), "docs_") && (strings.HasSuffix(p, ".go") || strings.HasSuffix(p, ".yaml"))
		})
	}
	scripttest.RulingsDoc(t, rulingsDoc, string(b), conquete.Ruleset.Info().Options, used, 20, "")
}
