package dragonrage

// Magic (§14): this file is being written. It holds the spell markers'
// effects that other chapters ask about.

import (
	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// Spell is one spell cast in a magic phase.
type Spell struct {
	Cast string `yaml:"cast"`
	By   string `yaml:"by"`
	At   string `yaml:"at,omitempty"`
}

const magicExample = `  - cast: fog
    by: WZD-1
    at: 1210`

// canCast reports whether side has a wizard on the map with spell points.
func (w *world) canCast(side adjudicator.Side) bool {
	for _, u := range w.st.alive(side) {
		if u.Type == "WZD" && u.Hex != "" && u.SP > 0 {
			return true
		}
	}
	return false
}

// beginMagic runs the automatic start of a magic phase.
func (w *world) beginMagic() {}

func (w *world) parseMagic(side adjudicator.Side, n *yaml.Node) (*Orders, error) {
	list, err := items(n, magicExample)
	if err != nil {
		return nil, err
	}
	if len(list) > 0 {
		return nil, adjudicator.Errorf(list[0], codeCannot, "spells are not implemented yet: send \"orders: []\"")
	}
	return &Orders{}, nil
}

func (w *world) resolveMagic(o *Orders) {}

// boosted reports whether u is under its side's Boost Morale.
func (w *world) boosted(u *Unit) bool { return false }

// inFog reports whether h is in a fog.
func (w *world) inFog(h hex.Hex) bool { return false }

// whirlwindIn reports whether a Whirlwind stands in h.
func (w *world) whirlwindIn(h hex.Hex) bool { return false }

// magicBlocksAttack says why fog or a Whirlwind forbids an attack from a
// on b, or "".
func (w *world) magicBlocksAttack(a, b hex.Hex) string { return "" }

// magicState holds the spell markers.
type magicState struct{}

func (m magicState) clone() magicState { return m }

var magicEvents []adjudicator.EventType

func evolveMagic(st *State, ev adjudicator.Event) bool { return false }
