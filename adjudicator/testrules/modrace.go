package testrules

import (
	"bufio"
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

// ModRace is the race played from module data: the track's length and the
// runners come from the module's track.yaml, not from the rules. It tests
// the core's module plumbing (adjudicator.Modular, ModuleImporter,
// ModuleSummarizer) without naming a real game. Its builtin modules are
// "short" (the default) and "long"; its importer reads a toy format,
// course.txt (ImportModule).
var ModRace adjudicator.Ruleset = modrace{}

//go:embed modules
var builtinModules embed.FS

type modrace struct{ race }

// TrackFile is the one file a modrace module has.
const TrackFile = "track.yaml"

// track is track.yaml.
type track struct {
	Track   int               `yaml:"track"`   // squares to the finish
	Runners map[string]int    `yaml:"runners"` // id → start square; R… red, B… blue
	Sources map[string]string `yaml:"sources"` // where a value comes from: rule, assumed or user
}

func (modrace) Info() adjudicator.Info {
	info := race{}.Info()
	info.Name, info.Title = "modrace", "Race from module data (test ruleset)"
	info.Options = info.Options[:1] // turns; the track is the module's
	return info
}

func (modrace) BuiltinModules() []string { return []string{"short", "long"} }

func (modrace) BuiltinModule(name string) (adjudicator.Module, bool) {
	if !adjudicator.ValidModuleName(name) {
		return adjudicator.Module{}, false
	}
	m, err := adjudicator.ModuleFromFS(name, builtinModules, "modules/"+name)
	if err != nil || len(m.Files) == 0 {
		return adjudicator.Module{}, false
	}
	return m, true
}

// readTrack reads and checks a module's track.yaml; errors name the file
// and line.
func readTrack(m adjudicator.Module) (*track, error) {
	src, ok := m.Files[TrackFile]
	if !ok {
		return nil, fmt.Errorf("%s: missing: a race module holds the track and its runners there", TrackFile)
	}
	for _, p := range m.Paths() {
		if p != TrackFile {
			return nil, fmt.Errorf("%s: a race module holds %s alone; remove this file", p, TrackFile)
		}
	}
	var t track
	if err := yamlx.Unmarshal(src, &t); err != nil {
		return nil, fmt.Errorf("%s: %w", TrackFile, err)
	}
	n, _ := yamlx.Parse(src)
	at := func(key string) string {
		if k := yamlx.Key(n, key); k != nil {
			return fmt.Sprintf("%s:%d", TrackFile, k.Line)
		}
		return TrackFile
	}
	if t.Track < 2 {
		return nil, fmt.Errorf("%s: track is %d; give the squares to the finish, from 2", at("track"), t.Track)
	}
	if len(t.Runners) == 0 {
		return nil, fmt.Errorf("%s: no runners; give each as ID: SQUARE, IDs starting with R (red) or B (blue)", at("runners"))
	}
	for id, sq := range t.Runners {
		if id == "" || (id[0] != 'R' && id[0] != 'B') {
			return nil, fmt.Errorf("%s: runner %q must start with R (red) or B (blue)", at("runners"), id)
		}
		if sq < 0 || sq >= t.Track {
			return nil, fmt.Errorf("%s: runner %s starts on square %d, off a track of %d", at("runners"), id, sq, t.Track)
		}
	}
	for k, v := range t.Sources {
		if v != "rule" && v != "assumed" && v != "user" {
			return nil, fmt.Errorf("%s: the source of %s is %q; give rule, assumed or user", at("sources"), k, v)
		}
	}
	return &t, nil
}

func (modrace) CheckModule(m adjudicator.Module) error {
	_, err := readTrack(m)
	return err
}

func (modrace) ModuleSummary(m adjudicator.Module) string {
	t, err := readTrack(m)
	if err != nil {
		return "does not load: " + err.Error()
	}
	src := t.Sources["track"]
	if src == "" {
		src = "user"
	}
	return fmt.Sprintf("track of %d squares (%s), %d runners", t.Track, src, len(t.Runners))
}

func (modrace) Setup(s adjudicator.Setup) (adjudicator.State, error) {
	if s.Module == nil {
		return nil, errors.New("a race from module data needs its module")
	}
	t, err := readTrack(*s.Module)
	if err != nil {
		return nil, fmt.Errorf("module %s: %w", s.Module.Name, err)
	}
	s.Module = nil
	s.Options = withTrack(s.Options, t.Track)
	st, err := race{}.Setup(s)
	if err != nil {
		return nil, err
	}
	rs := st.(*State)
	delete(rs.Options, "track")
	if s.Position == nil {
		rs.Runners = nil
		for id, sq := range t.Runners {
			side := map[byte]string{'R': "red", 'B': "blue"}[id[0]]
			rs.Runners = append(rs.Runners, Runner{ID: id, Side: side, At: sq})
		}
		sort.Slice(rs.Runners, func(i, j int) bool { return rs.Runners[i].ID < rs.Runners[j].ID })
	}
	return rs, nil
}

func withTrack(opts map[string]string, n int) map[string]string {
	out := map[string]string{}
	for k, v := range opts {
		out[k] = v
	}
	out["track"] = strconv.Itoa(n)
	return out
}

// ImportModule reads course.txt, a toy "published" format: a line
// "length N", and a line "runner ID SQUARE" for each runner; # starts a
// comment. A course without a length is given 12 squares, noted as
// assumed.
func (modrace) ImportModule(name string, src fs.FS) (adjudicator.Module, []string, error) {
	b, err := fs.ReadFile(src, "course.txt")
	if err != nil {
		return adjudicator.Module{}, nil, fmt.Errorf("course.txt: %w (the directory holds the course as published, in course.txt)", err)
	}
	t := track{Runners: map[string]int{}, Sources: map[string]string{}}
	var notes []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	for line := 1; sc.Scan(); line++ {
		f := strings.Fields(strings.SplitN(sc.Text(), "#", 2)[0])
		switch {
		case len(f) == 0:
		case f[0] == "length" && len(f) == 2:
			n, err := strconv.Atoi(f[1])
			if err != nil {
				return adjudicator.Module{}, nil, fmt.Errorf("course.txt:%d: length %q is not a number", line, f[1])
			}
			t.Track, t.Sources["track"] = n, "user"
		case f[0] == "runner" && len(f) == 3:
			n, err := strconv.Atoi(f[2])
			if err != nil {
				return adjudicator.Module{}, nil, fmt.Errorf("course.txt:%d: square %q is not a number", line, f[2])
			}
			t.Runners[f[1]] = n
		default:
			notes = append(notes, fmt.Sprintf("course.txt:%d: left out (not a length or runner line)", line))
		}
	}
	if t.Track == 0 {
		t.Track, t.Sources["track"] = 12, "assumed"
		notes = append(notes, "the course gives no length: 12 squares assumed")
	}
	notes = append([]string{fmt.Sprintf("converted a track of %d squares and %d runners", t.Track, len(t.Runners))}, notes...)
	var out strings.Builder
	fmt.Fprintf(&out, "# Imported from course.txt.\ntrack: %d\nrunners:\n", t.Track)
	ids := make([]string, 0, len(t.Runners))
	for id := range t.Runners {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		fmt.Fprintf(&out, "  %s: %d\n", id, t.Runners[id])
	}
	fmt.Fprintf(&out, "sources:\n  track: %s\n", t.Sources["track"])
	return adjudicator.Module{Name: name, Files: map[string][]byte{TrackFile: []byte(out.String())}}, notes, nil
}
