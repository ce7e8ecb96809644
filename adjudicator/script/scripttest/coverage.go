package scripttest

import (
	"io/fs"
	"maps"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/script"
)

// Part is a part of a rules digest: the lines after the first that starts
// with From and before the next that starts with To (Between), where ID
// finds a rule ID on a line (its first group).
type Part struct {
	From, To string
	ID       *regexp.Regexp
}

// IDs returns the rule IDs the part defines in the digest's lines.
func (p Part) IDs(lines []string) map[string]bool {
	ids := map[string]bool{}
	for _, l := range Between(lines, p.From, p.To) {
		if m := p.ID.FindStringSubmatch(l); m != nil {
			ids[m[1]] = true
		}
	}
	return ids
}

// CoverageOptions say what a ruleset's rule coverage accounts for.
type CoverageOptions struct {
	Name string // the part, in messages: "Part A"
	What string // its IDs, in messages: "rule IDs", "DN3 rule IDs"
	Part Part
	Min  int // finding fewer IDs than this, the digest's format has changed

	Cases []*script.Script // every rule case that may name an ID of the part
	// Checked reports whether a case's ID must be one the part (or one of
	// Others) defines; nil checks every ID.
	Checked func(id string) bool
	Others  []Part // other parts whose IDs the cases may name too

	ByTest      map[string]string // IDs a Go test checks, with the test
	NoBehaviour map[string]string // IDs no case can show, with the reason
	// Tested reports IDs a Go test checks as a whole chapter ("DR-DICE-"),
	// counted as checked by a Go test after ByTest; nil for none.
	Tested func(id string) bool
	// Meta reports the part's meta-IDs (gaps, ambiguities, a glossary):
	// accounted for by being one, counted as Words.Meta. With MetaFirst a
	// meta-ID counts so even where a case names it; else only where no
	// case, ByTest or Tested accounts for it. nil for none.
	Meta      func(id string) bool
	MetaFirst bool
	Words     Words // the words of the log and messages; empty ones default
}

// Words name, in RuleCoverage's log and messages, the ways an ID is
// accounted for. An empty word takes its default, given here.
type Words struct {
	Named       string // "named by a case"
	ByTest      string // "checked by a Go test"
	NoBehaviour string // "no behaviour, with the reason"
	Listed      string // "as having no behaviour": "X is listed <Listed>, but a case names it"
	Meta        string // "meta"
}

func (w Words) withDefaults() Words {
	def := func(s *string, d string) {
		if *s == "" {
			*s = d
		}
	}
	def(&w.Named, "named by a case")
	def(&w.ByTest, "checked by a Go test")
	def(&w.NoBehaviour, "no behaviour, with the reason")
	def(&w.Listed, "as having no behaviour")
	def(&w.Meta, "meta")
	return w
}

// RuleCoverage checks that every rule ID a part of the digest (at
// digestPath in fsys, skipping the test when it is not there) defines is
// named by a case's "rules:" list, checked by a Go test or listed with the
// reason it has no behaviour; that the cases and lists name only IDs the
// digest defines; and that no ID listed as having no behaviour is played
// by a case. It returns the IDs nothing accounts for, in rule order: the
// caller says how strict it is about them.
func RuleCoverage(t testing.TB, fsys fs.FS, digestPath string, o CoverageOptions) []string {
	t.Helper()
	w := o.Words.withDefaults()
	// in names the part in messages; Name "" stands for the whole digest.
	in, digest := " in "+o.Name, o.Name+" of the digest"
	if o.Name == "" {
		in, digest = "", "the digest"
	}
	lines := Digest(t, fsys, digestPath)
	ids := o.Part.IDs(lines)
	if len(ids) < o.Min {
		t.Fatalf("found only %d %s%s of the digest: has its format changed?", len(ids), o.What, in)
	}
	others := map[string]bool{}
	for _, p := range o.Others {
		for id := range p.IDs(lines) {
			others[id] = true
		}
	}
	named := Coverage(o.Cases)
	for id, files := range named {
		if (o.Checked == nil || o.Checked(id)) && !ids[id] && !others[id] {
			t.Errorf("%s names %s, which %s does not define", strings.Join(files, ", "), id, digest)
		}
	}
	for _, list := range []map[string]string{o.NoBehaviour, o.ByTest} {
		for id := range list {
			if !ids[id] {
				t.Errorf("the coverage lists name %s, which %s does not define", id, digest)
			}
		}
	}
	for id := range o.NoBehaviour {
		if len(named[id]) > 0 {
			t.Errorf("%s is listed %s, but %s names it: take it off the list", id, w.Listed, strings.Join(named[id], ", "))
		}
	}
	is := func(f func(string) bool, id string) bool { return f != nil && f(id) }
	var uncovered []string
	count := map[string]int{}
	for id := range ids {
		switch {
		case o.MetaFirst && is(o.Meta, id):
			count[w.Meta]++
		case len(named[id]) > 0:
			count[w.Named]++
		case o.ByTest[id] != "", is(o.Tested, id):
			count[w.ByTest]++
		case is(o.Meta, id):
			count[w.Meta]++
		case o.NoBehaviour[id] != "":
			count[w.NoBehaviour]++
		default:
			uncovered = append(uncovered, id)
		}
	}
	SortIDs(uncovered)
	t.Logf("%d %s%s: %v", len(ids), o.What, in, count)
	return uncovered
}

// SortIDs sorts rule IDs by their prefix, then their number ("X-2" before
// "X-10"); an ID without a number goes by its text.
func SortIDs(ids []string) {
	num := regexp.MustCompile(`^(.*?)(\d+)$`)
	sort.Slice(ids, func(i, j int) bool {
		a, b := num.FindStringSubmatch(ids[i]), num.FindStringSubmatch(ids[j])
		if a == nil || b == nil {
			return ids[i] < ids[j]
		}
		if a[1] != b[1] {
			return a[1] < b[1]
		}
		return len(a[2]) < len(b[2]) || len(a[2]) == len(b[2]) && a[2] < b[2]
	})
}

var ambRE = regexp.MustCompile(`\bAMB-[0-9]+\b`)

// RowIDs are the AMB IDs a doc's table rows open with ("| AMB-1, AMB-12 |").
func RowIDs(doc string) map[string]bool {
	out := map[string]bool{}
	for _, l := range strings.Split(doc, "\n") {
		if cells := strings.Split(l, "|"); strings.HasPrefix(l, "|") && len(cells) > 2 {
			for _, id := range ambRE.FindAllString(cells[1], -1) {
				out[id] = true
			}
		}
	}
	return out
}

// NamedAMBs adds to used the AMB IDs named in the files of fsys that keep
// accepts, each with a file that names it (dir joined to its path: the
// directory fsys stands for, as messages name it). keep sees every path
// inside fsys; a directory it refuses is skipped whole.
func NamedAMBs(t testing.TB, used map[string]string, dir string, fsys fs.FS, keep func(p string, isDir bool) bool) {
	t.Helper()
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != "." && !keep(p, true) {
				return fs.SkipDir
			}
			return nil
		}
		if !keep(p, false) {
			return nil
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		for _, id := range ambRE.FindAllString(string(b), -1) {
			used[id] = path.Join(dir, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// RulingsDoc checks a ruleset's rulings doc (its text, read from docPath):
// it gives every option with its values and default, and a table row
// rules every ambiguity used names (AMB-n, each with a file naming it;
// fewer than min means the scan is broken, where says what was scanned).
func RulingsDoc(t testing.TB, docPath, doc string, options []adjudicator.OptionInfo, used map[string]string, min int, where string) {
	t.Helper()
	for _, o := range options {
		row := regexp.MustCompile("(?m)^\\| `" + regexp.QuoteMeta(o.Name) + "` \\| (.*?) \\|").FindStringSubmatch(doc)
		if row == nil {
			t.Errorf("%s: no row for the option %s in the options table", docPath, o.Name)
			continue
		}
		if !strings.Contains(row[1], "`"+o.Default+"` (default)") {
			t.Errorf("%s: option %s: its default is %s, written \"`%s` (default)\"", docPath, o.Name, o.Default, o.Default)
		}
		for _, v := range o.Values {
			if !strings.Contains(row[1], "`"+v+"`") {
				t.Errorf("%s: option %s: the value %s is missing", docPath, o.Name, v)
			}
		}
	}
	if len(used) < min {
		t.Fatalf("only %d AMB IDs found%s: is the scan broken?", len(used), where)
	}
	ruled := RowIDs(doc)
	for _, id := range slices.Sorted(maps.Keys(used)) {
		if !ruled[id] {
			t.Errorf("%s: %s (named in %s) has no row in a rulings table", docPath, id, used[id])
		}
	}
	// The check can fail: a doc without the row is seen.
	if RowIDs("| AMB-2 | low rolls |\n")["AMB-3"] || !RowIDs("| AMB-1, AMB-12 | webs |\n")["AMB-12"] ||
		!RowIDs("| AMB-84, AMB-85 | spells |\n")["AMB-85"] {
		t.Error("rowIDs reads table rows wrongly")
	}
}
