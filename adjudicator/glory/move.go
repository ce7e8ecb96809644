package glory

import (
	"fmt"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Land and air movement (DG-MOVE, DG-TERR, DG-RACE, DG-STACK, DG-ADJ,
// DG-WIZ, DG-LDR, DG-AIR, DG-AIRT): the rules a path must follow, shared by
// the check of a mail (move_orders.go) and the resolution of each order
// (move_resolve.go).
//
// A path is the list of hexes a counter enters, one after the other. Each
// step from a hex to its neighbour costs Movement Points (MP): 1, plus the
// terrain's extras, and the counter may not spend more than its MP
// (DG-MOVE-1, -2). Which hexes it may enter, and where it must stop, depend
// on what it is: a land army, a leader (who moves like one, DG-LDR-4), or
// an air army (which flies, DG-AIR). Wizards do not follow paths: they go
// straight to any hex (DG-WIZ).

// Per-turn flags of this chapter (State.Done). A land army carried through
// the air is flagged transported (flagTransported, fleet_geo.go), as one a
// fleet carried: it may not move on its own (DG-SEA-6, DG-AIRT-3).
const (
	// flagMoved: the counter has moved this turn.
	flagMoved = "moved"
	// flagBeganAdjacent: the land army began its side's movement step next
	// to an enemy land army (DG-ADJ-4, DG-TURN-12).
	flagBeganAdjacent = "began-adjacent"
	// flagWizardMoved: the wizard has made its move this step (DG-WIZ-3);
	// cleared when a movement step begins.
	flagWizardMoved = "wizard-moved"
)

// Error codes of this chapter (docs/orders/dragons-of-glory.md).
const (
	codeNoPath   = "no-path"      // a move with neither path: nor to:
	codeTooFar   = "too-far"      // a path that costs more MP than the counter has
	codeTerrain  = "terrain"      // a hex or hexside the counter may not enter or cross
	codeMustStop = "must-stop"    // a path that goes on past a hex where the counter must stop
	codeEnemyHex = "enemy-hex"    // a hex the counter may not enter because of the enemy there
	codeNoCarry  = "cannot-carry" // an air transport the rules do not allow
)

// walker is one counter (and, for an air army, the land army it carries)
// as the path rules see it.
type walker struct {
	st    *State
	side  adjudicator.Side
	id    string
	kind  *CounterKind
	carry string // the land army carried through the air, or ""
	mp    int    // the MP it may spend this move
}

func (s *State) walker(id, carry string) *walker {
	u, k := s.Units[id], s.Kind(id)
	mp := s.Face(u).MP
	if carry != "" {
		mp /= 2 // DG-AIRT-4: half, rounded down (DG-AMB-41)
	}
	return &walker{st: s, side: u.Side, id: id, kind: k, carry: carry, mp: mp}
}

// flies reports whether the walker is an air army.
func (m *walker) flies() bool { return m.kind.Flyer() }

// landLike reports whether the walker moves as a land army: land armies
// and leaders (DG-LDR-4).
func (m *walker) landLike() bool { return m.kind.IsLand() || m.kind.Type == Leader }

// stopsNearEnemy reports whether it must stop on entering a hex next to an
// enemy army: land armies do, except cavalry (DG-ADJ-1, -3); leaders and
// air armies do not (DG-LDR-1, DG-AIR-4).
func (m *walker) stopsNearEnemy() bool { return m.kind.Type == Infantry }

// race reports whether the walker is a land army of one of races: racial
// abilities are only land armies' (DG-RACE-3).
func (m *walker) race(races ...string) bool {
	if !m.kind.IsLand() {
		return false
	}
	for _, r := range races {
		if m.kind.Race == r {
			return true
		}
	}
	return false
}

// stepCost is the MP it costs to go from a to its neighbour b, or why the
// walker may not: terrain and hexsides only (the enemy is checked apart).
func (m *walker) stepCost(a, b string) (int, string) {
	g := m.st.Geo()
	if !g.OnMap(b) {
		return 0, fmt.Sprintf("%s is not on the map", b)
	}
	if !g.Adjacent(a, b) {
		return 0, fmt.Sprintf("%s is not next to %s: a path goes from hex to neighbouring hex", b, a)
	}
	side := g.Side(a, b)
	t := g.Terrain(b)
	if m.flies() {
		if t == "desert" {
			return 0, fmt.Sprintf("%s is desert, which air armies may neither enter nor fly over (DG-TERR-10, DG-AIR-7)", b)
		}
		cost := 1 // DG-AIR-2
		if side.Kind == "mountain" {
			cost++ // DG-AIR-6
		}
		return cost, ""
	}
	switch {
	case g.Sea(b):
		return 0, fmt.Sprintf("%s is sea, which land armies and leaders cannot enter (DG-TERR-4)", b)
	case t == "desert":
		return 0, fmt.Sprintf("%s is desert, which no army may enter (DG-TERR-5, -10)", b)
	case t == "swamp":
		return 0, fmt.Sprintf("%s is swamp, which land armies cannot enter (DG-TERR-6, -9)", b)
	}
	cost := 1 // DG-MOVE-2
	if t == "forest" && !m.race("elf", "kender") {
		cost++ // DG-TERR-2, DG-RACE-1
	}
	switch side.Kind {
	case "mountain":
		if !m.race("dwarf", "ogre") {
			return 0, fmt.Sprintf("the hexside between %s and %s is a mountain side, which only dwarves and ogres may cross (DG-TERR-7, DG-RACE-2)", a, b)
		}
		cost++ // DG-RACE-2
	case "pass":
		// A pass crosses the mountain side at no extra cost (DG-TERR-12).
	case "deep-river":
		if !m.st.FleetBridge(a, b, m.side) {
			return 0, fmt.Sprintf("the hexside between %s and %s is a deep river, which land armies cannot cross without a bridge, ford or friendly fleet (DG-TERR-8, DG-SEA-7)", a, b)
		}
		cost++ // DG-SEA-7: crossing on a fleet pays the river's cost
	case "river", "ford", "bridge":
		cost++ // DG-TERR-3, DG-TERR-12
	}
	return cost, ""
}

// enemyBars says why the walker may not enter b because of the enemy, or
// "": no army and no leader enters a hex holding enemy armies (DG-MOVE-4,
// DG-STACK-7, DG-AIR-3); an army may enter a hex holding only enemy leaders
// and wizards, which it overruns (DG-LDR-6), but a leader may not
// (DG-AMB-39: leaders and wizards cannot attack).
func (m *walker) enemyBars(b string) string {
	if m.st.EnemyArmiesAt(b, m.side) {
		return fmt.Sprintf("%s holds enemy armies (DG-MOVE-4, DG-AIR-3)", b)
	}
	if m.kind.Type == Leader && len(m.st.overrunnable(b, m.side)) > 0 {
		return fmt.Sprintf("%s holds enemy leaders or wizards, whom only an army may overrun (DG-LDR-6)", b)
	}
	return ""
}

// overrunnable lists the enemy leaders and wizards on the map at h (those
// an army of side entering h overruns, DG-LDR-6).
func (s *State) overrunnable(h string, side adjudicator.Side) []string {
	var out []string
	for _, u := range s.At(h) {
		if t := s.Kind(u.ID).Type; u.Side != side && (t == Leader || t == Wizard) {
			out = append(out, u.ID)
		}
	}
	return out
}

// endProblem says why the walker (with what it carries) may not end its
// move in h, with the error code a mail gets for it, or "": an air army
// ends over land (DG-AIR-5; a swamp is land, DG-AMB-40), a carried land
// army where a land army may stand, and stacking holds at the end of each
// move (DG-STACK-8).
func (m *walker) endProblem(h string) (code, why string) {
	g := m.st.Geo()
	if m.flies() && !g.Land(h) {
		return codeTerrain, fmt.Sprintf("an air army must end its move over land, and %s is sea (DG-AIR-5)", h)
	}
	if m.carry != "" && (g.Terrain(h) == "swamp" || g.Terrain(h) == "desert") {
		return codeTerrain, fmt.Sprintf("the carried land army %s may not stand in %s, a %s hex (DG-TERR-6, DG-AIRT-5)", m.carry, h, g.Terrain(h))
	}
	adding := []string{m.id}
	if m.carry != "" {
		adding = append(adding, m.carry)
	}
	if why := m.st.StackProblem(h, m.side, adding); why != "" {
		return codeStacking, why
	}
	return "", ""
}

// carryProblem says why air army id may not carry land army c this turn,
// or "" (DG-AIRT-1, -2, -3, -6, DG-AMB-41).
func (s *State) carryProblem(id, c string) string {
	k, ck := s.Kind(id), s.Kind(c)
	u, cu := s.Units[id], s.Units[c]
	switch {
	case k.Type != Air || (k.Race != "griffon" && k.Race != "pegasus"):
		return fmt.Sprintf("only griffon and pegasus armies carry land armies, and %s is not one (DG-AIRT-1, -6)", id)
	case ck.Type != Infantry:
		return fmt.Sprintf("an air army carries only an infantry army (a land army without the cavalry symbol), and %s is not one (DG-AIRT-1, DG-AMB-41)", c)
	case ck.Nation != k.Nation:
		return fmt.Sprintf("%s is not of %s's nationality (DG-AIRT-2)", c, id)
	case cu.Side != u.Side:
		return fmt.Sprintf("%s is not yours", c)
	case cu.Where != OnMap || cu.Hex != u.Hex:
		return fmt.Sprintf("%s must begin the move in the same hex as %s (DG-AIRT-3)", c, id)
	case s.Is(flagMoved, c) || s.Is(flagTransported, c):
		return fmt.Sprintf("%s has already moved or been carried this turn (DG-AIRT-3)", c)
	}
	return ""
}

// startProblem says why counter id may not move on its own now, or "".
func (s *State) startProblem(id string) string {
	u, k := s.Units[id], s.Kind(id)
	switch {
	case u.Where == Aboard && k.Type != Wizard:
		return fmt.Sprintf("%s is aboard %s and cannot move on its own (DG-SEA-6)", id, u.Carrier)
	case u.Where != OnMap && !(u.Where == Aboard && k.Type == Wizard):
		return fmt.Sprintf("%s is not on the map", id)
	case k.Type == Fleet:
		return fmt.Sprintf("%s is a fleet: fleets move under fleets:, before the armies (DG-TURN-7)", id)
	case k.Type == Wizard && s.Is(flagWizardMoved, id):
		return fmt.Sprintf("%s has already moved this step (DG-WIZ-3)", id)
	case s.Is(flagTransported, id):
		return fmt.Sprintf("%s was carried this turn and cannot move on its own (DG-SEA-6, DG-AIRT-3)", id)
	case s.Is(flagMoved, id):
		return fmt.Sprintf("%s has already moved this turn", id)
	}
	return ""
}

// pathText writes a path for people: "1006-1106-1206".
func pathText(p []string) string { return strings.Join(p, "-") }
