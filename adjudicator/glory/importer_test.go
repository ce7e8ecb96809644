package glory_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/glory"
)

// foundDir is the public fan data of Dragons of Glory, read in place: it is
// never copied into the repository (a user downloads it).
const foundDir = "../../../shared/data/found/dragons_of_glory"

func importFound(t *testing.T) (adjudicator.Module, []string) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(foundDir, "ansalon_map.csv")); err != nil {
		t.Skipf("the Dragons of Glory fan data is absent (%s): the import tests read a user's copy in place; put one there to run them", foundDir)
	}
	imp := glory.Ruleset.(adjudicator.ModuleImporter)
	m, notes, err := imp.ImportModule("ansalon", os.DirFS(foundDir))
	if err != nil {
		t.Fatalf("import: %v\nnotes:\n%v", err, notes)
	}
	return m, notes
}

// TestImportFound imports the fan data, checks the module, sets up every
// scenario, and spot-checks values against the data.
func TestImportFound(t *testing.T) {
	m, notes := importFound(t)
	if err := glory.Ruleset.(adjudicator.Modular).CheckModule(m); err != nil {
		t.Fatal(err)
	}
	d, err := glory.LoadModule(m)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"war-of-the-lance", "battle-for-neraka", "dragonlance-chronicles", "fall-of-silvanesti", "invasion-of-abanasinia",
		"kender-strike", "pirates-of-the-maelstrom", "siege-of-kalaman", "solamnic-plain"}
	var got []string
	for _, s := range d.Scenarios {
		got = append(got, s.ID)
	}
	if !slices.Equal(got, want) {
		t.Errorf("scenarios %v, want %v", got, want)
	}
	for _, id := range want {
		s, err := glory.Ruleset.Setup(adjudicator.Setup{Scenario: id, Module: &m, Sides: []adjudicator.Side{glory.Highlord, glory.Whitestone}})
		if err != nil {
			t.Errorf("scenario %s does not set up: %v", id, err)
			continue
		}
		st := s.(*glory.State)
		on := 0
		for _, u := range st.Units {
			if u.Where == glory.OnMap {
				on++
			}
		}
		if on == 0 {
			t.Errorf("scenario %s starts with no counter on the map", id)
		}
		if len(glory.Ruleset.Due(st)) != 2 {
			t.Errorf("scenario %s: the first turn does not ask both sides for strategic orders", id)
		}
	}

	// A known hex: 4441 (column 44, row 41) is Silvanost, Silvanesti's
	// capital, a port in the forest; 0000 is sea.
	g := d.Geo
	if g.Terrain("4441") != "forest" || !g.Port("4441") || g.Nation("4441") != "silvanesti" || g.Fort("4441") != "fortified-city" {
		t.Errorf("4441: terrain %q port %v nation %q fort %q", g.Terrain("4441"), g.Port("4441"), g.Nation("4441"), g.Fort("4441"))
	}
	if !g.Sea("0000") || g.Terrain("2226") == "" {
		t.Errorf("0000 %q, 2226 %q", g.Terrain("0000"), g.Terrain("2226"))
	}
	// The grid is pointy-topped, odd rows shifted right: 4441's north-east
	// neighbour is 4540, its north-west 4440; 4440 and 4540 are not
	// neighbours of 4342. A hexside of the data: the deep river on the east
	// side of 0225 ([2, 25, E]).
	if !g.Adjacent("4441", "4540") || !g.Adjacent("4441", "4440") || g.Adjacent("4441", "4342") {
		t.Errorf("4441's neighbours: %v", g.Near("4441"))
	}
	if k := g.Side("0225", "0325").Kind; k != "deep-river" {
		t.Errorf("0225/0325: %q, want deep-river", k)
	}
	if strings.Contains(strings.Join(notes, "\n"), "does not know layouts") {
		t.Error("the map reader knows layouts, but the importer wrote the map without its layout")
	}
	if d.Nations["silvanesti"].Capital != "4441" {
		t.Errorf("Silvanesti's capital %q", d.Nations["silvanesti"].Capital)
	}
	// The Activation Table (rule): Zhakar 5/3 where the fan data says 3/5;
	// Caergoth (the fan's southlund) 3/-2 and a Knights nation.
	for _, c := range []struct {
		n       string
		ws, hl  int
		knights bool
	}{{"zhakar", 5, 3, false}, {"southlund", 3, -2, true}, {"sancrist", 4, -3, true}, {"saifhum", 4, 4, false}, {"throt", -2, 7, false}} {
		n := d.Nations[c.n]
		if n == nil || n.Activation[glory.Whitestone] != c.ws || n.Activation[glory.Highlord] != c.hl || n.Knights != c.knights || n.Prov.Source != "rule" {
			t.Errorf("nation %s: %+v, want WS %d HL %d knights %v (rule)", c.n, n, c.ws, c.hl, c.knights)
		}
	}
	// Counters: 20 draconians (DG-COMP-19), six Hylo kender, the errata.
	count := func(prefix string) int {
		n := 0
		for _, id := range d.CounterIDs() {
			if strings.HasPrefix(id, prefix) {
				n++
			}
		}
		return n
	}
	if n := count("dtemple-draconian-inf-"); n != 20 {
		t.Errorf("%d draconians, want 20", n)
	}
	if n := count("hylo-kender-inf-"); n != 6 {
		t.Errorf("%d Hylo kender, want 6", n)
	}
	if k := d.Counters["lorac"]; k == nil || k.Full != (glory.Face{Strength: 3, MP: 12}) || k.Errata != "DG-ERRATA-2" || k.Prov.Rule != "DG-ERRATA-2" {
		t.Errorf("the Silvanesti leader: %+v", k)
	}
	if k := d.Counters["silvanesti-elf-fleet-4"]; k == nil || k.Half == nil || *k.Half != (glory.Face{Strength: 2, MP: 50}) || k.Prov.Rule != "DG-ERRATA-3" {
		t.Errorf("a Silvanesti fleet: %+v", k)
	}
	if k := d.Counters["silvanesti-elf-inf-5"]; k == nil || *k.Half != (glory.Face{Strength: 3, MP: 5}) || k.Prov.Rule != "DG-ERRATA-4" {
		t.Errorf("a Silvanesti elf army: %+v", k)
	}
	if k := d.Counters["silvanesti-elf-inf-6"]; k == nil || !k.Prov.Assumed() {
		t.Errorf("the sixth elf army (not in the errata row): %+v", k)
	}
	// Scenarios from the rulebook: Kender Strike starts turn 1 with the
	// Whitestone's initiative and the Highlord must conquer Hylo by turn 5.
	ks, _ := d.Scenario("kender-strike")
	if ks.Start != 1 || ks.Initiative != "whitestone" || ks.Prov.Source != "rule" || len(ks.Victory) != 2 ||
		ks.Victory[0].Kind != "capture" || ks.Victory[0].By != 5 || !slices.Equal(ks.Victory[0].Nations, []string{"hylo"}) ||
		ks.Victory[1].Kind != "strength" || ks.Victory[1].Percent != 50 || ks.Cup == nil || len(ks.Cup) != 0 {
		t.Errorf("kender-strike: %+v", ks)
	}
	sp, _ := d.Scenario("solamnic-plain")
	if !slices.Equal(sp.Activate, []string{"kaolyn", "lemish", "palanthas", "vingaard"}) || sp.Start != 10 {
		t.Errorf("solamnic-plain: activate %v start %d", sp.Activate, sp.Start)
	}
	// The notes say what was merged and assumed.
	all := strings.Join(notes, "\n")
	for _, w := range []string{"grassland", "steppe", "jungle", "glacier", "tunnel", "great rivers", "reduced", "Zhakar", "assumed"} {
		if !strings.Contains(all, w) {
			t.Errorf("the notes do not mention %q:\n%s", w, all)
		}
	}
	if !strings.Contains(string(m.Files["module.yaml"]), "grassland") {
		t.Error("module.yaml does not carry the notes")
	}
}

// TestImportDeterministic imports twice: the same files, the same digest.
func TestImportDeterministic(t *testing.T) {
	a, _ := importFound(t)
	b, _ := importFound(t)
	if a.Digest() != b.Digest() {
		for _, p := range a.Paths() {
			if string(a.Files[p]) != string(b.Files[p]) {
				t.Errorf("%s differs between two imports", p)
			}
		}
		t.Fatal("two imports of the same data differ")
	}
}

// TestImportRefusesBadData gives the importer a folder without the map.
func TestImportRefusesBadData(t *testing.T) {
	imp := glory.Ruleset.(adjudicator.ModuleImporter)
	_, _, err := imp.ImportModule("ansalon", os.DirFS(t.TempDir()))
	if err == nil || !strings.Contains(err.Error(), "ansalon_map.csv") {
		t.Fatalf("an empty folder: %v", err)
	}
	_, _, err = imp.ImportModule("Bad Name", os.DirFS(t.TempDir()))
	if err == nil || !strings.Contains(err.Error(), "module name") {
		t.Fatalf("a bad name: %v", err)
	}
}
