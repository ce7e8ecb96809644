package dragonnoir

import (
	"fmt"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// The Black Dragon in battle (DN3-PEOPLE-DRAGON-1 … 6, B.12.2, the French
// text's H.1.2). "All the rules of Dragon Noir 1 apply" (DN3-PEOPLE-DRAGON-1),
// and no source holds them (GAP-15): the dragon is a Dragon Noir counter
// like any other, played by the rules of this ruleset, with what the DN3
// text adds, as data of its kind (counters.yaml, all assumed but the
// text's own numbers): a body of seven hexes (the rosette, so that its
// body has the centre hex whose cost alone it pays: step-cost: centre,
// DN3-PEOPLE-DRAGON-2), walking, never flying (no flies tag), immune to
// missiles and fire (missile-proof, fire-proof: DN3-PEOPLE-DRAGON-3,
// AMB-78), striking one level up even on a rampart (reach-up: 1,
// reach-over, DN3-PEOPLE-DRAGON-4), a ram (DN3-PEOPLE-DRAGON-5,
// special_ent.go ramOrder), magic resistance 9 (DN3-PEOPLE-DRAGON-6).
// An Ent's reach of one or two levels up (DN3-PEOPLE-ENT-11) is the same
// rule with reach-up: 2.

// reachesUp reports whether e, whose kind reaches up (reach-up), is in
// position to attack l, a location above its own on a hex next to it:
// at most reach-up whole levels higher, with no wall between unless it
// reaches over (a rampart's parapet), by a side of its counter that is
// not its grey rear (DN3-PEOPLE-ENT-9, -11, DN3-PEOPLE-DRAGON-4).
func (s *State) reachesUp(e *Char, l hex.Loc) bool {
	k := s.Kind(e)
	t := s.Terrain(l)
	if t == nil || t.Impassable {
		return false
	}
	rear := k.Shape != hex.Single.Name && k.Faces["healthy"].Rear > 0
	for _, from := range s.Locs(e) {
		d := l.Level - from.Level
		switch {
		case !s.board.Layout.Adjacent(from.Hex, l.Hex), d <= 0, d > hex.Levels(k.ReachUp):
		case s.walled(from, l) && !k.ReachOver:
		case rear && !s.notRearOnly(e, l.Hex):
		default:
			return true
		}
	}
	return false
}

// missileProof says why t cannot be shot at, "" when it can
// (DN3-PEOPLE-DRAGON-3).
func missileProof(t *Char, k *Kind) string {
	if !k.Has(TagMissileProof) {
		return ""
	}
	return fmt.Sprintf("%s is invulnerable to missiles (DN3-PEOPLE-DRAGON-3)", t.ID)
}
