package dragonrage

// Elowyn (§16.7): this file is being written.

import "github.com/umpire-pbem/umpire/adjudicator"

// placeElowyn puts Elowyn where the rules start her.
func (w *world) placeElowyn() {}

// afterElimination applies what a unit's death changes besides its removal.
func (w *world) afterElimination(u *Unit) {}

// elowynAtTheMole saves Elowyn standing on 1516 as a wave arrives.
func (w *world) elowynAtTheMole() {}

// elowynState is where Elowyn stands in her story.
type elowynState struct{}

func (e elowynState) clone() elowynState { return e }

var elowynEvents []adjudicator.EventType

func evolveElowyn(st *State, ev adjudicator.Event) bool { return false }
