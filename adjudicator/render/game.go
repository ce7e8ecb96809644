package render

import (
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
)

// Game draws g's board on m as viewer may see it, with the header's "to
// move" taken from what the game waits for and the colours from the
// ruleset's sides: the picture the results mails carry.
func Game(m *hexmap.Map, g *game.Game, viewer adjudicator.Side, scale float64) (*Picture, error) {
	var due []adjudicator.Side
	for _, r := range g.Due() {
		if !slices.Contains(due, r.Side) {
			due = append(due, r.Side)
		}
	}
	return Board(m, g.View(viewer), Options{Game: g.ID, Viewer: viewer, ToMove: due, Sides: g.Rules.Info().Sides, Scale: scale})
}
