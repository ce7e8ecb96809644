// Package rulesets lists every ruleset this build of umpire ships, in one
// place, explicitly: no init-time registration. A game records the name and
// version of its ruleset; Lookup finds it again when the game is loaded.
package rulesets

import (
	"fmt"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage/board"
	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
)

// all is the list. Each ruleset is a package exporting one value.
var all = []adjudicator.Ruleset{
	dragonrage.Ruleset,
}

// All returns the shipped rulesets.
func All() []adjudicator.Ruleset { return append([]adjudicator.Ruleset(nil), all...) }

// Lookup finds a shipped ruleset by name.
func Lookup(name string) (adjudicator.Ruleset, bool) {
	for _, r := range all {
		if r.Info().Name == name {
			return r, true
		}
	}
	return nil, false
}

// Board returns the hex map a View names (View.Map), from whichever
// ruleset ships it, for pictures and text maps.
func Board(name string) (*hexmap.Map, error) {
	for _, n := range board.Names {
		if n == name {
			return board.Load(name)
		}
	}
	return nil, fmt.Errorf("no ruleset of this build has a map %q", name)
}
