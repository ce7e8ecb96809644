package dragonrage

// Minor monsters' special rules (§17): this file is being written.

import "github.com/umpire-pbem/umpire/adjudicator"

// monsterState holds what the minor monsters remember between turns.
type monsterState struct{}

func (m monsterState) clone() monsterState { return m }

var monsterEvents []adjudicator.EventType

func evolveMonsters(st *State, ev adjudicator.Event) bool { return false }
