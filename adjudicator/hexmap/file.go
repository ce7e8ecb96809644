package hexmap

import "gopkg.in/yaml.v3"

// The YAML schema. Field names here are the keys people write; see
// docs/maps.md for a worked example.

// word is a scalar that remembers where it was written, so that checks made
// after strict decoding can still point at line and column.
type word struct {
	s         string
	line, col int
}

// UnmarshalYAML records the scalar's text and position.
func (w *word) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return &yaml.TypeError{Errors: []string{lineMsg(n, "a single value is needed here, not a list or mapping")}}
	}
	w.s, w.line, w.col = n.Value, n.Line, n.Column
	return nil
}

type fileProv struct {
	Rule    string `yaml:"rule"`
	Assumed bool   `yaml:"assumed"`
	// Reconstructed is accepted as a synonym of assumed.
	Reconstructed bool   `yaml:"reconstructed"`
	Note          string `yaml:"note"`
}

func (p fileProv) prov() Provenance {
	return Provenance{Rule: p.Rule, Assumed: p.Assumed || p.Reconstructed}
}

type fileMap struct {
	Name    string     `yaml:"name"`
	Title   string     `yaml:"title"`
	Status  string     `yaml:"status"`
	Notes   string     `yaml:"notes"`
	Layout  word       `yaml:"layout"` // flat (default), pointy-odd or pointy-even
	Bounds  fileBounds `yaml:"bounds"`
	Void    []word     `yaml:"void"` // hexes inside the bounds that are not map (legend, turn track)
	Default word       `yaml:"default"`
	Terrain []fileTerr `yaml:"terrain"`
	Flags   []fileFlag `yaml:"flags"`
	VP      []fileVP   `yaml:"vp"`
	Sides   []fileSide `yaml:"hexsides"`
	Roads   []fileRoad `yaml:"roads"`
	Bridges []fileBrdg `yaml:"bridges"`
	Zones   []fileZone `yaml:"zones"`
	Points  []filePt   `yaml:"points"`
	// Levels, decks and board edges: see levels_spec.go.
	Floors []fileFloor `yaml:"floors"`
	Decks  []fileDeck  `yaml:"decks"`
	Edges  fileEdges   `yaml:"edges"`
	Arrow  word        `yaml:"arrow"`
}

type fileBounds struct {
	Cols [2]int `yaml:"cols"`
	Rows [2]int `yaml:"rows"`
}

// fileTerr gives one terrain kind to a list of hex specs. Override lets it
// replace terrain given by an earlier entry.
type fileTerr struct {
	Kind     word     `yaml:"kind"`
	Hexes    []word   `yaml:"hexes"`
	Override bool     `yaml:"override"`
	P        fileProv `yaml:",inline"`
}

type fileFlag struct {
	Flag  word     `yaml:"flag"`
	Hexes []word   `yaml:"hexes"`
	P     fileProv `yaml:",inline"`
}

type fileVP struct {
	Value int      `yaml:"value"`
	Hexes []word   `yaml:"hexes"`
	P     fileProv `yaml:",inline"`
}

// fileSide is either one hexside (hexes: [A, B], inside: A) or a run of
// hexsides written "HEX DIR DIR …" (the hex is the inside one).
type fileSide struct {
	Kind   word     `yaml:"kind"`
	Hexes  []word   `yaml:"hexes"`
	Inside word     `yaml:"inside"`
	Sides  []word   `yaml:"sides"`
	Tags   []string `yaml:"tags"`
	Level  word     `yaml:"level"` // the feature exists only at this level
	P      fileProv `yaml:",inline"`
}

type fileRoad struct {
	Name string   `yaml:"name"`
	Path []word   `yaml:"path"`
	P    fileProv `yaml:",inline"`
}

type fileBrdg struct {
	Hex      word     `yaml:"hex"`
	Kind     word     `yaml:"kind"`
	Connects []word   `yaml:"connects"`
	P        fileProv `yaml:",inline"`
}

type fileZone struct {
	Name   word     `yaml:"name"`
	Title  string   `yaml:"title"`
	Group  word     `yaml:"group"`
	Hexes  []word   `yaml:"hexes"`
	Except []word   `yaml:"except"`
	P      fileProv `yaml:",inline"`
}

type filePt struct {
	Name word     `yaml:"name"`
	Kind word     `yaml:"kind"`
	Hex  word     `yaml:"hex"`
	Tags []word   `yaml:"tags"`
	P    fileProv `yaml:",inline"`
}
