package dragonnoir_test

import (
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir"
)

const rulingsDoc = "../../docs/rulings/dragon-noir.md"

var ambRe = regexp.MustCompile(`\bAMB-[0-9]+\b`)

// rowIDs are the IDs a doc's table rows open with ("| AMB-1, AMB-12 |").
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

// usedAMBs are the AMB IDs the package's code and rule cases name, each
// with a file that names it.
func usedAMBs(t *testing.T) map[string]string {
	t.Helper()
	used := map[string]string{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && (path == "conquete" || path == "negotiation") {
			return fs.SkipDir // the campaign and its Negotiation markers rule their own (their docs are la-conquete's)
		}
		if err != nil || d.IsDir() || !(strings.HasSuffix(path, ".go") || strings.HasPrefix(path, "testdata") && strings.HasSuffix(path, ".yaml")) ||
			strings.HasPrefix(path, "docs_") || strings.HasPrefix(path, filepath.Join("testdata", "games")) {
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
	return used
}

// TestRulingsDoc: docs/rulings/dragon-noir.md gives every option of the
// ruleset with its values and default, and a table row ruling every
// ambiguity (AMB-n) the code or a rule case names.
func TestRulingsDoc(t *testing.T) {
	doc := readFile(t, rulingsDoc)
	for _, o := range dragonnoir.Ruleset.Info().Options {
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
	ruled := rowIDs(doc)
	used := usedAMBs(t)
	if len(used) < 20 {
		t.Fatalf("only %d AMB IDs found in the package: is the scan broken?", len(used))
	}
	for _, id := range slices.Sorted(maps.Keys(used)) {
		if !ruled[id] {
			t.Errorf("%s: %s (named in %s) has no row in a rulings table", rulingsDoc, id, used[id])
		}
	}
	// The check can fail: a doc without the row is seen.
	if rowIDs("| AMB-2 | low rolls |\n")["AMB-3"] || !rowIDs("| AMB-1, AMB-12 | webs |\n")["AMB-12"] {
		t.Error("rowIDs reads table rows wrongly")
	}
}
