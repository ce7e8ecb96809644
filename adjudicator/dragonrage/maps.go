package dragonrage

import (
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage/board"
	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
)

// Dragon Rage is played on hex maps: its maps, their checks and their
// picture style reach the command line, the results mails and the
// renderer through adjudicator.HexMaps.
var _ adjudicator.HexMaps = ruleset{}

// MapNames lists the two maps, Esirien and Nurkott.
func (ruleset) MapNames() []string { return slices.Clone(board.Names) }

// Map loads a built-in map.
func (ruleset) Map(name string) (*hexmap.Map, error) { return board.Load(name) }

// ParseMap reads a map file in the Dragon Rage vocabulary.
func (ruleset) ParseMap(file string, data []byte) (*hexmap.Map, error) {
	return hexmap.Parse(file, data, &board.Vocabulary)
}

// CheckMap checks m against the map facts the rules state (board.Check).
func (ruleset) CheckMap(m *hexmap.Map) []adjudicator.MapProblem {
	var out []adjudicator.MapProblem
	for _, p := range board.Check(m) {
		out = append(out, adjudicator.MapProblem{Where: p.Where, Rule: p.Rule, Message: p.Message})
	}
	return out
}

// PictureStyle is board.Style.
func (ruleset) PictureStyle() *adjudicator.PictureStyle { return board.Style }

var _ adjudicator.GameBoards = ruleset{}

// BoardOf is the map a state is played on: a board, or a position's own.
func (ruleset) BoardOf(s adjudicator.State) (*hexmap.Map, bool) {
	st, ok := s.(*State)
	if !ok || st.board == nil {
		return nil, false
	}
	return st.board, true
}
