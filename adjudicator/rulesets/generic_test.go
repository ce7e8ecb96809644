package rulesets

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// genericDirs are the packages that serve every game: they reach a game
// only through the registry and the optional interfaces of package
// adjudicator (adjudicator.HexMaps for maps, map checks and picture
// styles), so a second game adds a package and a line here, nothing else.
// Paths are from the module's root; "/..." takes the subpackages too.
var genericDirs = []string{
	"adjudicator",
	"adjudicator/pause/...",
	"adjudicator/render/...",
	"adjudicator/game/...",
	"adjudicator/hexmap/...",
	"adjudicator/rulesets/...",
	"mail/...",
	"store/...",
	"cmd/umpire/...",
}

// gameWords are the names of the games, their maps, sides, creatures and
// spells (Dragon Rage, Dragons of Glory, Dragon Noir), and their rule IDs
// (DR-MAP-5, DG-MOVE-3, DN-TURN-3), which no generic package may use.
var (
	gameWords = regexp.MustCompile(`(?i)dragon ?rage|serpent|esirien|nurkott|elowyn|whirlwind|dragons of glory|\bglory\b|ansalon|highlord|whitestone|maelstrom|kender|draconian|dragon ?noir|krobs?\b|alkiram|gharvs?\b|zacharie|gerfindel|godiva|crazy ork|l'[ée]preuve|khuzun|arkö`)
	ruleIDs   = regexp.MustCompile(`\b(DR|DG|DN)-[A-Z]+-[0-9]`)
)

// allowed are the exceptions, by file and word (lower case, or the rule
// ID's prefix), each with its reason.
var allowed = map[string]string{
	"adjudicator/rulesets/rulesets.go dragonrage": "the registry: the one place that lists rulesets (its import and its line)",
	"adjudicator/rulesets/rulesets.go glory":      "the registry: the one place that lists rulesets (its import and its line)",
	"adjudicator/rulesets/rulesets.go dragonnoir": "the registry: the one place that lists rulesets (its import and its line)",
	"adjudicator/doc.go dragon rage":              "the engine's overview names the games its vocabulary was drawn from, as examples",
	"adjudicator/doc.go dragons of glory":         "the engine's overview names the games its vocabulary was drawn from, as examples",
	"adjudicator/doc.go dragon noir":              "the engine's overview names the games its vocabulary was drawn from, as examples",
}

// genericHits lists "path word" for every game word in src, a file at path.
func genericHits(path, src string) []string {
	var out []string
	for _, w := range gameWords.FindAllString(src, -1) {
		out = append(out, path+" "+strings.ToLower(w))
	}
	for _, loc := range ruleIDs.FindAllStringIndex(src, -1) {
		end := loc[1]
		for end < len(src) && (src[end] >= '0' && src[end] <= '9') {
			end++
		}
		out = append(out, path+" "+src[loc[0]:end])
	}
	return out
}

// TestNoGenericPackageNamesAGame reads every Go file of genericDirs (tests
// excepted: they may play the shipped game as a fixture) for the names of
// a game, and fails on any not in allowed, and on an exception that no
// longer matches anything.
func TestNoGenericPackageNamesAGame(t *testing.T) {
	root := filepath.Join("..", "..")
	used := map[string]bool{}
	for _, d := range genericDirs {
		dir, deep := strings.CutSuffix(d, "/...")
		err := filepath.WalkDir(filepath.Join(root, dir), func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if e.IsDir() {
				if (!deep && p != filepath.Join(root, dir)) || e.Name() == "testdata" {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			for _, h := range genericHits(filepath.ToSlash(rel), string(b)) {
				if _, ok := allowed[h]; ok {
					used[h] = true
					continue
				}
				t.Errorf("%s: a generic package names a game (reach the game through its ruleset's interfaces)", h)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	var stale []string
	for k := range allowed {
		if !used[k] {
			stale = append(stale, k)
		}
	}
	sort.Strings(stale)
	for _, k := range stale {
		t.Errorf("exception %q matches nothing any more: remove it", k)
	}
}

// TestGenericHitsCatches proves the test above can fail: each kind of name
// is found, and a neutral text gives nothing.
func TestGenericHitsCatches(t *testing.T) {
	src := `import "github.com/umpire-pbem/umpire/adjudicator/dragonrage"
	"serpent-entry": {"S"}, // Dragon Rage, DR-SERP-7
	case "whirlwind": load("nurkott")
	"gharv-1": {"K"}, // Dragon Noir's Krobs, DN-GHARV-3`
	got := genericHits("x.go", src)
	want := []string{"x.go dragonrage", "x.go serpent", "x.go dragon rage", "x.go whirlwind", "x.go nurkott", "x.go gharv", "x.go dragon noir", "x.go krobs", "x.go gharv", "x.go DR-SERP-7", "x.go DN-GHARV-3"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("hits %q, want %q", got, want)
	}
	if h := genericHits("y.go", `"entry": {"IN"}, // address-7, the DRY rule, ADDR-X-1`); len(h) != 0 {
		t.Errorf("a neutral text: %q", h)
	}
}
