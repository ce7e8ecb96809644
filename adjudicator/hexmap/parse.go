package hexmap

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sort"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

// Load reads and parses the map file at path in fsys.
func Load(fsys fs.FS, path string, v *Vocabulary) (*Map, error) {
	data, err := fs.ReadFile(fsys, path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data, v)
}

// Parse reads a map from YAML text. file names the text in messages
// ("board.yaml:12:5: …"). A nil vocabulary means DefaultVocabulary. On
// failure the error is an Errors listing every problem found (up to 25).
func Parse(file string, data []byte, v *Vocabulary) (*Map, error) {
	if v == nil {
		v = &DefaultVocabulary
	}
	c := &collector{file: file}
	var f fileMap
	if err := yamlx.Unmarshal(data, &f); err != nil {
		var ye *yamlx.Error
		if errors.As(err, &ye) {
			return nil, Errors{{File: file, Line: ye.Line, Col: ye.Column, Msg: ye.Msg}}
		}
		return nil, Errors{{File: file, Msg: err.Error()}}
	}
	m := build(&f, v, c)
	if len(c.errs) > 0 {
		return nil, c.errs
	}
	return m, nil
}

func build(f *fileMap, v *Vocabulary, c *collector) *Map {
	m := &Map{
		Name: f.Name, Title: f.Title, Status: f.Status, Notes: f.Notes,
		Bounds:     Bounds{f.Bounds.Cols[0], f.Bounds.Cols[1], f.Bounds.Rows[0], f.Bounds.Rows[1]},
		Vocabulary: v,
		terrain:    map[hex.Hex]string{}, void: map[hex.Hex]bool{}, tprov: map[hex.Hex]Provenance{},
		flags: map[hex.Hex][]string{}, vp: map[hex.Hex]int{}, vprov: map[hex.Hex]Provenance{},
		sides: map[hex.Hexside]Side{}, extra: map[hex.Hexside][]Side{}, roadLinks: map[hex.Hexside]bool{},
		roadHexes: map[hex.Hex]bool{}, bridges: map[hex.Hex]Bridge{}, zones: map[string]*Zone{},
		runs: &edgeCache{},
	}
	if m.Name == "" {
		c.top("the map needs a name")
	}
	b := m.Bounds
	if b.MinCol < 0 || b.MinRow < 0 || b.MaxCol > 99 || b.MaxRow > 99 || b.MinCol > b.MaxCol || b.MinRow > b.MaxRow || b.MaxCol == 0 {
		c.top("bounds must give cols: [first, last] and rows: [first, last] between 0 and 99")
		return m
	}
	if f.Layout.s != "" {
		l, err := hex.ParseLayout(f.Layout.s)
		if err != nil {
			c.at(f.Layout, "%v", err)
		}
		m.Layout = l
	}
	m.Default = "open"
	if f.Default.s != "" {
		m.Default = f.Default.s
	}
	if !slices.Contains(v.Terrain, m.Default) {
		c.at(f.Default, "%s", unknown("terrain", m.Default, v.Terrain))
	}
	p := parser{m: m, c: c}
	for _, h := range p.hexes(f.Void) {
		m.void[h] = true
	}
	p.terrain(f.Terrain)
	p.flagsVP(f)
	p.sides(f.Sides)
	p.roads(f.Roads)
	p.bridges(f.Bridges)
	p.zones(f.Zones)
	p.points(f.Points)
	p.floors(f.Floors)
	p.decks(f.Decks)
	p.edges(f)
	return m
}

type parser struct {
	m *Map
	c *collector
}

func unknown(what, s string, known []string) string {
	msg := fmt.Sprintf("unknown %s %q", what, s)
	if n := yamlx.Nearest(s, known); n != "" {
		return msg + fmt.Sprintf(" (did you mean %q?)", n)
	}
	sorted := append([]string(nil), known...)
	sort.Strings(sorted)
	return msg + fmt.Sprintf("; known: %v", sorted)
}

// hexes expands a list of specs, reporting bad specs and off-map hexes.
func (p *parser) hexes(ws []word) []hex.Hex {
	var out []hex.Hex
	for _, w := range ws {
		hs, err := expand(w.s)
		if err != nil {
			p.c.at(w, "%v", err)
			continue
		}
		for _, h := range hs {
			if !p.m.OnMap(h) {
				p.c.at(w, "hex %s is off the map (bounds %02d-%02d, rows %02d-%02d)", h,
					p.m.Bounds.MinCol, p.m.Bounds.MaxCol, p.m.Bounds.MinRow, p.m.Bounds.MaxRow)
				continue
			}
			out = append(out, h)
		}
	}
	return out
}

// one reads a single on-map hex.
func (p *parser) one(w word, what string) (hex.Hex, bool) {
	if w.s == "" {
		p.c.at(w, "%s: a hex is needed", what)
		return hex.Hex{}, false
	}
	h, err := hex.Parse(w.s)
	if err != nil {
		p.c.at(w, "%s: %v", what, err)
		return hex.Hex{}, false
	}
	if !p.m.OnMap(h) {
		p.c.at(w, "%s: hex %s is off the map", what, h)
		return hex.Hex{}, false
	}
	return h, true
}

func (p *parser) kind(w word, what string, known []string) bool {
	if !slices.Contains(known, w.s) {
		p.c.at(w, "%s", unknown(what, w.s, known))
		return false
	}
	return true
}

func (p *parser) terrain(ts []fileTerr) {
	for _, t := range ts {
		if !p.kind(t.Kind, "terrain", p.m.Vocabulary.Terrain) {
			continue
		}
		for i, w := range t.Hexes {
			for _, h := range p.hexes(t.Hexes[i : i+1]) {
				if old, ok := p.m.terrain[h]; ok && !t.Override && old != t.Kind.s {
					p.c.at(w, "hex %s is already %s; add \"override: true\" to this entry to replace it", h, old)
					continue
				}
				p.m.terrain[h] = t.Kind.s
				p.m.tprov[h] = t.P.prov()
			}
		}
	}
}

func (p *parser) flagsVP(f *fileMap) {
	for _, fl := range f.Flags {
		if !p.kind(fl.Flag, "flag", p.m.Vocabulary.Flags) {
			continue
		}
		for _, h := range p.hexes(fl.Hexes) {
			if !slices.Contains(p.m.flags[h], fl.Flag.s) {
				p.m.flags[h] = append(p.m.flags[h], fl.Flag.s)
				sort.Strings(p.m.flags[h])
			}
		}
	}
	for _, e := range f.VP {
		for i, w := range e.Hexes {
			if e.Value < 1 {
				p.c.at(w, "a VP value must be 1 or more, not %d", e.Value)
				break
			}
			for _, h := range p.hexes(e.Hexes[i : i+1]) {
				if old, ok := p.m.vp[h]; ok {
					p.c.at(w, "hex %s already has %d VP", h, old)
					continue
				}
				p.m.vp[h] = e.Value
				p.m.vprov[h] = e.P.prov()
			}
		}
	}
}
