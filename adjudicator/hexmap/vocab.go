package hexmap

// Vocabulary is the set of words a game allows in its map files. Parsing
// refuses any other word, suggesting the nearest known one.
type Vocabulary struct {
	// Terrain is the list of base terrain kinds, e.g. open, forest, river.
	Terrain []string
	// Flags are extra marks a hex may carry besides its terrain, e.g. a
	// second terrain in a mixed hex, or "coast".
	Flags []string
	// Sides are the hexside feature kinds, e.g. wall, gate, door.
	Sides []string
	// Bridges are the bridge kinds, e.g. wooden, stone.
	Bridges []string
	// Points are the kinds of named hexes, e.g. entry, exit, reinforcement.
	Points []string
	// PointTags are the further roles a named hex may carry in its tags:
	// list, e.g. port, capital. A map may give no tags when it is empty.
	PointTags []string
	// StackSides lets one hexside carry several features of different
	// kinds (a river that is also a mountain ridge); otherwise a second
	// feature on a hexside is an error.
	StackSides bool
	// Letters gives each terrain kind's letter in Text; a kind without one
	// uses its first letter.
	Letters map[string]byte
	// Barriers are the side kinds that stop movement and sight unless they
	// are entrances (e.g. wall, palisade); Entrances are the side kinds that
	// are openings in a barrier (e.g. gate, door).
	Barriers, Entrances []string
	// Ramps are the terrain kinds a hex at a half level may have: the
	// stairs, slopes and banks that join two levels. When the list is
	// empty, any terrain may stand at a half level.
	Ramps []string
	// Decks are the kinds of structure above the floor a map may give
	// (footbridge, gallery); a deck's kind must be one of them.
	Decks []string
}

// DefaultVocabulary is a general wargame vocabulary, for maps of games that
// do not define their own.
var DefaultVocabulary = Vocabulary{
	Terrain:   []string{"open", "city", "forest", "hill", "river", "sea", "lake", "marsh", "dock", "ford", "tower"},
	Flags:     []string{"river", "coast"},
	Sides:     []string{"wall", "palisade", "gate", "door", "river", "cliff"},
	Bridges:   []string{"wooden", "stone"},
	Points:    []string{"entry", "exit", "reinforcement", "setup"},
	Barriers:  []string{"wall", "palisade"},
	Entrances: []string{"gate", "door"},
}

func (v *Vocabulary) letter(kind string) byte {
	if l, ok := v.Letters[kind]; ok {
		return l
	}
	if kind == "" {
		return '?'
	}
	return kind[0]
}
