package dragonnoir

import (
	"container/heap"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
	"github.com/umpire-pbem/umpire/adjudicator/script"
)

// The test bot plays whole games of Dragon Noir through the game
// aggregate (adjudicator/game), as players would by mail: each mail is
// YAML text in its envelope, parsed and adjudicated like any other. It
// plays both sides legally and deterministically:
//
//   - the Adventurers shoot at the nearest Krob each shooter has a shot at
//     (a shooter that shoots stays where it is), cast a fireball at the nearest Krob in range when a magician has the
//     PE, move toward the nearest hidden marker still face down (toward
//     the nearest Krob when none is left), tear the webs they stand next
//     to, and attack every Krob they reach at 1-1 or better, all together;
//     their shooters keep a standing defensive-fire trigger, sent again
//     as the reactions to each Krob turn;
//   - the Krobs move toward the nearest Adventurer — the Queen and the
//     Guards too, with their facings, where the galleries let them pass —
//     say which of them hold, and attack as the Adventurers do;
//   - every question (a casualty, an advance, a retreat) is answered with
//     its default.
//
// Paths are planned with the ruleset's own step rule (move.go) on a
// scratch copy of the state, so that every step of a move it sends is one
// the rules allow when it is planned; what happens on the way (a shot, an
// infiltration roll) may still stop it, as for a player. After every
// adjudication the bot folds its events on the state before and checks
// that it gets the state after (the replay is exact).

// botEpoch is when the bot's games start.
var botEpoch = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// botGame is a game the bot played: the mails it sent, the dice rolled,
// in order, and how it went.
type botGame struct {
	Scenario string
	Seed     string
	Steps    []botStep
	Faces    []int
	Final    *State
	Log      []game.Entry
	Stats    botStats
}

type botStep struct {
	Side   adjudicator.Side
	Orders string
}

type botStats struct {
	Adjudications, Fire, Spells, Moves, Attacks, Webs, Holds, Answers int
}

func (s botStats) String() string {
	return fmt.Sprintf("%d adjudications; sent %d shots, %d spells, %d moves, %d attacks, %d webs torn, %d holds, %d answers",
		s.Adjudications, s.Fire, s.Spells, s.Moves, s.Attacks, s.Webs, s.Holds, s.Answers)
}

var botLookup = game.Lookup(func(name string) (adjudicator.Ruleset, bool) { return Ruleset, name == "dragonnoir" })

// botPlay plays scenario to its end with the dice of seed.
func botPlay(t testing.TB, scenario, seed string) *botGame {
	t.Helper()
	return botPlayFrom(t, scenario, nil, seed)
}

// botPlayFrom plays scenario, or the game set up from position when
// there is one (a battle, battle_bot_test.go), to its end.
func botPlayFrom(t testing.TB, scenario string, position []byte, seed string) *botGame {
	t.Helper()
	secret := sha256.Sum256([]byte(seed))
	n := game.NewGame{ID: "bot-" + scenario, Ruleset: Ruleset, Scenario: scenario,
		Players: []game.Player{{Side: Adventurers}, {Side: Krobs}}, Time: botEpoch, Secret: secret[:]}
	if position != nil {
		n.Scenario, n.Position = "", position
	}
	rec, _, err := game.Create(n)
	if err != nil {
		t.Fatalf("%s: %v", scenario, err)
	}
	bg := &botGame{Scenario: scenario, Seed: seed, Log: []game.Entry{{Seq: 1, Record: rec}}}
	g, err := game.Load(bg.Log, botLookup)
	if err != nil {
		t.Fatal(err)
	}
	secrets := map[int][]byte{0: secret[:]}
	vault := game.Vault{}
	salts := script.Salts("dragonnoir-bot-salt", secret[:])
	sent := map[string]bool{} // the requests answered since the last adjudication
	for k := 1; ; k++ {
		due := g.Due()
		if len(due) == 0 {
			break
		}
		if k > 600 {
			t.Fatalf("%s: not over after %d mails (turn %d)", scenario, k, g.State.(*State).Turn)
		}
		i := slices.IndexFunc(due, func(r adjudicator.Request) bool { return !sent[r.ID] })
		if i < 0 {
			t.Fatalf("%s: every request due was answered, and nothing was adjudicated", scenario)
		}
		req := due[i]
		st := g.State.(*State)
		text := botMail(t, st, req, &bg.Stats)
		before := st.Clone()
		out, err := g.Submit(game.Input{Side: req.Side, Src: []byte(text), Time: botEpoch.Add(time.Duration(k) * time.Minute), Via: "script",
			Secrets:    func(gen int) ([]byte, error) { return secrets[gen], nil },
			NextSecret: dice.Hash(secrets[len(secrets)-1]), Rand: salts, Unseal: vault.Unseal})
		if err != nil {
			t.Fatalf("%s, turn %d, %s: the bot's mail is refused: %v\n%s", scenario, st.Turn, req.ID, err, text)
		}
		for _, r := range out.Records {
			bg.Log = append(bg.Log, game.Entry{Seq: uint64(len(bg.Log) + 1), Record: r})
		}
		vault.Keep(out.Records)
		if out.NewSecret != nil {
			secrets[out.NewChain] = out.NewSecret
		}
		bg.Steps = append(bg.Steps, botStep{Side: req.Side, Orders: text})
		sent[req.ID] = true
		if len(out.Results) > 0 {
			clear(sent)
		}
		var again adjudicator.State = before
		for _, res := range out.Results {
			bg.Stats.Adjudications++
			for _, ev := range res.RuleEvents {
				again = Ruleset.Evolve(again, ev)
			}
			for _, r := range res.AllRolls {
				bg.Faces = append(bg.Faces, r.Faces...)
			}
		}
		a, _ := json.Marshal(again)
		b, _ := json.Marshal(out.Next.State)
		if len(out.Results) > 0 && string(a) != string(b) {
			t.Fatalf("%s, mail %d: folding the adjudication's events on the state before does not give the state after", scenario, k)
		}
		g = out.Next
	}
	bg.Final = g.State.(*State)
	return bg
}

// botMail writes the bot's mail for req, in its envelope.
func botMail(t testing.TB, st *State, req adjudicator.Request, stats *botStats) string {
	t.Helper()
	var body any
	switch {
	case st.Battle != nil && req.Kind != "decision": // DN3 battles (battle_bot_test.go)
		body = battleBotOrders(st, req, stats)
	case req.Kind == "decision":
		var v any
		if err := yaml.Unmarshal([]byte(st.Pause.Pending.Question.Default), &v); err != nil {
			t.Fatalf("question %s: its default %q is not YAML: %v", req.ID, st.Pause.Pending.Question.Default, err)
		}
		body = map[string]any{"answer": v}
		stats.Answers++
	case isReactions(req): // the Adventurers' reactions to the Krob turn (fire_reactions.go)
		body = map[string]any{KeyDefensiveFire: triggers(st)}
	case req.Side == Adventurers:
		body = adventurerOrders(st, stats)
	default:
		body = krobOrders(st, stats)
	}
	b, err := yaml.Marshal(map[string]any{"turn": req.Turn, "phase": req.Phase, "orders": body})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// triggers are the bot's standing defensive-fire orders: each shooter on
// its feet fires at any Krob it has a shot at.
func triggers(st *State) []map[string]any {
	out := []map[string]any{}
	for _, c := range st.Living(Adventurers) {
		if st.Kind(c).Weapon != "" && c.Standing() {
			out = append(out, map[string]any{"shooter": c.ID, "at": "any"})
		}
	}
	return out
}

// planner is a scratch copy of the state on which the bot moves its
// characters as it plans, with a world to ask the rules.
type planner struct {
	st *State
	w  *world
}

func newPlanner(st *State) *planner {
	c := st.Clone()
	for id, ch := range c.Chars {
		if !ch.Alive() {
			delete(c.Chars, id) // the dead and those off the map stand in no one's way
		}
	}
	return &planner{st: c, w: newWorld(adjudicator.NewResolution(Ruleset, c, nil))}
}

func adventurerOrders(st *State, stats *botStats) map[string]any {
	p := newPlanner(st)
	out := map[string]any{}
	var fire, spells, moves, attacks []map[string]any
	var triggers []map[string]any
	for _, c := range p.st.Living(Adventurers) {
		k := p.st.Kind(c)
		if k.Weapon == "" || !c.Standing() {
			continue
		}
		triggers = append(triggers, map[string]any{"shooter": c.ID, "at": "any"})
		for _, e := range p.nearest(c, Krobs) {
			if p.w.cannotFire(c, e, flagFiredOff) == "" {
				fire = append(fire, map[string]any{"shooter": c.ID, "at": e.ID})
				p.st.mark(flagFiredOff, c.ID)
				break
			}
		}
	}
	fb := p.st.data.Spells["fireball"]
	for _, c := range p.st.Living(Adventurers) {
		k := p.st.Kind(c)
		if k.Level == 0 || !c.Standing() || fb == nil || c.PE < fb.Cost.Fixed || p.st.Is(flagCast, c.ID) {
			continue
		}
		for _, e := range p.nearest(c, Krobs) {
			if p.st.Distance(p.st.loc(c), p.st.loc(e)) <= spellRange(k.Level) {
				spells = append(spells, map[string]any{"caster": c.ID, "spell": fb.ID, "at": e.ID, "before": "attacks"})
				break
			}
		}
	}
	var marks []hex.Loc
	for _, h := range p.st.Hidden {
		if !h.Shown && !p.found(h.Kind) {
			marks = append(marks, mustLoc(p.st, h.At))
		}
	}
	for _, c := range p.st.Living(Adventurers) {
		if p.st.Is(flagFiredOff, c.ID) {
			continue // a shooter with a shot keeps its place
		}
		targets := marks
		if len(targets) == 0 {
			targets = p.enemyLocs(Krobs)
		}
		if m := p.move(c, targets); m != nil {
			moves = append(moves, m)
		}
	}
	attacks = p.attacks(Adventurers)
	for _, c := range p.st.Living(Adventurers) {
		if !c.Standing() || p.st.Is(flagAttacked, c.ID) {
			continue
		}
		for _, l := range p.st.board.Exits(p.st.loc(c)) {
			at := locString(p.st.board, l)
			if p.st.Web(at) && p.st.Touch(p.st.loc(c), l) && !slices.ContainsFunc(p.st.At(l), (*Char).Alive) {
				attacks = append(attacks, map[string]any{"attackers": []string{c.ID}, "web": at})
				p.st.mark(flagAttacked, c.ID)
				stats.Webs++
				break
			}
		}
	}
	for k, v := range map[string][]map[string]any{"fire": fire, "spells": spells, "moves": moves, "attacks": attacks} {
		if len(v) > 0 {
			out[k] = v
		}
	}
	if len(triggers) > 0 {
		out["standing"] = map[string]any{KeyDefensiveFire: triggers}
	}
	stats.Fire += len(fire)
	stats.Spells += len(spells)
	stats.Moves += len(moves)
	stats.Attacks += len(attacks)
	return out
}

func krobOrders(st *State, stats *botStats) map[string]any {
	p := newPlanner(st)
	out := map[string]any{}
	var moves []map[string]any
	var hold []string
	for _, c := range p.st.Living(Krobs) {
		if m := p.move(c, p.enemyLocs(Adventurers)); m != nil {
			moves = append(moves, m)
		} else if c.Standing() {
			hold = append(hold, c.ID)
		}
	}
	attacks := p.attacks(Krobs)
	if len(moves) > 0 {
		out["moves"] = moves
	}
	if len(hold) > 0 {
		out["hold"] = hold
	}
	if len(attacks) > 0 {
		out["attacks"] = attacks
	}
	stats.Moves += len(moves)
	stats.Holds += len(hold)
	stats.Attacks += len(attacks)
	return out
}

// found reports whether the real marker of kind was revealed.
func (p *planner) found(kind string) bool {
	return slices.ContainsFunc(p.st.Hidden, func(h HiddenMarker) bool { return h.Kind == kind && h.Shown && h.Real })
}

// enemyLocs are the locations of side's living characters.
func (p *planner) enemyLocs(side adjudicator.Side) []hex.Loc {
	var out []hex.Loc
	for _, e := range p.st.Living(side) {
		out = append(out, p.st.Locs(e)...)
	}
	return out
}

// nearest lists side's living characters, nearest to c first.
func (p *planner) nearest(c *Char, side adjudicator.Side) []*Char {
	es := p.st.Living(side)
	from := p.st.loc(c)
	slices.SortStableFunc(es, func(a, b *Char) int {
		return p.st.Distance(from, p.st.loc(a)) - p.st.Distance(from, p.st.loc(b))
	})
	return es
}

// field is, for every location a character of kind k could walk to, the
// number of steps to the nearest of targets (units ignored).
func (p *planner) field(k *Kind, targets []hex.Loc) map[hex.Loc]int {
	d := map[hex.Loc]int{}
	front := slices.Clone(targets)
	for _, l := range front {
		d[l] = 0
	}
	for n := 1; len(front) > 0; n++ {
		var next []hex.Loc
		for _, l := range front {
			for _, x := range p.st.board.Exits(l) {
				if _, ok := d[x]; ok || !p.st.Touch(x, l) || !p.st.CanEnter(k, x) {
					continue
				}
				d[x] = n
				next = append(next, x)
			}
		}
		front = next
	}
	return d
}

// node is where a character may stand on its way: a location and, for a
// counter of several hexes, a facing.
type node struct {
	L    hex.Loc
	Face string
}

// move plans c's move toward the nearest of targets: the reachable
// location nearest to one (by the field), reached at the least cost. nil
// when c may not move or gets no nearer.
func (p *planner) move(c *Char, targets []hex.Loc) map[string]any {
	st := p.st
	if !c.Standing() || len(targets) == 0 || p.w.cannotMove(string(c.Side), c) != "" {
		return nil
	}
	k := st.Kind(c)
	for _, e := range st.Living("") {
		if Enemy(e.Side, c.Side) && st.CanAttack(e, c) {
			return nil // in contact: it stays and fights
		}
	}
	f, _ := st.Values(c)
	fld := p.field(k, targets)
	multi := k.Shape != hex.Single.Name
	// faces are the facings tried for a step from x to l: a counter of one
	// hex keeps its own; one of several keeps its facing, or turns (free,
	// DN-MOVE-17) toward the step or a side of it.
	faces := func(x node, l hex.Loc) []string {
		if !multi {
			return []string{c.Facing}
		}
		out := []string{x.Face}
		if l.Hex == x.L.Hex {
			for d := range 6 {
				if f := st.board.Layout.DirName(hex.Direction(d)); f != x.Face {
					out = append(out, f)
				}
			}
		} else if d, ok := st.board.Layout.DirectionTo(x.L.Hex, l.Hex); ok {
			for _, t := range []int{0, 1, 5} {
				if f := st.board.Layout.DirName(hex.Direction((int(d) + t) % 6)); !slices.Contains(out, f) {
					out = append(out, f)
				}
			}
		}
		return out
	}
	at, facing := c.At, c.Facing
	defer func() { c.At, c.Facing = at, facing }()
	start := node{st.loc(c), c.Facing}
	cost := map[node]int{start: 0}
	prev := map[node]node{}
	key := func(n node) string { return locString(st.board, n.L) + " " + n.Face }
	front := &nodeHeap{key: key}
	heap.Push(front, costed{start, 0})
	fits := map[node]bool{} // the footprint's hexes are on the map, on terrain it may enter
	for front.Len() > 0 {
		it := heap.Pop(front).(costed)
		x := it.n
		if it.cost > cost[x] {
			continue // reached more cheaply since
		}
		c.At, c.Facing = locString(st.board, x.L), x.Face
		next := st.board.Exits(x.L)
		if multi {
			next = append(next, x.L) // it may turn where it stands (DN-MOVE-17)
		}
		for _, l := range next {
			if c.Side == Adventurers && st.Web(locString(st.board, l)) {
				continue
			}
			for _, face := range faces(x, l) {
				y := node{l, face}
				ok, seen := fits[y]
				if !seen {
					ok = p.fits(k, y)
					fits[y] = ok
				}
				if !ok {
					continue
				}
				n, _, why := p.w.step(c, k, x.L, x.Face, l, face, false, false)
				if why != "" {
					continue
				}
				nc := cost[x] + n
				if c.Spent+nc > f.Move {
					continue
				}
				if old, ok := cost[y]; ok && old <= nc {
					continue
				}
				cost[y], prev[y] = nc, x
				heap.Push(front, costed{y, nc})
			}
		}
	}
	here, ok := fld[start.L]
	if !ok {
		here = 1 << 20
	}
	var best node
	bestD := here
	nodes := slices.SortedFunc(func(yield func(node) bool) {
		for n := range cost {
			if !yield(n) {
				return
			}
		}
	}, func(a, b node) int { return strings.Compare(key(a), key(b)) })
	ends := func(y node) bool { // c may end its move on y
		px := prev[y]
		c.At, c.Facing = locString(st.board, px.L), px.Face
		_, _, why := p.w.step(c, k, px.L, px.Face, y.L, y.Face, false, true)
		return why == ""
	}
	if k.Weapon != "" { // a shooter goes, as cheaply as it can, where it has a shot
		for _, y := range nodes {
			if y == start || (best != node{} && cost[y] >= cost[best]) || !ends(y) {
				continue
			}
			c.At, c.Facing = locString(st.board, y.L), y.Face
			if slices.ContainsFunc(st.Living(enemiesOf(c.Side)), func(e *Char) bool { return p.w.cannotFire(c, e, "bot-plan") == "" }) {
				best = y
			}
		}
	}
	for _, y := range nodes {
		if best != (node{}) && k.Weapon != "" {
			break
		}
		d, ok := fld[y.L]
		if y == start || !ok || d > bestD || (d == bestD && (best == node{} || cost[y] >= cost[best])) || !ends(y) {
			continue
		}
		best, bestD = y, d
	}
	if best == (node{}) {
		return nil
	}
	var path, facings []string
	for y := best; y != start; y = prev[y] {
		path = append([]string{locString(st.board, y.L)}, path...)
		facings = append([]string{y.Face}, facings...)
	}
	at, facing = path[len(path)-1], best.Face // the deferred restore moves it on the scratch copy
	st.mark(flagMoved, c.ID)
	m := map[string]any{"unit": c.ID, "path": path}
	if k.Shape != hex.Single.Name {
		m["facings"] = facings
	}
	return m
}

// fits reports whether a counter of kind k could stand at n at all: every
// hex of its footprint on the map, on terrain it may enter (a quick test
// before the step rule's own).
func (p *planner) fits(k *Kind, n node) bool {
	if k.Shape == hex.Single.Name {
		return true
	}
	fp, err := footprintOf(p.st.board, k, n.L.Hex, n.Face)
	if err != nil {
		return false
	}
	for _, h := range fp.Hexes() {
		if !p.st.board.OnMap(h) || !p.st.CanEnter(k, p.st.board.FloorLoc(h)) {
			return false
		}
	}
	return true
}

// costed is a node of the frontier and the cost it was reached at.
type costed struct {
	n    node
	cost int
}

// enemiesOf is the players' side that side fights.
func enemiesOf(side adjudicator.Side) adjudicator.Side {
	if side == Krobs {
		return Adventurers
	}
	return Krobs
}

// nodeHeap is the frontier of the bot's path search, cheapest first, then
// by key.
type nodeHeap struct {
	items []costed
	key   func(node) string
}

func (h *nodeHeap) Len() int { return len(h.items) }
func (h *nodeHeap) Less(i, j int) bool {
	a, b := h.items[i], h.items[j]
	if a.cost != b.cost {
		return a.cost < b.cost
	}
	return h.key(a.n) < h.key(b.n)
}
func (h *nodeHeap) Swap(i, j int) { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *nodeHeap) Push(x any)    { h.items = append(h.items, x.(costed)) }
func (h *nodeHeap) Pop() any {
	x := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return x
}

// attacks plans side's attacks from where its characters stand on the
// scratch copy: every enemy some of them are in position to attack, by
// all of those that have not attacked yet, at 1-1 or better.
func (p *planner) attacks(side adjudicator.Side) []map[string]any {
	st := p.st
	var out []map[string]any
	other := Krobs
	if side == Krobs {
		other = Adventurers
	}
	for _, e := range st.Living(other) {
		var ids []string
		att := 0
		for _, a := range st.Living(side) {
			if a.Standing() && !st.Is(flagAttacked, a.ID) && st.CanAttack(a, e) {
				f, _ := st.Values(a)
				ids, att = append(ids, a.ID), att+f.Attack
			}
		}
		fe, _ := st.Values(e)
		if len(ids) == 0 || att < fe.Defence {
			continue
		}
		for _, id := range ids {
			st.mark(flagAttacked, id)
		}
		out = append(out, map[string]any{"attackers": ids, "defenders": []string{e.ID}})
	}
	return out
}

var update = flag.Bool("update", false, "rewrite testdata/games/ with the bot's games (look at them first)")

// botSeeds are the committed dice seeds of the bot's recorded games.
var botSeeds = map[string]string{
	"descente": "dragonnoir bot descente 2",
	"antre":    "dragonnoir bot antre 4",
}

// TestBotGames plays every scenario of the builtin module to its end with
// the bot, each adjudication replayed exactly, and checks that it ends by
// one of the scenario's victory conditions, with a winner. With -update it
// records each game under testdata/games/ (the mails as sent and the dice
// rolled), which TestWholeGames replays.
func TestBotGames(t *testing.T) {
	d, err := builtinData()
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range d.Scenarios {
		t.Run(sc.ID, func(t *testing.T) {
			t.Parallel()
			seed, ok := botSeeds[sc.ID]
			if !ok {
				t.Fatalf("scenario %s has no bot seed: add one to botSeeds", sc.ID)
			}
			bg := botPlay(t, sc.ID, seed)
			st := bg.Final
			t.Logf("%s: turn %d, %s wins: %s; %s", sc.ID, st.Turn, st.Winner, st.Result, bg.Stats)
			if !st.Over || st.Winner == "" || !slices.ContainsFunc(sc.Victory, func(v Victory) bool { return v.Text == st.Result && v.Side == string(st.Winner) }) {
				t.Errorf("%s does not end by a victory condition: over %v, winner %q, %q", sc.ID, st.Over, st.Winner, st.Result)
			}
			if bg.Stats.Moves == 0 || bg.Stats.Attacks == 0 || bg.Stats.Fire == 0 {
				t.Errorf("%s: the bot played too little: %s", sc.ID, bg.Stats)
			}
			if a := game.Replay(bg.Log, botLookup); !a.OK() {
				t.Errorf("%s: the log does not replay: %s", sc.ID, strings.Join(a.Problems, "; "))
			}
			if *update {
				if err := os.WriteFile(filepath.Join("testdata", "games", sc.ID+".yaml"), bg.record(sc), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// record writes the game as a game script (docs/game-script.md): the
// mails as sent, the dice rolled, and its end.
// writeDiceAndSteps writes the dice the game rolled and the mails the bot
// sent, as a game script's dice: and steps:.
func (bg *botGame) writeDiceAndSteps(b *strings.Builder) {
	faces := make([]string, len(bg.Faces))
	for i, f := range bg.Faces {
		faces[i] = strconv.Itoa(f)
	}
	fmt.Fprintf(b, "dice: [%s]\nsteps:\n", strings.Join(faces, ", "))
	for _, s := range bg.Steps {
		fmt.Fprintf(b, "  - side: %s\n    orders: |\n", s.Side)
		for _, l := range strings.Split(strings.TrimRight(s.Orders, "\n"), "\n") {
			fmt.Fprintf(b, "      %s\n", l)
		}
	}
}

func (bg *botGame) record(sc *Scenario) []byte {
	st := bg.Final
	var b strings.Builder
	fmt.Fprintf(&b, "name: a whole game of scenario %s (%s), played by the test bot to its end\n", sc.ID, sc.Title)
	fmt.Fprintf(&b, "rules: [DN-TURN-3, DN-TURN-4, DN-MAP-2, PBEM-DN-14, GAP-13]\n")
	fmt.Fprintf(&b, "doc: |\n  Recorded by TestBotGames (bot_test.go) with the seed %q: the\n", bg.Seed)
	fmt.Fprintf(&b, "  mails exactly as the bot sent them and every die rolled, in order.\n")
	fmt.Fprintf(&b, "  %s. Ends in turn %d: the %s win, %s.\n", bg.Stats, st.Turn, st.Winner, st.Result)
	fmt.Fprintf(&b, "  When a rule changes the game, play it again and look at it:\n")
	fmt.Fprintf(&b, "  go test ./adjudicator/dragonnoir -run TestBotGames -update\n")
	fmt.Fprintf(&b, "ruleset: dragonnoir\nscenario: %s\n", sc.ID)
	bg.writeDiceAndSteps(&b)
	fmt.Fprintf(&b, "expect:\n  over: true\n  turn: %d\n  winner: %s\n  result: %s\n  due: []\n", st.Turn, st.Winner, st.Result)
	return []byte(b.String())
}
