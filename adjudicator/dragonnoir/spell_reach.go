package dragonnoir

import (
	"fmt"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// Where spells reach (DN-MAGIC-11): underground a spell works only in the
// cave — the board — the magician stands on. The map of a scenario is
// boards assembled (hexmap assembly files), each hex from one board
// (hexmap.Map.Origin). A magician "on a hex straddling two boards" is, on
// such a map, one on a hex next to another board's hex: the printed half
// hexes of two boards' edges make one hex, which umpire's map gives to
// one board (docs/rulings). He casts into both. Remote detection reaches
// one cave further: the boards joined to those. A map of one board is one
// cave.

// caveOf names the board h belongs to ("" on a map of one board).
func (s *State) caveOf(h hex.Hex) string {
	o, ok := s.board.Origin(h)
	if !ok {
		return ""
	}
	return o.Name
}

// caves are the boards magician c may cast into: his own, every board he
// straddles, and for detection the boards joined to those.
func (s *State) caves(c *Char, detection bool) []string {
	var out []string
	add := func(b string) {
		if !slices.Contains(out, b) {
			out = append(out, b)
		}
	}
	for _, l := range s.Locs(c) {
		add(s.caveOf(l.Hex))
		for _, n := range s.board.Neighbours(l.Hex) {
			add(s.caveOf(n))
		}
	}
	if detection {
		for _, h := range s.board.Hexes() {
			if !slices.Contains(out, s.caveOf(h)) {
				continue
			}
			for _, n := range s.board.Neighbours(h) {
				add(s.caveOf(n))
			}
		}
	}
	slices.Sort(out)
	return out
}

// reach says why spell sp cannot reach what tg names from c, "" when it
// can (DN-MAGIC-11; range is a penalty, not a limit: DN-MAGIC-13).
func (w *world) reach(c *Char, sp *Spell, tg *spellTarget) string {
	st := w.st()
	caves := st.caves(c, sp.Category == "detection")
	for _, l := range tg.Locs {
		if b := st.caveOf(l.Hex); !slices.Contains(caves, b) {
			if sp.Category == "detection" {
				return fmt.Sprintf("%s is on board %s, more than one cave away: detection reaches one cave further only (DN-MAGIC-11)", locString(st.board, l), b)
			}
			return fmt.Sprintf("%s is on board %s, another cave: underground a spell works only in the magician's cave (DN-MAGIC-11)", locString(st.board, l), b)
		}
	}
	return ""
}
