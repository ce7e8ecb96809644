package dragonrage

// Minor monsters' special rules (§17) that the general chapters do not
// cover: the T-rex's forced attack (here) and the sea serpent (serpent.go).
// Giants need nothing beyond movement (river, bridges, overrun, VP) and the
// to-hit and hit-point rules of melee.go and fire.go.

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// monsterState holds what the minor monsters remember between turns.
type monsterState struct {
	// Meleed lists, for each T-rex, the units that meleed it and when: on
	// its next turn it must go after one of them (DR-TREX-4, DR-AMB-66).
	Meleed map[string]Grudge `json:"meleed,omitempty"`

	// start is where each unit began its move this phase; it is kept only
	// on the copy that checks movement orders, never in the game state.
	start map[string]string
}

// Grudge is who meleed a T-rex in a turn.
type Grudge struct {
	Turn int      `json:"turn"`
	By   []string `json:"by"`
}

func (m monsterState) clone() monsterState {
	c := monsterState{}
	if m.Meleed != nil {
		c.Meleed = make(map[string]Grudge, len(m.Meleed))
		for k, g := range m.Meleed {
			c.Meleed[k] = Grudge{Turn: g.Turn, By: slices.Clone(g.By)}
		}
	}
	return c
}

// TrexMeleed records a unit that meleed a T-rex.
type TrexMeleed struct {
	Trex string `json:"trex"`
	By   string `json:"by"`
	Turn int    `json:"turn"`
}

func (*TrexMeleed) EventType() string { return "dragonrage.trex-meleed" }

var monsterEvents = slices.Concat([]adjudicator.EventType{
	{Name: "dragonrage.trex-meleed", Schema: 1, New: func() adjudicator.Event { return new(TrexMeleed) }},
}, decisionEvents)

func evolveMonsters(st *State, ev adjudicator.Event) bool {
	e, ok := ev.(*TrexMeleed)
	if !ok {
		return evolveDecision(st, ev)
	}
	if st.Monsters.Meleed == nil {
		st.Monsters.Meleed = map[string]Grudge{}
	}
	g := st.Monsters.Meleed[e.Trex]
	if g.Turn != e.Turn {
		g = Grudge{Turn: e.Turn}
	}
	if !slices.Contains(g.By, e.By) {
		g.By = append(g.By, e.By)
	}
	st.Monsters.Meleed[e.Trex] = g
	return true
}

// meleedMonster is told of every unit that makes a melee attack on a
// monster: a T-rex remembers it (DR-TREX-4).
func (w *world) meleedMonster(u, m *Unit) {
	if w.st.typ(m).Grudges() {
		w.emit(&TrexMeleed{Trex: m.ID, By: u.ID, Turn: w.st.Turn})
	}
}

// grudge returns the units a T-rex must go after this turn: those that
// meleed it in the turn before, still on the map (DR-TREX-4: "au tour
// suivant").
func (w *world) grudge(t *Unit) []*Unit {
	g, ok := w.st.Monsters.Meleed[t.ID]
	if !ok || g.Turn+1 != w.st.Turn || t.Gone || t.Hex == "" || t.Side != Invader {
		return nil
	}
	var out []*Unit
	for _, id := range g.By {
		if u := w.st.unit(id); !u.Gone && u.Hex != "" && u.Side != t.Side {
			out = append(out, u)
		}
	}
	return out
}

// angry is a T-rex that must attack this turn, and its targets.
type angry struct {
	t  *Unit
	by []*Unit
}

// trexes returns the side's T-rexes that must attack this turn, in id order.
func (w *world) trexes(side adjudicator.Side) []angry {
	var out []angry
	for _, u := range w.st.alive(side) {
		if w.st.typ(u).Grudges() {
			if by := w.grudge(u); len(by) > 0 {
				out = append(out, angry{u, by})
			}
		}
	}
	return out
}

// strikesFrom reports whether a unit in hex a could melee target, as far
// as the terrain goes (DR-MELEE-1, DR-MELEE-9).
func (w *world) strikesFrom(a hex.Hex, target *Unit) bool {
	t := w.st.hexOf(target)
	return a.Adjacent(t) && w.meleeBlocked(a, t) == ""
}

// noteStart remembers where a unit began its move this phase (on the
// copy that checks orders).
func (w *world) noteStart(u *Unit) {
	if w.st.Monsters.start == nil {
		w.st.Monsters.start = map[string]string{}
	}
	if _, ok := w.st.Monsters.start[u.ID]; !ok {
		w.st.Monsters.start[u.ID] = u.Hex
	}
}

// forcedMoves checks, at the end of the invader's movement orders, that a
// T-rex meleed last turn went after one of its attackers: it must end where
// it can melee one of them if it can reach such a hex, or else as close to
// one of them as it can get (DR-TREX-4, DR-AMB-66).
func (w *world) forcedMoves(side adjudicator.Side, o *Orders, n *yaml.Node) error {
trex:
	for _, x := range w.trexes(side) {
		t, by := x.t, x.by
		node := n
		for _, mv := range o.Moves {
			if mv.Unit == t.ID && mv.node != nil {
				node = mv.node
			}
		}
		end := w.st.hexOf(t)
		for _, b := range by {
			if w.strikesFrom(end, b) {
				continue trex
			}
		}
		if err := w.forcedMove(t, by, end, node); err != nil {
			return err
		}
	}
	return nil
}

// forcedMove says what a T-rex that did not end next to its attackers
// should have done, if it could have done better.
func (w *world) forcedMove(t *Unit, by []*Unit, end hex.Hex, node *yaml.Node) error {
	startID, ok := w.st.Monsters.start[t.ID]
	if !ok {
		startID = t.Hex
	}
	start, _ := hex.Parse(startID)
	names := unitIDs(by)
	reach := w.reach(t, start, w.st.typ(t).MP)
	var near []string
	best, bestHex := 1<<30, ""
	for h := range reach {
		for _, b := range by {
			if w.strikesFrom(h, b) {
				near = append(near, h.String())
			}
			if d := hex.Distance(h, w.st.hexOf(b)); d < best || (d == best && h.String() < bestHex) {
				best, bestHex = d, h.String()
			}
		}
	}
	if len(near) > 0 {
		sort.Strings(near)
		return adjudicator.Errorf(node, codeIllegalMove, "%s was meleed by %s last turn and must go after one of them (DR-TREX-4, DR-AMB-66): it can reach %s and attack from there", t.ID, names, strings.Join(near, ", "))
	}
	mine := 1 << 30
	for _, b := range by {
		mine = min(mine, hex.Distance(end, w.st.hexOf(b)))
	}
	if bestHex != "" && best < mine {
		return adjudicator.Errorf(node, codeIllegalMove, "%s was meleed by %s last turn: it cannot reach them, so it must end as close as it can (DR-AMB-66), e.g. in %s, %d hexes away, not %d", t.ID, names, bestHex, best, mine)
	}
	return nil
}

// forcedAttacks checks, at the end of the invader's melee orders, that a
// T-rex able to melee one of the units that meleed it last turn does so;
// if several did, the invader picks which by the attack he orders
// (DR-TREX-4, DR-AMB-66, DR-PBEM-45).
func (w *world) forcedAttacks(side adjudicator.Side, o *Orders, n *yaml.Node) error {
trex:
	for _, x := range w.trexes(side) {
		t, by := x.t, x.by
		var can []*Unit
		for _, b := range by {
			if code, _ := w.checkAttacker(t, w.st.hexOf(b), false); code == "" {
				can = append(can, b)
			}
		}
		if len(can) == 0 {
			continue
		}
		var hexes []string
		for _, b := range can {
			hexes = append(hexes, b.Hex)
		}
		node := n
		for i, a := range o.Attacks {
			if !slices.Contains(a.With, t.ID) {
				continue
			}
			if slices.Contains(hexes, a.At) {
				continue trex
			}
			if n.Kind == yaml.SequenceNode && i < len(n.Content) {
				node = n.Content[i]
			}
		}
		return adjudicator.Errorf(node, codeIllegalMove, "%s was meleed by %s last turn and must attack it now (DR-TREX-4): add \"- attack: %s\" with %s", t.ID, unitIDs(can), hexes[0], t.ID)
	}
	return nil
}

// trexNote is the T-rex's status line for the view.
func (st *State) trexNote(u *Unit) string {
	w := newWorld(st, nil)
	by := w.grudge(u)
	if len(by) == 0 {
		return ""
	}
	return fmt.Sprintf("must attack %s", unitIDs(by))
}

// trexDefaults are the melee orders a side's T-rexes get when the side
// sends none (a deadline's default): each attacks the first of the units
// that meleed it last turn that it can reach, as it must (DR-TREX-4).
func (w *world) trexDefaults(side adjudicator.Side) []string {
	var out []string
	for _, x := range w.trexes(side) {
		for _, b := range x.by {
			if code, _ := w.checkAttacker(x.t, w.st.hexOf(b), false); code == "" {
				out = append(out, fmt.Sprintf("- {attack: %q, with: [%s]}", b.Hex, x.t.ID))
				break
			}
		}
	}
	return out
}
