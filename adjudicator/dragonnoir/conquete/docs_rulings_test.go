package conquete_test

import (
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir/conquete"
)

const rulingsDoc = "../../../docs/rulings/la-conquete.md"

var ambRe = regexp.MustCompile(`\bAMB-[0-9]+\b`)

// rowIDs are the IDs a doc's table rows open with ("| AMB-84, AMB-85 |").
func rowIDs(doc string) map[string]bool {
	out := map[string]bool{}
	for _, l := range strings.Split(doc, "\n") {
		if cells := strings.Split(l, "|"); strings.HasPrefix(l, "|") && len(cells) > 2 {
			for _, id := range ambRe.FindAllString(cells[1], -1) {
				out[id] = true
			}
		}
	}
	return out
}

// TestRulingsDoc: docs/rulings/la-conquete.md gives every option of the
// campaign with its values and default, and a table row ruling every
// ambiguity (AMB-n) that the campaign's code, module or rule cases name,
// and those of its Negotiation markers (package negotiation).
func TestRulingsDoc(t *testing.T) {
	b, err := os.ReadFile(rulingsDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, o := range conquete.Ruleset.Info().Options {
		row := regexp.MustCompile("(?m)^\\| `" + regexp.QuoteMeta(o.Name) + "` \\| (.*?) \\|").FindStringSubmatch(doc)
		if row == nil {
			t.Errorf("%s: no row for the option %s in the options table", rulingsDoc, o.Name)
			continue
		}
		if !strings.Contains(row[1], "`"+o.Default+"` (default)") {
			t.Errorf("%s: option %s: its default is %s, written \"`%s` (default)\"", rulingsDoc, o.Name, o.Default, o.Default)
		}
		for _, v := range o.Values {
			if !strings.Contains(row[1], "`"+v+"`") {
				t.Errorf("%s: option %s: the value %s is missing", rulingsDoc, o.Name, v)
			}
		}
	}
	used := map[string]string{}
	for _, dir := range []string{".", "../negotiation"} {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || strings.HasPrefix(filepath.Base(path), "docs_") ||
				!(strings.HasSuffix(path, ".go") || strings.HasSuffix(path, ".yaml")) {
				return err
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, id := range ambRe.FindAllString(string(b), -1) {
				used[id] = path
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(used) < 20 {
		t.Fatalf("only %d AMB IDs found: is the scan broken?", len(used))
	}
	ruled := rowIDs(doc)
	for _, id := range slices.Sorted(maps.Keys(used)) {
		if !ruled[id] {
			t.Errorf("%s: %s (named in %s) has no row in a rulings table", rulingsDoc, id, used[id])
		}
	}
	// The check can fail: a doc without the row is seen.
	if rowIDs("| AMB-2 | low rolls |\n")["AMB-3"] || !rowIDs("| AMB-84, AMB-85 | spells |\n")["AMB-85"] {
		t.Error("rowIDs reads table rows wrongly")
	}
}
