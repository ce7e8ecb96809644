package dragonnoir

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// The game turn of a battle (AMB-69, DN3-CAMP-BATTLE-11, PBEM-DN3-21):
// the first side's player-turn (the Rebels', unless the position says
// otherwise), then the other's, each in DN2's Adventurer order — offensive
// fire, movement with the other side's defensive fire, combat, stunned
// recovery — with no Gharv interphase and no turn limit. Each player-turn
// waits for the playing side's orders and the other side's reactions
// (defensive-fire and spell triggers, casualties, advance, retreat),
// sealed together until both are in (fire_reactions.go). Each magician
// casts one spell a game turn (DN-MAGIC-9).
//
// Counters on paths enter in their side's first player-turn, paying the
// MP of the first hex they enter, on the edge of their path
// (DN3-CAMP-BATTLE-6); any counter may leave by an edge that leads to a
// Region (DN3-CAMP-BATTLE-8, DN3-MAPS-1), and never comes back. The battle
// ends when a side has no counter left on the map (DN3-CAMP-BATTLE-10).

// battleStages are a battle's player-turn, either side's (AMB-69).
var battleStages = []string{stageFire, stageMoves, stageAttacks, stageRecover, stageDone}

// battleDue is what a battle waits for: the set-ups, or the playing
// side's orders with the other side's reactions.
func battleDue(st *State) []adjudicator.Request {
	if st.Battle.Secrets && !st.SecretsRead { // battle_secrets.go
		return []adjudicator.Request{adjudicator.ChildSecretsRequest(st.Turn, StepSetup)}
	}
	if st.Step == StepSetup {
		return setupDue(st)
	}
	if st.Step != StepAdventurers && st.Step != StepKrobs {
		return nil
	}
	side := adjudicator.Side(st.Step)
	out := []adjudicator.Request{{
		ID: fmt.Sprintf("t%d.%s", st.Turn, side), Side: side, Kind: "orders", Turn: st.Turn, Phase: st.Step,
		Title:  fmt.Sprintf("battle of %s, turn %d, the %s' player-turn", st.Battle.Region, st.Turn, st.SideName(side)),
		Prompt: "Your shots (fire:), spells (spells:), moves (moves:, with leave: REGION to step off the map by the edge to that Region; your counters waiting off the map enter now, their path starting on their edge), the counters that will not move (hold:) and your attacks (attacks:), each list in the order to resolve it, and any standing orders (standing:); your reactions to the other side's player-turn go in the reactions mail due with its orders: docs/orders/dragon-noir.md.",
		Hidden: true,
	}}
	if !st.Options.LiveFire {
		out = append(out, reactionsRequest(st))
	}
	return out
}

// battleReactionsRequest is the reactions of the side that does not play
// to the player-turn under way (AMB-69: both sides fire defensively).
func battleReactionsRequest(st *State) adjudicator.Request {
	d := st.defender()
	return adjudicator.Request{
		ID: fmt.Sprintf("t%d.%s.reactions", st.Turn, d), Side: d, Kind: "orders", Turn: st.Turn, Phase: st.Step,
		Title: fmt.Sprintf("battle of %s, turn %d, the %s' reactions to the %s' player-turn", st.Battle.Region, st.Turn, st.SideName(d), st.SideName(adjudicator.Side(st.Step))),
		Prompt: fmt.Sprintf("Your reactions to the %s' player-turn, sealed until their orders are in: defensive-fire:, spell-trigger:, casualties:, advance:, retreat: — each replaces the standing order you gave before; send {} to keep them all: docs/orders/dragon-noir.md.",
			st.SideName(adjudicator.Side(st.Step))),
		Hidden: true,
	}
}

// checkBattleMove checks what a battle adds to a move order: a counter
// waiting off the map enters on its edge (DN3-CAMP-BATTLE-6); leave:
// names a Region an edge of the map leads to (DN3-MAPS-1), and the counter
// may leave (DN3-CAMP-BATTLE-2).
func checkBattleMove(st *State, side adjudicator.Side, x *MoveOrder, bad func(int, string, string, ...any)) {
	c := st.Chars[x.Unit]
	if c == nil || c.Side != side {
		return // the mail's unit check says why
	}
	if c.waiting() {
		edge := st.edgeHexes(c.Edge)
		switch {
		case len(x.Path) == 0:
			bad(x.Line, codeBadEntry, "move %s: it waits off the map by the edge to %s: give its path, from the first hex it enters, one of %s (DN3-CAMP-BATTLE-6)", x.Unit, c.Edge, compactHexes(edge))
		default:
			if l, err := locOn(st.board, x.Path[0]); err == nil && !slices.Contains(edge, l.Hex) {
				bad(x.Line, codeBadEntry, "move %s: it enters by the edge to %s, where its path comes from: the first hex of its path is one of %s, not %s (DN3-CAMP-BATTLE-6)", x.Unit, c.Edge, compactHexes(edge), x.Path[0])
			}
		}
		if len(x.Row) > 0 {
			bad(x.Line, codeBadEntry, "move %s: it enters on foot", x.Unit)
		}
	}
	if x.Leave == "" {
		return
	}
	if !slices.Contains(st.regions(), x.Leave) {
		bad(x.Line, codeNoExit, "move %s: leave: %q: the edges of this map lead to %s; the others are impassable (DN3-MAPS-1)", x.Unit, x.Leave, strings.Join(st.regions(), ", "))
	}
	if why := st.mayLeave(c); why != "" {
		bad(x.Line, codeMayNotLeave, "move %s: %s", x.Unit, why)
	}
}

// mayLeave says why c may not leave the map, "" when it may. (The
// peoples' own rules, a Kandär while the Officer is on the map, a druid's
// animal without its druid, PBEM-DN3-23, are the peoples' chapter's.)
func (s *State) mayLeave(c *Char) string {
	if s.fightsToDeath(c) {
		return fmt.Sprintf("%s fights for the %s to the death and never leaves the map (DN3-CAMP-BATTLE-2)", c.ID, s.SideName(c.Side))
	}
	return "" // the peoples' own rules: peoplesMayLeave (special_peoples.go), with the other leavers of the mail
}

// compactHexes writes hexes for people: "0101-0114" when they run along
// one column or row, else them all.
func compactHexes(hs []hex.Hex) string {
	if len(hs) == 0 {
		return "none"
	}
	sameCol, sameRow := true, true
	for _, h := range hs {
		sameCol = sameCol && h.Col == hs[0].Col
		sameRow = sameRow && h.Row == hs[0].Row
	}
	if len(hs) > 2 && (sameCol || sameRow) {
		return hs[0].String() + "-" + hs[len(hs)-1].String()
	}
	var s []string
	for _, h := range hs {
		s = append(s, h.String())
	}
	return strings.Join(s, ", ")
}

// enter brings c, waiting off the map, onto the first hex of its path on
// the edge of its arrival path, paying that hex's MP (DN3-CAMP-BATTLE-6);
// the move then goes on from there like any other. false when it cannot,
// with the reason in the report.
func (w *world) enter(c *Char, o *MoveOrder) bool {
	st := w.st()
	no := func(used Provs, format string, args ...any) bool {
		w.say(used, "%s does not enter: %s.", c.ID, fmt.Sprintf(format, args...))
		return false
	}
	if st.Is(flagMoved, c.ID) {
		return no(nil, "it has already moved this turn (DN-MOVE-2)")
	}
	if len(o.Path) == 0 {
		return no(nil, "its order gives no path")
	}
	l, err := locOn(st.board, o.Path[0])
	if err != nil {
		return no(nil, "%v", err)
	}
	if !slices.Contains(st.edgeHexes(c.Edge), l.Hex) {
		return no(nil, "%s is not on the edge to %s, where its path comes from (DN3-CAMP-BATTLE-6)", o.Path[0], c.Edge)
	}
	k := st.mover(c) // a rider in the saddle enters by its steed's costs (move_rider.go)
	if err := placeable(st.board, k, Placement{Unit: c.ID, At: o.Path[0], Facing: c.Facing}); err != nil {
		return no(nil, "%v", err)
	}
	cost, prov, ok := st.MPCost(k, l)
	if !ok {
		return no(Provs{prov}, "a %s may not enter %s (%s, DN-MOVE-5)", k.Title, o.Path[0], st.Terrain(l).Title)
	}
	for _, x := range st.At(l) {
		if x.Standing() && Enemy(x.Side, c.Side) {
			return no(nil, "%s stands on %s (DN-MOVE-4)", x.ID, o.Path[0])
		}
		if x.Alive() && len(o.Path) == 1 && o.Leave == "" {
			return no(nil, "%s is on %s: one living character a hex at the end of a move (DN-STACK-2)", x.ID, o.Path[0])
		}
	}
	f, _ := st.Values(c)
	if cost > f.Move {
		return no(Provs{prov}, "entering %s costs %d MP and it has %d (DN-MOVE-1)", o.Path[0], cost, f.Move)
	}
	from := c.Edge
	w.emit(&Flagged{Flag: flagMoved, IDs: []string{c.ID}})
	w.emit(&Entered{Unit: c.ID, At: locString(st.board, l), MP: cost})
	w.say(Provs{prov}, "%s enters the map by the edge to %s, on %s (%d MP; DN3-CAMP-BATTLE-6).", c.ID, from, c.At, cost)
	return true
}

// enterLate brings on the counters of side still waiting off the map at
// the end of its first movement (they may not stay off the map,
// DN3-CAMP-BATTLE-6): each on the free hex of its edge nearest the edge's
// middle that it may stand on. With none, it never enters: it stays on
// its path, out of the battle (recorded as left by that edge).
func (w *world) enterLate(side adjudicator.Side) {
	st := w.st()
	for _, c := range st.Sorted() {
		if c.Side != side || !c.waiting() {
			continue
		}
		edge := st.edgeHexes(c.Edge)
		mid := edge[len(edge)/2]
		var best hex.Hex
		bestD := -1
		for _, h := range edge {
			l := st.board.FloorLoc(h)
			if !st.CanEnter(st.mover(c), l) || slices.ContainsFunc(st.At(l), (*Char).Alive) { // a rider in the saddle: the pair (move_rider.go)
				continue
			}
			if d := st.board.Layout.Distance(h, mid); bestD < 0 || d < bestD {
				best, bestD = h, d
			}
		}
		if bestD < 0 {
			w.emit(&Exited{Unit: c.ID, Region: c.Edge})
			w.say(nil, "%s has not entered and no hex of the edge to %s is free: it stays on its path, out of the battle (DN3-CAMP-BATTLE-6).", c.ID, c.Edge)
			continue
		}
		from := c.Edge
		w.emit(&Flagged{Flag: flagMoved, IDs: []string{c.ID}})
		w.emit(&Entered{Unit: c.ID, At: locString(st.board, st.board.FloorLoc(best))})
		w.say(nil, "%s has not entered, and may not stay off the map: it enters on %s, by the edge to %s (DN3-CAMP-BATTLE-6).", c.ID, best, from)
	}
}

// leave takes c off the map by the edge leading to region at the end of
// its move (DN3-CAMP-BATTLE-8, PBEM-DN3-23): it stands on a hex along that
// edge, on its feet, with 1 MP left to step off onto the path (assumed);
// leaving a hex its move entered, it rolls for infiltration like any step
// (AMB-28). It never comes back.
func (w *world) leave(c *Char, region string, mv *moveWork) {
	st := w.st()
	no := func(format string, args ...any) {
		w.say(nil, "%s does not leave the map: %s.", c.ID, fmt.Sprintf(format, args...))
	}
	switch {
	case !c.Alive():
		return
	case !c.Standing():
		no("it is not on its feet")
		return
	}
	if why := st.mayLeave(c); why != "" {
		no("%s", why)
		return
	}
	if !slices.Contains(st.edgeHexes(region), st.loc(c).Hex) {
		no("it is on %s, not on the edge to %s (%s)", c.At, region, compactHexes(st.edgeHexes(region)))
		return
	}
	f, _ := st.Values(c)
	if f.Move-c.Spent < leaveMP {
		no("it has no MP left to step off the map (%d needed)", leaveMP)
		return
	}
	if mv != nil && mv.Fresh && len(w.infiltrators(c, st.loc(c))) > 0 && w.infiltrate(c) {
		return
	}
	if !c.Standing() {
		return
	}
	w.emit(&Exited{Unit: c.ID, Region: region, MP: leaveMP})
	w.say(nil, "%s leaves the map by the edge to %s: it may not come back in this battle (DN3-CAMP-BATTLE-8).", c.ID, region)
}

// leaveMP is what stepping off the map costs: the path beyond the edge,
// open ground (assumed: the rules give no cost).
const leaveMP = 1

// battleNext ends a player-turn of a battle: the battle ends if a side has
// no counter left on the map (DN3-CAMP-BATTLE-10), else the other side's
// player-turn begins, or the next game turn (AMB-69).
func (w *world) battleNext(side adjudicator.Side) {
	if w.battleOver() {
		return
	}
	st := w.st()
	next, turn := Other(side), st.Turn
	if side != st.Battle.First {
		next, turn = st.Battle.First, st.Turn+1
		if st.Turn == fledBy {
			w.endOfTurnFive()
		}
	}
	w.emit(&Stepped{Turn: turn, Step: string(next)})
	if next == st.Battle.First {
		w.say(nil, "Battle turn %d begins: the %s' player-turn (AMB-69).", turn, st.SideName(next))
	} else {
		w.say(nil, "Battle turn %d: the %s' player-turn begins (AMB-69).", turn, st.SideName(next))
	}
	w.reappear() // magic chapter: invisible magicians (AMB-79)
}

// present reports whether side still has a counter in the battle: on the
// map, invisible for a while (magic chapter), or waiting to enter.
func (s *State) present(side adjudicator.Side) bool {
	for _, c := range s.Chars {
		if c.Side != side || c.Face == Killed || c.Left {
			continue
		}
		if _, invisible := s.vanished(c); c.At != "" || c.waiting() || invisible {
			return true
		}
	}
	return false
}

// battleOver ends the battle when a side has no counter left on the map,
// dead or gone (DN3-CAMP-BATTLE-10): the winner is the side left on the
// field, none when neither is. It reports whether the battle is over.
func (w *world) battleOver() bool {
	st := w.st()
	a, k := st.present(Adventurers), st.present(Krobs)
	if a && k {
		return false
	}
	var winner adjudicator.Side
	switch {
	case a:
		winner = Adventurers
	case k:
		winner = Krobs
	}
	var gone []string
	for _, side := range []adjudicator.Side{Adventurers, Krobs} {
		if side == winner {
			continue
		}
		dead, left := 0, 0
		for _, c := range st.Chars {
			switch {
			case c.Side != side:
			case c.Left:
				left++
			case c.Face == Killed:
				dead++
			}
		}
		gone = append(gone, fmt.Sprintf("no counter of the %s is left on the field (%d dead, %d left the map)", st.SideName(side), dead, left))
	}
	result := strings.Join(gone, "; ")
	if winner != "" {
		result = fmt.Sprintf("the %s hold the field: %s", st.SideName(winner), result)
	}
	w.resolveNegotiation(false)                   // Step 5 before turn 6 (battle_people.go)
	w.end(&Ended{Winner: winner, Result: result}) // the valley's peoples: animals back to the wild first (special_peoples.go)
	w.say(nil, "The battle of %s ends in turn %d: %s (DN3-CAMP-BATTLE-10).", st.Battle.Region, st.Turn, result)
	return true
}

// concedeBattle ends a battle a side concedes: the other holds the field;
// the conceding side's counters stay where they stand in the final view.
func (w *world) concedeBattle(side adjudicator.Side) {
	st := w.st()
	w.end(&Ended{Winner: Other(side), Result: fmt.Sprintf("the %s conceded the battle", st.SideName(side))})
}
