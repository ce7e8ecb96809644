package dragonnoir

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// The test bot plays battles of La Conquête too (bot_test.go plays them
// through the game aggregate, mail by mail, each adjudication replayed):
//
//   - the set-up: each counter at the centre on the free hex of the centre
//     nearest its side's end of the map (the Rebels west, the Reptilians
//     east), in ID order;
//   - each player-turn, either side: its shooters shoot at the nearest
//     enemy they have a shot at (and stay), its magicians cast a fireball
//     at the nearest enemy in range, its counters waiting off the map
//     enter on the hex of their edge nearest the enemy, the others move
//     toward the nearest enemy, and every enemy some of them reach is
//     attacked at 1-1 or better by all of them together;
//   - its reactions to the other side's player-turn: each shooter on its
//     feet fires at any enemy it has a shot at;
//   - every question is answered with its default.

// battleBotOrders is the bot's orders for req in a battle.
func battleBotOrders(st *State, req adjudicator.Request, stats *botStats) any {
	switch {
	case req.Kind == "setup":
		return map[string]any{"place": botSetUp(st, req.Side)}
	case isReactions(req):
		return map[string]any{KeyDefensiveFire: sideTriggers(st, req.Side)}
	}
	return battleSideOrders(st, req.Side, stats)
}

// botSetUp places side's counters at the centre as at a deadline.
func botSetUp(st *State, side adjudicator.Side) map[string]string { return defaultSetUp(st, side) }

// sideTriggers: each shooter of side on its feet fires at any enemy.
func sideTriggers(st *State, side adjudicator.Side) []map[string]any {
	out := []map[string]any{}
	for _, c := range st.Living(side) {
		if st.Kind(c).Weapon != "" && c.Standing() {
			out = append(out, map[string]any{"shooter": c.ID, "at": "any"})
		}
	}
	return out
}

// battleSideOrders is side's player-turn mail.
func battleSideOrders(st *State, side adjudicator.Side, stats *botStats) map[string]any {
	p := newPlanner(st)
	enemy := Other(side)
	var fire, spells, moves []map[string]any
	for _, c := range p.st.Living(side) {
		if st.Kind(c).Weapon == "" || !c.Standing() {
			continue
		}
		for _, e := range p.nearest(c, enemy) {
			if p.w.cannotFire(c, e, flagFiredOff) == "" {
				fire = append(fire, map[string]any{"shooter": c.ID, "at": e.ID})
				p.st.mark(flagFiredOff, c.ID)
				break
			}
		}
	}
	if fb := p.st.data.Spells["fireball"]; fb != nil {
		for _, c := range p.st.Living(side) {
			if p.st.level(c) == 0 || !c.Standing() || c.PE < fb.Cost.Fixed || p.st.Is(flagCast, c.ID) {
				continue
			}
			for _, e := range p.nearest(c, enemy) {
				if p.st.Distance(p.st.loc(c), p.st.loc(e)) <= spellRange(p.st.level(c)) {
					spells = append(spells, map[string]any{"caster": c.ID, "spell": fb.ID, "at": e.ID, "before": "attacks"})
					break
				}
			}
		}
	}
	for _, c := range st.Sorted() { // those waiting off the map enter (DN3-CAMP-BATTLE-6)
		if c.Side != side || !c.waiting() {
			continue
		}
		if h, ok := p.entry(c, enemy); ok {
			moves = append(moves, map[string]any{"unit": c.ID, "path": []string{h.String()}})
			pc := *c // the planner's copy leaves out who is off the map
			pc.At, pc.Edge = locString(p.st.board, p.st.board.FloorLoc(h)), ""
			p.st.Chars[c.ID] = &pc
			p.st.mark(flagMoved, c.ID)
		}
	}
	for _, c := range p.st.Living(side) {
		if p.st.Is(flagFiredOff, c.ID) || p.st.Is(flagMoved, c.ID) {
			continue
		}
		if m := p.move(c, p.enemyLocs(enemy)); m != nil {
			moves = append(moves, m)
		}
	}
	attacks := p.attacks(side)
	out := map[string]any{}
	for k, v := range map[string][]map[string]any{"fire": fire, "spells": spells, "moves": moves, "attacks": attacks} {
		if len(v) > 0 {
			out[k] = v
		}
	}
	if ts := sideTriggers(st, side); len(ts) > 0 {
		out["standing"] = map[string]any{KeyDefensiveFire: ts}
	}
	stats.Fire += len(fire)
	stats.Spells += len(spells)
	stats.Moves += len(moves)
	stats.Attacks += len(attacks)
	return out
}

// entry is the free hex of c's edge nearest the enemy's counters on the
// map, where it may stand.
func (p *planner) entry(c *Char, enemy adjudicator.Side) (hex.Hex, bool) {
	st := p.st
	var best hex.Hex
	bestD := -1
	for _, h := range st.edgeHexes(c.Edge) {
		l := st.board.FloorLoc(h)
		if _, _, ok := st.MPCost(st.Kind(c), l); !ok || slices.ContainsFunc(st.At(l), (*Char).Alive) {
			continue
		}
		d := 1 << 20
		for _, e := range st.Living(enemy) {
			d = min(d, st.Distance(l, st.loc(e)))
		}
		if bestD < 0 || d < bestD {
			best, bestD = h, d
		}
	}
	return best, bestD >= 0
}

// botBattles are the battles the bot plays, by the Region fought in: the
// position (as the campaign would write it) and the committed dice seed
// of its recorded game (testdata/battles/REGION.yaml).
var botBattles = map[string]struct{ position, seed string }{
	"la-croisee": {seed: "dragonnoir bot battle la-croisee 1", position: `battle:
  region: la-croisee
  names: {adventurers: Rebels, krobs: Reptilians}
forces:
  - {unit: konrad, side: adventurers, zone: centre}
  - {unit: jon, side: adventurers, zone: centre, wounds: 1}
  - {unit: laberne, side: adventurers, zone: centre}
  - {unit: zacharie, side: adventurers, zone: centre, pe: 60}
  - {unit: black-fox, side: adventurers, zone: centre, fatigue: fatigued}
  - {unit: zed, side: adventurers, zone: edge, edge: le-pont}
  - {unit: godiva, side: adventurers, zone: edge, edge: le-pont}
  - {unit: warrior-1, side: krobs, zone: centre}
  - {unit: warrior-2, side: krobs, zone: centre, fatigue: exhausted}
  - {unit: hunter-1, side: krobs, zone: centre}
  - {unit: hunter-2, side: krobs, zone: centre}
  - {unit: killer-1, side: krobs, zone: centre}
  - {unit: elf-3, side: krobs, zone: centre}
  - {unit: black-dwarf-1, side: krobs, zone: centre}
  - {unit: shaman, side: krobs, zone: centre, pe: 80}
  - {unit: hunter-3, side: krobs, zone: edge, edge: conseil-des-ents}
  - {unit: hunter-4, side: krobs, zone: edge, edge: conseil-des-ents}
`},
}

// TestBotBattles plays each battle of botBattles to its end with the bot,
// every adjudication replayed exactly: it ends as DN3-CAMP-BATTLE-10 says,
// a side off the field, with the final view the campaign reads. With
// -update it records each under testdata/battles/, which TestWholeBattles
// (and TestScripts) replay.
func TestBotBattles(t *testing.T) {
	for region, b := range botBattles {
		t.Run(region, func(t *testing.T) {
			t.Parallel()
			bg := botPlayFrom(t, region, []byte(b.position), b.seed)
			st := bg.Final
			t.Logf("%s: turn %d, %s: %s; %s", region, st.Turn, st.Winner, st.Result, bg.Stats)
			if !st.Over || st.present(Adventurers) && st.present(Krobs) {
				t.Errorf("%s does not end with a side off the field: over %v, %q", region, st.Over, st.Result)
			}
			if bg.Stats.Moves == 0 || bg.Stats.Attacks == 0 || bg.Stats.Fire == 0 {
				t.Errorf("%s: the bot played too little: %s", region, bg.Stats)
			}
			if a := game.Replay(bg.Log, botLookup); !a.OK() {
				t.Errorf("%s: the log does not replay: %s", region, strings.Join(a.Problems, "; "))
			}
			if *update {
				if err := os.WriteFile(filepath.Join("testdata", "battles", region+".yaml"), bg.recordBattle(region, b.position), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// recordBattle writes the battle as a game script: the position, the
// mails as sent, the dice rolled, and its end.
func (bg *botGame) recordBattle(region, position string) []byte {
	st := bg.Final
	var b strings.Builder
	fmt.Fprintf(&b, "name: a whole battle at %s, played by the test bot to its end\n", region)
	fmt.Fprintf(&b, "rules: [DN3-CAMP-BATTLE-5, DN3-CAMP-BATTLE-6, DN3-CAMP-BATTLE-10, DN3-CAMP-BATTLE-11, AMB-69, AMB-71]\n")
	fmt.Fprintf(&b, "doc: |\n  Recorded by TestBotBattles (battle_bot_test.go) with the seed %q:\n", bg.Seed)
	fmt.Fprintf(&b, "  the mails exactly as the bot sent them and every die rolled, in order.\n")
	fmt.Fprintf(&b, "  %s. Ends in battle turn %d: %s.\n", bg.Stats, st.Turn, st.Result)
	fmt.Fprintf(&b, "  When a rule changes the battle, play it again and look at it:\n")
	fmt.Fprintf(&b, "  go test ./adjudicator/dragonnoir -run TestBotBattles -update\n")
	fmt.Fprintf(&b, "ruleset: dragonnoir\nposition:\n")
	for _, l := range strings.Split(strings.TrimRight(position, "\n"), "\n") {
		fmt.Fprintf(&b, "  %s\n", l)
	}
	bg.writeDiceAndSteps(&b)
	fmt.Fprintf(&b, "expect:\n  over: true\n  turn: %d\n  winner: %q\n  result: %q\n  due: []\n", st.Turn, st.Winner, st.Result)
	return []byte(b.String())
}
