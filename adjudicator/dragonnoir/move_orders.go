package dragonnoir

import (
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// Checks of the move orders a mail can take before anything moves
// (PBEM-DN-3, -5); what depends on the order's turn (the path's MP, who
// stands where) is checked when it comes.

// checkMove checks one move order of side's mail: it has a path or a row;
// every location is on the map; only an Adventurer rows (DN-BOAT-1) and
// then: follows a row (DN-BOAT-4); the jump is a location of the path
// (DN-MOVE-13); facings are the grid's directions and only the Queen and
// her Guards have one (DN-MOVE-15, -17).
func checkMove(st *State, side adjudicator.Side, x *MoveOrder, bad func(int, string, string, ...any), loc func(int, string)) {
	if st.Battle != nil { // DN3 battles: entering and leaving (battle_turn.go)
		checkBattleMove(st, side, x, bad)
	} else if x.Leave != "" {
		bad(x.Line, codeWrongSection, "move %s: leave: is for the battles of La Conquête; a DN2 scenario's exits are hexes of its map", x.Unit)
	}
	if len(x.Path) == 0 && len(x.Row) == 0 && x.ClimbOn == "" && x.ClimbOff == "" && x.Leave == "" && x.Mount == "" && x.Dismount == "" {
		bad(x.Line, adjudicator.CodeMissingField, "move %s: give its path, e.g. path: [\"0304\", \"0404\"], or row: for a boat", x.Unit)
	}
	checkClimb(st, x, bad, loc) // DN3: climbing on and off an Ent (move_climb.go)
	for _, l := range slices.Concat(x.Path, x.Row, x.Then, x.IfStopped, x.Ride) {
		loc(x.Line, l)
	}
	checkRide(st, x, bad, loc) // chapter: the valley's peoples (move_rider.go)
	if len(x.Row) > 0 && side != Adventurers {
		bad(x.Line, codeWrongSection, "move %s: only Adventurers move by boat (DN-BOAT-1)", x.Unit)
	}
	if len(x.Then) > 0 && len(x.Row) == 0 {
		bad(x.Line, adjudicator.CodeBadValue, "move %s: then: is the path walked ashore after rowing (DN-BOAT-4): give row: too, or put the locations in path:", x.Unit)
	}
	if x.Jump != "" && !slices.Contains(x.Path, x.Jump) {
		bad(x.Line, adjudicator.CodeBadValue, "move %s: jump: %q is the location of the path it jumps down to (DN-MOVE-13)", x.Unit, x.Jump)
	}
	if len(x.Facings) > len(x.Path) {
		bad(x.Line, adjudicator.CodeBadValue, "move %s: %d facings for a path of %d: one facing a location at most", x.Unit, len(x.Facings), len(x.Path))
	}
	faces := slices.Concat(x.Facings, []string{x.Facing})
	if x.Facing == "" {
		faces = x.Facings
	}
	if len(faces) == 0 {
		return
	}
	if c := st.Chars[x.Unit]; c != nil && st.Kind(c).Shape == hex.Single.Name {
		bad(x.Line, adjudicator.CodeBadValue, "move %s: only the Queen and her Guards have a facing (DN-MOVE-15); leave out facing:", x.Unit)
		return
	}
	for _, f := range faces {
		if _, err := st.board.Layout.ParseDirection(f); err != nil {
			bad(x.Line, adjudicator.CodeBadValue, "move %s: facing %q: the Queen and her Guards lie exactly on the grid, facing one of %s (DN-MOVE-15)", x.Unit, f, strings.Join(dirNames(st), ", "))
		}
	}
}

// dirNames are the map's six directions.
func dirNames(st *State) []string {
	var out []string
	for d := range hex.Direction(6) {
		out = append(out, st.board.Layout.DirName(d))
	}
	return out
}

// checkHold refuses a Krob both moved and held (AMB-27, PBEM-DN-5).
func checkHold(o *Orders, line int, bad func(int, string, string, ...any)) {
	for _, m := range o.Moves {
		if slices.Contains(o.Hold, m.Unit) {
			bad(line, codeTwice, "%s is both moved (line %d) and held: hold: lists the Krobs that will not move (AMB-27)", m.Unit, m.Line)
		}
	}
	seen := map[string]bool{}
	for _, id := range o.Hold {
		if seen[id] {
			bad(line, codeTwice, "%s is held twice", id)
		}
		seen[id] = true
	}
}
