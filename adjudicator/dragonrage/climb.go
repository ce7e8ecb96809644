package dragonrage

import (
	"fmt"
	"strconv"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// checkClimb checks "climb: HEX" for a unit ending its move in h
// (DR-CLIMB-1..9).
func (w *world) checkClimb(u *Unit, h hex.Hex, target string, n *yaml.Node, spent int, road bool) error {
	t, _ := hex.Parse(target)
	f, ok := w.feature(h, t)
	ty := w.st.typ(u)
	allowance := ty.MP
	if road {
		allowance = max(ty.MP, ty.Road)
	}
	r, listed := w.cstRow(u)
	switch {
	case u.Side != Invader:
		return adjudicator.Errorf(n, codeCannot, "only invaders climb walls (DR-CLIMB-1)")
	case h.Adjacent(t) && w.m.Terrain(t) == "tower":
		return adjudicator.Errorf(n, codeCannot, "no climbing into a tower (DR-CLIMB-1, DR-TOWER-9)")
	case !h.Adjacent(t) || !ok || !w.m.IsBarrier(f.Kind):
		return adjudicator.Errorf(n, codeCannot, "there is no wall between %s and %s to climb", h, t)
	case !listed || r.Climb == "":
		return adjudicator.Errorf(n, codeCannot, "%s cannot climb (DR-TABLE-CST: impossible; DR-CLIMB-4)", u.ID)
	case spent >= allowance:
		return adjudicator.Errorf(n, codeCannot, "%s needs 1 unspent MP to climb; it has used all %d (DR-CLIMB-2)", u.ID, allowance)
	case u.Ladder:
		return adjudicator.Errorf(n, codeCannot, "%s has already used its one climb of the game (DR-CLIMB-7)", u.ID)
	case r.NoClimbAdjacent && w.adjacentEnemy(h, u.Side, false):
		return adjudicator.Errorf(n, codeCannot, "goblins cannot climb with an enemy next to them (DR-CLIMB-8)")
	case w.inFog(h) && w.inFog(t):
		return adjudicator.Errorf(n, codeCannot, "no climbing when the hexes on both sides of the wall are in fog (DR-CLIMB-9)")
	}
	if why := w.cannotStand(u, t); why != "" {
		return adjudicator.Errorf(n, codeCannot, "%s could not stand in %s: %s", u.ID, t, why)
	}
	for _, x := range w.st.at(target) {
		if !w.st.isCharacter(x) || x.Side == u.Side || isElowyn(x) {
			return adjudicator.Errorf(n, codeCannot, "%s is not empty: a climb needs an empty hex, or one holding only a hero or wizard (DR-CLIMB-6)", t)
		}
	}
	return nil
}

// resolveClimb rolls the climb (DR-CLIMB-3, DR-CST-1, DR-CST-4).
func (w *world) resolveClimb(u *Unit, target string) {
	h := w.st.hexOf(u)
	r, _ := w.cstRow(u)
	need, _ := strconv.Atoi(r.Climb)
	mod, modText := 0, ""
	if !w.adjacentEnemy(h, u.Side, true) || r.NoClimbAdjacent {
		mod, modText = 1, " +1, no enemy adjacent"
	}
	if w.st.typ(u).LeavesLadder() {
		w.emit(&Flagged{Unit: u.ID, NoAttack: true, Ladder: true}) // DR-CLIMB-7
	}
	if why := w.climbBlocked(u, target); why != "" {
		w.sayf("%s cannot climb into %s: %s", u.ID, target, why)
		return
	}
	roll := w.roll(fmt.Sprintf("%s climbs the wall from %s into %s", u.ID, h, target), 1)
	ok := roll.Total+mod >= need
	roll.Outcome = fmt.Sprintf("needs %d+%s (DR-TABLE-CST): %s", need, modText, map[bool]string{true: "over the wall", false: "thrown back"}[ok])
	w.sayf("%s: %s", roll.Label, roll.Outcome)
	w.trace("climb", u.ID, []string{u.Hex, target}, map[bool]string{true: "climbed", false: "failed"}[ok])
	if ok && !w.displaceFirst(u, target) {
		w.climbInto(u, target)
	}
}

// climbInto puts a successful climber over the wall (DR-CLIMB-5).
func (w *world) climbInto(u *Unit, target string) {
	from := u.Hex
	w.emit(&Moved{Unit: u.ID, From: u.Hex, Path: []string{target}})
	w.claimEntrances(u, target) // DR-ENTR-5
	// A human climbing next to Elowyn frees her (DR-ELOWYN-10).
	w.afterMove(u, &Move{Unit: u.ID, Path: []string{target}}, from)
	t, _ := hex.Parse(target)
	if w.vpHex(t) > 0 && w.st.typ(u).DestroysByEntering() && !w.doorVP(t) {
		w.destroyVP(t, u, "entered by "+u.ID)
	}
}
