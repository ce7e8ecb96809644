package dragonrage

import (
	"fmt"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// endTurn is phase 10 (DR-TURN-1): the clocks of DR-WIN-3 and DR-WIN-4 are
// checked at the end of the turn (DR-TURN-6, DR-AMB-40).
func (w *world) endTurn() {
	st := w.st
	lastInside := st.LastInside
	if w.invaderInside() {
		lastInside = st.Turn
	}
	if lastInside != st.LastInside {
		w.emit(&ClockSet{LastDamage: st.LastDamage, LastInside: lastInside})
	}
	switch {
	case st.Turn-st.LastDamage >= 10:
		w.gameOver(Defender, fmt.Sprintf("the defender wins: ten turns without a VP hex destroyed (the last in turn %d) (DR-WIN-3)", st.LastDamage))
	case st.Turn-st.LastInside >= 10:
		w.gameOver(Defender, fmt.Sprintf("the defender wins: ten turns without an invader inside the walls (the last in turn %d) (DR-WIN-4)", st.LastInside))
	}
}

// invaderInside reports whether any invader unit is inside the city walls.
func (w *world) invaderInside() bool {
	for _, u := range w.st.alive(Invader) {
		if h := w.st.hexOf(u); u.Hex != "" && !isElowyn(u) && w.m.InZone(h, "inside-walls") {
			return true
		}
	}
	return false
}

// checkVictory applies the immediate victory conditions: every invader dead
// (DR-WIN-2), or the goal reached (DR-WIN-5, DR-AMB-5). It is called after
// every event that can change them (DR-TURN-6).
func (w *world) checkVictory() {
	st := w.st
	if st.Over {
		return
	}
	if w.invadersLeft() == 0 {
		w.gameOver(Defender, "the defender wins: every invader is dead (DR-WIN-2)")
		return
	}
	if st.VP >= st.Goal {
		w.gameOver(Invader, fmt.Sprintf("the invader wins with %d VP against a goal of %d (DR-WIN-5)", st.VP, st.Goal))
	}
}

// gameOver ends the game with its title (DR-TITLE-2, DR-AMB-4).
func (w *world) gameOver(winner adjudicator.Side, why string) {
	result := why + "; " + w.title()
	w.sayf("GAME OVER: %s", result)
	w.emit(&GameOver{Winner: winner, Result: result})
}

// title grades the invader's score on the victory-title table
// (DR-TABLE-TITLE), read as bands (DR-TITLE-2).
func (w *world) title() string {
	st, goal := w.st, w.st.Goal
	all := w.m.TotalVP()
	switch {
	case len(st.Destroyed) > 0 && w.allVPDestroyed():
		return fmt.Sprintf("%d VP of %d: ultimate invader victory, City Exterminator", st.VP, all)
	case st.VP >= goal:
		return fmt.Sprintf("%d VP: great invader victory, Death from the Sky", st.VP)
	case st.VP >= goal-2:
		return fmt.Sprintf("%d VP: the title table grades a normal invader victory, City Destroyer", st.VP)
	case st.VP >= goal-4:
		return fmt.Sprintf("%d VP: the title table grades a marginal invader victory, Dragonling", st.VP)
	}
	return fmt.Sprintf("%d VP: the title table grades a defeat of the invader, Plucked Chicken", st.VP)
}

func (w *world) allVPDestroyed() bool {
	for _, h := range w.m.VPHexes() {
		if _, ok := w.st.Destroyed[h.String()]; !ok {
			return false
		}
	}
	return true
}

// concede ends the game at once in the other side's favour (DR-WIN-1).
func (w *world) concede(side adjudicator.Side) {
	w.gameOver(other(side), fmt.Sprintf("the %s concedes (DR-WIN-1)", side))
}
