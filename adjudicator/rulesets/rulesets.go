// Package rulesets lists every ruleset this build of umpire ships, in one
// place, explicitly: no init-time registration. A game records the name and
// version of its ruleset; Lookup finds it again when the game is loaded.
//
// Nothing else here names a game: a ruleset's maps, their checks and their
// picture style reach the rest of umpire through the optional interfaces of
// package adjudicator (adjudicator.HexMaps), asked of the game's ruleset.
package rulesets

import (
	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir/conquete"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage/campaign"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage/tournament"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/glory"
)

// all is the list. Each ruleset is a package exporting one value.
var all = []adjudicator.Ruleset{
	dragonrage.Ruleset,
	tournament.Ruleset,
	campaign.Ruleset,
	glory.Ruleset,
	dragonnoir.Ruleset,
	conquete.Ruleset,
}

// All returns the shipped rulesets.
func All() []adjudicator.Ruleset { return append([]adjudicator.Ruleset(nil), all...) }

// Lookup finds a shipped ruleset by name. As a game.Source it also finds
// the modules they ship.
var Lookup game.Lookup = func(name string) (adjudicator.Ruleset, bool) {
	for _, r := range all {
		if r.Info().Name == name {
			return r, true
		}
	}
	return nil, false
}
