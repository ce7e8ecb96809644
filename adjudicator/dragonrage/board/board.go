package board

import (
	"embed"
	"fmt"
	"io/fs"

	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
)

//go:embed maps/*.yaml
var embedded embed.FS

// Names lists the maps the game has, in rulebook order.
var Names = []string{"esirien", "nurkott"}

// Maps returns the embedded map files, "esirien.yaml" and "nurkott.yaml", at
// the root of the returned file system.
func Maps() fs.FS {
	sub, err := fs.Sub(embedded, "maps")
	if err != nil {
		panic(err) // the embed directive guarantees the directory
	}
	return sub
}

// Vocabulary is the Dragon Rage map vocabulary (DR-TEC, §6-§9).
var Vocabulary = hexmap.Vocabulary{
	Terrain: []string{"open", "forest", "river", "sea", "dock", "ford", "tower"},
	// river: a mixed hex that is land and river at once (DR-MAP-10).
	Flags: []string{"river", "coast"},
	// river: the water between two hexes of opposite banks (DR-MAP-11);
	// breach: a palisade breached by a sea serpent (DR-SERP-7).
	Sides:     []string{"wall", "palisade", "gate", "door", "river", "breach"},
	Bridges:   []string{"wooden", "stone"},
	Points:    []string{"entry", "exit", "reinforcement", "serpent-entry", "rescue"},
	Letters:   map[string]byte{"ford": 'g', "open": '.', "dock": 'k'},
	Barriers:  []string{"wall", "palisade"},
	Entrances: []string{"gate", "door"},
}

// Load returns the embedded map called name ("esirien" or "nurkott").
func Load(name string) (*hexmap.Map, error) { return LoadFS(Maps(), name) }

// LoadFS reads the map called name from fsys (file name.yaml at its root),
// e.g. a group's corrected copy in a directory.
func LoadFS(fsys fs.FS, name string) (*hexmap.Map, error) {
	known := false
	for _, n := range Names {
		known = known || n == name
	}
	if !known {
		return nil, fmt.Errorf("unknown Dragon Rage map %q: the maps are esirien and nurkott", name)
	}
	m, err := hexmap.Load(fsys, name+".yaml", &Vocabulary)
	if err != nil {
		return nil, err
	}
	if m.Name != name {
		return nil, fmt.Errorf("%s.yaml: the file says name: %q, want %q", name, m.Name, name)
	}
	return m, nil
}
