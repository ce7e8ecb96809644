package glory

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Importing a player's own copy of the public Dragons of Glory fan data
// (the files of the RedT0ny/Dragons-of-Glory project: map_config.yaml,
// ansalon_map.csv, countries.yaml, units.csv, events.yaml, calendar.csv,
// activation_table_dl11.csv, scenarios/*.yaml and the rulebook numbers
// file dl11_numbers_from_rulebook.txt) into this ruleset's module format.
// Nothing of that data is shipped in umpire: a group downloads it and
// imports it (`umpire module import glory DIR --name ansalon`). The values taken from the
// copy are marked `user`; the values the rulebook states (the Activation
// Table, the counter errata, the DL11 scenarios' turns and victory) are
// marked `rule` with the rule ID or the rulebook's scenario; what the data
// lacks and the importer chose is `assumed`, and the notes say so.
// docs/dragons-of-glory.md explains the choices.

var _ adjudicator.ModuleImporter = ruleset{}

// importer holds what has been read and what is being built.
type importer struct {
	src   fs.FS
	notes []string

	cols, rows int
	terrain    [][]string // [row][col] fan terrain names, without the c_ prefix
	coastal    map[[2]int]bool

	countries map[string]*fanCountry
	cnames    []string // country ids in order
	locs      map[string]fanLoc
	units     []fanUnit
	events    map[string]*fanEvent
	numbers   string // the rulebook numbers file, "" when absent

	// built
	nations   []outNation
	nationSet map[string]bool
	hexNation map[string]string // hex → nation
	kinds     []outKind
	counters  map[string]bool   // counter ids
	kindOf    map[string]string // counter id → kind id
	byLand    map[string][]string
	eventIDs  map[string][]string // fan event key → event counter ids
	outEvents []outEvent
	temple    string
	ruleNames map[string]string // rulebook nation name → nation id
}

func (im *importer) note(format string, args ...any) {
	im.notes = append(im.notes, fmt.Sprintf(format, args...))
}

// ImportModule converts a copy of the Dragons of Glory fan data set in src
// into a module called name. It fails, saying which file to fix, when a
// file the module needs is missing or unreadable; what it could not
// convert or had to choose is in the notes.
func (ruleset) ImportModule(name string, src fs.FS) (adjudicator.Module, []string, error) {
	if name == "" {
		name = "ansalon"
	}
	if !adjudicator.ValidModulePath(name) || strings.Contains(name, "/") {
		return adjudicator.Module{}, nil, fmt.Errorf("module name %q: use lower-case letters, digits and dashes", name)
	}
	im := &importer{src: src, coastal: map[[2]int]bool{}, locs: map[string]fanLoc{}, nationSet: map[string]bool{},
		hexNation: map[string]string{}, counters: map[string]bool{}, kindOf: map[string]string{}, byLand: map[string][]string{},
		eventIDs: map[string][]string{}, ruleNames: map[string]string{}}
	if err := im.read(); err != nil {
		return adjudicator.Module{}, nil, err
	}
	files := map[string][]byte{}
	var err error
	if files["map.yaml"], err = im.mapFile(name); err != nil {
		return adjudicator.Module{}, nil, err
	}
	if files["nations.yaml"], err = im.nationsFile(); err != nil {
		return adjudicator.Module{}, nil, err
	}
	if files["counters.yaml"], err = im.countersFile(); err != nil {
		return adjudicator.Module{}, nil, err
	}
	if files["events.yaml"], err = im.eventsFile(); err != nil {
		return adjudicator.Module{}, nil, err
	}
	if files["scenarios.yaml"], err = im.scenariosFile(); err != nil {
		return adjudicator.Module{}, nil, err
	}
	if files["module.yaml"], err = im.moduleFile(name); err != nil {
		return adjudicator.Module{}, nil, err
	}
	m := adjudicator.Module{Name: name, Files: files}
	if err := (ruleset{}).CheckModule(m); err != nil {
		return adjudicator.Module{}, im.notes, fmt.Errorf("the imported module does not pass the module check (an importer bug or a data set this importer does not know): %w", err)
	}
	return m, im.notes, nil
}

// maxImportFile bounds every file read from the data set.
const maxImportFile = 4 << 20

func (im *importer) file(name string, need bool) ([]byte, error) {
	f, err := im.src.Open(name)
	if err != nil {
		if need {
			return nil, fmt.Errorf("%s: %v: the fan data set's files are read from the folder given (its top level, with scenarios/ under it)", name, err)
		}
		return nil, nil
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxImportFile+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if len(b) > maxImportFile {
		return nil, fmt.Errorf("%s: larger than %d bytes; this is not the fan data set's file", name, maxImportFile)
	}
	return bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")), nil // a byte-order mark
}

func readCSV(name string, b []byte) ([][]string, error) {
	r := csv.NewReader(bytes.NewReader(b))
	r.Comma = ';'
	r.FieldsPerRecord = -1
	recs, err := r.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return recs, nil
}

// ident turns a fan identifier ("red_dragon_wing_1", "feal-thas") into a
// counter or nation id as players write it ("red-dragon-wing-1").
func ident(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.ReplaceAll(s, "_", "-")
	return s
}

// hexOfXY names the hex at the fan data's [col, row] (both from 0, which is
// how umpire names the hexes of this map too: "4441" is column 44, row 41).
func hexOfXY(c, r int) string { return fmt.Sprintf("%02d%02d", c, r) }

func (im *importer) onMap(c, r int) bool { return c >= 0 && r >= 0 && c < im.cols && r < im.rows }

func (im *importer) read() error {
	if err := im.readMap(); err != nil {
		return err
	}
	if err := im.readCountries(); err != nil {
		return err
	}
	if err := im.readUnits(); err != nil {
		return err
	}
	if err := im.readEvents(); err != nil {
		return err
	}
	b, err := im.file("dl11_numbers_from_rulebook.txt", false)
	if err != nil {
		return err
	}
	im.numbers = strings.Join(strings.Fields(string(b)), " ")
	if im.numbers == "" {
		im.note("dl11_numbers_from_rulebook.txt is absent: the DL11 scenarios' turns and victory conditions come from the fan scenarios alone (user), the errata are not applied")
	}
	return nil
}

// moduleFile writes module.yaml with the turn track of calendar.csv.
func (im *importer) moduleFile(name string) ([]byte, error) {
	b, err := im.file("calendar.csv", false)
	if err != nil {
		return nil, err
	}
	type turn struct {
		Turn   int    `yaml:"turn"`
		Label  string `yaml:"label"`
		Winter bool   `yaml:"winter,omitempty"`
	}
	var cal []turn
	if b == nil {
		im.note("calendar.csv is absent: the turn track has no labels")
	} else {
		recs, err := readCSV("calendar.csv", b)
		if err != nil {
			return nil, err
		}
		for i, r := range recs {
			if i == 0 || len(r) < 3 {
				continue
			}
			n, err := strconv.Atoi(strings.TrimSpace(r[0]))
			if err != nil {
				return nil, fmt.Errorf("calendar.csv line %d: turn %q is not a number", i+1, r[0])
			}
			period := strings.TrimSpace(r[1])
			cal = append(cal, turn{Turn: n, Label: period + " " + strings.TrimSpace(r[2]), Winter: strings.EqualFold(period, "winter")})
		}
	}
	notes := slices.Clone(im.notes)
	out := struct {
		Name     string `yaml:"name"`
		Title    string `yaml:"title"`
		Status   string `yaml:"status"`
		Source   string `yaml:"source"`
		Note     string `yaml:"note"`
		Notes    string `yaml:"notes"`
		Calendar []turn `yaml:"calendar"`
	}{name, "Ansalon — imported from your copy of the Dragons of Glory fan data", "user", "user",
		"converted by umpire's importer from the user's own download; nothing of it is shipped in umpire",
		"What the importer converted, merged and assumed:\n- " + strings.Join(notes, "\n- ") + "\n", cal}
	return marshal("# Imported by umpire (module import glory) from the user's own copy of the\n# Dragons of Glory fan data. Do not share it: it is that copy's content.\n", out)
}

func marshal(header string, v any) ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString(header)
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// fanFiles lists the scenario files of the data set in order.
func (im *importer) scenarioFiles() ([]string, error) {
	ents, err := fs.ReadDir(im.src, "scenarios")
	if err != nil {
		return nil, fmt.Errorf("scenarios/: %v: the fan data set keeps its scenarios in a folder scenarios/", err)
	}
	var out []string
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() || path.Ext(n) != ".yaml" || strings.Contains(n, "template") {
			continue
		}
		out = append(out, "scenarios/"+n)
	}
	sort.Strings(out)
	return out, nil
}
