package hexmap

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

// An assembly file is the map of a scenario built from geomorphic boards:
//
//	name: descent
//	title: The descent
//	boards:
//	  - {board: pit, at: "0101", rule: X-SC-3}
//	  - {board: ledge, name: east, at: "1005", half_turn: true, assumed: true,
//	     exits: {east: the-ford, south: ""}}
//
// Each entry places one board, found by its name (a board's map file),
// as a Placement does: at: is where its first hex lands, or with
// half_turn: its last hex; name: names the placement (the board's name
// when left out). rule:, assumed: and user: say where the placement comes
// from, as in map files (user: a group entered it from its own
// components). exits: says what lies beyond an outer edge of the placed
// board — north, east, south or west as the edge lies on the assembled
// map — in a word of the game's (the region a path leads to, say); an
// outer edge it does not name leads nowhere (Map.EdgeRuns). ParseAssembly
// reads the file strictly; Build turns it into one map with Assemble,
// every problem pointing at its line.

// Assembly is an assembly file as read.
type Assembly struct {
	File   string // the file's name in messages
	Name   string
	Title  string
	Notes  string
	Boards []BoardEntry
}

// BoardEntry is one entry of an assembly file's boards: list.
type BoardEntry struct {
	Board    string  // the board's name, as a BoardLookup finds it
	Name     string  // the placement's name; "" means the board's
	At       hex.Hex // see Placement.At
	HalfTurn bool
	Provenance
	// User says a group entered or corrected the placement from its own
	// components.
	User bool
	Note string
	// Line is the entry's line in the file.
	Line int
	// Exits labels the outer edges of the placed board (as they lie on the
	// assembled map) with what lies beyond them; see Placement.Exits.
	Exits map[BoardEdge]string
}

// BoardLookup finds a board's map by its name. It returns an error saying
// what is wrong when there is no such board or it does not load.
type BoardLookup func(name string) (*Map, error)

type fileAssembly struct {
	Name   word        `yaml:"name"`
	Title  string      `yaml:"title"`
	Notes  string      `yaml:"notes"`
	Boards []fileBoard `yaml:"boards"`
}

type fileBoard struct {
	Board    word            `yaml:"board"`
	Name     word            `yaml:"name"`
	At       word            `yaml:"at"`
	HalfTurn bool            `yaml:"half_turn"`
	User     bool            `yaml:"user"`
	Exits    map[string]word `yaml:"exits"`
	P        fileProv        `yaml:",inline"`
}

// boardName is what a board or placement name may be: it names a file
// next to the assembly, so it never holds a path.
var boardName = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)

// ParseAssembly reads an assembly file strictly (unknown keys are errors).
// file names the text in messages ("scenario.yaml:4:13: …"). On failure the
// error is an Errors listing every problem found.
func ParseAssembly(file string, data []byte) (*Assembly, error) {
	var f fileAssembly
	if err := yamlx.Unmarshal(data, &f); err != nil {
		var ye *yamlx.Error
		if errors.As(err, &ye) {
			return nil, Errors{{File: file, Line: ye.Line, Col: ye.Column, Msg: ye.Msg}}
		}
		return nil, Errors{{File: file, Msg: err.Error()}}
	}
	c := &collector{file: file}
	a := &Assembly{File: file, Name: f.Name.s, Title: f.Title, Notes: f.Notes}
	if a.Name == "" {
		c.at(f.Name, "the assembled map needs a name: add name: to the file")
	}
	if len(f.Boards) == 0 {
		c.top("an assembly file needs boards: a list of {board: NAME, at: HEX}")
	}
	names := map[string]int{}
	for _, fb := range f.Boards {
		e := BoardEntry{Board: fb.Board.s, Name: fb.Name.s, HalfTurn: fb.HalfTurn, User: fb.User,
			Provenance: fb.P.prov(), Note: fb.P.Note, Line: fb.Board.line}
		where := fb.Board
		if where.line == 0 {
			where = fb.At
			e.Line = fb.At.line
		}
		switch {
		case e.Board == "":
			c.at(where, "a boards entry needs board: the name of a board's map file")
			continue
		case !boardName.MatchString(e.Board):
			c.at(fb.Board, "board %q is not a board name: use lower-case letters, digits, - and _ (the name of the board's map file without .yaml)", e.Board)
			continue
		}
		if e.Name != "" && !boardName.MatchString(e.Name) {
			c.at(fb.Name, "placement name %q: use lower-case letters, digits, - and _", e.Name)
			continue
		}
		if fb.At.s == "" {
			c.at(where, "board %s needs at: the hex where its first hex lands (its last hex with half_turn: true)", e.Board)
			continue
		}
		h, err := hex.Parse(fb.At.s)
		if err != nil {
			c.at(fb.At, "%v", err)
			continue
		}
		e.At = h
		if !exitsOf(c, fb, &e) {
			continue
		}
		if e.Assumed && e.User {
			c.at(where, "board %s is marked both assumed: (chosen for want of a source) and user: (entered from the group's components); keep one", e.Board)
			continue
		}
		pn := e.Name
		if pn == "" {
			pn = e.Board
		}
		if line, dup := names[pn]; dup {
			c.at(where, "a board is already placed under the name %q (line %d); give this placement its own name: (name: %s-2, say)", pn, line, pn)
			continue
		}
		names[pn] = e.Line
		a.Boards = append(a.Boards, e)
	}
	if len(c.errs) > 0 {
		return nil, c.errs
	}
	return a, nil
}

// BoardsIn finds boards as map files NAME.yaml in directory dir of fsys,
// read with vocabulary v.
func BoardsIn(fsys fs.FS, dir string, v *Vocabulary) BoardLookup {
	return func(name string) (*Map, error) {
		if !boardName.MatchString(name) {
			return nil, fmt.Errorf("%q is not a board name", name)
		}
		p := path.Join(dir, name+".yaml")
		m, err := Load(fsys, p, v)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("no board file %s", p)
		}
		return m, err
	}
}

// LoadAssembly reads the assembly file at file in fsys and builds its map,
// finding each board as NAME.yaml in the same directory.
func LoadAssembly(fsys fs.FS, file string, v *Vocabulary) (*Map, error) {
	data, err := fs.ReadFile(fsys, file)
	if err != nil {
		return nil, err
	}
	a, err := ParseAssembly(file, data)
	if err != nil {
		return nil, err
	}
	return a.Build(BoardsIn(fsys, path.Dir(file), v))
}

// Build finds each board with find and assembles them (Assemble). Every
// problem is reported at the line of the entry that causes it: a board that
// cannot be found or does not load, boards of another layout or
// vocabulary, a board pushed off the 00–99 grid, a board overlapping an
// earlier one, and a join whose edge labels or arrows do not match (at the
// later of the two entries).
func (a *Assembly) Build(find BoardLookup) (*Map, error) {
	c := &collector{file: a.File}
	at := func(e BoardEntry, format string, args ...any) { c.at(word{line: e.Line}, format, args...) }
	ps := make([]Placement, 0, len(a.Boards))
	var entries []BoardEntry
	for _, e := range a.Boards {
		b, err := find(e.Board)
		if err != nil || b == nil {
			if err == nil {
				err = errors.New("not found")
			}
			at(e, "board %s: %v", e.Board, err)
			continue
		}
		p := Placement{Board: b, Name: e.Name, At: e.At, HalfTurn: e.HalfTurn, Exits: e.Exits}
		if p.Name == "" {
			p.Name = e.Board
		}
		if len(ps) > 0 {
			switch first := ps[0]; {
			case b.Layout != first.Board.Layout:
				at(e, "board %s is drawn on a %s layout and board %s (line %d) on a %s one; boards of one map share a layout", e.Board, b.Layout, entries[0].Board, entries[0].Line, first.Board.Layout)
				continue
			case b.Vocabulary != first.Board.Vocabulary:
				at(e, "board %s uses another vocabulary than board %s (line %d); load every board through the same ruleset", e.Board, entries[0].Board, entries[0].Line)
				continue
			}
		}
		ps, entries = append(ps, p), append(entries, e)
	}
	if len(c.errs) > 0 {
		return nil, c.errs
	}
	// Where each board's hexes land, to say which entries overlap.
	owner := map[hex.Hex]int{}
	for i, p := range ps {
		mv := p.motion()
		for _, h := range p.Board.Hexes() {
			g := mv.Hex(h)
			if g.Col < 0 || g.Col > 99 || g.Row < 0 || g.Row > 99 {
				at(entries[i], "board %s placed at %s: its hex %s would land at %s, off the 00-99 grid; place it further in", entries[i].Board, p.At, h, g)
				break
			}
			if j, dup := owner[g]; dup {
				at(entries[i], "board %s overlaps board %s (line %d) at %s (its own %s); move one of them", ps[i].name(), ps[j].name(), entries[j].Line, g, h)
				break
			}
			owner[g] = i
		}
	}
	if len(c.errs) > 0 {
		return nil, c.errs
	}
	// Joins, pair by pair, so that each is told at its later entry.
	for j := range ps {
		for i := range j {
			for _, err := range JoinErrors(joinMap(ps[i], ps[j])) {
				at(entries[j], "%v (the other board is on line %d)", err, entries[i].Line)
			}
		}
	}
	if len(c.errs) > 0 {
		return nil, c.errs
	}
	m, err := Assemble(a.File, a.Name, a.Title, ps)
	if err != nil {
		return nil, err
	}
	// Exits lead off the map: each names an outer edge of its board.
	outer := map[string]bool{}
	for _, r := range m.EdgeRuns() {
		outer[r.Placement+"/"+r.Edge.String()] = true
	}
	for i, e := range entries {
		for _, edge := range sortedEdges(e.Exits) {
			if !outer[ps[i].name()+"/"+edge.String()] {
				at(e, "exits: the %s edge of board %s meets another board: only an outer edge of the map leads off it", edge, ps[i].name())
			}
		}
	}
	if len(c.errs) > 0 {
		return nil, c.errs
	}
	return m, nil
}

// exitsOf reads a boards entry's exits: into e; false after an error.
func exitsOf(c *collector, fb fileBoard, e *BoardEntry) bool {
	if len(fb.Exits) == 0 {
		return true
	}
	e.Exits = map[BoardEdge]string{}
	keys := make([]string, 0, len(fb.Exits))
	for k := range fb.Exits {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		w := fb.Exits[k]
		edge, err := ParseBoardEdge(k)
		if err != nil {
			c.at(w, "exits: %v", err)
			return false
		}
		if w.s == "" {
			c.at(w, "exits: the %s edge: name what lies beyond it, or leave the edge out (it then leads nowhere)", k)
			return false
		}
		e.Exits[edge] = w.s
	}
	return true
}

// joinMap is the least of an assembled map JoinErrors reads: where two
// placed boards' hexes land.
func joinMap(p, q Placement) *Map {
	m := &Map{Layout: p.Board.Layout}
	m.origin = map[hex.Hex]Origin{}
	for _, pl := range []Placement{p, q} {
		mv := pl.motion()
		for _, h := range pl.Board.Hexes() {
			m.origin[mv.Hex(h)] = Origin{Name: pl.name(), Board: pl.title(), Hex: h}
		}
	}
	m.placed = []Placement{p, q}
	return m
}
